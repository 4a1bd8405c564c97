import AudioResources
import FoundationStandIns
import Glibc
import RenderCore
import Thrum

/// The settings of an engine that `render`, `play`, `check`, `info`, the studio, libthrum and Python share:
/// its rate, channels and actuators, voices, where audio files are found and how large they may be, and
/// haptics derived from audio. Each field is the command line's option of the same name (`sampleRate`:
/// `--sample-rate`); nil or empty: not given. A value; thread-safe.
package struct EngineSettings: Sendable, Equatable {
    /// Frames per second (`--sample-rate`); nil: 48000.
    package var sampleRate: Int?
    /// Channel map text (`--channels`: `L+H,R+H`, `L,R,H`, …); nil: the caller's default.
    package var channels: String?
    /// A known device's channels instead of `channels` (`--layout dualsense`).
    package var layout: String?
    /// Actuator profiles in order (`--profile`, repeatable): a profile for every actuator, or `NAME=PROFILE`.
    package var profiles: [String] = []
    /// Voices sounding at once (`--voices`); nil: 64.
    package var voices: Int?
    /// More folders where audio files are found (`--resources`, repeatable).
    package var resources: [String] = []
    /// Absolute audio paths and paths outside the resource folders (`--allow-any-path`).
    package var allowAnyPath = false
    /// Audio file limits (`--max-audio-bytes`, `--max-audio-seconds`, `--max-audio-memory`); nil: the defaults.
    package var maxAudioBytes: Int?
    package var maxAudioSeconds: Double?
    package var maxAudioMemory: Int?
    /// Haptics derived from the audio played, live (`--haptics-from-audio`), with `preset`'s settings.
    package var hapticsFromAudio = false
    /// The preset of `hapticsFromAudio` (`--preset`); nil: general.
    package var preset: String?
    /// How late the haptic channels leave after the audio (`--haptic-offset`), milliseconds, −1000…1000
    /// (negative: before it); nil: each actuator profile's measured latency.
    package var hapticOffsetMilliseconds: Double?

    package init() {}

    /// What the numbers may be.
    package static let sampleRates = Int(CHHapticEngine.Options.sampleRates.lowerBound)...Int(CHHapticEngine.Options.sampleRates.upperBound)
    package static let voiceCounts = CHHapticEngine.Options.voiceCounts
    package static let audioByteRange = 1...Int(Int32.max)
    package static let audioSecondRange = 0.001...86_400.0
    package static let audioMemoryRange = 1...(1 << 40)
    package static let hapticOffsetRange = -1000.0...1000.0

    /// The engine options for the patterns at `patternPaths` (a bundled pattern's audio is found in the
    /// bundled `Audio` folder; a sound played on its own may be as long as `thrum analyze` reads);
    /// `defaultChannels` differs between play (`L+H,R+H`) and render (`L,R,H`).
    /// - Throws: ``ServiceError``: 64 a value out of range or a wrong map, layout or name; 65 a bad
    ///   profile, 66 a profile that cannot be read.
    package func engineOptions(patternPaths: [String], defaultChannels: ChannelMap) throws(ServiceError)
        -> CHHapticEngine.Options
    {
        var options = CHHapticEngine.Options()
        if let rate = try Checked.whole(sampleRate, "sample-rate", in: Self.sampleRates) { options.sampleRate = Double(rate) }
        options.channelMap = try channelMap(default: defaultChannels)
        try applyProfiles(to: &options)
        options.maxVoices = try Checked.whole(voices, "voices", in: Self.voiceCounts) ?? options.maxVoices
        options.hapticOffset =
            try Checked.number(hapticOffsetMilliseconds, "haptic-offset", in: Self.hapticOffsetRange).map { $0 / 1000 }
        var limits = AudioResourceLimits()
        limits.maxFileBytes = try Checked.whole(maxAudioBytes, "max-audio-bytes", in: Self.audioByteRange) ?? limits.maxFileBytes
        limits.maxDurationSeconds =
            try Checked.number(maxAudioSeconds, "max-audio-seconds", in: Self.audioSecondRange) ?? limits.maxDurationSeconds
        limits.maxTotalDecodedBytes =
            try Checked.whole(maxAudioMemory, "max-audio-memory", in: Self.audioMemoryRange) ?? limits.maxTotalDecodedBytes
        options.resourceLimits = limits
        options.resourceRoots = resources
        for root in patternPaths.flatMap(BundledResources.audioRoots(for:)) where !options.resourceRoots.contains(root) {
            options.resourceRoots.append(root)
        }
        options.allowAnyResourcePath = allowAnyPath
        if hapticsFromAudio {
            options.hapticsFromAudio = try preset.map(AnalysisSettingsFile.preset(named:)) ?? .general
        } else if preset != nil {
            throw .usage("--preset chooses the settings of --haptics-from-audio; add --haptics-from-audio")
        }
        // A sound played on its own is not an AHAP resource: it may be as long as 'thrum analyze' reads.
        if patternPaths.contains(where: Sounds.isSound) { options.resourceLimits = Sounds.analysisLimits }
        return options
    }

    /// The channel map of `layout` or `channels`, else `fallback`.
    /// - Throws: 64 for both at once, an unknown layout or a wrong map.
    package func channelMap(default fallback: ChannelMap) throws(ServiceError) -> ChannelMap {
        guard let name = layout else {
            guard let channels else { return fallback }
            do {
                return try ChannelMap(parsing: channels)
            } catch {
                throw .usage("--channels: \(error)")
            }
        }
        if channels != nil { throw .usage("use either --layout or --channels, not both") }
        guard let layout = ChannelMap.layouts.first(where: { $0.name == name.lowercased() }) else {
            throw .usage(
                "--layout \(name): unknown layout; known layouts: "
                    + ChannelMap.layouts.map(\.name).joined(separator: ", ") + " (or give --channels MAP)")
        }
        return layout.map
    }

    /// The channels per frame of a channel map (`L,R,H`: 3, `M+H`: 1) as `--channels` reads it.
    /// - Throws: 64 for a wrong map.
    package static func channelCount(_ channels: String) throws(ServiceError) -> Int {
        var settings = EngineSettings()
        settings.channels = channels
        return try settings.channelMap(default: .separate).channelCount
    }

    /// Applies `profiles` in order: a plain profile to every actuator not named, `NAME=PROFILE` to the
    /// actuator NAME of the map (or each actuator of a group).
    /// - Throws: 64 for a name the map does not carry; 66 a profile that cannot be read, 65 a wrong one.
    package func applyProfiles(to options: inout CHHapticEngine.Options) throws(ServiceError) {
        let names = options.channelMap.actuators
        let rate = options.sampleRate
        func load(_ text: String) throws(ServiceError) -> ActuatorProfile {
            let profile = try Self.loadProfile(text)
            do {
                try profile.validate(sampleRate: rate)
            } catch {
                throw ServiceError(.dataError, "actuator profile \(text): \(error)")
            }
            return profile
        }
        var chosen: [(name: String, profile: ActuatorProfile)] = []
        for value in profiles {
            guard let equals = value.firstIndex(of: "="),
                let name = ActuatorNames.canonical(String(value[..<equals]))
            else {
                options.actuatorProfile = try load(value)
                continue
            }
            let members: [String]
            if name == GCHapticsLocality.all.rawValue {
                members = names
            } else if let group = ActuatorNames.members(ofGroup: name) {
                members = group.filter(names.contains)
            } else {
                members = names.contains(name) ? [name] : []
            }
            guard !members.isEmpty else {
                throw .usage(
                    "--profile \(value): the channel map \(options.channelMap) has no actuator '\(name)' "
                        + "(its actuators: \(names.joined(separator: ", ")))")
            }
            let profile = try load(String(value[value.index(after: equals)...]))
            for member in members {
                chosen.removeAll { $0.name == member }
                chosen.append((member, profile))
            }
        }
        options.actuators = chosen.map { Actuator(name: $0.name, profile: $0.profile) }
    }

    /// The built-in actuator profiles `--profile` takes by name.
    package static let namedProfiles: [(name: String, profile: ActuatorProfile)] = [
        ("default", .default), ("lra", .lra), ("speaker", .speaker),
    ]

    /// A built-in profile by name, or a JSON or Meta `.acf` file.
    /// - Throws: 66 when it is neither a name nor a readable file, 65 when the file is wrong.
    package static func loadProfile(_ argument: String) throws(ServiceError) -> ActuatorProfile {
        if let named = namedProfiles.first(where: { $0.name == argument.lowercased() }) { return named.profile }
        let descriptor = FileSystemPath.withCString(argument) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        // A profile is a few hundred bytes; 1 MB is plenty and keeps a wrong path (a device) harmless.
        defer { if descriptor >= 0 { close(descriptor) } }
        let data = descriptor < 0 ? nil : FileBytes.read(descriptor: descriptor, limit: 1 << 20)
        guard let data else {
            throw ServiceError(
                .noInput, "actuator profile '\(argument)' is neither default, lra, speaker nor a readable JSON or .acf file")
        }
        do {
            if ActuatorProfile.isActuatorConfiguration(argument) {
                return try ActuatorProfile.decode(actuatorConfiguration: data, file: argument)
            }
            return try ActuatorProfile.decode(from: data)
        } catch {
            throw ServiceError(.dataError, "actuator profile \(argument): \(error)")
        }
    }
}

extension PatternTarget {
    /// One engine per target, for its locality, all on `device`.
    /// - Throws: 64 naming a locality the device does not have, and the ones it has.
    package static func engines(on device: GCDeviceHaptics, for targets: [PatternTarget]) throws(ServiceError) -> [CHHapticEngine] {
        var engines: [CHHapticEngine] = []
        for target in targets {
            guard let engine = device.createEngine(withLocality: target.playsOn) else {
                let known = device.supportedLocalities.map(\.rawValue).sorted().joined(separator: ", ")
                throw .usage(
                    "\(target.argument): the channel map \(device.options.channelMap) has no actuator "
                        + "'\(target.playsOn)'; its localities: \(known)")
            }
            engines.append(engine)
        }
        return engines
    }
}
