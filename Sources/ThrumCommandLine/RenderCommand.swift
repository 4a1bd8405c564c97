import FoundationEssentials
import FoundationStandIns
import Thrum
import ThrumServices

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
        ] + TransportArguments.options + EngineArguments.options + PatternLimitArguments.options,
        details: """
            PATTERN is an AHAP file, the name of a bundled pattern (see 'thrum list'), - for standard input, or a
            sound file (WAV, FLAC, …), played as it is; --haptics-from-audio adds haptics derived from the audio live.
            Several patterns play together from the first frame; @ACTUATOR puts one on an actuator of the channel
            map (see below).
            Default channels: L,R,H (audio left, audio right, haptic). Files: WAV, AIFF, FLAC, OGG, CAF, AU, …
            Integer formats quantise as a sound card of that width receives the samples from 'thrum play'
            (round(x × 2^(bits−1)), clamped), so a capture from the card equals the render bit for bit.
            The file appears when the render is complete: an error, Ctrl-C, SIGTERM or SIGHUP leaves nothing.
            Without --duration a render may last at most \(Int(Render.maxSecondsWithoutDuration)) s.
            \(EngineArguments.channelHelp)
            Exit status: 0 ok, 64 usage, 65 bad pattern or audio file, 66 pattern missing, 74 cannot write,
            130 interrupted.
            """),
    run: { arguments, console in
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum render' needs -o FILE (the file to write)")
        }
        let file = try RenderFile(output: output, formatName: arguments.value(.format))
        let transport = try TransportArguments.transport(arguments)
        try Render.check(transport)
        let engine = try EngineArguments.settings(arguments)
        let render = try Render(patterns(arguments, limits: PatternLimitArguments.limits(arguments)), transport: transport, engine: engine)
        let interrupt = InterruptFlag()
        var progress = ProgressBar(console: console, totalFrames: render.expectedFrames, sampleRate: render.sampleRate)
        let written: RenderFile.Written
        do {
            written = try file.write(render, progress: { progress.update($0) }, shouldStop: { interrupt.isSet })
            progress.finish()
        } catch {
            progress.finish()
            throw error
        }
        let peaks = written.peaks.map { label, peak in
            "\(label) \(String(cFormat: "%.3f", peak)) (\(OutputMeter.decibels(peak)))"
        }
        let summary =
            "wrote \(written.destination): \(written.frames) frames (\(String(cFormat: "%.3f", Double(written.frames) / Double(written.sampleRate))) s) at \(written.sampleRate) Hz, "
            + "\(written.formatName); peak \(peaks.joined(separator: ", ")); \(written.clippedSamples) clipped samples"
            + written.outcome.losses(voices: render.options.maxVoices)
        if output == "-" { console.error(summary) } else { console.print(summary) }
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
