package import ALSAOutput
internal import AudioResources
import FoundationEssentials
import FoundationStandIns
internal import RenderCore
internal import Synchronization

/// The Core Haptics engine on Linux: one render thread mixing haptics and audio onto an ALSA device
/// (or into buffers you pull, in offline mode) on one sample clock.
///
/// Thread safety — the contract for this class and its players:
/// - Every method and property may be called from any thread, and from several threads at once: a short
///   internal lock orders them. An engine that neither the app nor one of its players references any more
///   stops and is freed, even while a pattern loops.
/// - None of them is real-time safe: they allocate, and they may block briefly on that lock (longer where a
///   method says so: `start` while the device opens, `stop` while the render thread finishes, `makePlayer`
///   while another thread decodes an audio file for this engine). Never call them from another audio
///   callback (a JACK, PipeWire or ALSA process function): do that work on a normal thread.
/// - Commands reach the render thread through queues sized when the engine starts
///   (`Options.maxPendingParameters`, `maxPendingCommands`); a call that does not fit throws
///   `resourceNotAvailable` and queues nothing. Nothing is dropped silently.
/// - Handlers (`stoppedHandler`, `resetHandler`, `notifyWhenPlayersFinished`, player completion handlers)
///   run on an internal thread, never the render thread and never under the lock, so they may call the
///   engine and its players, `stop` included. Completion handlers run within one period of the end they
///   report; an idle engine wakes no thread.
/// - The render thread itself allocates, frees, retains, releases, locks, logs and waits for nothing
///   (`thrum-bench storm` counts it).
public final class CHHapticEngine: @unchecked Sendable {
    /// How the engine was set up.
    public let options: Options
    /// The device the engine plays on, shared with the other engines made from it.
    let hub: DeviceHub
    /// The actuators the engine's players play on (bit b = the hub's actuator b).
    let buses: UInt64
    let state: Locked<EngineState>
    let budget: AudioResourceBudget
    /// Held while an AHAP audio file is looked up, decoded and cached (`loadFile`), apart from `state`'s
    /// lock so decoding never blocks the players.
    let fileLoading = Locked(())

    /// Creates an engine on the ALSA `default` device at 48 kHz.
    public convenience init() throws {
        try self.init(options: Options())
    }

    /// Creates an engine with `options`, on a device of its own. Its players play on every actuator of the
    /// channel map (`GCDeviceHaptics` makes engines for one locality each, on one shared device).
    /// - Throws: `CHHapticError.invalidEngineParameter` for out-of-range options.
    public convenience init(options: Options) throws {
        let hub = try DeviceHub(options: options)
        self.init(hub: hub, buses: hub.layout.buses(of: .all) ?? 1)
    }

    /// An engine on `hub` whose players play on `buses` (bit b = the hub's actuator b).
    init(hub: DeviceHub, buses: UInt64) {
        self.hub = hub
        self.buses = buses
        options = hub.options
        state = Locked(EngineState())
        budget = AudioResourceBudget(limits: hub.options.resourceLimits)
    }

    deinit {
        let run = state.withLock { state -> EngineRun? in
            defer { state.run = nil }
            return state.run
        }
        if let run { _ = hub.leave(self, run: run, drain: false, drainLimit: nil) }
    }

    // MARK: - Properties

    /// The engine clock in seconds: frames rendered since the engine started ÷ sample rate.
    public var currentTime: TimeInterval {
        state.withLock { state in
            guard let run = state.run else { return state.stoppedTime }
            return Double(run.link.statistics.currentFrame) / options.sampleRate
        }
    }

    /// Called when the engine stops by itself (device lost, idle timeout, `notifyWhenPlayersFinished`).
    public var stoppedHandler: StoppedHandler {
        get { state.withLock { $0.stoppedHandler } ?? { _ in } }
        set {
            let handed = Handed(newValue)
            state.withLock { $0.stoppedHandler = handed.value }
        }
    }

    /// Called when the engine can run again after its device failed: restart it and rebuild players.
    public var resetHandler: ResetHandler {
        get { state.withLock { $0.resetHandler } ?? {} }
        set {
            let handed = Handed(newValue)
            state.withLock { $0.resetHandler = handed.value }
        }
    }

    /// Stop after `options.idleTimeout` seconds with no player, and start again when a player starts.
    public var isAutoShutdownEnabled: Bool {
        get { state.withLock { $0.isAutoShutdownEnabled } }
        set {
            state.withLock { state in
                state.isAutoShutdownEnabled = newValue
                state.run?.link.wake.signal()  // the housekeeping thread times the idle deadline anew
            }
        }
    }

    /// Ignore audio events in players made after this is set (Apple: takes effect after a restart).
    public var playsHapticsOnly: Bool {
        get { state.withLock { $0.playsHapticsOnly } }
        set { state.withLock { $0.playsHapticsOnly = newValue } }
    }

    /// Ignore haptic events in players made after this is set.
    public var playsAudioOnly: Bool {
        get { state.withLock { $0.playsAudioOnly } }
        set { state.withLock { $0.playsAudioOnly = newValue } }
    }

    /// Silence the haptic bus for every player (from the next render block).
    public var isMutedForHaptics: Bool {
        get { state.withLock { $0.mutedHaptics } }
        set {
            state.withLock { state in
                state.mutedHaptics = newValue
                if state.run != nil { hub.setMute(state.mute, of: self) }
            }
        }
    }

    /// Silence the audio buses for every player (from the next render block).
    public var isMutedForAudio: Bool {
        get { state.withLock { $0.mutedAudio } }
        set {
            state.withLock { state in
                state.mutedAudio = newValue
                if state.run != nil { hub.setMute(state.mute, of: self) }
            }
        }
    }

    /// Whether the engine is running (a Thrum addition).
    public var isRunning: Bool { state.withLock { $0.run != nil } }

    /// ALSA xruns since the engine started: underruns ALSA reported and recovered, and dropouts seen only in
    /// the device's timing (a sound server that froze or skipped cycles); 0 offline (a Thrum addition).
    public var xrunCount: UInt64 { state.withLock { $0.run?.playback?.xrunCount ?? 0 } }

    /// Times the device kept waking the render thread with nothing to do (an ALSA plugin whose wake-up
    /// never clears) since the engine started; each time the thread paced itself by the clock instead of
    /// spinning. 0 offline (a Thrum addition).
    public var deviceSpinCount: UInt64 { state.withLock { $0.run?.playback?.spinCount ?? 0 } }

    /// Fault injection for tests: stalls the render thread once for `milliseconds`, which makes the device
    /// underrun; the xrun is recovered and counted in `xrunCount` (no effect offline). Not part of the API:
    /// reachable only with `@_spi(Testing) import Thrum`.
    @_spi(Testing) public func injectRenderStall(milliseconds: Int) {
        state.withLock { $0.run?.playback?.injectStall(milliseconds: milliseconds) }
    }

    /// Events dropped because every voice was busy, since the engine started (a Thrum addition).
    public var voiceOverflowCount: Int { state.withLock { $0.run?.link.statistics.voiceOverflowCount ?? 0 } }

    /// Output samples that were not finite and were replaced by 0 before reaching the device or buffer,
    /// since the engine started (a Thrum addition; a last guard that valid patterns never trigger).
    public var nonFiniteSampleCount: Int { state.withLock { $0.run?.link.statistics.nonFiniteSampleCount ?? 0 } }

    /// A warning from the last start, e.g. that real-time scheduling was refused (a Thrum addition).
    public var startWarning: String? { state.withLock { $0.run?.playback?.realtimeWarning } }

    /// The device's actual period in frames (offline: `options.periodFrames`) (a Thrum addition).
    public var periodFrames: Int { state.withLock { $0.run?.playback?.periodFrames ?? options.periodFrames } }

    /// The device buffer in frames: how far rendering runs ahead of what is heard (offline: 0) (a Thrum addition).
    public var bufferFrames: Int { state.withLock { $0.run?.playback?.bufferFrames ?? 0 } }

    /// What the device negotiated (format, channels, rate, period, buffer, access) while the engine runs on
    /// a device; nil offline or stopped. For `thrum play`'s report. Any thread.
    package var deviceStreamSetup: ALSAStreamSetup? { state.withLock { $0.run?.playback?.setup } }

    /// Why the device last failed while playing (ALSA's message naming the device), if it did (a Thrum addition).
    public var lastDeviceError: String? { state.withLock { $0.lastDeviceError } }


    // MARK: - Capabilities

    /// What this machine supports: haptics and audio need an ALSA playback device that opens.
    public class func capabilitiesForHardware() -> any CHHapticDeviceCapability {
        let present = ALSADevices.isOpenable(name: "default")
        return DeviceCapability(supportsHaptics: present, supportsAudio: present)
    }

    // MARK: - Start and stop

    /// Starts the engine: opens the device and starts the render thread (offline: makes the renderer).
    /// Does nothing when it runs already.
    /// - Throws: `CHHapticError.serverInitFailed` with the ALSA message naming the device when it cannot be
    ///   opened or configured.
    /// - Important: Thread safety: any thread. Blocks while the device opens (milliseconds; holds the lock).
    public func start() throws {
        try state.withLock { state in try startLocked(&state) }
    }

    /// Starts the engine with the render thread held before its first period until `releaseOutput()`:
    /// players started in between begin on the stream's very first frame instead of after a buffer of
    /// silence (a Thrum addition, used by `thrum play`). Offline it is `start()`.
    public func startHoldingOutput() throws {
        try state.withLock { state in try startLocked(&state, holdingOutput: true) }
    }

    /// Lets a render thread held by `startHoldingOutput()` run (a Thrum addition). Does nothing otherwise.
    public func releaseOutput() {
        state.withLock { $0.run?.playback?.releaseOutput() }
    }

    /// Starts the engine and calls `completionHandler` with nil or the error, on an internal thread.
    public func start(completionHandler: CompletionHandler? = nil) {
        let handler = UncheckedBox(completionHandler)
        Threads.detach { [self] in
            do {
                try start()
                handler.value?(nil)
            } catch { handler.value?(error) }
        }
    }

    /// Stops the engine: every player stops at once, the device is closed. Never calls `stoppedHandler`;
    /// calls the completion handlers of the players that were playing, and `completionHandler`, on this thread.
    /// - Important: Thread safety: any thread, handlers included. Blocks until the render thread has ended.
    public func stop(completionHandler: CompletionHandler? = nil) {
        stopEngine(reason: nil)
        completionHandler?(nil)
    }

    /// Stops the engine after the device has played what was already written (a Thrum addition, used
    /// by `thrum play` so the end of a pattern and Ctrl-C are not cut off mid-buffer).
    /// - Parameter limit: the longest wait for the device, in seconds; nil for the device's default
    ///   (twice its buffer's duration plus 0.25 s). A device or server that stopped consuming never
    ///   holds the caller longer.
    /// - Returns: false when the device had not played everything in time (the rest was dropped).
    @discardableResult
    public func stopDrainingOutput(within limit: Double? = nil) -> Bool {
        stopEngine(reason: nil, drain: true, drainLimit: limit)
    }

    func startLocked(_ state: inout EngineState, holdingOutput: Bool = false) throws {
        guard state.run == nil else { return }
        state.run = try hub.join(self, mute: state.mute, holdingOutput: holdingOutput)
        state.idleSince = .now
        state.stoppedByIdle = false
    }

    /// Leaves the run (the device closes when no other engine of it runs); `reason` non-nil = an external
    /// stop that calls `stoppedHandler`. Returns false when a drain was cut short.
    @discardableResult
    func stopEngine(reason: StoppedReason?, drain: Bool = false, drainLimit: Double? = nil) -> Bool {
        let (run, finished, handler) = state.withLock {
            state -> (EngineRun?, [FinishedHandler], StoppedHandler?) in
            guard let run = state.run else { return (nil, [], nil) }
            state.stoppedTime = Double(run.link.statistics.currentFrame) / options.sampleRate
            state.run = nil
            let finished = state.finishedHandlers
            state.finishedHandlers = []
            state.stoppedByIdle = reason == .idleTimeout
            return (run, finished, state.stoppedHandler)
        }
        guard let run else { return true }
        let (ended, drained) = hub.leave(self, run: run, drain: drain, drainLimit: drainLimit)
        for player in ended { player.instanceEnded(frame: nil, isLast: true) }
        for handler in finished { _ = handler(nil) }
        if let reason { handler?(reason) }
        return drained
    }

    func deviceFailed(_ error: ALSAError, run: EngineRun) {
        let isCurrent = state.withLock { state -> Bool in
            guard state.run === run else { return false }
            state.lastDeviceError = error.description
            return true
        }
        guard isCurrent else { return }
        stopEngine(reason: .systemError)
        watchForRecovery()
    }

    /// After a device failure: once the device opens again, calls `resetHandler` (the app restarts the engine).
    func watchForRecovery() {
        guard case .device(let name) = options.output else { return }
        Threads.detach { [weak self] in
            for _ in 0..<2400 {  // up to 10 minutes
                Threads.sleep(seconds: 0.25)
                guard let self, !self.isRunning else { return }
                if ALSADevices.isOpenable(name: name) {
                    let handler = self.state.withLock { $0.resetHandler }
                    handler?()
                    return
                }
            }
        }
    }

    // MARK: - Offline rendering

    /// Offline mode only: renders the next `frameCount` frames (interleaved, `options.channelMap.channelCount`
    /// channels) into `buffer`, advancing the engine clock, then delivers player callbacks on this thread.
    /// The same code renders for the ALSA device, so offline output equals what the device receives.
    /// - Important: Thread safety: one thread at a time (it plays the render thread); the other methods may
    ///   be called meanwhile from other threads. Not real-time safe (it takes the lock and, with callbacks,
    ///   runs handlers).
    /// - Throws: `engineNotRunning` before `start()`, `operationNotPermitted` on a device engine.
    /// - Parameter deliverCallbacks: false renders only (no completion handlers, no slot bookkeeping),
    ///   for measuring the render path alone; the default true is what players expect.
    public func renderOffline(
        frameCount: Int, into buffer: UnsafeMutablePointer<Float>, deliverCallbacks: Bool = true
    ) throws {
        let (run, core) = try state.withLock { state -> (EngineRun, EngineCore) in
            guard let run = state.run else { throw CHHapticError(.engineNotRunning, "start the engine first") }
            guard let core = run.offlineCore else {
                throw CHHapticError(.operationNotPermitted, "renderOffline needs an engine with output .offline")
            }
            return (run, core)
        }
        // `shutDown` waits for a render under way; one that starts after it finds the run shut down.
        try run.offlineRendering.withLock { shutDown throws(CHHapticError) in
            if shutDown { throw CHHapticError(.engineNotRunning, "start the engine first") }
            core.render(into: buffer, frameCount: frameCount, channelCount: options.channelMap.channelCount)
        }
        if deliverCallbacks {
            run.onsets?.deliverOffline()
            hub.service()
        }
    }

    /// Calls `finishedHandler` once every player has ended (at once if none is playing or the engine
    /// is stopped). Returning `.stopEngine` stops the engine (`stoppedHandler(.notifyWhenFinished)`).
    public func notifyWhenPlayersFinished(_ finishedHandler: @escaping FinishedHandler) {
        let handed = Handed(finishedHandler)
        let now = state.withLock { state -> Bool in
            guard state.run != nil, hub.hasInstances(of: self) else { return true }
            state.finishedHandlers.append(handed.value)
            return false
        }
        if now, finishedHandler(nil) == .stopEngine, isRunning { stopEngine(reason: .notifyWhenFinished) }
    }

    // MARK: - Players

    /// Makes a player for `pattern`: checks it, loads its audio files and compiles it at the engine rate.
    /// Each audio file is decoded once per engine, even when several threads make players of it at once.
    /// - Important: Thread safety: any thread. Allocates; decodes audio files (blocking other threads that
    ///   load one for this engine meanwhile).
    /// - Throws: the pattern's first error (`invalidEventType`, `invalidParameterType`, …), or an audio
    ///   resource error (`invalidAudioResource`, `resourceNotAvailable`, `fileNotFound`).
    public func makePlayer(with pattern: CHHapticPattern) throws -> any CHHapticPatternPlayer {
        HapticPatternPlayer(engine: self, pattern: try compile(pattern))
    }

    /// Makes an advanced player (loop, rate; pause/resume/seek) for `pattern`.
    public func makeAdvancedPlayer(with pattern: CHHapticPattern) throws -> any CHHapticAdvancedPatternPlayer {
        HapticPatternPlayer(engine: self, pattern: try compile(pattern))
    }

    /// Plays an AHAP file once, starting the engine if needed. The player needs no reference.
    public func playPattern(from fileURL: URL) throws {
        try playOnce(CHHapticPattern(contentsOf: fileURL))
    }

    /// Plays AHAP data once, starting the engine if needed. Audio paths resolve against the resource roots.
    public func playPattern(from data: Data) throws {
        let result = try AHAPDecoderBridge.decode(data: data)
        try playOnce(CHHapticPattern(data: result))
    }

    private func playOnce(_ pattern: CHHapticPattern) throws {
        let player = try makePlayer(with: pattern)
        try start()
        try player.start(atTime: CHHapticTimeImmediate)
    }
}

/// Holds a non-Sendable value for a hop to another thread the caller knows is safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
