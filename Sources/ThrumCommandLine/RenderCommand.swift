import AudioResources
import FoundationEssentials
import FoundationStandIns
import RenderCore
import Thrum
import ThrumServices

/// The peak of each channel of a rendered file.
///
/// One contiguous pass per block, free of per-sample division or modulo: the block is read in runs of
/// `lanes.count` samples (a whole number of frames), each sample folded into the lane of its position in
/// the run, so lane `j` holds the peak of channel `j % channels`; `peaks` folds the lanes into channels.
/// Not thread-safe (a value).
struct OutputMeter {
    /// Frames measured so far.
    private(set) var frames = 0
    private let channels: Int
    /// Running peaks, `framesPerRun` frames of `channels` interleaved lanes.
    private var lanes: [Float]
    private static let framesPerRun = 16

    init(channels: Int) {
        self.channels = channels
        lanes = Array(repeating: 0, count: channels * Self.framesPerRun)
    }

    /// The largest magnitude seen on each channel (linear, 0 for silence).
    var peaks: [Float] {
        (0..<channels).map { channel in stride(from: channel, to: lanes.count, by: channels).map { lanes[$0] }.max() ?? 0 }
    }

    /// Folds `samples` (interleaved, a whole number of frames) into the peaks.
    mutating func measure(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let count = samples.count
        lanes.withUnsafeMutableBufferPointer { lanes in
            let lane = lanes.baseAddress!
            let run = lanes.count
            var start = 0
            while start + run <= count {
                let block = base + start
                for j in 0..<run { lane[j] = Self.larger(lane[j], abs(block[j])) }
                start += run
            }
            // The rest is shorter than a run but starts on a frame, so lane j is still channel j % channels.
            let block = base + start
            for j in 0..<(count - start) { lane[j] = Self.larger(lane[j], abs(block[j])) }
        }
        frames += count / channels
    }

    /// `magnitude` if it exceeds `peak`, else `peak` (a plain select, which vectorises; `Swift.max` does not).
    @inline(__always)
    private static func larger(_ peak: Float, _ magnitude: Float) -> Float { peak < magnitude ? magnitude : peak }

    static func decibels(_ peak: Float) -> String {
        peak > 0 ? String(cFormat: "%.1f dBFS", 20 * log10(Double(peak))) : "silent"
    }
}

/// The longest render made without `--duration`, in seconds: a pattern (with its loops and rate) that
/// would last longer needs `--duration S`, so a tiny file cannot start writing gigabytes.
let maxRenderSecondsWithoutDuration = 600.0

/// The sample formats of `render --format`, by name.
let renderFormats: [(name: String, format: AudioSampleFormat)] = [
    ("float", .float), ("pcm16", .pcm16), ("pcm24", .pcm24), ("pcm32", .pcm32),
]

let renderCommand = Subcommand(
    spec: CommandSpec(
        name: "render",
        summary: "Render a pattern to an audio file (the same samples 'thrum play' sends to the device).",
        positionalUsage: "PATTERN[@ACTUATOR]...", minPositionals: 1, maxPositionals: nil, positionalValues: .pattern,
        options: [
            .value(
                .output, short: "o", placeholder: "FILE", values: .audioOutput,
                help: "the file to write; its extension picks the format ('-': WAV to standard output)"),
            .value(.format, placeholder: "FORMAT", values: .words(renderFormats.map(\.name)), help: "sample format: float (default), pcm16, pcm24 or pcm32"),
        ] + TransportArguments.options + EngineArguments.options + PatternLimits.options,
        details: """
            PATTERN is an AHAP file, the name of a bundled pattern (see 'thrum list'), - for standard input, or a
            sound file (WAV, FLAC, …), played as it is; --haptics-from-audio adds haptics derived from the audio live.
            Several patterns play together from the first frame; @ACTUATOR puts one on an actuator of the channel
            map (see below).
            Default channels: L,R,H (audio left, audio right, haptic). Files: WAV, AIFF, FLAC, OGG, CAF, AU, …
            Integer formats quantise as a sound card of that width receives the samples from 'thrum play'
            (round(x × 2^(bits−1)), clamped), so a capture from the card equals the render bit for bit.
            The file appears when the render is complete: an error, Ctrl-C, SIGTERM or SIGHUP leaves nothing.
            Without --duration a render may last at most \(Int(maxRenderSecondsWithoutDuration)) s.
            \(EngineArguments.channelHelp)
            Exit status: 0 ok, 64 usage, 65 bad pattern or audio file, 66 pattern missing, 74 cannot write,
            130 interrupted.
            """),
    run: { arguments, console in
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum render' needs -o FILE (the file to write)")
        }
        let toStandardOutput = output == "-"
        let fileExtension = toStandardOutput ? "wav" : PathName.fileExtension(output).lowercased()
        guard AudioFileWriter.supportedExtensions.contains(fileExtension) else {
            let known = AudioFileWriter.supportedExtensions.map { "." + $0 }.joined(separator: " ")
            throw UsageError(
                message: "-o \(output): "
                    + (fileExtension.isEmpty ? "the name has no extension to choose a format" : "'.\(fileExtension)' is not a format Thrum writes")
                    + " (use one of \(known), or - for WAV on standard output)")
        }
        let formatName = arguments.value(.format) ?? "float"
        guard let format = renderFormats.first(where: { $0.name == formatName })?.format else {
            throw UsageError(message: "--format takes float, pcm16, pcm24 or pcm32, not '\(formatName)'")
        }
        let plan = try RenderPlan(arguments) { try EngineArguments.patterns(arguments, limits: PatternLimits(arguments)) }
        let (render, options, expectedFrames) = (plan.render, plan.options, plan.expectedFrames)
        let channels = options.channelMap.channelCount
        let rate = Int(options.sampleRate)
        let interrupt = InterruptFlag()
        let writer: AudioFileWriter
        do {
            writer =
                toStandardOutput
                ? try AudioFileWriter(
                    descriptor: STDOUT_FILENO, name: "standard output", fileExtension: fileExtension, sampleRate: rate,
                    channelCount: channels, sampleFormat: format, expectedFrames: expectedFrames)
                : try AudioFileWriter(
                    path: output, sampleRate: rate, channelCount: channels, sampleFormat: format,
                    expectedFrames: expectedFrames)
        } catch {
            throw ServiceError(.ioError, "\(error)")
        }
        var progress = ProgressBar(console: console, totalFrames: expectedFrames, sampleRate: options.sampleRate)
        var meter = OutputMeter(channels: channels)
        let outcome: OfflineRender.Outcome
        do {
            outcome = try render.run(limit: plan.limit) { block in
                if interrupt.isSet { throw ServiceError(.interrupted, "interrupted; nothing was written") }
                meter.measure(block)
                try writer.write(block)
                progress.update(meter.frames)
            }
            progress.finish()
            try writer.close()
        } catch let error as AudioResourceError {
            progress.finish()
            writer.discard()
            throw ServiceError(.ioError, error.description)
        } catch {
            progress.finish()
            writer.discard()
            throw error
        }
        let labels = options.channelMap.description.split(separator: ",")
        let peaks = zip(labels, meter.peaks).map { label, peak in
            "\(label) \(String(cFormat: "%.3f", peak)) (\(OutputMeter.decibels(peak)))"
        }
        let summary =
            "wrote \(toStandardOutput ? "standard output" : output): \(outcome.frames) frames (\(String(cFormat: "%.3f", Double(outcome.frames) / options.sampleRate)) s) at \(rate) Hz, "
            + "\(writer.formatName); peak \(peaks.joined(separator: ", ")); \(writer.clippedSampleCount) clipped samples"
            + outcome.losses(voices: options.maxVoices)
        if toStandardOutput { console.error(summary) } else { console.print(summary) }
        return .ok
    })

/// What `thrum render` and libthrum's render share: the options checked, the patterns started on an
/// offline device, and how long the render is.
struct RenderPlan {
    let render: OfflineRender
    let options: CHHapticEngine.Options
    /// Exactly this many frames (`--duration`), or nil: until every pattern has ended.
    let limit: Int?
    /// The frames the render is expected to last (for the writer and the progress bar).
    let expectedFrames: Int

    /// Checks the transport options of `arguments`, then loads the `patterns`, checks the engine options
    /// for them and starts them.
    /// - Throws: `UsageError` (64), `ServiceError` (65 a render over the length limit, 66, 69).
    init(_ arguments: ParsedArguments, patterns load: () throws -> [PatternArgument]) throws {
        let transport = try TransportArguments(arguments)
        if transport.loopForever && transport.duration == nil {
            throw UsageError(message: "--loop renders forever; add --duration S")
        }
        let patterns = try load()
        let name = patterns.map(\.path).joined(separator: ", ")
        let options = try EngineArguments.engineOptions(arguments, patternPaths: patterns.map(\.path), defaultChannels: .separate)
        self.options = options
        limit = transport.duration.map { Int(($0 * options.sampleRate).rounded()) }
        let passes = Double(max(transport.passes, 1))
        let longest = patterns.map(\.pattern.duration).max() ?? 0
        let expectedSeconds = transport.duration ?? longest * passes / transport.rate
        if transport.duration == nil && expectedSeconds > maxRenderSecondsWithoutDuration {
            throw ServiceError(
                .dataError,
                "\(name): the render would last \(PatternValidator.formatted(expectedSeconds)) s, more than the "
                    + "\(Int(maxRenderSecondsWithoutDuration)) s rendered without --duration (pass --duration S to render that long)")
        }
        expectedFrames = Int(expectedSeconds * options.sampleRate)
        render = try OfflineRender(patterns, options: options, transport: transport)
    }
}

/// A progress bar on stderr for renders longer than a few seconds, shown only on a terminal.
struct ProgressBar {
    let console: Console
    let totalFrames: Int
    let sampleRate: Double
    private let enabled: Bool
    private var lastDrawn = ContinuousClock.now

    init(console: Console, totalFrames: Int, sampleRate: Double) {
        self.console = console
        self.totalFrames = max(totalFrames, 1)
        self.sampleRate = sampleRate
        enabled = console.errIsTerminal && Double(totalFrames) / sampleRate > 3
    }

    /// The bar for `frames` rendered, e.g. `rendering [########------------]  40%  12.0 / 30.0 s`.
    static func text(frames: Int, totalFrames: Int, sampleRate: Double) -> String {
        let fraction = min(Double(frames) / Double(totalFrames), 1)
        let filled = Int((fraction * 20).rounded(.down))
        return "rendering [" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
            + "] " + String(cFormat: "%3ld%%  %.1f / %.1f s", Int(fraction * 100), Double(frames) / sampleRate,
                Double(totalFrames) / sampleRate)
    }

    mutating func update(_ frames: Int) {
        guard enabled, ContinuousClock.now - lastDrawn >= .milliseconds(100) else { return }
        lastDrawn = .now
        console.writeErr("\r\u{1B}[K" + Self.text(frames: frames, totalFrames: totalFrames, sampleRate: sampleRate))
    }

    func finish() {
        if enabled { console.writeErr("\r\u{1B}[K") }
    }
}
