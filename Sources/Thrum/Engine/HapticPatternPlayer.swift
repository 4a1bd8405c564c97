import FoundationStandIns
import FoundationEssentials
internal import RenderCore
internal import Synchronization

/// The settings an instance starts with.
struct StartSettings {
    var rate: Double
    /// Loop length in pattern seconds, or nil for no loop.
    var loopEnd: Double?
    /// Passes to play when looping (0 = forever).
    var passes: Int
    var muted: Bool
    /// A seek made while nothing played, to start from (nil: the beginning).
    var offset: Double?
}

/// Thrum's pattern player: both `CHHapticPatternPlayer` and `CHHapticAdvancedPatternPlayer`.
///
/// Every `start` plays a new instance of the pattern (so a player reused for quick taps overlaps them);
/// `stop`, `sendParameters`, `scheduleParameterCurve`, `cancel` and `isMuted` act on every instance
/// playing. Each call sends one batch of commands, addressed to those instances (slot + generation), whole
/// or not at all. Thread safety: any thread; state is behind a lock (taken after the engine's, never
/// before), commands go through the engine's queue.
final class HapticPatternPlayer: CHHapticAdvancedPatternPlayer, ThrumPlayerState, @unchecked Sendable {
    struct State {
        var muted = false
        var loopEnabled = false
        var loopEnd: TimeInterval = 0
        var playbackRate: Float = 1
        var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler?
        var endFrame: UInt64?
        var loopPassLimit = 0
        /// A seek made while nothing plays, applied at the next start (Core Haptics caches it too).
        var pendingSeek: TimeInterval?
    }

    let engine: CHHapticEngine
    let pattern: CompiledPattern
    let playerID = HapticPatternPlayer.nextID.add(1, ordering: .relaxed).newValue
    private let state = Locked(State())
    /// The last `playerID` given.
    private static let nextID = Atomic<Int>(0)

    init(engine: CHHapticEngine, pattern: CompiledPattern) {
        self.engine = engine
        self.pattern = pattern
    }

    /// What a new instance starts with (the engine calls it under its lock).
    var startSettings: StartSettings {
        state.withLock { state in
            StartSettings(
                rate: Double(state.playbackRate), loopEnd: loopLength(state), passes: state.loopPassLimit,
                muted: state.muted, offset: state.pendingSeek)
        }
    }

    /// The loop length to send, or nil when not looping (a zero-length pattern cannot loop).
    private func loopLength(_ state: State) -> Double? {
        let length = state.loopEnd > 0 ? state.loopEnd : pattern.duration
        return state.loopEnabled && length > 0 ? length : nil
    }

    var loopPassLimit: Int {
        get { state.withLock { $0.loopPassLimit } }
        set { state.withLock { $0.loopPassLimit = max(0, newValue) } }
    }

    var position: ThrumPlayerPosition? { engine.position(of: self) }

    var duration: TimeInterval { pattern.duration }

    var voicePeak: (voices: Int, eventIndex: Int?) { pattern.voicePeak }

    /// The engine frame at which the last instance ended (a Thrum addition, used by `thrum render`).
    var endFrame: UInt64? { state.withLock { $0.endFrame } }

    /// A new instance started (from `offset`, a pending seek it consumed): the player has not ended any more.
    func instanceStarted(withOffset offset: Double?) {
        state.withLock { state in
            state.endFrame = nil
            if offset != nil { state.pendingSeek = nil }
        }
    }

    /// An instance ended at `frame` (nil: the engine stopped); after the last one, `completionHandler` runs
    /// with `error` (an instance the render thread refused to start, which the control side's checks make
    /// unreachable in practice) or nil.
    func instanceEnded(frame: UInt64?, isLast: Bool, error: (any Error)? = nil) {
        let handler = state.withLock { state -> CHHapticAdvancedPatternPlayerCompletionHandler? in
            if let frame { state.endFrame = max(state.endFrame ?? 0, frame) }
            return isLast ? state.completionHandler : nil
        }
        handler?(error)
    }

    // MARK: CHHapticPatternPlayer

    func start(atTime time: TimeInterval) throws {
        try engine.startInstance(of: self, at: time)
    }

    func stop(atTime time: TimeInterval) throws {
        let frame = try engine.frame(for: time)
        try engine.sendToInstances(of: self) { [.stop($0, frame: frame)] }
    }

    /// Engine frame of `relative` seconds after `time` (`time` 0 = now).
    private func frame(_ time: TimeInterval, plus relative: TimeInterval) throws -> UInt64 {
        if time == CHHapticTimeImmediate && relative == 0 { return 0 }
        return try engine.frame(for: engine.resolve(time) + relative)
    }

    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws {
        var changes: [(ControlLane, Float, UInt64)] = []
        for parameter in parameters {
            guard let lane = ControlLane(parameter.parameterID) else {
                throw CHHapticError(.invalidParameterType, "\(parameter.parameterID) is not a dynamic parameter")
            }
            changes.append((lane, parameter.value, try frame(time, plus: parameter.relativeTime)))
        }
        try engine.sendToInstances(of: self) { instance in
            changes.map { .parameter(instance, lane: $0.0, value: $0.1, frame: $0.2) }
        }
    }

    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws {
        guard parameterCurve.parameterID.isCurveCapable, let lane = ControlLane(parameterCurve.parameterID) else {
            throw CHHapticError(.invalidParameterType, "\(parameterCurve.parameterID) cannot be a parameter curve")
        }
        let points = parameterCurve.controlPoints.map { ($0.relativeTime, $0.value) }.sorted { $0.0 < $1.0 }
        guard let last = points.last else { return }
        let frames = try points.map { try frame(time, plus: $0.0) }
        try engine.sendToInstances(of: self) { instance in
            var commands: [EngineCommand] = []
            for i in 0..<(points.count - 1) {
                commands.append(
                    .ramp(
                        instance, lane: lane, from: points[i].1, frame: frames[i], to: points[i + 1].1,
                        endFrame: frames[i + 1]))
            }
            commands.append(.parameter(instance, lane: lane, value: last.1, frame: frames[points.count - 1]))
            return commands
        }
    }

    func cancel() throws {
        try engine.sendToInstances(of: self) { [.stop($0, frame: 0)] }
    }

    var isMuted: Bool {
        get { state.withLock { $0.muted } }
        set {
            state.withLock { $0.muted = newValue }
            engine.publish(.muted, of: self)
        }
    }

    // MARK: CHHapticAdvancedPatternPlayer

    /// Pauses every instance at engine time `time`: positions freeze, sounding voices fade out (5 ms).
    func pause(atTime time: TimeInterval) throws {
        let frame = try engine.frame(for: time)
        try engine.sendToInstances(of: self) { [.pause($0, frame: frame)] }
    }

    /// Resumes every instance at engine time `time` from where it paused; continuous events and audio
    /// files under way continue (with a 5 ms fade-in). A seek made while paused applies here.
    /// With no instance playing, nothing resumes and a pending seek stays for the next start or resume.
    func resume(atTime time: TimeInterval) throws {
        let frame = try engine.frame(for: time)
        let seek = state.withLock { $0.pendingSeek }
        let sent = try engine.sendToInstances(of: self) { instance in
            (seek.map { [EngineCommand.seek(instance, seconds: $0, frame: frame)] } ?? []) + [.resume(instance, frame: frame)]
        }
        if sent, let seek { state.withLock { if $0.pendingSeek == seek { $0.pendingSeek = nil } } }
    }

    /// Moves to `offsetTime` pattern seconds: at once while playing (events already under way there are
    /// not started part-way); at the next start or resume otherwise. An offset at or past the end stops
    /// the player; while looping, an offset at or past the loop end jumps to the loop start.
    func seek(toOffset offsetTime: TimeInterval) throws {
        if let problem = PatternValidator.timeProblem(offsetTime, "seek offset") {
            throw CHHapticError(.invalidTime, problem)
        }
        if try !engine.sendToInstances(of: self, { [.seek($0, seconds: offsetTime, frame: 0)] }) {
            state.withLock { $0.pendingSeek = offsetTime }
        }
    }

    var loopEnabled: Bool {
        get { state.withLock { $0.loopEnabled } }
        set {
            state.withLock { $0.loopEnabled = newValue }
            engine.publish(.loopEnd, of: self)
        }
    }

    var loopEnd: TimeInterval {
        get { state.withLock { $0.loopEnd } }
        set {
            guard newValue >= 0, !newValue.isNaN else { return }
            state.withLock { $0.loopEnd = min(newValue, HapticLimits.maxPatternDuration) }
            engine.publish(.loopEnd, of: self)
        }
    }

    var playbackRate: Float {
        get { state.withLock { $0.playbackRate } }
        set {
            guard newValue > 0, !newValue.isNaN else { return }
            let rate = min(max(newValue, HapticLimits.playbackRates.lowerBound), HapticLimits.playbackRates.upperBound)
            state.withLock { $0.playbackRate = rate }
            engine.publish(.rate, of: self)
        }
    }

    var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler? {
        get { state.withLock { $0.completionHandler } }
        set {
            let handed = Handed(newValue)
            state.withLock { $0.completionHandler = handed.value }
        }
    }
}
