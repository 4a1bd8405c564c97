import AudioResources
import FoundationEssentials
import FoundationStandIns
import RenderCore
import Thrum

/// Finds the files Thrum ships (`Patterns`, `Actuators`, `Audio`, `Studio`): `$THRUM_RESOURCES`; else, from
/// the folder of the file holding this code (`thrum`, or `libthrum.so` loaded by another program) and then
/// from the executable's, `../share/thrum` (an installed prefix) or the nearest `Resources` folder above (a
/// SwiftPM build tree).
enum BundledResources {
    static let folder: String? = {
        if let override = FileSystem.environment("THRUM_RESOURCES") { return override }
        for start in [imagePath(), "/proc/self/exe"].compactMap({ $0 }) {
            var folder = PathName.parent(FileSystem.resolvingSymlinks(start))
            let installed = PathName.appending(PathName.parent(folder), "share/thrum")
            if FileSystem.exists(PathName.appending(installed, "Patterns")) { return installed }
            for _ in 0..<6 {
                if FileSystem.exists(PathName.appending(folder, "Resources/Patterns")) {
                    return PathName.appending(folder, "Resources")
                }
                folder = PathName.parent(folder)
            }
        }
        return nil
    }()

    /// The file mapped at this module's code (glibc's dladdr is not visible to Swift): from /proc/self/maps.
    private static func imagePath() -> String? {
        let address = UInt(bitPattern: #dsohandle)
        // Read to the end: /proc files say they are empty.
        guard let data = FileBytes.read(path: "/proc/self/maps", limit: 64 << 20) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            guard fields.count == 6, range.count == 2, range[0] <= address, address < range[1] else { continue }
            return fields[5].trimmingSpaces
        }
        return nil
    }

    static var patterns: String? { folder.map { $0 + "/Patterns" } }
    static var audio: String? { folder.map { $0 + "/Audio" } }

    /// `Resources/Audio` for a bundled pattern (its audio lives there), else nothing.
    static func audioRoots(for patternPath: String) -> [String] {
        guard let audio, let patterns,
            PathName.parent(FileSystem.resolvingSymlinks(patternPath)) == FileSystem.resolvingSymlinks(patterns)
        else { return [] }
        return [audio]
    }

    /// The path of a pattern argument: an existing file as given, else a bundled pattern by name
    /// (case-insensitive, with or without `.ahap`).
    static func patternPath(_ argument: String) -> String {
        if FileSystem.exists(argument) || argument.contains("/" as Character) { return argument }
        guard let folder = patterns, let names = FileSystem.directoryEntries(folder) else { return argument }
        let wanted = argument.lowercased().hasSuffix(".ahap") ? argument.lowercased() : argument.lowercased() + ".ahap"
        guard let match = names.first(where: { $0.lowercased() == wanted }) else { return argument }
        return folder + "/" + match
    }
}

/// Options shared by the commands that build an engine (`render`, `play`).
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

    /// Extensions of sound files a PATTERN argument may name: the sound plays as one AudioCustom event.
    static let soundExtensions: Set<String> = ["wav", "aif", "aiff", "aifc", "flac", "ogg", "oga", "caf", "au", "w64"]

    static func isSound(_ path: String) -> Bool {
        soundExtensions.contains(PathName.fileExtension(path).lowercased())
    }

    static let channelHelp = """
        Channel map entries, one per output channel: L R (audio), M (audio mono), H (haptic),
        L+H R+H M+H (audio with haptic mixed in, for speakers), 0 (silence),
        T (trigger: a 1 ms full-scale pulse at every event onset, for a DAQ or oscilloscope).
        \(ActuatorArguments.help)
        """

    /// Engine options from the command line for the patterns at `patternPaths`; `defaultChannels` differs
    /// between play and render.
    static func engineOptions(
        _ arguments: ParsedArguments, patternPaths: [String], defaultChannels: ChannelMap
    ) throws -> CHHapticEngine.Options {
        var options = CHHapticEngine.Options()
        if let rate = try arguments.int(.sampleRate, in: Int(CHHapticEngine.Options.sampleRates.lowerBound)...Int(CHHapticEngine.Options.sampleRates.upperBound)) { options.sampleRate = Double(rate) }
        options.channelMap = try ActuatorArguments.channelMap(arguments, default: defaultChannels)
        try ActuatorArguments.applyProfiles(arguments, to: &options)
        options.maxVoices = try arguments.int(.voices, in: CHHapticEngine.Options.voiceCounts) ?? options.maxVoices
        options.hapticOffset = try arguments.double(.hapticOffset, in: -1000...1000).map { $0 / 1000 }
        var limits = AudioResourceLimits()
        limits.maxFileBytes = try arguments.int(.maxAudioBytes, in: 1...Int(Int32.max)) ?? limits.maxFileBytes
        limits.maxDurationSeconds = try arguments.double(.maxAudioSeconds, in: 0.001...86_400) ?? limits.maxDurationSeconds
        limits.maxTotalDecodedBytes = try arguments.int(.maxAudioMemory, in: 1...(1 << 40)) ?? limits.maxTotalDecodedBytes
        options.resourceLimits = limits
        options.resourceRoots = arguments.allValues(.resources)
        for root in patternPaths.flatMap(BundledResources.audioRoots(for:)) where !options.resourceRoots.contains(root) {
            options.resourceRoots.append(root)
        }
        options.allowAnyResourcePath = arguments.flag(.allowAnyPath)
        if arguments.flag(.hapticsFromAudio) {
            options.hapticsFromAudio = try arguments.value(.preset).map(AnalysisSettingsFile.preset(named:)) ?? .general
        } else if arguments.value(.preset) != nil {
            throw UsageError(message: "--preset chooses the settings of --haptics-from-audio; add --haptics-from-audio")
        }
        // A sound played on its own is not an AHAP resource: it may be as long as 'thrum analyze' reads.
        if patternPaths.contains(where: isSound) { options.resourceLimits = analysisLimits }
        return options
    }

    /// The built-in actuator profiles `--profile` takes by name.
    static let namedProfiles: [(name: String, profile: ActuatorProfile)] = [
        ("default", .default), ("lra", .lra), ("speaker", .speaker),
    ]

    static func loadProfile(_ argument: String) throws -> ActuatorProfile {
        if let named = namedProfiles.first(where: { $0.name == argument.lowercased() }) { return named.profile }
        let descriptor = FileSystemPath.withCString(argument) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        // A profile is a few hundred bytes; 1 MB is plenty and keeps a wrong path (a device) harmless.
        defer { if descriptor >= 0 { close(descriptor) } }
        let data = descriptor < 0 ? nil : FileBytes.read(descriptor: descriptor, limit: 1 << 20)
        guard let data else {
            throw CommandFailure(
                .noInput, "actuator profile '\(argument)' is neither default, lra, speaker nor a readable JSON or .acf file")
        }
        do {
            if ActuatorProfile.isActuatorConfiguration(argument) {
                return try ActuatorProfile.decode(actuatorConfiguration: data, file: argument)
            }
            return try ActuatorProfile.decode(from: data)
        } catch {
            throw CommandFailure(.dataError, "actuator profile \(argument): \(error)")
        }
    }

    /// The CHHapticPattern of a pattern argument (bundled name, file, a sound file played as one
    /// AudioCustom event, or `-` for standard input, whose audio paths resolve against the resource
    /// folders only) and its name; exit 66 missing, 65 bad.
    static func pattern(_ argument: String, limits: PatternLimits) throws -> (CHHapticPattern, String) {
        let path = argument == "-" ? argument : BundledResources.patternPath(argument)
        if path != "-" && isSound(path) {
            guard FileSystem.exists(path) else {
                throw CommandFailure(.noInput, "cannot open '\(path)': no such file (check the path)")
            }
            let sound = PatternData(events: [EventData(type: .audioCustom, time: 0, waveformPath: PathName.lastComponent(path))])
            return (CHHapticPattern(data: sound, sourceFolder: PatternInput.folder(of: path)), path)
        }
        let pattern = try loadPattern(path, limits: limits).pattern
        let folder = path == "-" ? nil : PatternInput.folder(of: path)
        return (CHHapticPattern(data: pattern, sourceFolder: folder), PatternInput.displayName(path))
    }

    /// The patterns of the positional `PATTERN[@ACTUATOR]` arguments, in order.
    static func patterns(_ arguments: ParsedArguments, limits: PatternLimits) throws -> [PatternArgument] {
        try arguments.positionals.map { argument in
            let target = PatternTarget(argument)
            let (pattern, path) = try pattern(target.pattern, limits: limits)
            return PatternArgument(target: target, pattern: pattern, path: path)
        }
    }
}

/// A pattern argument of the command line, loaded, with where it plays.
struct PatternArgument {
    let target: PatternTarget
    let pattern: CHHapticPattern
    /// The file it came from (a bundled pattern's full path), as shown in messages.
    let path: String
}

/// The exit code and message for an error from the engine.
func commandFailure(_ error: any Error, patternPath: String) -> CommandFailure {
    guard let error = error as? CHHapticError else { return CommandFailure(.software, "\(error)") }
    switch error.code {
    case .serverInitFailed, .serverInterrupted:
        return CommandFailure(.unavailable, error.message)
    case .fileNotFound, .invalidAudioResource, .resourceNotAvailable:
        return CommandFailure(.dataError, "\(patternPath): \(error.message)")
    default:
        return CommandFailure(.dataError, "\(patternPath): \(error.message) [\(error.code)]")
    }
}

/// Patterns playing together on an offline device from frame 0, each on its locality: the samples `render`
/// writes and `plot` draws, made by the same render core `play` drives.
struct OfflineRender {
    let device: GCDeviceHaptics
    /// One engine per pattern, for its locality.
    let engines: [CHHapticEngine]
    let players: [any CHHapticAdvancedPatternPlayer]

    /// Starts `patterns` at once on an offline device with `options` (its output is set to offline).
    init(_ patterns: [PatternArgument], options: CHHapticEngine.Options, transport: TransportArguments?) throws {
        var options = options
        options.output = .offline
        do {
            device = try GCDeviceHaptics(options: options)
        } catch {
            throw commandFailure(error, patternPath: patterns.first?.path ?? "")
        }
        engines = try ActuatorArguments.engines(on: device, for: patterns.map(\.target))
        var players: [any CHHapticAdvancedPatternPlayer] = []
        for (engine, loaded) in zip(engines, patterns) {
            do {
                let player = try engine.makeAdvancedPlayer(with: loaded.pattern)
                try transport?.apply(to: player)
                try engine.start()
                players.append(player)
            } catch let error as UsageError {
                throw error
            } catch {
                throw commandFailure(error, patternPath: loaded.path)
            }
        }
        for (player, loaded) in zip(players, patterns) {
            do {
                try player.start(atTime: CHHapticTimeImmediate)
            } catch {
                throw commandFailure(error, patternPath: loaded.path)
            }
        }
        self.players = players
    }

    /// The engine frame at which the last pattern ended (release tails included); nil while one plays.
    var endFrame: UInt64? {
        let ends = players.map { ($0 as? ThrumPlayerState)?.endFrame }
        return ends.contains(nil) ? nil : ends.compactMap { $0 }.max()
    }

    /// What a render made and lost.
    struct Outcome {
        /// Frames rendered.
        var frames: Int
        /// Events that found no free voice and did not play.
        var droppedEvents: Int
        /// Non-finite samples the renderer's last guard replaced by 0 (never, for a valid pattern).
        var zeroedSamples: Int

        /// "; 3 events dropped …" for a summary line, or "" when nothing was lost.
        func losses(voices: Int) -> String {
            var text = ""
            if droppedEvents > 0 {
                text += "; \(droppedEvents) event\(droppedEvents == 1 ? "" : "s") dropped: more than \(voices) sounding at once (raise the pool with --voices N)"
            }
            if zeroedSamples > 0 { text += "; \(zeroedSamples) non-finite samples replaced by silence" }
            return text
        }
    }

    /// Renders block by block until every pattern has ended (its release tails included), or exactly
    /// `limit` frames, at most `maxFrames`; hands each block, interleaved, to `consume`.
    func run(limit: Int?, maxFrames: Int = .max, _ consume: (UnsafeBufferPointer<Float>) throws -> Void) throws -> Outcome {
        let channels = device.options.channelMap.channelCount
        // 4096 frames: the writer hands each block to write(2) whole, and the kernel takes writes under ~32 KB
        // at about twice the system time per byte (dd of 345 MB here: 12 KB writes 0.15–0.18 s, 32 KB and
        // up 0.06–0.09 s); the output does not depend on the block size.
        let block = 4096
        var buffer = [Float](repeating: 0, count: block * channels)
        var rendered = 0
        while true {
            let count = min(block, (limit ?? .max) - rendered, maxFrames - rendered)
            if count <= 0 { break }
            let step = try buffer.withUnsafeMutableBufferPointer {
                try self.step(into: $0.baseAddress!, frameCount: count, rendered: rendered, limit: limit)
            }
            try buffer.withUnsafeBufferPointer { try consume(UnsafeBufferPointer(rebasing: $0[0..<(step.frames * channels)])) }
            rendered += step.frames
            if step.ended { break }
        }
        return finish(frames: rendered)
    }

    /// Renders the next `frameCount` frames into `buffer` (interleaved) after `rendered` frames, and says how
    /// many of them belong to the render: all of them with a `limit`, else those before the last pattern's end.
    /// - Returns: the frames that count, and whether the render is over (every pattern ended; never with a limit).
    func step(
        into buffer: UnsafeMutablePointer<Float>, frameCount: Int, rendered: Int, limit: Int?
    ) throws -> (frames: Int, ended: Bool) {
        try engines[0].renderOffline(frameCount: frameCount, into: buffer)  // renders the device: every engine's players
        guard limit == nil, let end = endFrame else { return (frameCount, false) }
        return (max(0, min(frameCount, Int(end) - rendered)), true)
    }

    /// Stops the engines after `frames` frames and says what the render lost.
    func finish(frames: Int) -> Outcome {
        let engine = engines[0]
        let outcome = Outcome(
            frames: frames, droppedEvents: engine.voiceOverflowCount, zeroedSamples: engine.nonFiniteSampleCount)
        for engine in engines { engine.stop() }
        return outcome
    }
}
