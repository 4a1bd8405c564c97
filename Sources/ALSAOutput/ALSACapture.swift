import CALSA
import Glibc
import Synchronization
import FoundationStandIns

/// Records a fixed number of frames from an ALSA capture PCM (an ADC), from a dedicated pthread, with the
/// stream's own clock: after every period it reads, one `snd_pcm_status` gives the frame being sampled at
/// that instant (frames read + `delay`, the frames the device holds for the reader) and its CLOCK_MONOTONIC
/// timestamp (``clockLog``). A measurement lines these readings up with a playback stream's
/// (``ALSAPlayback/start(source:holdingOutput:clockLog:onFailure:)``) instead of trusting wall clocks.
///
/// `init` opens the device and negotiates format, access, channels, rate, period and buffer as
/// ``ALSAPlayback`` does (``ALSADeviceConfiguration``, with ``ALSADeviceConfiguration/direction`` set to
/// capture). `record(frames:)` starts the thread, which starts the stream at once, reads period by period
/// into a buffer allocated in `record` and converts to float. Overruns (`-EPIPE`: the reader fell behind, or
/// the device dropped samples) are counted in ``overrunCount``, the stream is prepared and started again,
/// and the frames read so far stay (the recording after an overrun does not continue the timeline: a
/// caller that needs one unbroken recording checks the count). Other errors end the recording
/// (``lastError``).
///
/// The thread allocates nothing and takes no lock while it records; it asks for SCHED_FIFO at the
/// configuration's priority (a refusal leaves it at normal priority, ``realtimeWarning``).
/// - Important: Thread safety: every method and property from any thread (control calls are serialized by
///   a mutex; progress is atomics). Real-time safe: no; call from the control side.
package final class ALSACapture: @unchecked Sendable {
    /// What was negotiated; `sourceChannels` is the channels asked for, `deviceChannels` what the device records.
    package let setup: ALSAStreamSetup
    /// The device name used in messages.
    package let deviceName: String
    /// The clock readings of the latest recording (one per period read).
    package var clockLog: StreamClockLog { control.withLock { $0.clockLog } }

    private let device: PCMDevice
    private let control = Locked<Control>(Control())
    private let progress = CaptureProgress()

    private struct Control {
        var thread: pthread_t?
        var worker: CaptureWorker?
        var realtimeWarning: String?
        var closed = false
        var clockLog = StreamClockLog(capacity: 1)
    }

    /// Opens and configures the capture device.
    /// - Throws: ``ALSAError`` if the device cannot be opened or does not accept the setup.
    package init(configuration: ALSADeviceConfiguration) throws(ALSAError) {
        var configuration = configuration
        configuration.direction = .capture
        device = try PCMDevice(configuration: configuration)
        setup = device.setup
        deviceName = device.name
        realtimePriority = configuration.realtimePriority
    }

    private let realtimePriority: Int32?

    deinit { close() }

    /// Frames recorded so far in the latest recording.
    package var framesRead: Int { progress.framesRead.load(ordering: .acquiring) }
    /// Overruns met in the latest recording.
    package var overrunCount: Int { progress.overruns.load(ordering: .relaxed) }
    /// Whether the latest recording has ended (all frames read, stopped, or failed).
    package var isFinished: Bool { progress.finished.load(ordering: .acquiring) }
    /// Why the latest recording ended early, if it failed.
    package var lastError: ALSAError? {
        let code = progress.failure.load(ordering: .acquiring)
        return code == 0 ? nil : ALSAError(code: code, operation: .write, device: deviceName, detail: "reading samples")
    }
    /// Why the recording thread is not real-time, or nil.
    package var realtimeWarning: String? { control.withLock { $0.realtimeWarning } }

    /// Starts recording `frames` frames (all device channels) at once; returns when the thread runs.
    /// - Throws: ``ALSAError`` when closed or already recording, when the PCM cannot be prepared, or when
    ///   the thread cannot be created.
    package func record(frames: Int) throws(ALSAError) {
        try control.withLock { (state: inout Control) throws(ALSAError) -> Void in
            guard !state.closed else { throw ALSAError(code: -EBADF, operation: .startThread, device: deviceName, detail: "closed") }
            guard state.thread == nil else {
                throw ALSAError(code: -EBUSY, operation: .startThread, device: deviceName, detail: "already recording")
            }
            let prepared = snd_pcm_prepare(device.handle)
            if prepared < 0 { throw ALSAError(code: prepared, operation: .prepare, device: deviceName) }
            progress.reset()
            let log = StreamClockLog(capacity: frames / max(setup.periodFrames, 1) + 64)
            state.clockLog = log
            let worker = CaptureWorker(
                pcm: device.handle, setup: setup, frames: frames, progress: progress, clockLog: log)
            var attr = pthread_attr_t()
            pthread_attr_init(&attr)
            defer { pthread_attr_destroy(&attr) }
            var thread = pthread_t()
            let context = Unmanaged.passRetained(worker).toOpaque()
            var created: Int32 = -1
            if let priority = realtimePriority, thrum_attr_set_fifo(&attr, priority) == 0 {
                created = pthread_create(&thread, &attr, captureThreadEntry, context)
                if created != 0 { state.realtimeWarning = "real-time scheduling refused for the capture thread" }
            }
            if created != 0 { created = pthread_create(&thread, nil, captureThreadEntry, context) }
            guard created == 0 else {
                Unmanaged<CaptureWorker>.fromOpaque(context).release()
                throw ALSAError(code: created, operation: .startThread, device: deviceName)
            }
            state.thread = thread
            state.worker = worker
        }
    }

    /// Waits until the recording ends or `timeout` seconds pass. Returns whether it ended.
    package func wait(timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while !isFinished {
            if monotonicSeconds() > deadline { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        return true
    }

    /// Stops the recording thread (if any) and joins it; what was read stays in ``samples()``.
    package func stop() {
        control.withLock { state in
            guard let thread = state.thread else { return }
            progress.stopRequested.store(true, ordering: .releasing)
            pthread_join(thread, nil)
            state.thread = nil
            _ = snd_pcm_drop(device.handle)
        }
    }

    /// The frames read by the latest recording, interleaved, `setup.deviceChannels` floats per frame
    /// (allocates; after ``stop()`` or once ``isFinished``).
    package func samples() -> [Float] {
        control.withLock { state in
            guard let worker = state.worker else { return [] }
            let count = progress.framesRead.load(ordering: .acquiring) * setup.deviceChannels
            return Array(UnsafeBufferPointer(start: worker.output, count: count))
        }
    }

    /// Stops and closes the device. Safe to call more than once.
    package func close() {
        stop()
        control.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.worker = nil
            device.close()
        }
    }
}

/// Progress shared by the control side and the recording thread. Atomics only.
final class CaptureProgress: Sendable {
    let framesRead = Atomic<Int>(0)
    let overruns = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    let stopRequested = Atomic<Bool>(false)
    /// Negative ALSA code that ended the recording, or 0.
    let failure = Atomic<Int32>(0)

    func reset() {
        framesRead.store(0, ordering: .relaxed)
        overruns.store(0, ordering: .relaxed)
        finished.store(false, ordering: .relaxed)
        stopRequested.store(false, ordering: .relaxed)
        failure.store(0, ordering: .relaxed)
    }
}

/// The recording thread's state: everything allocated before it starts.
/// `@unchecked Sendable`: handed to the thread once; the control side reads `output` only up to
/// `framesRead` (released by the thread after writing) or after joining it.
final class CaptureWorker: @unchecked Sendable {
    let pcm: OpaquePointer
    let setup: ALSAStreamSetup
    let frames: Int
    let progress: CaptureProgress
    let clockLog: StreamClockLog
    /// frames × device channels floats.
    let output: UnsafeMutablePointer<Float>
    /// One period in the device format (interleaved, or one plane per channel).
    let wire: UnsafeMutableRawPointer
    let planes: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let status: OpaquePointer?

    init(pcm: OpaquePointer, setup: ALSAStreamSetup, frames: Int, progress: CaptureProgress, clockLog: StreamClockLog) {
        self.pcm = pcm
        self.setup = setup
        self.frames = frames
        self.progress = progress
        self.clockLog = clockLog
        output = .allocate(capacity: max(frames * setup.deviceChannels, 1))
        output.initialize(repeating: 0, count: max(frames * setup.deviceChannels, 1))
        let bytes = setup.periodFrames * setup.deviceChannels * setup.format.bytesPerSample
        wire = .allocate(byteCount: max(bytes, 1), alignment: 16)
        wire.initializeMemory(as: UInt8.self, repeating: 0, count: max(bytes, 1))
        planes = .allocate(capacity: setup.deviceChannels)
        for channel in 0..<setup.deviceChannels {
            planes[channel] = wire + channel * setup.periodFrames * setup.format.bytesPerSample
        }
        var space: OpaquePointer?
        status = snd_pcm_status_malloc(&space) == 0 ? space : nil
    }

    deinit {
        output.deallocate()
        wire.deallocate()
        planes.deallocate()
        if let status { snd_pcm_status_free(status) }
    }

    /// The thread's body: start, read period by period, stop at `frames` or when asked.
    func run() {
        thrum_thread_set_name("thrum-capture")
        defer { progress.finished.store(true, ordering: .releasing) }
        var err = snd_pcm_start(pcm)
        if err < 0 {
            progress.failure.store(err, ordering: .releasing)
            return
        }
        var read = 0
        while read < frames && !progress.stopRequested.load(ordering: .acquiring) {
            let want = min(setup.periodFrames, frames - read)
            let got = transfer(frames: want)
            if got > 0 {
                convert(frames: got, at: read)
                read += got
                progress.framesRead.store(read, ordering: .releasing)
                readClock(framesRead: read)
                continue
            }
            if got == -Int(EAGAIN) || got == 0 {
                _ = snd_pcm_wait(pcm, 100)
                continue
            }
            if got == -Int(EPIPE) || got == -Int(ESTRPIPE) {
                progress.overruns.add(1, ordering: .relaxed)
                err = snd_pcm_prepare(pcm)
                if err >= 0 { err = snd_pcm_start(pcm) }
                if err < 0 {
                    progress.failure.store(err, ordering: .releasing)
                    return
                }
                continue
            }
            progress.failure.store(Int32(truncatingIfNeeded: got), ordering: .releasing)
            return
        }
    }

    /// Reads up to `frames` frames into `wire`. Returns frames read, or a negative ALSA code.
    private func transfer(frames: Int) -> Int {
        let count = snd_pcm_uframes_t(frames)
        switch setup.access {
        case .rwInterleaved: return snd_pcm_readi(pcm, wire, count)
        case .mmapInterleaved: return snd_pcm_mmap_readi(pcm, wire, count)
        case .rwNonInterleaved: return snd_pcm_readn(pcm, planes, count)
        case .mmapNonInterleaved: return snd_pcm_mmap_readn(pcm, planes, count)
        }
    }

    /// Converts `count` frames from `wire` into `output` at frame `at`.
    private func convert(frames count: Int, at frame: Int) {
        let width = setup.format.bytesPerSample
        let channels = setup.deviceChannels
        let interleaved = setup.access.isInterleaved
        for channel in 0..<channels {
            readChannel(
                setup.format, frames: count,
                source: UnsafeRawPointer(wire + (interleaved ? channel * width : channel * setup.periodFrames * width)),
                sourceStride: interleaved ? channels * width : width,
                destination: output + frame * channels + channel, destinationStride: channels)
        }
    }

    /// One clock reading: the frame being sampled at the status timestamp is frames read + delay.
    private func readClock(framesRead: Int) {
        guard let status, snd_pcm_status(pcm, status) == 0,
            snd_pcm_status_get_state(status) == SND_PCM_STATE_RUNNING
        else { return }
        let delay = Int64(snd_pcm_status_get_delay(status))
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let now = monotonicSeconds()
        let stamped = Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1e9
        guard delay >= 0 else { return }
        clockLog.append(frame: UInt64(framesRead) + UInt64(delay), seconds: abs(stamped - now) < 1 ? stamped : now)
    }
}

/// pthread entry for the recording thread.
private func captureThreadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let worker = Unmanaged<CaptureWorker>.fromOpaque(raw).takeRetainedValue()
    worker.run()
    return nil
}
