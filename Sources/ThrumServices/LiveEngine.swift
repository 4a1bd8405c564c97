import ALSAOutput
import RenderCore
import FoundationStandIns
import Synchronization
import Thrum
import ThrumModel

/// A live engine on an ALSA device, set up as `thrum play` sets up its device, with one engine per actuator
/// locality on one device clock (as `thrum play PATTERN@NAME …`); players are made on it one by one
/// (libthrum's `thrum_engine`, Python's `Engine`). Thread-safe: any method from any thread.
package final class LiveEngine: @unchecked Sendable {
    let device: GCDeviceHaptics
    /// The ALSA device name.
    package let deviceName: String
    private struct Engines {
        var byLocality: [GCHapticsLocality: CHHapticEngine] = [:]
        var closed = false
    }
    private let engines = Locked(Engines())
    /// Every onset played, written when the engine closes.
    private let onsetLog: OnsetLog?
    /// Numbers the players, passes onsets to the log and to ``setOnsetHandler(_:)``'s handler.
    private let onsets: LiveOnsets

    /// Opens the device as `thrum play` does (a rate it lacks falls back to its nearest rate unless
    /// `output.engine.sampleRate` asks for one) and starts the engine of every
    /// actuator. With `onsetLog` (a `.jsonl` file) every onset is logged as `thrum play --onset-log` logs it
    /// (see ``close()``).
    /// - Throws: ``ServiceError``: 64 a bad setting, 65 a bad profile, 69 the device refuses or is missing,
    ///   73 the onset log cannot be created.
    /// Leaves alsa-lib's error handler (`snd_lib_error_set_handler`) as the host process set it.
    package init(_ output: OutputSettings, onsetLog: String?) throws(ServiceError) {
        var options = try output.engineOptions(patternPaths: [])
        let log = try onsetLog.map { (path) throws(ServiceError) in try OnsetLog(path: path) }
        self.onsetLog = log
        let onsets = LiveOnsets(log: log)
        self.onsets = onsets
        options.onsetHandler = { onsets.deliver($0) }
        // Bundled patterns find their audio as they do with `thrum play NAME`.
        if let audio = BundledResources.audio, !options.resourceRoots.contains(audio) { options.resourceRoots.append(audio) }
        deviceName = output.device
        _ = try DeviceCheck.check(deviceName, options: &options, rateGiven: output.engine.sampleRate != nil)
        do {
            device = try GCDeviceHaptics(options: options)
        } catch {
            throw .engine(error, pattern: "")
        }
        _ = try engine(for: .all)
    }

    /// The sample rate the device runs at, in Hz.
    package var sampleRate: Double { device.options.sampleRate }
    /// Output channels per frame.
    package var channelCount: Int { device.options.channelMap.channelCount }
    /// Underruns the device has reported since the engine opened (audio lost to a late render thread).
    package var xruns: UInt64 { (try? engine(for: .all).xrunCount) ?? 0 }
    /// Seconds on the engine clock (frames played ÷ rate); the time base of every `at` below.
    package var currentTime: Double { (try? engine(for: .all).currentTime) ?? 0 }

    /// The started engine of `locality`, made on first use.
    private func engine(for locality: GCHapticsLocality) throws(ServiceError) -> CHHapticEngine {
        try engines.withLock { (engines) throws(ServiceError) -> CHHapticEngine in
            if engines.closed { throw .usage("the engine is closed") }
            if let engine = engines.byLocality[locality] { return engine }
            let engine = try PatternTarget.engines(on: device, for: [PatternTarget(pattern: "", locality: locality)])[0]
            do {
                try engine.start()
            } catch {
                throw ServiceError(.unavailable, (error as? CHHapticError)?.message ?? "\(error)")
            }
            engines.byLocality[locality] = engine
            return engine
        }
    }

    /// A player of `pattern` on the actuators of `actuator` (a name of the channel map or a group:
    /// `leftHandle`, `handles`, …; nil: the pattern's own `@ACTUATOR`, else every actuator).
    /// - Throws: 64 a name that is not an actuator's or that the map lacks; 65 the pattern's audio files.
    package func player(_ pattern: PatternToPlay, actuator: String?) throws(ServiceError) -> LivePlayer {
        var locality = pattern.target.locality ?? .all
        if let actuator {
            guard let name = ActuatorNames.canonical(actuator) else {
                throw .usage("'\(actuator)' is not an actuator name (letters, digits, _ and -)")
            }
            locality = GCHapticsLocality(name)
        }
        let engine = try engine(for: locality)
        do {
            let player = try engine.makeAdvancedPlayer(with: pattern.pattern)
            let id = onsets.register(playerID: (player as? ThrumPlayerState)?.playerID, pattern: pattern.name)
            return LivePlayer(player, engine: engine, name: pattern.name, id: id, onsets: onsets)
        } catch {
            throw .engine(error, pattern: pattern.name)
        }
    }

    /// Calls `handler` with every onset played from now on (nil: none), on the engine's onset thread (never the
    /// render thread), in order; a slow handler delays the onset log, and onsets beyond the engine's queue
    /// are lost (counted as `lost_onsets`).
    package func setOnsetHandler(_ handler: (@Sendable (LiveOnset) -> Void)?) { onsets.setHandler(handler) }

    /// The estimated CLOCK_MONOTONIC time (seconds) at which engine time `time` leaves the DAC; nil until
    /// the device has played its first period, and once closed.
    package func outputTime(forEngineTime time: Double) -> Double? {
        (try? engine(for: .all))?.outputTime(forEngineTime: time)
    }

    /// Seconds from now until what the engine renders now leaves the DAC (the device buffer and the sound
    /// server's own latency, from ALSA's status timestamps): how late a start at time 0 is heard. Nil until
    /// the device has played its first periods, and once closed.
    package var outputLatency: Double? {
        guard let engine = try? engine(for: .all), let leaves = engine.outputTime(forEngineTime: engine.currentTime) else {
            return nil
        }
        return leaves - StartTiming.monotonicNow()
    }

    /// Stops every player, closes the device after it has played what it was given, then writes the
    /// onset log (every onset the device played; `{"lost_onsets":N}` last when some could not be
    /// logged). Only the first call does anything.
    /// - Throws: 74 when the onset log cannot be written (nothing is left then); 69 when the device failed
    ///   while playing (the log, if any, is written first).
    package func close() throws(ServiceError) {
        let all = engines.withLock { engines in
            guard !engines.closed else { return [CHHapticEngine]() }
            engines.closed = true
            defer { engines.byLocality = [:] }
            return Array(engines.byLocality.values)
        }
        guard !all.isEmpty else { return }
        // Every engine on the device shares one run and its onset reports: each reads the same count.
        let lost = all.map(\.lostOnsetCount).max() ?? 0
        for engine in all { engine.stopDrainingOutput() }
        try onsetLog?.commit(lost: lost)
        if let failure = all.lazy.compactMap(LiveEngine.deviceFailure(of:)).first { throw failure }
    }

    /// 69 with `thrum play`'s message when the device of `engine` failed while it played; else nil.
    static func deviceFailure(of engine: CHHapticEngine) -> ServiceError? {
        engine.lastDeviceError.map { ServiceError(.unavailable, "the ALSA device failed while playing: \($0)") }
    }
}

/// An advanced pattern player (Core Haptics' `CHHapticAdvancedPatternPlayer`) on a ``LiveEngine``, with
/// one-line failures. Thread-safe: any method from any thread.
package final class LivePlayer: @unchecked Sendable {
    let player: any CHHapticAdvancedPatternPlayer
    /// The engine the player plays on (its clock).
    let engine: CHHapticEngine
    let name: String
    /// The completion handler, called while this lock is held so that ``closeCompletions()`` can wait for
    /// a call in flight.
    private let completion = CompletionSlot()
    /// The player's number on its engine, from 1 in the order the engine made its players.
    package let id: Int
    private let onsets: LiveOnsets

    init(_ player: any CHHapticAdvancedPatternPlayer, engine: CHHapticEngine, name: String, id: Int, onsets: LiveOnsets) {
        self.player = player
        self.engine = engine
        self.name = name
        self.id = id
        self.onsets = onsets
    }

    /// Names the player's onsets from now on (the onset log's `label`, ``LiveOnset/label``); nil: none.
    package func setLabel(_ label: String?) { onsets.label(id, label) }

    private func perform(_ action: () throws -> Void) throws(ServiceError) {
        try ensureRunning()
        do {
            try action()
        } catch {
            throw .engine(error, pattern: name)
        }
    }

    /// Starts a new instance at engine time `time` (0: now). A time the engine clock has passed is refused
    /// unless `late` (then the instance starts at once, late, as Core Haptics does).
    /// - Throws: 64 naming how late `time` is when it has passed and `late` is false.
    package func start(at time: Double, late: Bool = false) throws(ServiceError) {
        if time != 0, !late {
            let now = engine.currentTime
            if time < now { throw Self.lateStart(time, now: now) }
        }
        try perform { try player.start(atTime: time) }
    }

    /// 64: the start time `time` lies `now - time` seconds behind the engine clock.
    static func lateStart(_ time: Double, now: Double) -> ServiceError {
        let milliseconds = ((now - time) * 10_000).rounded(.up) / 10
        return .usage(
            "the start time \(time) s has passed: it is \(milliseconds) ms late (the engine time is \(now) s); give "
                + "a later time, or allow a late start (C: thrum_player_start_late; Python: late=\"play\")")
    }

    /// Starts a new instance on the frame that leaves the DAC at CLOCK_MONOTONIC time `monotonicTime`
    /// (seconds), as `thrum play --start-at` does. Blocks until the device's DAC clock has settled (at
    /// most 5 s).
    /// - Throws: 64 when the time has passed or is nearer than the device's buffer can reach (the message
    ///   names the earliest time), 69 when the device reports no timing.
    package func start(atMonotonicTime monotonicTime: Double) throws(ServiceError) {
        guard monotonicTime.isFinite else {
            throw .usage("the start time takes a CLOCK_MONOTONIC time in seconds, not \(monotonicTime)")
        }
        try start(at: try StartTiming.engineTime(leavingDACAt: monotonicTime, on: engine, named: "the start time"))
    }

    /// Stops at engine time `time` (0: now), with a 5 ms fade.
    package func stop(at time: Double) throws(ServiceError) { try perform { try player.stop(atTime: time) } }
    package func pause(at time: Double) throws(ServiceError) { try perform { try player.pause(atTime: time) } }
    package func resume(at time: Double) throws(ServiceError) { try perform { try player.resume(atTime: time) } }
    /// Moves to `offset` seconds into the pattern.
    package func seek(to offset: Double) throws(ServiceError) { try perform { try player.seek(toOffset: offset) } }

    /// Loops at `end` pattern seconds (0: the pattern's end), `passes` passes in all (0: forever; from the
    /// next start), or plays once when `enabled` is false.
    package func setLoop(_ enabled: Bool, end: Double, passes: Int) throws(ServiceError) {
        guard end >= 0, end.isFinite, passes >= 0 else {
            throw .usage("a loop needs an end ≥ 0 s and passes ≥ 0, not \(end) s and \(passes)")
        }
        try ensureRunning()
        player.loopEnabled = enabled
        player.loopEnd = end
        (player as? ThrumPlayerState)?.loopPassLimit = passes
    }

    /// Playback rate, 0.01…100 as `--rate` takes it (2 = twice as fast; pitch unchanged).
    package func setRate(_ rate: Double) throws(ServiceError) {
        guard rate.isFinite, Transport.rates.contains(rate) else {
            throw .usage("the rate takes a number from 0.01 to 100, not '\(rate)'")
        }
        try ensureRunning()
        player.playbackRate = Float(rate)
    }

    /// Player calls fail once the engine has finished (64), or with the device's failure (69) after it was lost.
    private func ensureRunning() throws(ServiceError) {
        guard !engine.isRunning else { return }
        throw LiveEngine.deviceFailure(of: engine) ?? .usage("the engine is closed: open a new engine for more playback")
    }

    package var isLooping: Bool { player.loopEnabled }
    /// The loop's end in pattern seconds (0: the pattern's end) and its passes (0: forever), as last set.
    package var loopEnd: Double { player.loopEnd }
    package var loopPasses: Int { (player as? ThrumPlayerState)?.loopPassLimit ?? 0 }
    package var rate: Double { Double(player.playbackRate) }
    package var isMuted: Bool {
        get { player.isMuted }
        set { player.isMuted = newValue }
    }

    /// Sets a dynamic parameter (`HapticIntensityControl`, …; AHAP names) to `value` at engine time `time`.
    package func send(_ parameter: String, value: Float, at time: Double) throws(ServiceError) {
        let id = try parameterID(parameter)
        try perform {
            try player.sendParameters([CHHapticDynamicParameter(parameterID: id, value: value, relativeTime: 0)], atTime: time)
        }
    }

    /// Plays a curve of `parameter` through `points` (seconds from its start, value) from engine time `time`.
    package func scheduleCurve(_ parameter: String, points: [(time: Double, value: Float)], at time: Double) throws(ServiceError) {
        let id = try parameterID(parameter)
        for (earlier, later) in zip(points, points.dropFirst()) where !(later.time >= earlier.time) {
            throw .usage("the curve's times must ascend: \(later.time) s follows \(earlier.time) s")
        }
        let curve = CHHapticParameterCurve(
            parameterID: id, controlPoints: points.map { .init(relativeTime: $0.time, value: $0.value) }, relativeTime: 0)
        try perform { try player.scheduleParameterCurve(curve, atTime: time) }
    }

    /// Calls `handler` once when playback ends (nil) or fails (why), on an internal thread, never the
    /// render thread; replaces the previous handler.
    /// The handler must not call ``onCompletion(_:)`` or ``closeCompletions()`` of this player.
    package func onCompletion(_ handler: (@Sendable (ServiceError?) -> Void)?) {
        let name = name
        let engine = engine
        completion.handler.withLock { $0 = handler }
        player.completionHandler = { [completion] error in
            // Playback that ended because the device failed (a lost server, an unplugged card) is a failure.
            let failure = error.map { ServiceError.engine($0, pattern: name) } ?? LiveEngine.deviceFailure(of: engine)
            completion.handler.withLock { handler in handler?(failure) }
        }
    }

    /// Removes the completion handler and waits for a call of it in flight: once this returns, the handler
    /// is never called again. Blocks the calling thread for as long as that call runs.
    package func closeCompletions() {
        player.completionHandler = nil
        completion.handler.withLock { $0 = nil }
    }

    /// Pattern seconds into the first playing instance; nil when nothing plays.
    package var position: Double? { (player as? ThrumPlayerState)?.position?.seconds }

    private func parameterID(_ name: String) throws(ServiceError) -> CHHapticDynamicParameter.ID {
        let known = CHHapticDynamicParameter.ID.allKnown
        guard let id = known.first(where: { $0.rawValue == name }) else {
            let guess = Suggestions.closest(to: name, in: known.map(\.rawValue))
            throw .usage("unknown dynamic parameter '\(name)'" + (guess.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return id
    }
}

/// A player's completion handler, shared with the closure the engine calls.
private final class CompletionSlot: Sendable {
    let handler = Locked<(@Sendable (ServiceError?) -> Void)?>(nil)
}
