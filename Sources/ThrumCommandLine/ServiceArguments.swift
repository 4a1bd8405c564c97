import RenderCore
import ThrumServices

// The options that map onto the services' typed settings: their specs (help, completion, man pages) and
// the mapping from parsed text to the settings. Ranges come from the services, so the command line checks
// text with the bounds the services check numbers with.

/// Options shared by the commands that build an engine (`render`, `play`, `check`, `plot`, `info`).
enum EngineArguments {
    static let sampleRate = OptionSpec.value(.sampleRate, placeholder: "HZ", help: "engine sample rate (default 48000)")
    static let channels = OptionSpec.value(
        .channels, placeholder: "MAP", values: .channelMap, help: "output channels, e.g. L+H,R+H or L,R,H or M,H (see below)")
    static let resources = OptionSpec.value(
        .resources, placeholder: "DIR", values: .directory, help: "also look for audio files here (repeatable)")
    static let allowAnyPath = OptionSpec.flag(
        .allowAnyPath, help: "allow absolute audio paths and paths outside the resource folders")
    static let hapticsFromAudio = OptionSpec.flag(
        .hapticsFromAudio, help: "also derive haptics from the audio played, live (see 'thrum analyze')")
    static let preset = OptionSpec.value(
        .preset, placeholder: "NAME", values: .preset, help: "with --haptics-from-audio: general (default), ui, impacts, footsteps or music")
    static let hapticOffset = OptionSpec.value(
        .hapticOffset, placeholder: "MS",
        help: "haptic channels leave this many ms after the audio (negative: before it), −1000…1000; default: each profile's measured latency")
    static let voices = OptionSpec.value(
        .voices, placeholder: "N", help: "voices sounding at once, 1 to 1024 (default 64); more events are dropped")
    /// The audio file limits (docs/decisions.md "Audio events").
    static let audioLimits: [OptionSpec] = [
        .value(.maxAudioBytes, placeholder: "N", help: "largest audio file, in bytes (default 4200000)"),
        .value(.maxAudioSeconds, placeholder: "S", help: "longest audio file, in seconds (default 23)"),
        .value(
            .maxAudioMemory, placeholder: "N", help: "decoded audio of all files together, in bytes (default 92160000)"),
    ]
    /// The options that pick audio files and the actuator (also taken by `plot`, which renders).
    static let resourceOptions = [ActuatorArguments.profile, resources, allowAnyPath] + audioLimits
    static let options =
        [sampleRate, channels, ActuatorArguments.layout, voices] + resourceOptions + [hapticsFromAudio, preset, hapticOffset]

    static let channelHelp = """
        Channel map entries, one per output channel: L R (audio), M (audio mono), H (haptic),
        L+H R+H M+H (audio with haptic mixed in, for speakers), 0 (silence),
        T (trigger: a 1 ms full-scale pulse at every event onset, for a DAQ or oscilloscope).
        \(ActuatorArguments.help)
        """

    /// The engine settings given (the command's own options only; the others stay unset).
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> EngineSettings {
        var settings = EngineSettings()
        settings.sampleRate = try arguments.int(.sampleRate, in: EngineSettings.sampleRates)
        settings.channels = arguments.value(.channels)
        settings.layout = arguments.value(.layout)
        settings.profiles = arguments.allValues(.profile)
        settings.voices = try arguments.int(.voices, in: EngineSettings.voiceCounts)
        settings.maxAudioBytes = try arguments.int(.maxAudioBytes, in: EngineSettings.audioByteRange)
        settings.maxAudioSeconds = try arguments.double(.maxAudioSeconds, in: EngineSettings.audioSecondRange)
        settings.maxAudioMemory = try arguments.int(.maxAudioMemory, in: EngineSettings.audioMemoryRange)
        settings.resources = arguments.allValues(.resources)
        settings.allowAnyPath = arguments.flag(.allowAnyPath)
        settings.hapticsFromAudio = arguments.flag(.hapticsFromAudio)
        settings.preset = arguments.value(.preset)
        settings.hapticOffsetMilliseconds = try arguments.double(.hapticOffset, in: EngineSettings.hapticOffsetRange)
        return settings
    }
}

/// The options that choose the actuators: `--layout`, and `--profile` for all of them or one
/// (`--profile leftHandle=lra`); `--channels` is `EngineArguments.channels`.
enum ActuatorArguments {
    static let layout = OptionSpec.value(
        .layout, placeholder: "NAME", values: .layout,
        help: "the channels of a known device instead of --channels: dualsense (= L,R,H:leftHandle,H:rightHandle)")
    static let profile = OptionSpec.value(
        .profile, placeholder: "[NAME=]PROFILE", values: .profile,
        help: "actuator profile (default, lra, speaker, a JSON file or Meta's .acf); NAME=PROFILE for one actuator (repeatable)")

    static let help = """
        Several actuators: H:NAME carries the actuator NAME (leftHandle, rightHandle, leftTrigger, rightTrigger,
        or a name of your own); H alone is the actuator 'default'. PATTERN@NAME plays a pattern on one actuator,
        or on each actuator of a group (handles, triggers, all); a pattern without @ plays on every actuator.
        Several patterns play together, on one clock.
        """
}

/// The loop, rate and seek options shared by `play` and `render` (the advanced player's transport).
enum TransportArguments {
    static let options: [OptionSpec] = [
        .flag(.loop, help: "loop forever ('render' then needs --duration)"),
        .value(.loops, placeholder: "N", help: "play the pattern N times in total, then its release tail"),
        .value(.loopEnd, placeholder: "S", help: "loop point in pattern seconds (default: the pattern's end)"),
        .value(.rate, placeholder: "R", help: "playback rate, > 0 (2 = twice as fast; pitch is unchanged)"),
        .value(.seek, placeholder: "S", help: "start S seconds into the pattern"),
        .value(.duration, placeholder: "S", help: "stop after S seconds (render: exactly S seconds)"),
    ]

    /// The transport given.
    static func transport(_ arguments: ParsedArguments) throws -> Transport {
        try Transport(
            loop: arguments.flag(.loop), passes: arguments.int(.loops, in: Transport.passRange),
            loopEnd: arguments.double(.loopEnd, in: Transport.loopEndRange), rate: arguments.double(.rate, in: Transport.rates),
            seek: arguments.double(.seek, in: Transport.seekRange), duration: arguments.double(.duration, in: Transport.durationRange))
    }
}

/// The pattern limits' options.
enum PatternLimitArguments {
    static let options: [OptionSpec] = [
        .value(.maxPatternBytes, placeholder: "N", help: "largest pattern file read, in bytes (default 4000000)"),
        .value(.maxEvents, placeholder: "N", help: "most events and parameter steps in a pattern (default 100000)"),
        .value(.maxCurvePoints, placeholder: "N", help: "most curve control points in a pattern (default 100000)"),
    ]

    /// The limits given, defaults for the others.
    static func limits(_ arguments: ParsedArguments) throws -> PatternLimits {
        try PatternLimits(
            maxBytes: arguments.int(.maxPatternBytes, in: PatternLimits.byteRange),
            maxEvents: arguments.int(.maxEvents, in: PatternLimits.countRange),
            maxCurvePoints: arguments.int(.maxCurvePoints, in: PatternLimits.countRange))
    }
}

/// The patterns of the positional `PATTERN[@ACTUATOR]` arguments, in order.
func patterns(_ arguments: ParsedArguments, limits: PatternLimits) throws(ServiceError) -> [PatternToPlay] {
    var loaded: [PatternToPlay] = []
    for argument in arguments.positionals { loaded.append(try Patterns.load(argument, limits: limits)) }
    return loaded
}
