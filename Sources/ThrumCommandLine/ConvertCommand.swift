import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import Glibc
import HapticFormats

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
            IN is one .haptic, .hjif or .hmpg file, or AHAP files (.ahap, .json) that play together (e.g. a split pair).
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
        var options = FormatConverter.Options()
        options.split = arguments.flag(.split)
        options.metaCompatible = arguments.flag(.metaCompatible)
        options.strict = arguments.flag(.strict)
        options.resolution = try arguments.int(.resolution, in: 1...1000) ?? AndroidExport.defaultResolution
        if let name = arguments.value(.to) {
            guard let format = PatternFormat(rawValue: name) else {
                throw UsageError(message: "--to takes ahap, haptic, hjif, hmpg or android, not '\(name)'")
            }
            options.format = format
        }
        for input in arguments.positionals where !FileManager.default.fileExists(atPath: input) {
            throw CommandFailure(.noInput, "cannot open '\(input)': no such file (check the path)")
        }
        let result: FormatConverter.Result
        do throws(FormatConverter.UsageError) {
            result = try FormatConverter.convert(inputs: arguments.positionals, output: output, options: options)
        } catch {
            throw UsageError(message: error.message)
        }
        for diagnostic in result.diagnostics { console.error(diagnostic.formatted) }
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.count - errors
        guard !result.hasErrors else {
            throw CommandFailure(
                .dataError,
                "nothing written: \(errors) error\(errors == 1 ? "" : "s")"
                    + (options.strict && warnings == 0 ? " (with --strict every loss is an error)" : ""))
        }
        try writeTogether(result.outputs)
        for file in result.outputs {
            console.print("wrote \(file.path)" + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : ""))
        }
        if options.split && result.outputs.count == 1 {
            console.print("no transient file: the .haptic file has no emphasis")
        }
        return .ok
    })

/// Writes each file beside its target under a temporary name, then renames them all: a failure leaves
/// none of them (a target that existed before is replaced only at the rename).
func writeTogether(_ outputs: [FormatConverter.Output]) throws {
    var temporary: [String] = []
    defer { for path in temporary { try? FileManager.default.removeItem(atPath: path) } }
    for output in outputs {
        let url = URL(fileURLWithPath: output.path)
        let path = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).thrum-\(getpid())").path
        do {
            try output.data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(.ioError, "cannot write \(output.path): \(systemReason(of: error))")
        }
        temporary.append(path)
    }
    for (path, output) in zip(temporary, outputs) where rename(path, output.path) != 0 {
        throw CommandFailure(.ioError, "cannot write \(output.path): \(String(cString: strerror(errno)))")
    }
    temporary = []
}
