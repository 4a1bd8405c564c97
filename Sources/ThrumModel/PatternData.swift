import Foundation

/// Limits Core Haptics applies to patterns.
public enum HapticLimits {
    /// Longest HapticContinuous event, in seconds; longer ones are capped (with a warning).
    public static let maxContinuousDuration: TimeInterval = 30
    /// Most control points Core Haptics accepts in one curve; Thrum plays more, with a warning.
    public static let maxCurvePoints = 16
    /// The AHAP versions Core Haptics loads.
    public static let supportedVersions: ClosedRange<Double> = 1.0...1.1
    /// The longest pattern Thrum plays, in seconds (24 h): every event, parameter and curve point of a
    /// pattern lies within it, and no engine time is scheduled further ahead. Larger times are errors
    /// (`invalidEventTime`, `invalidEventDuration`, `invalidTime`), so every time fits a frame count.
    public static let maxPatternDuration: TimeInterval = 86_400
    /// Playback rates an advanced player takes (values ≤ 0 are ignored, others are clamped into it).
    public static let playbackRates: ClosedRange<Float> = 0.001...1000

    /// Whether `seconds` can be scheduled: finite and within 0…``maxPatternDuration``.
    public static func isPlayableTime(_ seconds: Double) -> Bool {
        seconds >= 0 && seconds <= maxPatternDuration
    }
}

/// One `EventParameters` entry as given (not clamped).
public struct EventParameterData: Sendable, Equatable, Hashable {
    public var id: CHHapticEvent.ParameterID
    public var value: Float
    /// Creates an entry.
    public init(id: CHHapticEvent.ParameterID, value: Float) {
        self.id = id
        self.value = value
    }
}

/// One event, as given in a pattern (values not clamped; times in seconds from the pattern start).
public struct EventData: Sendable, Equatable {
    public var type: CHHapticEvent.EventType
    /// Start time in seconds from the pattern start.
    public var time: TimeInterval
    /// `EventDuration` in seconds; nil when absent (read as 0).
    public var duration: TimeInterval?
    public var parameters: [EventParameterData]
    /// `EventWaveformPath` of an AHAP AudioCustom event.
    public var waveformPath: String?
    /// The registered resource of a programmatic AudioCustom event.
    public var audioResourceID: CHHapticAudioResourceID?
    /// `EventWaveformUseVolumeEnvelope`; nil = default (true).
    public var useVolumeEnvelope: Bool?
    /// `EventWaveformLoopEnabled`; nil = default (false).
    public var loopEnabled: Bool?
    /// A HapticTransient that the player's HapticIntensityControl does not scale: a `.haptic` emphasis,
    /// which is independent of the continuous envelope. It has no AHAP form. Default false.
    public var ignoresIntensityControl: Bool

    /// Creates an event.
    public init(
        type: CHHapticEvent.EventType, time: TimeInterval, duration: TimeInterval? = nil,
        parameters: [EventParameterData] = [], waveformPath: String? = nil,
        audioResourceID: CHHapticAudioResourceID? = nil, useVolumeEnvelope: Bool? = nil, loopEnabled: Bool? = nil,
        ignoresIntensityControl: Bool = false
    ) {
        self.type = type
        self.time = time
        self.duration = duration
        self.parameters = parameters
        self.waveformPath = waveformPath
        self.audioResourceID = audioResourceID
        self.useVolumeEnvelope = useVolumeEnvelope
        self.loopEnabled = loopEnabled
        self.ignoresIntensityControl = ignoresIntensityControl
    }

    /// The effective value of `parameter`: the last entry wins, clamped to its range; the default when absent.
    /// Returns 0 for a parameter the event type does not take.
    public func value(of parameter: CHHapticEvent.ParameterID) -> Float {
        guard let attributes = ParameterTable.attributes(for: parameter, eventType: type) else { return 0 }
        guard let given = parameters.last(where: { $0.id == parameter }) else { return attributes.defaultValue }
        return attributes.clamp(given.value)
    }

    /// Whether a `parameter` entry is present.
    public func has(_ parameter: CHHapticEvent.ParameterID) -> Bool {
        parameters.contains { $0.id == parameter }
    }

    /// Whether the envelope is attack-hold-release (true unless `Sustained` is exactly 0).
    public var isSustained: Bool {
        guard let given = parameters.last(where: { $0.id == .sustained }) else { return true }
        return given.value != 0
    }

    /// The time the event occupies in the pattern, in seconds: `EventDuration`, with HapticContinuous
    /// capped at 30 s. Release tails are not included (as Apple's `duration` header says).
    public var playedDuration: TimeInterval {
        let given = max(duration ?? 0, 0)
        return type == .hapticContinuous ? min(given, HapticLimits.maxContinuousDuration) : given
    }

    /// How long an AudioCustom event sounds, in seconds, for a file of `fileSeconds` (docs/decisions.md "Audio events"):
    /// looping, EventDuration (the file once when 0); else the file at 2^AudioPitch times natural speed
    /// (varispeed, ±12 semitones), cut to EventDuration when that is shorter. Controls are not included.
    public func audioPlayedDuration(fileSeconds: TimeInterval) -> TimeInterval {
        let given = max(duration ?? 0, 0)
        if loopEnabled == true && given > 0 { return given }
        let file = max(fileSeconds, 0) / pow(2, Double(value(of: .audioPitch)))
        return given > 0 ? min(given, file) : file
    }
}

/// A `Parameter` entry: a dynamic parameter step at a time.
public struct DynamicParameterData: Sendable, Equatable {
    public var id: CHHapticDynamicParameter.ID
    public var value: Float
    /// Seconds from the pattern start.
    public var time: TimeInterval
    /// Creates a step.
    public init(id: CHHapticDynamicParameter.ID, value: Float, time: TimeInterval) {
        self.id = id
        self.value = value
        self.time = time
    }
}

/// A curve control point; `time` is relative to the curve start.
public struct ControlPointData: Sendable, Equatable {
    public var time: TimeInterval
    public var value: Float
    /// Creates a control point.
    public init(time: TimeInterval, value: Float) {
        self.time = time
        self.value = value
    }
}

/// A `ParameterCurve` entry: linear interpolation through the points, starting at `time`.
public struct ParameterCurveData: Sendable, Equatable {
    public var id: CHHapticDynamicParameter.ID
    /// Curve start, in seconds from the pattern start.
    public var time: TimeInterval
    public var points: [ControlPointData]
    /// Creates a curve.
    public init(id: CHHapticDynamicParameter.ID, time: TimeInterval, points: [ControlPointData]) {
        self.id = id
        self.time = time
        self.points = points
    }
}

/// One `Metadata` entry (values kept as text).
public struct MetadataEntry: Sendable, Equatable {
    public var key: String
    public var value: String
    /// Creates an entry.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// A whole pattern as plain values: what AHAP files decode to and what the renderer compiles.
/// Values are kept as given; clamping happens when a player is built. Thread-safe (a value type).
public struct PatternData: Sendable, Equatable {
    /// `Version`; nil when absent (1.0 is assumed).
    public var version: Double?
    public var metadata: [MetadataEntry]
    public var events: [EventData]
    public var parameters: [DynamicParameterData]
    public var curves: [ParameterCurveData]

    /// Creates a pattern.
    public init(
        version: Double? = 1.0, metadata: [MetadataEntry] = [], events: [EventData] = [],
        parameters: [DynamicParameterData] = [], curves: [ParameterCurveData] = []
    ) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.curves = curves
    }

    /// Whether the pattern has no events, parameters or curves.
    public var isEmpty: Bool { events.isEmpty && parameters.isEmpty && curves.isEmpty }

    /// The length with the audio files counted (docs/decisions.md: a file's length counts in the pattern's duration):
    /// `duration`, or the end of an AudioCustom event's file when later. `fileSeconds(i)` is the length of
    /// event `i`'s file in seconds (nil when unknown: that event counts as in `duration`).
    public func duration(fileSeconds: (Int) -> TimeInterval?) -> TimeInterval {
        var end = duration
        for (index, event) in events.enumerated() where event.type == .audioCustom {
            guard let seconds = fileSeconds(index) else { continue }
            end = max(end, event.time + event.audioPlayedDuration(fileSeconds: seconds))
        }
        return end
    }

    /// Length in seconds: the latest of event end (time + duration, continuous capped at 30 s),
    /// parameter time, and curve time + its last point time. Release tails and audio files are not included
    /// (Core Haptics' `CHHapticPattern.duration`); `duration(fileSeconds:)` counts the files.
    public var duration: TimeInterval {
        var end: TimeInterval = 0
        for event in events { end = max(end, event.time + event.playedDuration) }
        for parameter in parameters { end = max(end, parameter.time) }
        for curve in curves {
            end = max(end, curve.time + (curve.points.map(\.time).max() ?? 0))
        }
        return end
    }
}
