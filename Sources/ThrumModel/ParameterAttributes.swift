/// The range and default of one parameter, as `capabilitiesForHardware()` reports them.
public protocol CHHapticParameterAttributes: Sendable {
    /// The smallest value; lower values are clamped to it.
    var minValue: Float { get }
    /// The largest value; higher values are clamped to it.
    var maxValue: Float { get }
    /// The value used when the parameter is absent.
    var defaultValue: Float { get }
}

/// A concrete parameter attribute triple.
package struct ParameterAttributes: CHHapticParameterAttributes, Equatable, Hashable {
    package let minValue: Float
    package let maxValue: Float
    package let defaultValue: Float

    /// Creates an attribute triple.
    package init(min: Float, max: Float, default value: Float) {
        minValue = min
        maxValue = max
        defaultValue = value
    }

    /// `value` clamped to `minValue…maxValue` (NaN becomes the default).
    package func clamp(_ value: Float) -> Float {
        value.isNaN ? defaultValue : Swift.min(Swift.max(value, minValue), maxValue)
    }

    /// Whether `value` lies inside the range.
    package func contains(_ value: Float) -> Bool { value >= minValue && value <= maxValue }
}

/// Thrum's parameter attribute table: which event parameters each event type takes, with their ranges
/// and defaults, and the ranges and defaults of the dynamic parameters. Thread-safe (immutable).
///
/// Apple's values where known (`docs/core-haptics-behaviour.md` §1.5–1.6). Where Apple is silent:
/// continuous haptics use the transient defaults (intensity 0.75, sharpness 0.5), and `Sustained`
/// defaults to 1 (the header's value and what playback does).
package enum ParameterTable {
    static let unit = ParameterAttributes(min: 0, max: 1, default: 0)
    static let bipolar = ParameterAttributes(min: -1, max: 1, default: 0)

    /// The attributes of `parameter` on events of `eventType`, or nil when that event type does not take it.
    package static func attributes(
        for parameter: CHHapticEvent.ParameterID, eventType: CHHapticEvent.EventType
    ) -> ParameterAttributes? {
        guard eventType.isKnown else { return nil }
        switch parameter {
        case .hapticIntensity:
            return eventType.isHaptic ? ParameterAttributes(min: 0, max: 1, default: 0.75) : nil
        case .hapticSharpness:
            return eventType.isHaptic ? ParameterAttributes(min: 0, max: 1, default: 0.5) : nil
        case .attackTime, .decayTime, .releaseTime:
            return unit
        case .sustained:
            return ParameterAttributes(min: 0, max: 1, default: 1)
        case .audioVolume:
            return eventType.isAudio ? ParameterAttributes(min: 0, max: 1, default: 1) : nil
        case .audioPan, .audioPitch:
            return eventType.isAudio ? bipolar : nil
        case .audioBrightness:
            return eventType.isAudio ? ParameterAttributes(min: 0, max: 1, default: 1) : nil
        default:
            return nil
        }
    }

    /// The attributes of a dynamic parameter, or nil for an unknown ID.
    package static func attributes(for parameter: CHHapticDynamicParameter.ID) -> ParameterAttributes? {
        switch parameter {
        case .hapticIntensityControl, .audioVolumeControl:
            return ParameterAttributes(min: 0, max: 1, default: 1)
        case .hapticSharpnessControl, .hapticAttackTimeControl, .hapticDecayTimeControl,
            .hapticReleaseTimeControl, .audioPanControl, .audioPitchControl, .audioBrightnessControl,
            .audioAttackTimeControl, .audioDecayTimeControl, .audioReleaseTimeControl, .thrumHapticPanX,
            .thrumHapticPanY:
            return bipolar
        default:
            return nil
        }
    }

    /// Whether `parameter` is known to Core Haptics for any event type.
    package static func isKnown(_ parameter: CHHapticEvent.ParameterID) -> Bool {
        CHHapticEvent.ParameterID.allKnown.contains(parameter)
    }
}

/// What the hardware supports, and the parameter table (`CHHapticEngine.capabilitiesForHardware()`).
public protocol CHHapticDeviceCapability: Sendable {
    /// Whether a haptic output (an ALSA playback device) is present.
    var supportsHaptics: Bool { get }
    /// Whether an audio output (an ALSA playback device) is present.
    var supportsAudio: Bool { get }
    /// The attributes of an event parameter for an event type.
    /// - Throws: `CHHapticError` `.invalidParameterType` when the type does not take the parameter.
    func attributes(
        forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType
    ) throws -> any CHHapticParameterAttributes
    /// The attributes of a dynamic parameter.
    /// - Throws: `CHHapticError` `.invalidParameterType` for an unknown ID.
    func attributes(forDynamicParameter inParameter: CHHapticDynamicParameter.ID) throws
        -> any CHHapticParameterAttributes
}

/// A capability report over `ParameterTable`.
package struct DeviceCapability: CHHapticDeviceCapability {
    package let supportsHaptics: Bool
    package let supportsAudio: Bool

    /// Creates a report; the flags come from the ALSA devices present.
    package init(supportsHaptics: Bool, supportsAudio: Bool) {
        self.supportsHaptics = supportsHaptics
        self.supportsAudio = supportsAudio
    }

    package func attributes(
        forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType
    ) throws -> any CHHapticParameterAttributes {
        guard let attributes = ParameterTable.attributes(for: inParameter, eventType: type) else {
            throw CHHapticError(.invalidParameterType, "\(inParameter) is not a parameter of \(type) events")
        }
        return attributes
    }

    package func attributes(forDynamicParameter inParameter: CHHapticDynamicParameter.ID) throws
        -> any CHHapticParameterAttributes
    {
        guard let attributes = ParameterTable.attributes(for: inParameter) else {
            throw CHHapticError(.invalidParameterType, "\(inParameter) is not a dynamic parameter")
        }
        return attributes
    }
}
