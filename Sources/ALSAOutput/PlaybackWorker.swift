import CALSA
import Glibc
import Synchronization

/// Counters and flags shared by the control side and the playback thread. Atomics only.
final class PlaybackShared: Sendable {
    /// The sound server behind the device, named in the errors built here.
    let server: ALSASoundServer?
    let state = Atomic<UInt8>(ALSAPlaybackState.ready.rawValue)
    let stopRequested = Atomic<Bool>(false)
    /// False while a start asked to hold the output: the thread waits before its first period.
    let outputReleased = Atomic<Bool>(true)
    let framesWritten = Atomic<UInt64>(0)
    /// The latest DAC time estimate (``DACClock.swift``).
    let dacClock = DACClockPublication()
    let xrunCount = Atomic<UInt64>(0)
    let suspendCount = Atomic<UInt64>(0)
    /// Of `xrunCount`, the dropouts seen only in the device's timing (``DropoutWatch``).
    let timingXrunCount = Atomic<UInt64>(0)
    /// Wake-ups from the PCM's descriptors that found less than a period of room.
    let emptyWakeUpCount = Atomic<UInt64>(0)
    /// Runs of empty wake-ups long enough to be a spin (``SpinGuard``).
    let spinCount = Atomic<UInt64>(0)
    let stallMilliseconds = Atomic<Int>(0)
    /// Negative ALSA code of the failure that ended the thread, or 0.
    let failureCode = Atomic<Int32>(0)
    /// Index into `PlaybackShared.operations` for the failure.
    let failureOperation = Atomic<UInt8>(0)
    /// The playback thread's scheduling policy as it saw it (SCHED_FIFO, SCHED_OTHER), or -1.
    let threadPolicy = Atomic<Int32>(-1)

    static let operations: [ALSAError.Operation] = [.write, .poll, .resume, .prepare]

    init(server: ALSASoundServer?) { self.server = server }

    func resetForStart(holdingOutput: Bool) {
        stopRequested.store(false, ordering: .relaxed)
        outputReleased.store(!holdingOutput, ordering: .relaxed)
        failureCode.store(0, ordering: .relaxed)
        failureOperation.store(0, ordering: .relaxed)
        stallMilliseconds.store(0, ordering: .relaxed)
        threadPolicy.store(-1, ordering: .relaxed)
        dacClock.clear()
    }

    /// Builds the error recorded by the playback thread (allocates: control side only).
    func failure(device: String) -> ALSAError? {
        let code = failureCode.load(ordering: .acquiring)
        guard code != 0 else { return nil }
        let index = Int(failureOperation.load(ordering: .relaxed))
        let operation = index < Self.operations.count ? Self.operations[index] : .write
        return ALSAError(code: code, operation: operation, device: device, server: server)
    }
}

/// The one hand-off box that carries the render source and every pre-allocated resource to the playback
/// thread. The loop itself is in `PlaybackLoop.swift`.
///
/// `@unchecked Sendable` because it contains the non-Sendable render source and raw pointers. The
/// contract: the control side creates it in `start`, then only reads `wakeFD` (to signal) until it has
/// joined the thread; everything else is touched by the playback thread alone. The PCM handle is used by
/// the control side again only after `pthread_join`.
final class PlaybackWorker: @unchecked Sendable {
    /// Poll descriptors a PCM may have (plugins use 1–3); more is an error at start.
    static let maxPCMDescriptors = 16

    let pcm: OpaquePointer
    let shared: PlaybackShared
    let source: any ALSARenderSource
    let onFailure: (@Sendable (ALSAError) -> Void)?
    let deviceName: String
    let wakeFD: Int32
    let setup: ALSAStreamSetup
    /// period × source channels floats, rendered into by the source.
    let floatBuffer: UnsafeMutablePointer<Float>
    /// RW access: the converted period in the device layout (interleaved, or one plane per channel).
    /// Channels after the source's stay zero (silent) from allocation on. Nil for mmap access.
    let wire: UnsafeMutableRawPointer?
    /// RW non-interleaved: one pointer per device channel into `wire`, moved for partial writes.
    let planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// [eventfd, PCM descriptors…], refilled before every wait.
    let pollFDs: UnsafeMutablePointer<pollfd>
    /// The poll timeout: twice the period, 4…500 ms. After it the PCM state is checked.
    let pollTimeoutMilliseconds: Int32
    /// No frame taken for this long (2 s, or 8 buffers if longer) while waiting = the device hung.
    let stallLimitNanoseconds: UInt64
    /// `snd_pcm_status` space for the DAC clock readings, allocated here.
    let status: OpaquePointer
    /// The DAC clock's readings and fit, and where the fit is published (`shared.dacClock`, held directly).
    let dacFit: DACClockFit
    let dacClock: DACClockPublication
    /// Every clock reading of this start, when a measurement asked for them.
    let clockLog: StreamClockLog?

    init(
        device: PCMDevice, source: any ALSARenderSource, shared: PlaybackShared, clockLog: StreamClockLog? = nil,
        onFailure: (@Sendable (ALSAError) -> Void)?
    ) throws(ALSAError) {
        self.clockLog = clockLog
        let setup = device.setup
        let fd = thrum_eventfd_create()
        guard fd >= 0 else {
            throw ALSAError(code: errno, operation: .startThread, device: device.name, detail: "eventfd")
        }
        let count = Int(snd_pcm_poll_descriptors_count(device.handle))
        guard count > 0, count <= Self.maxPCMDescriptors else {
            Glibc.close(fd)
            throw ALSAError(
                code: count < 0 ? Int32(count) : -EINVAL, operation: .poll, device: device.name,
                detail: "\(count) poll descriptors")
        }
        var statusSpace: OpaquePointer?
        let statusErr = snd_pcm_status_malloc(&statusSpace)
        guard statusErr == 0, let statusSpace else {
            Glibc.close(fd)
            throw ALSAError(code: statusErr < 0 ? statusErr : -ENOMEM, operation: .startThread, device: device.name, detail: "status")
        }
        status = statusSpace
        dacFit = DACClockFit(sampleRate: setup.sampleRate)
        dacClock = shared.dacClock
        let fds = UnsafeMutablePointer<pollfd>.allocate(capacity: Self.maxPCMDescriptors + 1)
        fds.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: Self.maxPCMDescriptors + 1)
        fds[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        pollFDs = fds

        let samples = setup.periodFrames * setup.sourceChannels
        floatBuffer = .allocate(capacity: samples)
        floatBuffer.initialize(repeating: 0, count: samples)
        let wireBytes = setup.periodFrames * setup.deviceChannels * setup.format.bytesPerSample
        if setup.access.isMMap {
            wire = nil
        } else {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: wireBytes, alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: wireBytes)
            wire = buffer
        }
        planes = .allocate(capacity: setup.deviceChannels)
        planes.initialize(repeating: nil, count: setup.deviceChannels)

        let periodMilliseconds = Double(setup.periodFrames) * 1000 / Double(max(setup.sampleRate, 1))
        pollTimeoutMilliseconds = Int32(min(max((2 * periodMilliseconds).rounded(.up), 4), 500))
        let bufferNanoseconds = UInt64(Double(setup.bufferFrames) * 1e9 / Double(max(setup.sampleRate, 1)))
        stallLimitNanoseconds = max(2_000_000_000, 8 * bufferNanoseconds)

        pcm = device.handle
        self.shared = shared
        self.source = source
        self.onFailure = onFailure
        deviceName = device.name
        wakeFD = fd
        self.setup = setup
    }

    deinit {
        floatBuffer.deallocate()
        wire?.deallocate()
        planes.deallocate()
        pollFDs.deallocate()
        snd_pcm_status_free(status)
        Glibc.close(wakeFD)
    }

    /// The playback thread's body.
    func run() {
        thrum_thread_set_name("thrum-alsa")
        thrum_disable_denormals()
        shared.threadPolicy.store(thrum_thread_sched_policy(), ordering: .relaxed)
        waitForRelease()
        let (code, operation) = loop()
        guard code != 0 else { return }
        // Out of the real-time loop for good: drop real-time priority before doing anything slow.
        _ = thrum_thread_set_normal_scheduling()
        shared.failureOperation.store(operation, ordering: .relaxed)
        shared.failureCode.store(code, ordering: .releasing)
        shared.state.store(ALSAPlaybackState.failed.rawValue, ordering: .releasing)
        if let onFailure {
            let error = ALSAError(
                code: code, operation: PlaybackShared.operations[Int(operation)], device: deviceName,
                server: shared.server)
            spawnNotifier(FailureNotice(callback: onFailure, error: error))
        }
    }

    /// Before the first period of a held start: sleeps on the eventfd until the output is released or a
    /// stop is requested. Nothing has been written yet, so the device cannot underrun meanwhile.
    private func waitForRelease() {
        while !shared.outputReleased.load(ordering: .acquiring) && !shared.stopRequested.load(ordering: .acquiring) {
            pollFDs[0].revents = 0
            _ = poll(pollFDs, 1, -1)
            thrum_eventfd_drain(wakeFD)
        }
    }

    // MARK: Conversion and transfer (playback thread; real-time safe)

    /// RW access: converts the rendered period into `wire` (source channels only; the rest stay silent).
    func convertPeriodForWrite() {
        guard let wire else { return }
        let width = setup.format.bytesPerSample
        let interleaved = setup.access.isInterleaved
        for channel in 0..<setup.sourceChannels {
            convertChannel(
                setup.format, frames: setup.periodFrames, source: floatBuffer + channel,
                sourceStride: setup.sourceChannels,
                destination: wire + (interleaved ? channel * width : channel * setup.periodFrames * width),
                destinationStride: interleaved ? setup.deviceChannels * width : width)
        }
    }

    /// Hands `frames` frames of the current period, from frame `offset` on, to ALSA.
    /// - Returns: frames taken (> 0), or a negative ALSA code (`-EAGAIN`: no room now).
    func transfer(offset: Int, frames: Int) -> Int {
        let width = setup.format.bytesPerSample
        switch setup.access {
        case .rwInterleaved:
            guard let wire else { return -Int(EINVAL) }
            return snd_pcm_writei(pcm, wire + offset * setup.deviceChannels * width, snd_pcm_uframes_t(frames))
        case .rwNonInterleaved:
            guard let wire else { return -Int(EINVAL) }
            for channel in 0..<setup.deviceChannels {
                planes[channel] = wire + (channel * setup.periodFrames + offset) * width
            }
            return snd_pcm_writen(pcm, planes, snd_pcm_uframes_t(frames))
        case .mmapInterleaved, .mmapNonInterleaved:
            return mmapTransfer(offset: offset, frames: frames)
        }
    }

    /// mmap access: converts straight into the device's areas (`snd_pcm_mmap_begin`/`commit`), writing
    /// silence into the channels after the source's, which may hold stale samples.
    private func mmapTransfer(offset: Int, frames: Int) -> Int {
        var done = 0
        while done < frames {
            var areasOptional: UnsafePointer<snd_pcm_channel_area_t>?
            var areaOffset: snd_pcm_uframes_t = 0
            var count = snd_pcm_uframes_t(frames - done)
            let err = snd_pcm_mmap_begin(pcm, &areasOptional, &areaOffset, &count)
            if err < 0 { return done > 0 ? done : Int(err) }
            guard let areas = areasOptional, count > 0 else { break }
            let n = Int(count)
            for channel in 0..<setup.deviceChannels {
                let area = areas[channel]
                guard let address = area.addr else { return done > 0 ? done : -Int(EINVAL) }
                let step = Int(area.step / 8)
                let destination = address + Int(area.first / 8) + Int(areaOffset) * step
                if channel < setup.sourceChannels {
                    convertChannel(
                        setup.format, frames: n, source: floatBuffer + (offset + done) * setup.sourceChannels + channel,
                        sourceStride: setup.sourceChannels, destination: destination, destinationStride: step)
                } else {
                    silenceChannel(setup.format, frames: n, destination: destination, destinationStride: step)
                }
            }
            let committed = snd_pcm_mmap_commit(pcm, areaOffset, count)
            if committed < 0 { return done > 0 ? done : Int(committed) }
            done += committed
            if committed < n { break }
        }
        return done > 0 ? done : -Int(EAGAIN)
    }
}

/// Carries an `onFailure` call to its own thread.
private final class FailureNotice: @unchecked Sendable {
    let callback: @Sendable (ALSAError) -> Void
    let error: ALSAError
    init(callback: @escaping @Sendable (ALSAError) -> Void, error: ALSAError) {
        self.callback = callback
        self.error = error
    }
}

/// Runs the failure callback on a detached, normal-priority thread (so it may call `stop`, which joins the
/// playback thread). Falls back to calling it in place if no thread can be created.
private func spawnNotifier(_ notice: FailureNotice) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(notice).toOpaque()
    let err = pthread_create(&thread, nil, { raw in
        guard let raw else { return nil }
        let notice = Unmanaged<FailureNotice>.fromOpaque(raw).takeRetainedValue()
        notice.callback(notice.error)
        return nil
    }, context)
    if err == 0 {
        pthread_detach(thread)
    } else {
        Unmanaged<FailureNotice>.fromOpaque(context).release()
        notice.callback(notice.error)
    }
}

/// pthread entry for the playback thread: takes the retained worker reference passed by `start`.
func playbackThreadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let worker = Unmanaged<PlaybackWorker>.fromOpaque(raw).takeRetainedValue()
    worker.run()
    return nil
}
