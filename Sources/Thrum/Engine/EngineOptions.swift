internal import ALSAOutput
internal import AudioResources
internal import RenderCore

extension CHHapticEngine {
    /// Where an engine sends its output.
    public enum Output: Sendable, Equatable {
        /// An ALSA playback device by name: `default`, `hw:0,0`, `plughw:1`, `pulse`, …
        case device(String)
        /// A PCM defined by ALSA configuration text (asoundrc syntax), e.g. the `file` plugin in tests.
        case alsaConfiguration(text: String, pcmName: String)
        /// No device: the caller pulls samples with `renderOffline(frameCount:into:)` (manual rendering).
        case offline
    }

    /// How an engine is set up. All sizes are fixed when the engine starts. Thread-safe (a value type).
    public struct Options: Sendable {
        /// Output device or offline rendering. Default: the ALSA `default` device.
        public var output: Output = .device("default")
        /// Engine sample rate in Hz (the clock of `currentTime`). Default 48 000.
        public var sampleRate: Double = 48_000
        /// Frames rendered and written per ALSA period. Default 256.
        public var periodFrames: Int = 256
        /// Periods in the ALSA buffer. Default 4.
        public var periodCount: Int = 4
        /// Output channels: which bus each carries. Default `L+H,R+H` (hear everything on speakers).
        public var channelMap: ChannelMap = .speakers
        /// The profile of every actuator `actuators` does not list (frequency band, intensity law, limiter).
        public var actuatorProfile: ActuatorProfile = .default
        /// Actuators of the channel map by name (`H:NAME`; a plain `H` is `default`), each with its own profile
        /// and, for spatial panning, its position. An actuator of the map not listed here has `actuatorProfile`
        /// and its default place (`Actuator.defaultPositions(for:)`); listing one the map does not carry is an
        /// error. Default: none listed.
        public var actuators: [Actuator] = []
        /// Folders searched for `EventWaveformPath` files after the AHAP file's own folder.
        public var resourceRoots: [String] = []
        /// Accept absolute audio paths and paths leading outside every root (`--allow-any-path`).
        public var allowAnyResourcePath = false
        /// Size, length and memory limits for audio files.
        public var resourceLimits: AudioResourceLimits = .default
        /// Voices sounding at once; more are dropped and counted.
        public var maxVoices = 64
        /// Pattern instances playing at once (each `start` of a player takes one until it ends).
        public var maxPlayers = 32
        /// Parameter changes (`sendParameters` values, `scheduleParameterCurve` pieces) that may wait for their
        /// time at once, over all players; one more is refused with `resourceNotAvailable`. Default 1024.
        public var maxPendingParameters = 1024
        /// Pause, resume, seek, rate and loop commands that may wait for their time at once, over all players;
        /// one more is refused with `resourceNotAvailable`. Default 256.
        public var maxPendingCommands = 256
        /// Idle time before auto-shutdown when `isAutoShutdownEnabled` (seconds). Apple uses about 2 minutes.
        public var idleTimeout: TimeInterval = 120
        /// SCHED_FIFO priority of the render thread, or nil for normal scheduling (a refusal is a warning).
        public var realtimePriority: Int32? = 70
        /// Lock the process's memory (`mlockall(MCL_CURRENT)`) when the device starts, so no page of the
        /// render path can fault. Off by default: it costs about 110 ms at start and locks every mapped
        /// page (hundreds of MB of RSS for a Swift process); turn it on for long sessions on a loaded machine.
        public var lockMemory = false

        /// Haptics from audio: when set, the haptic bus also carries haptics derived on the render thread
        /// from the audio the engine plays (AudioCustom and AudioContinuous events), with these analysis
        /// settings — level, sharpness and onsets drive a vibration in the actuator's band. Live audio has
        /// no known peak, so a full-scale sine maps to intensity 1 (`normalize` does not apply). Default nil.
        public var hapticsFromAudio: AnalysisSettings? = nil

        /// Called once for every event onset the engine plays (a Thrum addition for research timing; see
        /// docs/timing.md): the event, its pattern time, the stream frame it was rendered on and, live, the
        /// CLOCK_MONOTONIC time that frame left the DAC. Called in order, on a thread of the engine's own
        /// (live, shortly after the frame left the DAC) or on the `renderOffline` caller's thread (offline,
        /// `dacTime` nil); never on the render thread. Keep it short: onsets wait while it runs. Default nil
        /// (no onsets are reported).
        public var onsetHandler: (@Sendable (ThrumOnset) -> Void)? = nil
        /// Onsets that may wait for `onsetHandler` at once (the render thread's report ring); more are not
        /// reported and are counted in `CHHapticEngine.lostOnsetCount`. Default 4096.
        public var maxPendingOnsets = 4096

        /// Latency compensation (a Thrum addition; docs/measure.md): how many seconds the haptic channels leave
        /// the device after the audio (negative: before it, by delaying the audio), for every actuator. Nil
        /// (the default): each actuator's profile's measured latency (`ActuatorProfile.latency`) puts its
        /// vibration ahead of the audio by the actuator's part, so sound and vibration start together; without
        /// a measured profile nothing is delayed. Within −1…1 s.
        public var hapticOffset: TimeInterval? = nil

        /// Options with the defaults above.
        public init() {}
    }
}

extension CHHapticEngine.Options {
    // The one declaration of each option's range: `CHHapticEngine(options:)` refuses values outside it with
    // `invalidEngineParameter`, and the command line's flags check against the same ranges.

    /// `sampleRate` in Hz.
    public static let sampleRates: ClosedRange<Double> = 1000...ActuatorProfile.highestSampleRate
    /// `periodFrames`.
    public static let periodFrameCounts: ClosedRange<Int> = 16...8192
    /// `periodCount`.
    public static let periodCounts: ClosedRange<Int> = 2...64
    /// `maxVoices`.
    public static let voiceCounts: ClosedRange<Int> = 1...1024
    /// `maxPlayers`.
    public static let playerCounts: ClosedRange<Int> = 1...256
    /// `hapticOffset`, seconds.
    public static let hapticOffsets: ClosedRange<Double> = -1...1
    /// `maxPendingParameters` and `maxPendingCommands`.
    public static let pendingCounts: ClosedRange<Int> = 1...65536

    /// The first option outside its range, described, or nil when all are inside.
    func rangeProblem() -> String? {
        func outside(_ name: String, _ value: Int, _ range: ClosedRange<Int>, _ unit: String = "") -> String? {
            range.contains(value) ? nil : "\(name) \(value)\(unit) is outside \(range.lowerBound)–\(range.upperBound)\(unit)"
        }
        let rates = Int(Self.sampleRates.lowerBound)...Int(Self.sampleRates.upperBound)
        return (Self.sampleRates.contains(sampleRate) ? nil : "sample rate \(sampleRate) Hz is outside \(rates.lowerBound)–\(rates.upperBound) Hz")
            ?? outside("periodFrames", periodFrames, Self.periodFrameCounts)
            ?? outside("periodCount", periodCount, Self.periodCounts)
            ?? outside("maxVoices", maxVoices, Self.voiceCounts)
            ?? outside("maxPlayers", maxPlayers, Self.playerCounts)
            ?? outside("maxPendingParameters", maxPendingParameters, Self.pendingCounts)
            ?? outside("maxPendingCommands", maxPendingCommands, Self.pendingCounts)
            ?? hapticOffset.flatMap { Self.hapticOffsets.contains($0) ? nil : "hapticOffset \($0) s is outside −1…1 s" }
    }
}

