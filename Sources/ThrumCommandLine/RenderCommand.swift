import AudioResources
import Foundation
import RenderCore
import Thrum

/// Peak and clipping figures of a rendered file.
struct OutputMeter {
    var peaks: [Float]
    var frames = 0

    init(channels: Int) { peaks = Array(repeating: 0, count: channels) }

    mutating func measure(_ samples: UnsafeBufferPointer<Float>) {
        let channels = peaks.count
        for (index, sample) in samples.enumerated() {
            peaks[index % channels] = max(peaks[index % channels], abs(sample))
        }
        frames += samples.count / channels
    }

    static func decibels(_ peak: Float) -> String {
        peak > 0 ? String(format: "%.1f dBFS", 20 * log10(Double(peak))) : "silent"
    }
}

let renderCommand = Subcommand(
    spec: CommandSpec(
        name: "render",
        summary: "Render a pattern to an audio file (the same samples 'thrum play' sends to the device).",
        positionalUsage: "PATTERN", minPositionals: 1, maxPositionals: 1,
        options: [
            .value(.output, short: "o", placeholder: "FILE", help: "the file to write; its extension picks the format"),
            .value(.format, placeholder: "FORMAT", help: "sample format: float (default), pcm16, pcm24 or pcm32"),
        ] + TransportArguments.options + EngineArguments.options,
        details: """
            PATTERN is an AHAP file, the name of a bundled pattern (see 'thrum list') or a sound file (WAV, FLAC, …),
            played as it is; --haptics-from-audio adds haptics derived from the audio live.
            Default channels: L,R,H (audio left, audio right, haptic). Files: WAV, AIFF, FLAC, OGG, CAF, AU, …
            Integer formats quantise as a sound card of that width receives the samples from 'thrum play'
            (round(x × 2^(bits−1)), clamped), so a capture from the card equals the render bit for bit.
            \(EngineArguments.channelHelp)
            Exit status: 0 ok, 64 usage, 65 bad pattern or audio file, 66 pattern missing, 74 cannot write.
            """),
    run: { arguments, console in
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum render' needs -o FILE (the file to write)")
        }
        let format: AudioSampleFormat
        switch arguments.value(.format) ?? "float" {
        case "float": format = .float
        case "pcm16": format = .pcm16
        case "pcm24": format = .pcm24
        case "pcm32": format = .pcm32
        case let other: throw UsageError(message: "--format takes float, pcm16, pcm24 or pcm32, not '\(other)'")
        }
        let transport = try TransportArguments(arguments)
        if transport.loopForever && transport.duration == nil {
            throw UsageError(message: "--loop renders forever; add --duration S")
        }
        let duration = transport.duration
        let (pattern, path) = try EngineArguments.pattern(arguments.positionals[0])
        var options = try EngineArguments.engineOptions(arguments, patternPath: path, defaultChannels: .separate)
        let channels = options.channelMap.channelCount
        let rate = Int(options.sampleRate)

        let render = try OfflineRender(pattern, options: options, path: path, transport: transport)
        let writer: AudioFileWriter
        do {
            writer = try AudioFileWriter(path: output, sampleRate: rate, channelCount: channels, sampleFormat: format)
        } catch {
            throw CommandFailure(.ioError, "\(error)")
        }
        let limit = duration.map { Int(($0 * options.sampleRate).rounded()) }
        let passes = Double(max(transport.passes, 1))
        let expectedFrames = limit ?? Int(pattern.duration * passes / transport.rate * options.sampleRate)
        var progress = ProgressBar(console: console, totalFrames: expectedFrames, sampleRate: options.sampleRate)
        var meter = OutputMeter(channels: channels)
        let rendered: Int
        do {
            rendered = try render.run(limit: limit) { block in
                meter.measure(block)
                try writer.write(block)
                progress.update(meter.frames)
            }
            progress.finish()
            try writer.close()
        } catch let error as AudioResourceError {
            throw CommandFailure(.ioError, error.description)
        }
        let peaks = zip(options.channelMap.sources, meter.peaks).map { source, peak in
            "\(source.rawValue) \(String(format: "%.3f", peak)) (\(OutputMeter.decibels(peak)))"
        }
        console.print(
            "wrote \(output): \(rendered) frames (\(String(format: "%.3f", Double(rendered) / options.sampleRate)) s) at \(rate) Hz, "
                + "\(writer.formatName); peak \(peaks.joined(separator: ", ")); \(writer.clippedSampleCount) clipped samples")
        return .ok
    })

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
            + "] " + String(format: "%3d%%  %.1f / %.1f s", Int(fraction * 100), Double(frames) / sampleRate,
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
