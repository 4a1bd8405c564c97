import FoundationEssentials

/// The engine-clock time meaning "as soon as possible": the next frame the render thread produces.
public let CHHapticTimeImmediate: TimeInterval = 0

/// The ID Core Haptics hands out for a registered audio resource.
public typealias CHHapticAudioResourceID = Int

extension CHHapticEvent {
    /// The kind of an event. Raw values are the AHAP `EventType` strings.
    public struct EventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// Creates an event type from its AHAP string; unknown strings are rejected when a player is built.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A short tap of fixed length (≈10–30 ms on Thrum's actuator waveform).
        public static let hapticTransient = EventType(rawValue: "HapticTransient")
        /// A vibration lasting `duration` seconds (at most 30 s) with an AR or ADR envelope.
        public static let hapticContinuous = EventType(rawValue: "HapticContinuous")
        /// A generated tone lasting `duration` seconds with an AR or ADR envelope.
        public static let audioContinuous = EventType(rawValue: "AudioContinuous")
        /// Playback of an audio file (`EventWaveformPath` or a registered resource).
        public static let audioCustom = EventType(rawValue: "AudioCustom")

        /// Every public event type, in Apple's order.
        package static let allKnown: [EventType] = [.hapticTransient, .hapticContinuous, .audioContinuous, .audioCustom]
        /// Whether this is one of the four public event types.
        package var isKnown: Bool { Self.allKnown.contains(self) }
        /// Whether the event drives the haptic channel.
        package var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
        /// Whether the event drives the audio channels.
        package var isAudio: Bool { self == .audioContinuous || self == .audioCustom }
    }

    /// An event parameter. Raw values are the AHAP `ParameterID` strings.
    public struct ParameterID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// Creates a parameter ID from its AHAP string.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Perceived strength, 0…1 (0 = maximum attenuation).
        public static let hapticIntensity = ParameterID(rawValue: "HapticIntensity")
        /// Feel from round (0) to crisp (1); on Thrum, the drive frequency within the actuator's band.
        public static let hapticSharpness = ParameterID(rawValue: "HapticSharpness")
        /// Envelope attack, 0…1 (exponential: 1 ms at 0, 5.12 s at 1).
        public static let attackTime = ParameterID(rawValue: "AttackTime")
        /// Envelope decay for non-sustained events, 0…1 (exponential).
        public static let decayTime = ParameterID(rawValue: "DecayTime")
        /// Envelope release after the duration for sustained events, 0…1 (exponential).
        public static let releaseTime = ParameterID(rawValue: "ReleaseTime")
        /// 1 = attack-hold-release for the whole duration; 0 = attack-decay, ending early.
        public static let sustained = ParameterID(rawValue: "Sustained")
        /// Audio gain, 0…1.
        public static let audioVolume = ParameterID(rawValue: "AudioVolume")
        /// Stereo position, −1 (left) … 1 (right).
        public static let audioPan = ParameterID(rawValue: "AudioPan")
        /// Pitch, −1…1 (±12 semitones on Thrum).
        public static let audioPitch = ParameterID(rawValue: "AudioPitch")
        /// High-frequency content, 0 (most filtering) … 1 (none).
        public static let audioBrightness = ParameterID(rawValue: "AudioBrightness")

        /// Every public event parameter ID.
        package static let allKnown: [ParameterID] = [
            .hapticIntensity, .hapticSharpness, .attackTime, .decayTime, .releaseTime, .sustained,
            .audioVolume, .audioPan, .audioPitch, .audioBrightness,
        ]
    }
}

extension CHHapticDynamicParameter {
    /// A dynamic (player-wide) parameter. Raw values are the AHAP `ParameterID` strings.
    public struct ID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// Creates a dynamic parameter ID from its AHAP string.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Multiplies haptic intensity, 0…1 (default 1).
        public static let hapticIntensityControl = ID(rawValue: "HapticIntensityControl")
        /// Adds to the sharpness of continuous haptics, −1…1 (default 0).
        public static let hapticSharpnessControl = ID(rawValue: "HapticSharpnessControl")
        /// Adds to haptic attack times, −1…1.
        public static let hapticAttackTimeControl = ID(rawValue: "HapticAttackTimeControl")
        /// Adds to haptic decay times, −1…1.
        public static let hapticDecayTimeControl = ID(rawValue: "HapticDecayTimeControl")
        /// Adds to haptic release times, −1…1.
        public static let hapticReleaseTimeControl = ID(rawValue: "HapticReleaseTimeControl")
        /// Multiplies audio volume, 0…1 (default 1).
        public static let audioVolumeControl = ID(rawValue: "AudioVolumeControl")
        /// Adds to audio pan, −1…1.
        public static let audioPanControl = ID(rawValue: "AudioPanControl")
        /// Adds to audio pitch, −1…1.
        public static let audioPitchControl = ID(rawValue: "AudioPitchControl")
        /// Adds to audio brightness, −1…1.
        public static let audioBrightnessControl = ID(rawValue: "AudioBrightnessControl")
        /// Adds to audio attack times, −1…1.
        public static let audioAttackTimeControl = ID(rawValue: "AudioAttackTimeControl")
        /// Adds to audio decay times, −1…1.
        public static let audioDecayTimeControl = ID(rawValue: "AudioDecayTimeControl")
        /// Adds to audio release times, −1…1.
        public static let audioReleaseTimeControl = ID(rawValue: "AudioReleaseTimeControl")

        /// Thrum: moves the player's haptics between the actuators of its engine's locality along x, −1 (left)
        /// … 1 (right), the scale of the actuators' positions, with equal power (`GCDeviceHaptics`). Until it
        /// is set, every actuator plays at full strength. Not a Core Haptics parameter.
        public static let thrumHapticPanX = ID(rawValue: "ThrumHapticPanX")
        /// Thrum: as `thrumHapticPanX`, along y, −1 (bottom) … 1 (top), for actuators on a grid.
        public static let thrumHapticPanY = ID(rawValue: "ThrumHapticPanY")

        /// Thrum's own dynamic parameters, which Core Haptics rejects.
        package static let thrumExtensions: [ID] = [.thrumHapticPanX, .thrumHapticPanY]

        /// Every public dynamic parameter ID.
        package static let allKnown: [ID] = [
            .hapticIntensityControl, .hapticSharpnessControl, .hapticAttackTimeControl,
            .hapticDecayTimeControl, .hapticReleaseTimeControl, .audioVolumeControl, .audioPanControl,
            .audioPitchControl, .audioBrightnessControl, .audioAttackTimeControl, .audioDecayTimeControl,
            .audioReleaseTimeControl,
        ]
        /// The six IDs Core Haptics accepts in a parameter curve.
        package static let curveCapable: [ID] = [
            .hapticIntensityControl, .hapticSharpnessControl, .audioVolumeControl, .audioPanControl,
            .audioPitchControl, .audioBrightnessControl,
        ]
        /// Whether the control multiplies the event value (intensity, volume) rather than adding to it.
        package var isMultiplicative: Bool { self == .hapticIntensityControl || self == .audioVolumeControl }
        /// Whether this ID may be a `ParameterCurve`: Core Haptics' six (`curveCapable`), and Thrum's own.
        package var isCurveCapable: Bool { Self.curveCapable.contains(self) || isThrumExtension }
        /// Whether this is one of Thrum's own parameters (`thrumExtensions`).
        package var isThrumExtension: Bool { Self.thrumExtensions.contains(self) }
    }
}

extension CHHapticPattern {
    /// Keys of a pattern dictionary. Raw values are the AHAP key strings.
    public struct Key: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// Creates a key from its AHAP string.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let version = Key(rawValue: "Version")
        public static let pattern = Key(rawValue: "Pattern")
        public static let event = Key(rawValue: "Event")
        public static let eventType = Key(rawValue: "EventType")
        public static let time = Key(rawValue: "Time")
        public static let eventDuration = Key(rawValue: "EventDuration")
        public static let eventWaveformPath = Key(rawValue: "EventWaveformPath")
        public static let eventParameters = Key(rawValue: "EventParameters")
        public static let eventWaveformUseVolumeEnvelope = Key(rawValue: "EventWaveformUseVolumeEnvelope")
        public static let eventWaveformLoopEnabled = Key(rawValue: "EventWaveformLoopEnabled")
        public static let parameter = Key(rawValue: "Parameter")
        public static let parameterID = Key(rawValue: "ParameterID")
        public static let parameterValue = Key(rawValue: "ParameterValue")
        public static let parameterCurve = Key(rawValue: "ParameterCurve")
        public static let parameterCurveControlPoints = Key(rawValue: "ParameterCurveControlPoints")
    }
}
