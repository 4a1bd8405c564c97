import CALSA
import Glibc
import Synchronization

/// Counters and flags shared by the control side and the playback thread. Atomics only.
final class PlaybackShared: Sendable {
    let state = Atomic<UInt8>(ALSAPlaybackState.ready.rawValue)
    let stopRequested = Atomic<Bool>(false)
    let framesWritten = Atomic<UInt64>(0)
    let xrunCount = Atomic<UInt64>(0)
    let stallMilliseconds = Atomic<Int>(0)
    /// Negative ALSA code of the failure that ended the thread, or 0.
    let failureCode = Atomic<Int32>(0)
    /// Index into `PlaybackShared.operations` for the failure.
    let failureOperation = Atomic<UInt8>(0)
    /// The playback thread's scheduling policy as it saw it (SCHED_FIFO, SCHED_OTHER), or -1.
    let threadPolicy = Atomic<Int32>(-1)

    static let operations: [ALSAError.Operation] = [.write, .poll, .resume, .prepare]

    func resetForStart() {
        stopRequested.store(false, ordering: .relaxed)
        failureCode.store(0, ordering: .relaxed)
        failureOperation.store(0, ordering: .relaxed)
        stallMilliseconds.store(0, ordering: .relaxed)
        threadPolicy.store(-1, ordering: .relaxed)
    }

    /// Builds the error recorded by the playback thread (allocates: control side only).
    func failure(device: String) -> ALSAError? {
        let code = failureCode.load(ordering: .acquiring)
        guard code != 0 else { return nil }
        let index = Int(failureOperation.load(ordering: .relaxed))
        let operation = index < Self.operations.count ? Self.operations[index] : .write
        return ALSAError(code: code, operation: operation, device: device)
    }
}

/// The one hand-off box that carries the render source and every pre-allocated resource to the playback
/// thread.
///
/// `@unchecked Sendable` because it contains the non-Sendable render source and raw pointers. The
/// contract: the control side creates it in `start`, then only reads `wakeFD` (to signal) until it has
/// joined the thread; everything else is touched by the playback thread alone. The PCM handle is used by
/// the control side again only after `pthread_join`.
final class PlaybackWorker: @unchecked Sendable {
    let pcm: OpaquePointer
    let shared: PlaybackShared
    let source: any ALSARenderSource
    let onFailure: (@Sendable (ALSAError) -> Void)?
    let deviceName: String
    let wakeFD: Int32
    let periodFrames: Int
    let channels: Int
    let format: ALSASampleFormat
    /// period × channels floats, rendered into by the source.
    let floatBuffer: UnsafeMutablePointer<Float>
    /// period × channels s16 samples when the device format is s16.
    let s16Buffer: UnsafeMutablePointer<Int16>?
    /// [eventfd, PCM descriptors…]
    let pollFDs: UnsafeMutablePointer<pollfd>
    let pcmFDCount: Int

    init(
        device: PCMDevice, source: any ALSARenderSource, shared: PlaybackShared,
        onFailure: (@Sendable (ALSAError) -> Void)?
    ) throws(ALSAError) {
        let setup = device.setup
        let name = device.name
        let fd = thrum_eventfd_create()
        guard fd >= 0 else { throw ALSAError(code: errno, operation: .startThread, device: name, detail: "eventfd") }
        let count = Int(snd_pcm_poll_descriptors_count(device.handle))
        guard count > 0 else {
            Glibc.close(fd)
            throw ALSAError(code: count < 0 ? Int32(count) : -EINVAL, operation: .poll, device: name)
        }
        let fds = UnsafeMutablePointer<pollfd>.allocate(capacity: count + 1)
        fds.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: count + 1)
        fds[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let filled = snd_pcm_poll_descriptors(device.handle, fds + 1, UInt32(count))
        guard filled >= 0 else {
            fds.deallocate()
            Glibc.close(fd)
            throw ALSAError(code: filled, operation: .poll, device: name)
        }
        let samples = setup.periodFrames * setup.channels
        floatBuffer = .allocate(capacity: samples)
        floatBuffer.initialize(repeating: 0, count: samples)
        if setup.format == .s16 {
            let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: samples)
            buffer.initialize(repeating: 0, count: samples)
            s16Buffer = buffer
        } else {
            s16Buffer = nil
        }
        pcm = device.handle
        self.shared = shared
        self.source = source
        self.onFailure = onFailure
        deviceName = name
        wakeFD = fd
        periodFrames = setup.periodFrames
        channels = setup.channels
        format = setup.format
        pollFDs = fds
        pcmFDCount = Int(filled)
    }

    deinit {
        floatBuffer.deallocate()
        s16Buffer?.deallocate()
        pollFDs.deallocate()
        Glibc.close(wakeFD)
    }

    /// The playback thread's body.
    func run() {
        thrum_thread_set_name("thrum-alsa")
        thrum_disable_denormals()
        shared.threadPolicy.store(thrum_thread_sched_policy(), ordering: .relaxed)
        let (code, operation) = loop()
        guard code != 0 else { return }
        // Out of the real-time loop for good: drop real-time priority before doing anything slow.
        _ = thrum_thread_set_normal_scheduling()
        shared.failureOperation.store(operation, ordering: .relaxed)
        shared.failureCode.store(code, ordering: .releasing)
        shared.state.store(ALSAPlaybackState.failed.rawValue, ordering: .releasing)
        if let onFailure {
            let error = ALSAError(
                code: code, operation: PlaybackShared.operations[Int(operation)], device: deviceName)
            spawnNotifier(FailureNotice(callback: onFailure, error: error))
        }
    }

    private static let opWrite: UInt8 = 0
    private static let opPoll: UInt8 = 1
    private static let opResume: UInt8 = 2
    private static let opPrepare: UInt8 = 3

    /// The real-time loop. Returns (0, 0) on a requested stop, else the negative ALSA code and operation.
    /// No allocation, locking, logging or I/O other than PCM calls, poll and the eventfd.
    private func loop() -> (Int32, UInt8) {
        let frameBytes = channels * format.bytesPerSample
        let wire: UnsafeRawPointer =
            s16Buffer.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(floatBuffer)
        let samples = periodFrames * channels
        var pendingFrames = 0
        var pendingOffset = 0

        while !shared.stopRequested.load(ordering: .acquiring) {
            let stall = shared.stallMilliseconds.exchange(0, ordering: .relaxed)
            if stall > 0 {
                var request = timespec(tv_sec: stall / 1000, tv_nsec: (stall % 1000) * 1_000_000)
                var remaining = timespec()
                while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
            }

            if pendingFrames == 0 {
                let avail = snd_pcm_avail_update(pcm)
                if avail < 0 {
                    let failure = recover(Int32(truncatingIfNeeded: avail))
                    if failure.0 != 0 { return failure }
                    continue
                }
                if avail >= periodFrames {
                    floatBuffer.update(repeating: 0, count: samples)
                    source.render(into: floatBuffer, frameCount: periodFrames, channelCount: channels)
                    if let s16Buffer { convertToS16(floatBuffer, s16Buffer, count: samples) }
                    pendingFrames = periodFrames
                    pendingOffset = 0
                } else if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED && avail < periodFrames {
                    // Buffer holds all it can but the start threshold was not reached: start by hand.
                    _ = snd_pcm_start(pcm)
                }
            }

            if pendingFrames > 0 {
                let written = snd_pcm_writei(
                    pcm, wire + pendingOffset * frameBytes, snd_pcm_uframes_t(pendingFrames))
                if written > 0 {
                    pendingFrames -= written
                    pendingOffset += written
                    shared.framesWritten.add(UInt64(written), ordering: .relaxed)
                    continue
                }
                if written < 0 && written != -Int(EAGAIN) {
                    let failure = recover(Int32(truncatingIfNeeded: written))
                    if failure.0 != 0 { return failure }
                    continue
                }
            }

            // Wait for space or a wake-up.
            for i in 0...pcmFDCount { pollFDs[i].revents = 0 }
            let ready = poll(pollFDs, nfds_t(pcmFDCount + 1), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return (-errno, Self.opPoll)
            }
            if pollFDs[0].revents != 0 { thrum_eventfd_drain(wakeFD) }
            var revents: UInt16 = 0
            let err = snd_pcm_poll_descriptors_revents(pcm, pollFDs + 1, UInt32(pcmFDCount), &revents)
            if err < 0 { return (err, Self.opPoll) }
            if revents & UInt16(POLLHUP) != 0 || revents & UInt16(POLLNVAL) != 0 {
                return (-ENODEV, Self.opPoll)
            }
            if revents & UInt16(POLLERR) != 0 {
                switch snd_pcm_state(pcm) {
                case SND_PCM_STATE_XRUN:
                    let failure = recover(-EPIPE)
                    if failure.0 != 0 { return failure }
                case SND_PCM_STATE_SUSPENDED:
                    let failure = recover(-ESTRPIPE)
                    if failure.0 != 0 { return failure }
                case SND_PCM_STATE_DISCONNECTED:
                    return (-ENODEV, Self.opPoll)
                default:
                    return (-EIO, Self.opPoll)
                }
            }
        }
        return (0, 0)
    }

    /// Handles a negative ALSA code from avail/write. Returns (0, 0) when playback can go on.
    private func recover(_ code: Int32) -> (Int32, UInt8) {
        switch code {
        case -EPIPE:
            shared.xrunCount.add(1, ordering: .relaxed)
            let err = snd_pcm_prepare(pcm)
            return err < 0 ? (err, Self.opPrepare) : (0, 0)
        case -ESTRPIPE:
            // Resume; -EAGAIN means "not yet": wait on the eventfd for 10 ms so a stop is still honoured.
            while true {
                let err = snd_pcm_resume(pcm)
                if err == 0 { return (0, 0) }
                if err != -EAGAIN {
                    let prepared = snd_pcm_prepare(pcm)
                    return prepared < 0 ? (prepared, Self.opResume) : (0, 0)
                }
                if shared.stopRequested.load(ordering: .acquiring) { return (0, 0) }
                _ = poll(pollFDs, 1, 10)
            }
        case -EINTR, -EAGAIN:
            return (0, 0)
        default:
            return (code, Self.opWrite)
        }
    }
}

/// Float → s16: `round(x × 32768)` clamped to -32768…32767; NaN becomes 0. Real-time safe.
@inline(__always)
func convertToS16(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Int16>, count: Int) {
    for i in 0..<count {
        var scaled = source[i] * 32768
        if !(scaled == scaled) { scaled = 0 }
        scaled = min(max(scaled.rounded(.toNearestOrEven), -32768), 32767)
        destination[i] = Int16(scaled)
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
