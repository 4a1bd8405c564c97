import AHAPCodec
import ThrumServices

let convertCommand = Subcommand(
    spec: CommandSpec(
        name: "convert",
        summary: "Convert between AHAP, .haptic, MPEG haptics (.hjif, .hmpg) and Android vibration JSON; every loss is a located warning.",
        positionalUsage: "IN...", minPositionals: 1, maxPositionals: nil, positionalValues: .files(OptionValues.patternExtensions),
        options: [
            .value(.output, short: "o", placeholder: "FILE", values: .files(["ahap", "haptic", "hjif", "hmpg", "json"]), help: "the file to write: .ahap, .haptic, .hjif, .hmpg or .json (Android)"),
            .value(.to, placeholder: "FORMAT", values: .patternFormat, help: "ahap, haptic, hjif, hmpg or android, whatever the extension of -o"),
            .flag(.split, help: ".haptic/.hjif/.hmpg → AHAP: write OUT_continuous.ahap and OUT_transients.ahap to play together"),
            .flag(.metaCompatible, help: ".haptic/.hjif/.hmpg → AHAP: write what Meta Haptics Studio writes (ramps sag, emphasis ducking)"),
            .value(.resolution, placeholder: "MS", help: "Android waveform step in milliseconds, 1–1000 (default 10)"),
            .flag(.strict, help: "read .haptic in strict mode and refuse any loss (exit 65, nothing written)"),
        ],
        details: """
            IN is one .haptic, .hjif or .hmpg file, or AHAP files (.ahap, .json) that play together (e.g. a split pair), or a
            bundled pattern's name (see 'thrum list').
            .haptic → AHAP follows the envelopes; each emphasis becomes a transient, which the intensity curve
            also scales in one AHAP file (--split keeps them apart). AHAP → .haptic keeps haptic events and the
            intensity and sharpness controls. Android JSON holds VibrationEffect.createWaveform timings and
            amplitudes and BasicEnvelopeBuilder (API 36) control points. AHAP and .haptic → .hjif/.hmpg (MPEG haptics,
            ISO/IEC 23090-31) write each event as MPEG's reference synthesizer plays it the way Thrum does; .hjif/.hmpg →
            the other formats go through one envelope (the .haptic form).
            Losses are printed as FILE:LINE:COLUMN: warning: PATH: MESSAGE.
            Exit status: 0 written, 64 usage, 65 bad input or (with --strict) a loss, 66 an input is missing,
            74 cannot write.
            """),
    run: { arguments, console in
        guard let output = arguments.value(.output) else {
            throw UsageError(message: "'thrum convert' needs -o FILE (.ahap, .haptic, .hjif, .hmpg or .json)")
        }
        var request = ConvertRequest(inputs: arguments.positionals, output: output)
        request.split = arguments.flag(.split)
        request.metaCompatible = arguments.flag(.metaCompatible)
        request.strict = arguments.flag(.strict)
        request.resolution = try arguments.int(.resolution, in: ConvertRequest.resolutions)
        request.format = arguments.value(.to)
        var diagnostics: [Diagnostic] = []
        let converted: Converted
        do {
            converted = try Converting.convert(request, diagnostics: &diagnostics)
        } catch {
            for diagnostic in diagnostics { console.error(diagnostic.formatted) }
            throw error
        }
        for diagnostic in converted.diagnostics { console.error(diagnostic.formatted) }
        let warnings = converted.warningCount
        for file in converted.written {
            console.print("wrote \(file)" + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : ""))
        }
        if converted.noTransients { console.print("no transient file: the .haptic file has no emphasis") }
        return .ok
    })
