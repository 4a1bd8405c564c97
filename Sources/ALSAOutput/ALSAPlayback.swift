import CALSA
import Glibc
import FoundationStandIns
import Synchronization

/// Where an ``ALSAPlayback`` is in its life.
package enum ALSAPlaybackState: UInt8, Sendable, Hashable {
    /// Opened and configured; never started.
    case ready
    /// The playback thread is running.
    case running
    /// Stopped with ``ALSAPlayback/stop(drain:)``; may be started again.
    case stopped
    /// The device failed while playing; ``ALSAPlayback/lastError`` says why. Call `stop` (the thread has
    /// already exited) and then `start` again, or `close`.
    case failed
    /// Closed; cannot be used again.
    case closed
}

/// Plays audio from an ``ALSARenderSource`` on an ALSA PCM, from a dedicated real-time pthread.
///
/// `init` opens the device, reads what it accepts and negotiates the stream from it (``ALSAStreamSetup``):
/// the best sample format it takes (``ALSASampleFormat/preferenceOrder``), interleaved or not, RW or mmap,
/// at least the source's channels (extra device channels stay silent), the rate, and the period and
/// buffer nearest the request that its limits and steps allow (start threshold = the whole periods in
/// the buffer, avail_min = period). Everything it does not accept is reported at once
/// (``ALSAError/mismatches``).
/// `start` spawns the playback thread, which waits with `poll()` on an eventfd and the PCM's descriptors and,
/// whenever at least one period of space is free, renders exactly one period into a float buffer allocated
/// in `start`, converts it into the device's format and layout and hands it to ALSA (`snd_pcm_writei`,
/// `snd_pcm_writen` or mmap). Underruns (`-EPIPE`) are recovered with `snd_pcm_prepare` and counted in
/// ``xrunCount``; suspends (`-ESTRPIPE`) are resumed. Other errors, `POLLHUP`, `-ENODEV` and a device that
/// stops taking frames end the thread: the state becomes ``ALSAPlaybackState/failed`` and the `onFailure`
/// closure given to `start` runs once on a separate, normal-priority thread. See `PlaybackLoop.swift`.
///
/// The playback thread never allocates, locks, logs or does I/O other than the PCM calls and the eventfd.
///
/// - Important: Thread safety: all methods and properties may be called from any thread (control calls
///   are serialized by a mutex; counters are atomics). Real-time safe: no; call from the control side only.
package final class ALSAPlayback: Sendable {
    /// Everything negotiated with the device.
    package let setup: ALSAStreamSetup
    /// The device name used in messages.
    package let deviceName: String
    /// The sound server the device plays to (its ALSA plugin's type), or nil for a card or another plugin.
    package let soundServer: ALSASoundServer?

    /// The actual sample rate in Hz (may differ from the requested one unless `requireExactRate`).
    package var sampleRate: Int { setup.sampleRate }
    /// Channels the device plays (at least the configuration's; the extra ones are silent).
    package var channels: Int { setup.deviceChannels }
    /// The actual period size in frames: the playback thread renders exactly this many frames per call.
    package var periodFrames: Int { setup.periodFrames }
    /// The actual device buffer size in frames.
    package var bufferFrames: Int { setup.bufferFrames }
    /// The sample format negotiated with the device.
    package var format: ALSASampleFormat { setup.format }

    private let shared: PlaybackShared
    private let control: Locked<ControlState>

    /// Opens and configures the device.
    /// - Parameter configuration: device, rate, channels, period and format preferences.
    /// - Throws: ``ALSAError`` if the device cannot be opened or does not accept the setup.
    ///   The corresponding ALSA functions are `snd_pcm_open`/`snd_pcm_open_lconf`, `snd_pcm_hw_params`
    ///   and `snd_pcm_sw_params`.
    package init(configuration: ALSADeviceConfiguration) throws(ALSAError) {
        let server = ALSASoundServer.behind(configuration.source)
        // libpulse's mainloop thread, started while the device opens, carries every period to the server and
        // takes the scheduling of the thread that starts it, so it gets the render thread's priority. libjack
        // and PipeWire give their data threads a priority of their own (below the server's); their helper
        // threads stay as they are.
        let inherited = server == .pulseAudio ? configuration.realtimePriority : nil
        let device = try withInheritedRealtimePriority(inherited) { () throws(ALSAError) in
            try PCMDevice(configuration: configuration)
        }
        setup = device.setup
        deviceName = device.name
        soundServer = server
        shared = PlaybackShared(server: server)
        control = Locked(
            ControlState(
                device: device, realtimePriority: configuration.realtimePriority,
                lockMemory: configuration.lockMemory))
    }

    deinit {
        close()
    }

    // MARK: Read-only status (any thread, lock-free)

    /// The current state.
    package var state: ALSAPlaybackState {
        ALSAPlaybackState(rawValue: shared.state.load(ordering: .acquiring)) ?? .failed
    }

    /// Frames handed to ALSA with `snd_pcm_writei` since `init`, across all starts.
    package var framesWritten: UInt64 { shared.framesWritten.load(ordering: .relaxed) }

    /// When the stream's frames leave the DAC (CLOCK_MONOTONIC), estimated from ALSA's status timestamps
    /// while the stream runs; nil before the first reading of a start. Stream frames count the frames
    /// written since `init` (``framesWritten``), so a source that starts with the first start sees its own
    /// frame numbers. See ``DACTimeEstimate``.
    package var dacTimeEstimate: DACTimeEstimate? { shared.dacClock.read() }

    /// Stream frames known to have left the DAC: those before the latest clock reading's frame
    /// (``DACTimeEstimate/latestFrame``); 0 before the first reading of a start, since until the stream
    /// runs nothing written has played. A device that never reports a running stream (ALSA's `null`) has no
    /// reading to wait for: every frame written counts (``framesWritten``).
    package var framesKnownPlayed: UInt64 {
        if let estimate = shared.dacClock.read() { return estimate.latestFrame }
        return shared.dacClock.isClockless ? framesWritten : 0
    }

    /// Underruns (xruns) recovered since `init`, across all starts.
    package var xrunCount: UInt64 { shared.xrunCount.load(ordering: .relaxed) }

    /// Suspends (`-ESTRPIPE`) met since `init`, across all starts; each was resumed or the device prepared.
    package var suspendCount: UInt64 { shared.suspendCount.load(ordering: .relaxed) }

    /// Of ``xrunCount``, the dropouts no plugin reported but the device's timing showed: its position
    /// (frames written minus `snd_pcm_delay`) fell behind the clock at once by two buffers or 20 ms at
    /// least, as when a sound server freezes or skips cycles.
    package var timingXrunCount: UInt64 { shared.timingXrunCount.load(ordering: .relaxed) }

    /// Wake-ups from the device's poll descriptors that found less than a period of room, since `init`.
    /// A working device wakes the thread about once per period with room for one.
    package var emptyWakeUpCount: UInt64 { shared.emptyWakeUpCount.load(ordering: .relaxed) }

    /// Times the device kept waking the playback thread with nothing to do (8 empty wake-ups in a row: an
    /// ALSA plugin whose descriptor stays readable), since `init`. Each time the thread then paced itself
    /// by the clock instead of spinning at real-time priority; the audio is unaffected.
    package var spinCount: UInt64 { shared.spinCount.load(ordering: .relaxed) }

    /// The error that ended playback, if the state is or was ``ALSAPlaybackState/failed``.
    package var lastError: ALSAError? {
        control.withLock { $0.lastError } ?? shared.failure(device: deviceName)
    }

    /// Why the playback thread is not real-time (SCHED_FIFO refused, `mlockall` failed), or nil.
    /// Set by `start`; this is a warning, playback works without it.
    package var realtimeWarning: String? {
        control.withLock { $0.realtimeWarning }
    }

    /// True while the playback thread runs with SCHED_FIFO (as observed by the thread itself).
    package var isRealtime: Bool { shared.threadPolicy.load(ordering: .relaxed) == SCHED_FIFO }

    /// Makes the playback thread sleep once for `milliseconds` before its next wait, to provoke an
    /// underrun in fault tests. Debug aid; harmless if never called.
    package func injectStall(milliseconds: Int) {
        shared.stallMilliseconds.store(max(0, milliseconds), ordering: .relaxed)
        control.withLock { state in
            if let worker = state.worker { _ = thrum_eventfd_signal(worker.wakeFD) }
        }
    }

    // MARK: Control

    /// Starts the playback thread, which takes ownership of `source` until `stop`.
    ///
    /// - Parameters:
    ///   - source: renders one period at a time on the playback thread (see ``ALSARenderSource``).
    ///   - holdingOutput: when true, the thread waits before rendering its first period until
    ///     ``releaseOutput()`` (or `stop`), so whatever the caller sets up on the source in between lands on
    ///     the stream's very first frame. Nothing is written meanwhile, so the device cannot underrun.
    ///   - clockLog: nil, or a log that keeps every DAC clock reading of this start (a measurement's timing).
    ///   - onFailure: called once if the device fails while playing, on a separate normal-priority thread
    ///     spawned for it after the playback thread has left its loop. It may call ``stop(drain:)``,
    ///     ``close()`` or `start` again.
    /// - Throws: ``ALSAError`` if already running or closed (`EBUSY`/`EBADF`), if the PCM cannot be
    ///   prepared, or if the thread cannot be created.
    package func start(
        source: sending some ALSARenderSource,
        holdingOutput: Bool = false,
        clockLog: StreamClockLog? = nil,
        onFailure: (@Sendable (ALSAError) -> Void)? = nil
    ) throws(ALSAError) {
        let box = SourceBox(source)
        try control.withLock { (state: inout ControlState) throws(ALSAError) -> Void in
            try startLocked(
                &state, source: box.take(), holdingOutput: holdingOutput, clockLog: clockLog, onFailure: onFailure)
        }
    }

    /// Lets a playback started with `holdingOutput` render its first period. Does nothing otherwise.
    package func releaseOutput() {
        shared.outputReleased.store(true, ordering: .releasing)
        control.withLock { state in
            if let worker = state.worker { _ = thrum_eventfd_signal(worker.wakeFD) }
        }
    }

    private func startLocked(
        _ state: inout ControlState, source: any ALSARenderSource, holdingOutput: Bool, clockLog: StreamClockLog?,
        onFailure: (@Sendable (ALSAError) -> Void)?
    ) throws(ALSAError) {
        guard let device = state.device else {
            throw ALSAError(code: -EBADF, operation: .startThread, device: deviceName, detail: "closed")
        }
        guard state.thread == nil else {
            throw ALSAError(code: -EBUSY, operation: .startThread, device: deviceName, detail: "already running")
        }
        if snd_pcm_state(device.handle) != SND_PCM_STATE_PREPARED {
            let err = snd_pcm_prepare(device.handle)
            if err < 0 { throw ALSAError(code: err, operation: .prepare, device: deviceName) }
        }
        shared.resetForStart(holdingOutput: holdingOutput)
        state.lastError = nil

        let worker = try PlaybackWorker(
            device: device, source: source, shared: shared, clockLog: clockLog, onFailure: onFailure)

        var warnings: [String] = []
        if state.lockMemory && mlockall(MCL_CURRENT) != 0 {
            warnings.append("mlockall failed: \(String(cString: strerror(errno)))")
        }

        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(worker).toOpaque()
        var created: Int32 = -1
        if let priority = state.realtimePriority {
            let attrErr = thrum_attr_set_fifo(&attr, priority)
            if attrErr == 0 {
                created = pthread_create(&thread, &attr, playbackThreadEntry, context)
                if created != 0 {
                    warnings.append(
                        "real-time scheduling refused (SCHED_FIFO priority \(priority): "
                            + "\(String(cString: strerror(created)))), so underruns are likelier under load; allow it "
                            + "with an rtprio limit of at least \(priority) (e.g. '@audio - rtprio 95' in "
                            + "/etc/security/limits.d/audio.conf, as a member of group audio, then log in again) "
                            + "or CAP_SYS_NICE (sudo setcap cap_sys_nice+ep on the program)")
                }
            } else {
                warnings.append("cannot request SCHED_FIFO: \(String(cString: strerror(attrErr)))")
            }
        }
        if created != 0 {
            created = pthread_create(&thread, nil, playbackThreadEntry, context)
        }
        guard created == 0 else {
            Unmanaged<PlaybackWorker>.fromOpaque(context).release()
            throw ALSAError(code: created, operation: .startThread, device: deviceName)
        }
        state.thread = thread
        state.worker = worker
        state.realtimeWarning = warnings.isEmpty ? nil : warnings.joined(separator: "; ")
        shared.state.store(ALSAPlaybackState.running.rawValue, ordering: .releasing)
    }

    /// The longest `stop(drain: true)` waits by default, in seconds: twice the buffer's duration (ALSA's
    /// buffer, and a sound server's own queue of about the same size) plus 0.25 s.
    package var drainLimit: Double { 2 * Double(bufferFrames) / Double(max(sampleRate, 1)) + 0.25 }

    /// Stops the playback thread and waits for it to exit; the device stays open and can be started again.
    ///
    /// - Parameters:
    ///   - drain: when true, waits until the device has played what was already written, but never longer
    ///     than `drainLimit` seconds (a server that died never plays the rest); when false, drops it at
    ///     once (`snd_pcm_drop`). Either way the PCM is dropped and prepared again for the next `start`.
    ///   - drainLimit: the longest wait for the drain, in seconds; nil for ``drainLimit``.
    /// - Returns: false when a drain was asked and the device had not played everything in time (the
    ///   rest was dropped); true otherwise.
    /// Does nothing if not running. After a failure it joins the exited thread and keeps the
    /// ``ALSAPlaybackState/failed`` state and ``lastError``.
    @discardableResult
    package func stop(drain: Bool = false, drainLimit limit: Double? = nil) -> Bool {
        control.withLock { state in stopLocked(&state, drain: drain, limit: limit ?? drainLimit) }
    }

    private func stopLocked(_ state: inout ControlState, drain: Bool, limit: Double) -> Bool {
        guard let thread = state.thread, let worker = state.worker else { return true }
        shared.stopRequested.store(true, ordering: .releasing)
        _ = thrum_eventfd_signal(worker.wakeFD)
        pthread_join(thread, nil)
        state.thread = nil
        state.worker = nil
        let failed = shared.state.load(ordering: .acquiring) == ALSAPlaybackState.failed.rawValue
        if failed {
            state.lastError = shared.failure(device: deviceName)
        }
        var drained = true
        if let device = state.device {
            if drain && !failed { drained = drainBounded(device.handle, limit: limit, server: soundServer) }
            _ = snd_pcm_drop(device.handle)
            _ = snd_pcm_prepare(device.handle)
        }
        if !failed {
            shared.state.store(ALSAPlaybackState.stopped.rawValue, ordering: .releasing)
        }
        return drained
    }

    /// Stops (without draining) and closes the device. Safe to call more than once; `deinit` calls it.
    /// The corresponding ALSA function is `snd_pcm_close`.
    package func close() {
        control.withLock { state in
            _ = stopLocked(&state, drain: false, limit: 0)
            state.device?.close()
            state.device = nil
        }
        shared.state.store(ALSAPlaybackState.closed.rawValue, ordering: .releasing)
    }
}

/// Control-side state, only touched under `ALSAPlayback.control`.
private struct ControlState {
    var device: PCMDevice?
    var thread: pthread_t?
    var worker: PlaybackWorker?
    var realtimePriority: Int32?
    var lockMemory: Bool
    var realtimeWarning: String?
    var lastError: ALSAError?

    init(device: PCMDevice, realtimePriority: Int32?, lockMemory: Bool) {
        self.device = device
        self.realtimePriority = realtimePriority
        self.lockMemory = lockMemory
    }
}

/// Moves a `sending` source into the mutex closure. Used once per `start`, on the calling thread.
private final class SourceBox: @unchecked Sendable {
    private var source: (any ALSARenderSource)?
    init(_ source: any ALSARenderSource) { self.source = source }
    func take() -> any ALSARenderSource {
        defer { source = nil }
        return source.unsafelyUnwrapped
    }
}
