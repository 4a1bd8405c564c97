import FoundationEssentials

extension CHHapticEngine {
    /// Why the engine stopped by itself (`stoppedHandler`). Raw values are Apple's.
    public enum StoppedReason: Int, Sendable {
        case audioSessionInterrupt = 1
        case applicationSuspended = 2
        /// Auto-shutdown after the engine was idle (`isAutoShutdownEnabled`).
        case idleTimeout = 3
        /// A `notifyWhenPlayersFinished` handler returned `.stopEngine`.
        case notifyWhenFinished = 4
        case engineDestroyed = 5
        case gameControllerDisconnect = 6
        /// The ALSA device failed or disappeared (unplugged card, sound server gone).
        case systemError = -1
    }

    /// What `notifyWhenPlayersFinished` should do next. Raw values are Apple's.
    public enum FinishedAction: Int, Sendable {
        case stopEngine = 1
        case leaveEngineRunning = 2
    }

    /// Called when the engine stops by itself, on an internal thread (never for your own `stop`).
    public typealias StoppedHandler = (StoppedReason) -> Void
    /// Called after the engine was reset (its device came back); players and resources must be rebuilt.
    public typealias ResetHandler = () -> Void
    /// Called once when `start(completionHandler:)` or `stop(completionHandler:)` is done; nil = success.
    public typealias CompletionHandler = (Error?) -> Void
    /// Called when every active player has finished.
    public typealias FinishedHandler = (Error?) -> FinishedAction
}

/// Options of `registerAudioResource(_:options:)`. Raw values are Apple's key strings.
public struct CHHapticAudioResourceKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    /// Creates a key from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Bool, default true: short fades in and out so the sound starts and ends without a click.
    public static let useVolumeEnvelope = CHHapticAudioResourceKey(rawValue: "UseVolumeEnvelope")
    /// Bool, default false: loop the file for the event's duration.
    public static let loopEnabled = CHHapticAudioResourceKey(rawValue: "LoopEnabled")
}

/// A player of one pattern on an engine's clock (`CHHapticPatternPlayer`).
///
/// Every `start` plays a new instance of the pattern; the other calls act on every instance playing.
/// - Important: Thread safety: any method from any thread, several at once; not real-time safe (they
///   allocate and take the engine's lock briefly; never call them from another audio callback). Each call
///   queues one batch of commands for the render thread, whole or not at all: when the engine's queues
///   cannot take it, it throws `resourceNotAvailable` naming the limit and changes nothing. The setters
///   (`isMuted`, and `playbackRate`, `loopEnabled`, `loopEnd` of advanced players) cannot fail: they are
///   latest values the render thread takes at its next period.
public protocol CHHapticPatternPlayer: AnyObject {
    /// Starts the pattern at engine time `time` (seconds; `CHHapticTimeImmediate` = now), frame-exact.
    func start(atTime time: TimeInterval) throws
    /// Stops at engine time `time`; sounding events fade out over 5 ms.
    func stop(atTime time: TimeInterval) throws
    /// Applies dynamic parameter steps at `time + parameter.relativeTime`.
    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws
    /// Plays a curve starting at engine time `time` (the curve's own `relativeTime` is replaced).
    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws
    /// Stops every instance now (5 ms fade). What is still queued for them (parameter changes, curves,
    /// pauses, seeks) is dropped when they end and never reaches a later instance.
    func cancel() throws
    /// Silences this player's audio and haptics (it keeps its place).
    var isMuted: Bool { get set }
}

/// A pattern player with transport controls (`CHHapticAdvancedPatternPlayer`).
public protocol CHHapticAdvancedPatternPlayer: CHHapticPatternPlayer {
    /// Pauses at engine time `time`; `resume` continues from the same place.
    func pause(atTime time: TimeInterval) throws
    /// Resumes at engine time `time` from where it paused.
    func resume(atTime time: TimeInterval) throws
    /// Moves to `offsetTime` seconds into the pattern (applied at the next start/resume when not playing).
    func seek(toOffset offsetTime: TimeInterval) throws
    /// Loop back to the start at `loopEnd`.
    var loopEnabled: Bool { get set }
    /// Loop point in pattern seconds; 0 = the pattern's end. Negative values are ignored; values past
    /// 24 h (`HapticLimits.maxPatternDuration`) become 24 h.
    var loopEnd: TimeInterval { get set }
    /// Speed, > 0 (1 = normal); scales pattern time, never pitch. Values ≤ 0 are ignored; others are
    /// clamped into `HapticLimits.playbackRates` (0.001…1000).
    var playbackRate: Float { get set }
    /// Called once when playback ends (nil) or fails, on an internal thread.
    var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler? { get set }
}

/// The type of `CHHapticAdvancedPatternPlayer.completionHandler`.
public typealias CHHapticAdvancedPatternPlayerCompletionHandler = (Error?) -> Void

/// Where a playing pattern is (a Thrum addition, for status lines).
public struct ThrumPlayerPosition: Sendable, Equatable {
    /// Pattern position in seconds (within the loop when looping).
    public var seconds: TimeInterval
    /// Loop passes completed.
    public var loopCount: Int
    /// Whether the player is paused.
    public var isPaused: Bool
}

/// Thrum's additions to its players, for tools (`thrum render`, status lines). Cast a player to it.
public protocol ThrumPlayerState: AnyObject {
    /// The engine frame at which the player's last instance ended; nil before that.
    var endFrame: UInt64? { get }
    /// With `loopEnabled`, how many passes to play in all (0 = forever, the default); the last pass runs
    /// on to the pattern's end, release tails included. Takes effect at the next `start`.
    var loopPassLimit: Int { get set }
    /// The position of the first playing instance, read without blocking the render thread; nil when
    /// nothing is playing.
    var position: ThrumPlayerPosition? { get }
    /// The pattern's duration in seconds (release tails excluded).
    var duration: TimeInterval { get }
    /// The most voices one pass of the pattern needs at once (rate 1, default controls, release tails
    /// included) and the index of the event that starts when that many first sound; more than the
    /// engine's `maxVoices` means events will be dropped.
    var voicePeak: (voices: Int, eventIndex: Int?) { get }
    /// A number for the player, unique in the process (from 1), as `ThrumOnset.playerID` names it.
    var playerID: Int { get }
}
