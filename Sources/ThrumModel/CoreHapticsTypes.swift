import FoundationEssentials

/// A parameter of one event (`CHHapticEventParameter`). Not thread-safe: a mutable reference type, as in Core Haptics.
public final class CHHapticEventParameter {
    /// Which parameter this sets.
    public let parameterID: CHHapticEvent.ParameterID
    /// The value; out-of-range values are clamped when a player is built.
    public var value: Float

    /// Creates an event parameter.
    public init(parameterID: CHHapticEvent.ParameterID, value: Float) {
        self.parameterID = parameterID
        self.value = value
    }
}

/// One haptic or audio event of a pattern (`CHHapticEvent`). Not thread-safe.
public final class CHHapticEvent {
    /// The event type.
    public let type: EventType
    /// The event's parameters (copied at init).
    public let eventParameters: [CHHapticEventParameter]
    /// Start time in seconds, relative to the pattern start.
    public var relativeTime: TimeInterval
    /// Length in seconds (0 for transients; HapticContinuous is capped at 30 s when played).
    public var duration: TimeInterval
    /// The registered audio resource of an `.audioCustom` event made with `init(audioResourceID:…)`.
    public let audioResourceID: CHHapticAudioResourceID?
    /// The audio file of an `.audioCustom` event read from AHAP (`EventWaveformPath`).
    package let waveformPath: String?
    let useVolumeEnvelope: Bool?
    let loopEnabled: Bool?

    /// Creates an event with duration 0 (transients, or audio resources played whole).
    public convenience init(eventType type: EventType, parameters: [CHHapticEventParameter], relativeTime time: TimeInterval) {
        self.init(eventType: type, parameters: parameters, relativeTime: time, duration: 0)
    }

    /// Creates an event lasting `duration` seconds.
    public init(
        eventType type: EventType, parameters: [CHHapticEventParameter], relativeTime time: TimeInterval,
        duration: TimeInterval
    ) {
        self.type = type
        eventParameters = parameters
        relativeTime = time
        self.duration = duration
        audioResourceID = nil
        waveformPath = nil
        useVolumeEnvelope = nil
        loopEnabled = nil
    }

    /// Creates an `.audioCustom` event that plays a registered resource whole.
    public convenience init(
        audioResourceID resID: CHHapticAudioResourceID, parameters: [CHHapticEventParameter],
        relativeTime time: TimeInterval
    ) {
        self.init(audioResourceID: resID, parameters: parameters, relativeTime: time, duration: 0)
    }

    /// Creates an `.audioCustom` event that plays a registered resource for `duration` seconds
    /// (shorter than the file truncates it; 0 plays it whole).
    public init(
        audioResourceID resID: CHHapticAudioResourceID, parameters: [CHHapticEventParameter],
        relativeTime time: TimeInterval, duration: TimeInterval
    ) {
        type = .audioCustom
        eventParameters = parameters
        relativeTime = time
        self.duration = duration
        audioResourceID = resID
        waveformPath = nil
        useVolumeEnvelope = nil
        loopEnabled = nil
    }

    /// Creates an event from its plain-value form.
    package init(data: EventData) {
        type = data.type
        eventParameters = data.parameters.map { CHHapticEventParameter(parameterID: $0.id, value: $0.value) }
        relativeTime = data.time
        duration = data.duration ?? 0
        audioResourceID = data.audioResourceID
        waveformPath = data.waveformPath
        useVolumeEnvelope = data.useVolumeEnvelope
        loopEnabled = data.loopEnabled
    }

    /// The event as plain values.
    package var data: EventData {
        EventData(
            type: type, time: relativeTime, duration: duration,
            parameters: eventParameters.map { EventParameterData(id: $0.parameterID, value: $0.value) },
            waveformPath: waveformPath, audioResourceID: audioResourceID, useVolumeEnvelope: useVolumeEnvelope,
            loopEnabled: loopEnabled)
    }
}

/// A player-wide parameter step (`CHHapticDynamicParameter`). Not thread-safe.
public final class CHHapticDynamicParameter {
    /// Which control this sets.
    public let parameterID: ID
    /// The control value (intensity/volume multiply, the others add).
    public var value: Float
    /// When it applies, in seconds from the pattern start (or from `atTime` in `sendParameters`).
    public var relativeTime: TimeInterval

    /// Creates a dynamic parameter step.
    public init(parameterID: ID, value: Float, relativeTime time: TimeInterval) {
        self.parameterID = parameterID
        self.value = value
        relativeTime = time
    }
}

/// A parameter curve: linear ramps through control points (`CHHapticParameterCurve`). Not thread-safe.
public final class CHHapticParameterCurve {
    /// One point of a curve; `relativeTime` is seconds from the curve start.
    public final class ControlPoint {
        /// Seconds from the curve start.
        public var relativeTime: TimeInterval
        /// The control value at that time.
        public var value: Float
        /// Creates a control point.
        public init(relativeTime time: TimeInterval, value: Float) {
            relativeTime = time
            self.value = value
        }
    }

    /// Which control the curve drives (one of the six curve-capable IDs).
    public let parameterID: CHHapticDynamicParameter.ID
    /// Curve start, in seconds from the pattern start.
    public var relativeTime: TimeInterval
    /// The points (copied at init).
    public let controlPoints: [ControlPoint]

    /// Creates a curve.
    public init(parameterID: CHHapticDynamicParameter.ID, controlPoints: [ControlPoint], relativeTime: TimeInterval) {
        self.parameterID = parameterID
        self.controlPoints = controlPoints
        self.relativeTime = relativeTime
    }

    /// The curve as plain values.
    package var data: ParameterCurveData {
        ParameterCurveData(
            id: parameterID, time: relativeTime,
            points: controlPoints.map { ControlPointData(time: $0.relativeTime, value: $0.value) })
    }
}

/// A pattern of events, parameter steps and curves (`CHHapticPattern`). Immutable after init, so it can
/// be shared between threads once built.
public final class CHHapticPattern: @unchecked Sendable {
    /// The pattern as plain values (what the renderer compiles).
    package let data: PatternData

    /// Creates a pattern from events and parameter steps. Nothing is checked until a player is built.
    public convenience init(events: [CHHapticEvent], parameters: [CHHapticDynamicParameter]) throws {
        self.init(
            data: PatternData(
                events: events.map(\.data),
                parameters: parameters.map {
                    DynamicParameterData(id: $0.parameterID, value: $0.value, time: $0.relativeTime)
                }))
    }

    /// Creates a pattern from events and parameter curves. Nothing is checked until a player is built.
    public convenience init(events: [CHHapticEvent], parameterCurves: [CHHapticParameterCurve]) throws {
        self.init(data: PatternData(events: events.map(\.data), curves: parameterCurves.map(\.data)))
    }

    /// The folder of the AHAP file this pattern was read from: `EventWaveformPath`s resolve against it first.
    package let sourceFolder: String?

    /// Creates a pattern from plain values (a Thrum addition); `sourceFolder` is where its audio paths resolve.
    package init(data: PatternData, sourceFolder: String? = nil) {
        self.data = data
        self.sourceFolder = sourceFolder
    }

    /// Length in seconds: the end of the last event, parameter or curve point (release tails excluded).
    public var duration: TimeInterval { data.duration }
}
