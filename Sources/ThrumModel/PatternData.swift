import FoundationEssentials
import Glibc

/// Limits Core Haptics applies to patterns.
package enum HapticLimits {
    /// Longest HapticContinuous event, in seconds; longer ones are capped (with a warning).
    package static let maxContinuousDuration: TimeInterval = 30
    /// Most control points Core Haptics accepts in one curve; Thrum plays more, with a warning.
    package static let maxCurvePoints = 16
    /// The AHAP versions Core Haptics loads.
    package static let supportedVersions: ClosedRange<Double> = 1.0...1.1
    /// The longest pattern Thrum plays, in seconds (24 h): every event, parameter and curve point of a
    /// pattern lies within it, and no engine time is scheduled further ahead. Larger times are errors
    /// (`invalidEventTime`, `invalidEventDuration`, `invalidTime`), so every time fits a frame count.
    package static let maxPatternDuration: TimeInterval = 86_400
    /// Playback rates an advanced player takes (values ≤ 0 are ignored, others are clamped into it).
    package static let playbackRates: ClosedRange<Float> = 0.001...1000

    /// Whether `seconds` can be scheduled: finite and within 0…``maxPatternDuration``.
    package static func isPlayableTime(_ seconds: Double) -> Bool {
        seconds >= 0 && seconds <= maxPatternDuration
    }
}

/// One `EventParameters` entry as given (not clamped).
package struct EventParameterData: Sendable, Equatable, Hashable {
    package var id: CHHapticEvent.ParameterID
    package var value: Float
    /// Creates an entry.
    package init(id: CHHapticEvent.ParameterID, value: Float) {
        self.id = id
        self.value = value
    }
}

/// One event, as given in a pattern (values not clamped; times in seconds from the pattern start).
package struct EventData: Sendable, Equatable {
    package var type: CHHapticEvent.EventType
    /// Start time in seconds from the pattern start.
    package var time: TimeInterval
    /// `EventDuration` in seconds; nil when absent (read as 0).
    package var duration: TimeInterval?
    package var parameters: [EventParameterData]
    /// `EventWaveformPath` of an AHAP AudioCustom event.
    package var waveformPath: String?
    /// The registered resource of a programmatic AudioCustom event.
    package var audioResourceID: CHHapticAudioResourceID?
    /// `EventWaveformUseVolumeEnvelope`; nil = default (true).
    package var useVolumeEnvelope: Bool?
    /// `EventWaveformLoopEnabled`; nil = default (false).
    package var loopEnabled: Bool?
    /// A HapticTransient that the player's HapticIntensityControl does not scale: a `.haptic` emphasis,
    /// which is independent of the continuous envelope. It has no AHAP form. Default false.
    package var ignoresIntensityControl: Bool
    /// A HapticContinuous event that plays these samples instead of its oscillator (an HJIF channel); nil
    /// for every AHAP event. It has no AHAP form.
    package var signal: HapticSignal?

    /// Creates an event.
    package init(
        type: CHHapticEvent.EventType, time: TimeInterval, duration: TimeInterval? = nil,
        parameters: [EventParameterData] = [], waveformPath: String? = nil,
        audioResourceID: CHHapticAudioResourceID? = nil, useVolumeEnvelope: Bool? = nil, loopEnabled: Bool? = nil,
        ignoresIntensityControl: Bool = false, signal: HapticSignal? = nil
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
        self.signal = signal
    }

    /// The effective value of `parameter`: the last entry wins, clamped to its range; the default when absent.
    /// Returns 0 for a parameter the event type does not take.
    package func value(of parameter: CHHapticEvent.ParameterID) -> Float {
        guard let attributes = ParameterTable.attributes(for: parameter, eventType: type) else { return 0 }
        guard let given = parameters.last(where: { $0.id == parameter }) else { return attributes.defaultValue }
        return attributes.clamp(given.value)
    }

    /// Whether a `parameter` entry is present.
    package func has(_ parameter: CHHapticEvent.ParameterID) -> Bool {
        parameters.contains { $0.id == parameter }
    }

    /// Whether the envelope is attack-hold-release (true unless `Sustained` is exactly 0).
    package var isSustained: Bool {
        guard let given = parameters.last(where: { $0.id == .sustained }) else { return true }
        return given.value != 0
    }

    /// The time the event occupies in the pattern, in seconds: `EventDuration`, with HapticContinuous
    /// capped at 30 s. Release tails are not included (as Apple's `duration` header says).
    package var playedDuration: TimeInterval {
        let given = max(duration ?? 0, 0)
        return type == .hapticContinuous ? min(given, HapticLimits.maxContinuousDuration) : given
    }

    /// How long an AudioCustom event sounds, in seconds, for a file of `fileSeconds` (docs/decisions.md "Audio events"):
    /// looping, EventDuration (the file once when 0); else the file at 2^AudioPitch times natural speed
    /// (varispeed, ±12 semitones), cut to EventDuration when that is shorter. Controls are not included.
    package func audioPlayedDuration(fileSeconds: TimeInterval) -> TimeInterval {
        let given = max(duration ?? 0, 0)
        if loopEnabled == true && given > 0 { return given }
        let file = max(fileSeconds, 0) / pow(2, Double(value(of: .audioPitch)))
        return given > 0 ? min(given, file) : file
    }
}

/// A `Parameter` entry: a dynamic parameter step at a time.
package struct DynamicParameterData: Sendable, Equatable {
    package var id: CHHapticDynamicParameter.ID
    package var value: Float
    /// Seconds from the pattern start.
    package var time: TimeInterval
    /// Creates a step.
    package init(id: CHHapticDynamicParameter.ID, value: Float, time: TimeInterval) {
        self.id = id
        self.value = value
        self.time = time
    }
}

/// A curve control point; `time` is relative to the curve start.
package struct ControlPointData: Sendable, Equatable {
    package var time: TimeInterval
    package var value: Float
    /// Creates a control point.
    package init(time: TimeInterval, value: Float) {
        self.time = time
        self.value = value
    }
}

/// A `ParameterCurve` entry: linear interpolation through the points, starting at `time`.
package struct ParameterCurveData: Sendable, Equatable {
    package var id: CHHapticDynamicParameter.ID
    /// Curve start, in seconds from the pattern start.
    package var time: TimeInterval
    package var points: [ControlPointData]
    /// Creates a curve.
    package init(id: CHHapticDynamicParameter.ID, time: TimeInterval, points: [ControlPointData]) {
        self.id = id
        self.time = time
        self.points = points
    }
}

/// One `Metadata` entry (values kept as text).
package struct MetadataEntry: Sendable, Equatable {
    package var key: String
    package var value: String
    /// Creates an entry.
    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// A whole pattern as plain values: what AHAP files decode to and what the renderer compiles.
/// Values are kept as given; clamping happens when a player is built. Thread-safe (a value type).
package struct PatternData: Sendable, Equatable {
    /// `Version`; nil when absent (1.0 is assumed).
    package var version: Double?
    package var metadata: [MetadataEntry]
    package var events: [EventData]
    package var parameters: [DynamicParameterData]
    package var curves: [ParameterCurveData]

    /// Creates a pattern.
    package init(
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
    package var isEmpty: Bool { events.isEmpty && parameters.isEmpty && curves.isEmpty }

    /// The length with the audio files counted (docs/decisions.md: a file's length counts in the pattern's duration):
    /// `duration`, or the end of an AudioCustom event's file when later. `fileSeconds(i)` is the length of
    /// event `i`'s file in seconds (nil when unknown: that event counts as in `duration`).
    package func duration(fileSeconds: (Int) -> TimeInterval?) -> TimeInterval {
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
    package var duration: TimeInterval {
        var end: TimeInterval = 0
        for event in events { end = max(end, event.time + event.playedDuration) }
        for parameter in parameters { end = max(end, parameter.time) }
        for curve in curves {
            end = max(end, curve.time + (curve.points.map(\.time).max() ?? 0))
        }
        return end
    }
}
