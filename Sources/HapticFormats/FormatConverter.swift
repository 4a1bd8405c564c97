import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// Converts pattern files between AHAP, `.haptic` and Android's vibration JSON: reads the inputs, converts,
/// and returns the output texts with every diagnostic (reading problems and conversion losses, located in
/// the inputs). Writes nothing itself. Pure and thread-safe.
package enum FormatConverter {
    /// How to convert.
    package struct Options: Sendable {
        /// `.haptic` → AHAP: write a continuous and a transient file instead of one.
        package var split = false
        /// Read `.haptic` inputs in strict mode and treat every warning (every loss) as an error.
        package var strict = false
        /// `.haptic` → AHAP: write what Meta Haptics Studio writes (`HapticToAHAP.Style.metaCompatible`).
        package var metaCompatible = false
        /// Android: the waveform step in milliseconds.
        package var resolution = AndroidExport.defaultResolution
        /// The output format; nil = from the output's extension.
        package var format: PatternFormat?

        /// Options with the defaults.
        package init() {}
    }

    /// What a conversion produced: the files to write (path and text; none when there is an error) and
    /// every diagnostic.
    package struct Result: Sendable {
        package var outputs: [(path: String, text: String)]
        package var diagnostics: [Diagnostic]
        /// Whether any diagnostic is an error.
        package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Why a conversion cannot be attempted (a usage problem, not bad data).
    package struct UsageError: Error, Sendable, Equatable {
        package var message: String
    }

    /// The output paths of the split form of `output`: `NAME_continuous.ahap` and `NAME_transients.ahap`
    /// (Meta's names) beside it.
    package static func splitPaths(_ output: String) -> (continuous: String, transients: String) {
        let stem = PathName.removingExtension(output)
        return (stem + "_continuous.ahap", stem + "_transients.ahap")
    }

    /// Converts `inputs` (one `.haptic` file, or AHAP files played together) to `output`.
    /// - Throws: `UsageError` for a combination of inputs, output and options that does not exist.
    package static func convert(inputs: [String], output: String, options: Options = Options()) throws(UsageError)
        -> Result
    {
        guard let format = options.format ?? PatternFormat.ofOutput(output) else {
            throw UsageError(
                message: "cannot tell the output format of '\(output)': use .ahap, .haptic or .json (Android), or --to")
        }
        let kinds = Set(inputs.map(PatternFormat.ofInput))
        guard !inputs.isEmpty, kinds.count == 1, let kind = kinds.first else {
            throw UsageError(message: "give one .haptic file, or AHAP files to play together (not both)")
        }
        if kind == .haptic && inputs.count > 1 {
            throw UsageError(message: "give one .haptic file at a time")
        }
        if options.split && !(kind == .haptic && format == .ahap) {
            throw UsageError(message: "--split applies to .haptic → AHAP only")
        }
        if options.metaCompatible && !(kind == .haptic && format == .ahap) {
            throw UsageError(message: "--meta-compatible applies to .haptic → AHAP only")
        }
        if kind == .ahap && format == .ahap && inputs.count > 1 {
            throw UsageError(message: "AHAP → AHAP takes one input")
        }
        var result = kind == .haptic
            ? fromHaptic(inputs[0], output: output, format: format, options: options)
            : fromAHAP(inputs, output: output, format: format, options: options)
        if options.strict {
            result.diagnostics = result.diagnostics.map { diagnostic in
                var promoted = diagnostic
                promoted.severity = .error
                return promoted
            }
        }
        if result.hasErrors { result.outputs = [] }
        return result
    }

    static func fromHaptic(_ input: String, output: String, format: PatternFormat, options: Options) -> Result {
        let read = HapticFileDecoder.decode(contentsOfFile: input, mode: options.strict ? .strict : .legacyCompatibility)
        var diagnostics = read.diagnostics
        guard let file = read.file else { return Result(outputs: [], diagnostics: diagnostics) }
        switch format {
        case .hjif, .hmpg:
            return Result(outputs: [], diagnostics: diagnostics)
        case .haptic:
            return Result(outputs: [(output, HapticFileEncoder.encode(file))], diagnostics: diagnostics)
        case .android:
            let (vibration, issues) = AndroidExport.convert(file, resolution: options.resolution)
            diagnostics += issues.map(read.sourceMap.diagnostic)
            return Result(outputs: [(output, AndroidExport.json(vibration, source: input))], diagnostics: diagnostics)
        case .ahap:
            let export = HapticToAHAP.convert(
                file, split: options.split, style: options.metaCompatible ? .metaCompatible : .faithful)
            diagnostics += export.issues.map(read.sourceMap.diagnostic)
            guard options.split else {
                return Result(outputs: [(output, AHAPEncoder.encode(export.continuous))], diagnostics: diagnostics)
            }
            let paths = splitPaths(output)
            var outputs = [(paths.continuous, AHAPEncoder.encode(export.continuous))]
            if let transients = export.transients { outputs.append((paths.transients, AHAPEncoder.encode(transients))) }
            return Result(outputs: outputs, diagnostics: diagnostics)
        }
    }

    static func fromAHAP(_ inputs: [String], output: String, format: PatternFormat, options: Options) -> Result {
        var diagnostics: [Diagnostic] = []
        var sources: [AHAPSource] = []
        var maps: [SourceMap] = []
        for input in inputs {
            let read = AHAPDecoder.decode(contentsOfFile: input)
            diagnostics += read.diagnostics
            if let pattern = read.pattern {
                sources.append(AHAPSource(pattern: pattern, paths: read.sourcePaths))
                maps.append(SourceMap(file: input, positions: read.sourcePaths.positions))
            }
        }
        guard sources.count == inputs.count else { return Result(outputs: [], diagnostics: diagnostics) }
        if format == .ahap {
            return Result(outputs: [(output, AHAPEncoder.encode(sources[0].pattern))], diagnostics: diagnostics)
        }
        let converted = AHAPToHaptic.convert(sources)
        diagnostics += converted.issues.map { maps[$0.source].diagnostic($0) }
        guard let file = converted.file else { return Result(outputs: [], diagnostics: diagnostics) }
        if format == .haptic {
            return Result(outputs: [(output, HapticFileEncoder.encode(file))], diagnostics: diagnostics)
        }
        // Android from AHAP goes through the .haptic form; its losses are said about that form.
        let (vibration, issues) = AndroidExport.convert(file, resolution: options.resolution)
        diagnostics += issues.map { issue in
            Diagnostic(
                issue.severity, file: inputs[0], path: "", message: issue.message + " (in the .haptic form)",
                suggestion: issue.suggestion, code: issue.code)
        }
        return Result(outputs: [(output, AndroidExport.json(vibration, source: inputs[0]))], diagnostics: diagnostics)
    }
}
