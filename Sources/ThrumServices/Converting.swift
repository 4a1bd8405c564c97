import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import ThrumModel

/// What `convert` is asked: the format (nil: from the output's extension), and how.
package struct ConvertRequest: Sendable {
    /// One `.haptic` file, or AHAP files played together; bundled patterns by name.
    package var inputs: [String]
    /// The file to write: `.ahap`, `.haptic`, `.hjif`, `.hmpg` or `.json` (Android).
    package var output: String
    /// `--to`: ahap, haptic, hjif, hmpg or android, whatever the output's extension; nil: from the extension.
    package var format: String?
    /// `.haptic` → AHAP: a continuous and a transient file (`--split`).
    package var split = false
    /// `.haptic` → AHAP: what Meta Haptics Studio writes (`--meta-compatible`).
    package var metaCompatible = false
    /// Android: the waveform step in milliseconds (`--resolution`, 1–1000); nil: 10.
    package var resolution: Int?
    /// `.haptic` read in strict mode, and every loss an error (`--strict`).
    package var strict = false

    package static let resolutions = 1...1000

    package init(inputs: [String], output: String) {
        self.inputs = inputs
        self.output = output
    }
}

/// What a conversion wrote and what it lost.
package struct Converted: Sendable {
    /// The files written, in order.
    package var written: [String]
    /// Every diagnostic (losses: warnings), located in the inputs.
    package var diagnostics: [Diagnostic]
    /// `.haptic` → split AHAP: the `.haptic` file has no emphasis, so there is no transient file.
    package var noTransients: Bool
    /// How many of `diagnostics` are warnings.
    package var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
}

/// `convert`: between AHAP, `.haptic` and Android's vibration JSON, every loss a located warning; the
/// outputs appear together or not at all.
package enum Converting {
    /// Converts and writes.
    /// - Throws: ``ServiceError``: 64 a combination of inputs, output and options that does not exist;
    ///   66 an input is missing; 65 errors (or, strict, a loss): nothing is written, and `diagnostics`
    ///   holds them (the message counts them); 74 cannot write.
    package static func convert(
        _ request: ConvertRequest, diagnostics: inout [Diagnostic]
    ) throws(ServiceError) -> Converted {
        var options = FormatConverter.Options()
        options.split = request.split
        options.metaCompatible = request.metaCompatible
        options.strict = request.strict
        options.resolution =
            try Checked.whole(request.resolution, "resolution", in: ConvertRequest.resolutions) ?? AndroidExport.defaultResolution
        if let name = request.format {
            guard let format = PatternFormat(rawValue: name) else { throw .usage("--to takes ahap, haptic, hjif, hmpg or android, not '\(name)'") }
            options.format = format
        }
        let inputs = request.inputs.map(Patterns.path(of:))
        for input in inputs where !FileSystem.exists(input) {
            throw ServiceError(.noInput, "cannot open '\(input)': no such file (check the path)")
        }
        let result: FormatConverter.Result
        do throws(FormatConverter.UsageError) {
            result = try FormatConverter.convert(inputs: inputs, output: request.output, options: options)
        } catch {
            throw .usage(error.message)
        }
        diagnostics = result.diagnostics
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.count - errors
        guard !result.hasErrors else {
            throw ServiceError(
                .dataError,
                "nothing written: \(errors) error\(errors == 1 ? "" : "s")"
                    + (options.strict && warnings == 0 ? " (with --strict every loss is an error)" : ""))
        }
        do throws(AudioResourceError) {
            try OutputFile.write(together: result.outputs.map { ($0.path, $0.data) })
        } catch {
            throw ServiceError(.ioError, error.writeMessage)
        }
        return Converted(
            written: result.outputs.map(\.path), diagnostics: result.diagnostics,
            noTransients: options.split && result.outputs.count == 1)
    }
}
