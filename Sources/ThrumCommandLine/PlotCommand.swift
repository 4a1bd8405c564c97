import AudioResources
import FoundationEssentials
import FoundationStandIns
import RenderCore
import Thrum
import Glibc
import ThrumModel
import ThrumServices

/// PNG output: the SVG converted by `rsvg-convert` (Debian package `librsvg2-bin`).
enum PlotPNG {
    static let tool = "rsvg-convert"
    static let package = "librsvg2-bin"

    /// The message for exit 69 when the converter is missing.
    static let missingToolMessage =
        "PNG output needs '\(tool)', which is not installed; install the Debian package \(package) "
        + "(sudo apt-get install \(package)) or write an .svg file instead"

    /// The first executable `name` in the colon-separated `searchPath`; nil when there is none.
    static func find(_ name: String, in searchPath: String?) -> String? {
        for folder in (searchPath ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/" + name
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// Converts `svg` to PNG with the tool at `toolPath`, which writes into a temporary folder; the caller
    /// writes the file (so a failing converter leaves no half-written file).
    static func convert(_ svg: String, toolPath: String) throws -> Data {
        let folder: String
        do {
            folder = try FileSystem.makeTemporaryFolder(prefix: "thrum-plot-")
        } catch {
            throw ServiceError(.ioError, "cannot create a temporary folder: \(error.reason)")
        }
        let input = folder + "/plot.svg"
        let output = folder + "/plot.png"
        let errors = folder + "/errors.txt"
        defer {
            for file in [input, output, errors] { unlink(file) }
            rmdir(folder)
        }
        do throws(AudioResourceError) {
            try OutputFile.write(Data(svg.utf8), to: input)
        } catch {
            throw ServiceError(.ioError, "cannot write a temporary SVG: \(error.writeReason)")
        }
        let converter: pid_t
        do {
            converter = try Subprocess.spawn(
                toolPath, ["--format", "png", "--background-color", "white", input], output: output, error: errors)
        } catch {
            throw ServiceError(.unavailable, "\(error); " + missingToolMessage)
        }
        let ending = Subprocess.wait(converter)
        guard ending == .exited(0), let image = FileBytes.read(path: output, limit: 1 << 30) else {
            let message = String(decoding: FileBytes.read(path: errors, limit: 1 << 20) ?? Data(), as: UTF8.self)
            let detail = message.trimmingSpacesAndNewlines.replacing("\n", with: "; ")
            throw ServiceError(.ioError, "\(tool) could not convert the plot to PNG" + (detail.isEmpty ? "" : ": \(detail)"))
        }
        return image
    }
}

/// The longest stretch a plot covers, in seconds: its waveforms are kept in memory (at 8 kHz, 600 s
/// of three channels is 58 MB).
let maxPlotSeconds = 600.0

let plotCommand = Subcommand(
    spec: CommandSpec(
        name: "plot",
        summary: "Draw a pattern's timeline (events, effective intensity and sharpness, rendered waveforms) as SVG or PNG.",
        positionalUsage: "PATTERN[@ACTUATOR]", minPositionals: 1, maxPositionals: 1, positionalValues: .pattern,
        options: [
            .value(
                .output, short: "o", placeholder: "FILE", values: .files(["svg", "png"]),
                help: "the file to write: .svg, or .png (needs rsvg-convert); '-': SVG to standard output"),
            .value(
                .duration, placeholder: "S",
                help: "plot S seconds, at most \(Int(maxPlotSeconds)) (default: the pattern plus its release tail)"),
            .value(.width, placeholder: "PX", help: "image width in pixels, 400 to 8000 (default 1200)"),
            .value(.loopEnd, placeholder: "S", help: "draw a dashed loop-end line at S seconds (0 = the pattern's end)"),
            .value(.sampleRate, placeholder: "HZ", help: "render the waveforms at this rate (default 48000; 8000 beyond 10 s)"),
        ] + [EngineArguments.channels, ActuatorArguments.layout] + EngineArguments.resourceOptions + PatternLimitArguments.options,
        details: """
            PATTERN is an AHAP file, the name of a bundled pattern (see 'thrum list'), or - for standard input.
            Lanes show each event by type (T transient, C continuous, A audio tone, audio files by name);
            the middle panel shows effective intensity (event × HapticIntensityControl) and sharpness
            (event + HapticSharpnessControl) while a haptic event plays; below are the rendered haptic
            channel of each actuator of --channels or --layout (PATTERN@ACTUATOR plays on one of them), audio left
            and audio right (min/max per pixel column).
            PNG files are converted from the SVG by rsvg-convert (Debian package librsvg2-bin).
            A plot covers at most \(Int(maxPlotSeconds)) s; a longer pattern needs --duration S to plot its start.
            Exit status: 0 ok, 64 usage, 65 bad pattern or audio file, 66 pattern missing,
            69 rsvg-convert missing (PNG only), 74 cannot write.
            """),
    run: { arguments, console in
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum plot' needs -o FILE (an .svg or .png file to write)")
        }
        let toStandardOutput = output == "-"
        let format = toStandardOutput ? "svg" : PathName.fileExtension(output).lowercased()
        guard format == "svg" || format == "png" else {
            throw UsageError(
                message: "-o \(output): the file name must end in .svg or .png"
                    + (format.isEmpty ? "" : ", not .\(PathName.fileExtension(output))") + " (or be - for SVG on standard output)")
        }
        let width = try arguments.int(.width, in: 400...8000) ?? 1200
        let duration = try arguments.double(.duration, in: 0.001...maxPlotSeconds)
        let loopEndArgument = try arguments.double(.loopEnd, in: 0...maxPlotSeconds)
        // Find the converter before rendering, so a missing tool fails fast.
        var toolPath: String?
        if format == "png" {
            guard let found = PlotPNG.find(PlotPNG.tool, in: FileSystem.environment("PATH")) else {
                throw ServiceError(.unavailable, PlotPNG.missingToolMessage)
            }
            toolPath = found
        }

        let patterns = try patterns(arguments, limits: PatternLimitArguments.limits(arguments))
        let (pattern, path) = (patterns[0].pattern, patterns[0].name)
        if duration == nil && pattern.duration > maxPlotSeconds {
            throw ServiceError(
                .dataError,
                "\(path): the pattern lasts \(PatternValidator.formatted(pattern.duration)) s, more than the \(Int(maxPlotSeconds)) s a plot covers (pass --duration S to plot its start)")
        }
        // 48 kHz shows audio files as they are; long patterns render at 8 kHz to stay quick and small.
        var options = try EngineArguments.settings(arguments).engineOptions(patternPaths: patterns.map(\.name), defaultChannels: .separate)
        if arguments.value(.sampleRate) == nil { options.sampleRate = (duration ?? pattern.duration) > 10 ? 8000 : 48000 }
        // L, R, then one channel per actuator of the map (H alone for the default actuator).
        let actuators = options.channelMap.actuators
        options.channelMap = ChannelMap(
            sources: [.left, .right] + actuators.map { _ in .haptic }, channelActuators: [nil, nil] + actuators)
        let rate = options.sampleRate

        // Render until the player ends (or for --duration), keeping every frame.
        let render = try OfflineRender(patterns, options: options, transport: nil)
        let limit = duration.map { max(1, Int(($0 * rate).rounded())) }
        let channels = options.channelMap.channelCount
        var left: [Float] = []
        var right: [Float] = []
        var haptics = actuators.map { _ in [Float]() }
        do {
            _ = try render.run(limit: limit, maxFrames: Int(maxPlotSeconds * rate)) { block in
                for frame in 0..<(block.count / channels) {
                    left.append(block[frame * channels])
                    right.append(block[frame * channels + 1])
                    for k in haptics.indices { haptics[k].append(block[frame * channels + 2 + k]) }
                }
            }
        } catch {
            throw ServiceError.engine(error, pattern: path)
        }

        let rendered = Double(left.count) / rate
        // The pattern's length with its audio files counted (the player's, as loops use it).
        let patternSeconds = (render.players.first as? ThrumPlayerState)?.duration ?? pattern.duration
        var end = duration ?? max(rendered, patternSeconds)
        let loopEnd = loopEndArgument.map { $0 > 0 ? $0 : patternSeconds }
        if duration == nil, let loopEnd { end = max(end, loopEnd) }
        if end <= 0 { end = 0.1 }
        let profile = options.actuators.first { $0.name == actuators[0] }?.profile ?? options.actuatorProfile
        let name = PathName.removingExtension(PathName.lastComponent(path))
        var timeline: PlotTimeline
        do {
            timeline = try PlotTimeline(
                name: name, pattern: pattern.data, end: end, loopEnd: loopEnd, sampleRate: rate,
                haptics: zip(actuators, haptics).map { (name: $0, samples: $1) },
                left: left, right: right, profile: profile)
        } catch {
            throw ServiceError(.dataError, "\(path): \(error)")
        }
        timeline.soundingEnd = render.endFrame.map { Double($0) / rate } ?? end
        // AudioCustom bars cover the part of the file they play: probe each file's length.
        let resolver = ResourcePathResolver(roots: options.resourceRoots, allowAnyPath: options.allowAnyResourcePath)
        for (index, event) in pattern.data.events.enumerated() where event.type == .audioCustom {
            guard let file = event.waveformPath,
                let opened = try? resolver.open(file, relativeTo: pattern.sourceFolder),
                let seconds = (try? AudioFileInfo.probe(opened))?.durationSeconds
            else { continue }
            timeline.audioSeconds[index] = seconds
        }
        let svg = PlotSVG(timeline: timeline, width: width).render()

        if toStandardOutput {
            console.writeOut(svg)
        } else {
            do {
                try OutputFile.write(toolPath.map { try PlotPNG.convert(svg, toolPath: $0) } ?? Data(svg.utf8), to: output)
            } catch let error as AudioResourceError {
                throw ServiceError(.ioError, "\(error)")
            }
        }
        let summary =
            "wrote \(toStandardOutput ? "standard output" : output): \(width) px wide, \(String(cFormat: "%.3f", end)) s, \(pattern.data.events.count) event\(pattern.data.events.count == 1 ? "" : "s")"
        if toStandardOutput { console.error(summary) } else { console.print(summary) }
        return .ok
    })
