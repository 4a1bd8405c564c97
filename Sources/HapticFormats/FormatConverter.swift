import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// Converts pattern files between AHAP, `.haptic`, MPEG haptics (HJIF and `.hmpg`) and Android's vibration
/// JSON: reads the inputs, converts, and returns the output files with every diagnostic (reading problems
/// and conversion losses, located in the inputs). Writes nothing itself. Pure and thread-safe.
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

    /// One file to write: its path and its bytes (UTF-8 text for every format but `.hmpg`).
    package struct Output: Sendable {
        package var path: String
        package var data: Data
        /// The bytes as text.
        package var text: String { String(decoding: data, as: UTF8.self) }

        /// A text file.
        package init(_ path: String, _ text: String) {
            self.path = path
            data = Data(text.utf8)
        }

        /// A binary file.
        package init(_ path: String, data: Data) {
            self.path = path
            self.data = data
        }
    }

    /// What a conversion produced: the files to write (none when there is an error) and every diagnostic.
    package struct Result: Sendable {
        package var outputs: [Output]
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

    /// Converts `inputs` (one `.haptic`, `.hjif` or `.hmpg` file, or AHAP files played together) to `output`.
    /// - Throws: `UsageError` for a combination of inputs, output and options that does not exist.
    package static func convert(inputs: [String], output: String, options: Options = Options()) throws(UsageError)
        -> Result
    {
        guard let format = options.format ?? PatternFormat.ofOutput(output) else {
            throw UsageError(
                message: "cannot tell the output format of '\(output)': use .ahap, .haptic, .hjif, .hmpg or .json (Android), or --to")
        }
        let kinds = Set(inputs.map(PatternFormat.ofInput))
        guard !inputs.isEmpty, kinds.count == 1, let kind = kinds.first else {
            throw UsageError(message: "give one .haptic, .hjif or .hmpg file, or AHAP files to play together (not a mix)")
        }
        if kind != .ahap && inputs.count > 1 {
            throw UsageError(message: "give one .\(kind.rawValue) file at a time")
        }
        if options.split && !(kind != .ahap && format == .ahap) {
            throw UsageError(message: "--split applies to .haptic, .hjif or .hmpg → AHAP only")
        }
        if options.metaCompatible && !(kind != .ahap && format == .ahap) {
            throw UsageError(message: "--meta-compatible applies to .haptic, .hjif or .hmpg → AHAP only")
        }
        if kind == .ahap && format == .ahap && inputs.count > 1 {
            throw UsageError(message: "AHAP → AHAP takes one input")
        }
        var result: Result
        switch kind {
        case .haptic: result = fromHaptic(inputs[0], output: output, format: format, options: options)
        case .hjif, .hmpg: result = fromMPEG(inputs[0], output: output, format: format, options: options)
        case .ahap, .android: result = fromAHAP(inputs, output: output, format: format, options: options)
        }
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
        guard let file = read.file else { return Result(outputs: [], diagnostics: read.diagnostics) }
        return fromHapticFile(file, map: read.sourceMap, input: input, output: output, format: format, options: options, diagnostics: read.diagnostics)
    }

    /// The conversions of a `.haptic` file (read from `input`, or the form of another format) to each format.
    static func fromHapticFile(
        _ file: HapticFile, map: SourceMap, input: String, output: String, format: PatternFormat, options: Options,
        diagnostics read: [Diagnostic]
    ) -> Result {
        var diagnostics = read
        switch format {
        case .haptic:
            return Result(outputs: [Output(output, HapticFileEncoder.encode(file))], diagnostics: diagnostics)
        case .hjif, .hmpg:
            // As Thrum plays the .haptic file; its losses are said about the file as a whole.
            let converted = AHAPToHJIF.convert([AHAPSource(pattern: HapticPlayback.pattern(for: file))])
            diagnostics += converted.issues.map { issue in
                var located = issue
                located.path = ""
                return map.diagnostic(located)
            }
            return mpegOutput(converted.document, output: output, format: format, map: SourceMap(file: input), diagnostics: diagnostics)
        case .android:
            let (vibration, issues) = AndroidExport.convert(file, resolution: options.resolution)
            diagnostics += issues.map(map.diagnostic)
            return Result(outputs: [Output(output, AndroidExport.json(vibration, source: input))], diagnostics: diagnostics)
        case .ahap:
            let export = HapticToAHAP.convert(
                file, split: options.split, style: options.metaCompatible ? .metaCompatible : .faithful)
            diagnostics += export.issues.map(map.diagnostic)
            guard options.split else {
                return Result(outputs: [Output(output, AHAPEncoder.encode(export.continuous))], diagnostics: diagnostics)
            }
            let paths = splitPaths(output)
            var outputs = [Output(paths.continuous, AHAPEncoder.encode(export.continuous))]
            if let transients = export.transients { outputs.append(Output(paths.transients, AHAPEncoder.encode(transients))) }
            return Result(outputs: outputs, diagnostics: diagnostics)
        }
    }

    /// The `.haptic` form of AHAP patterns played together (one player each: a split pair, or a single
    /// pattern), and every loss, located in its source through `maps` (one per source): the one way AHAP
    /// becomes `.haptic` (`thrum convert`, the studio's exports, libthrum's pattern writer).
    package static func haptic(from sources: [AHAPSource], maps: [SourceMap]) -> (file: HapticFile?, diagnostics: [Diagnostic]) {
        let converted = AHAPToHaptic.convert(sources)
        return (converted.file, converted.issues.map { maps[$0.source].diagnostic($0) })
    }

    static func fromMPEG(_ input: String, output: String, format: PatternFormat, options: Options) -> Result {
        let read = PatternFiles.read(contentsOfFile: input)
        guard let document = read.hjifDocument, !read.hasErrors else { return Result(outputs: [], diagnostics: read.diagnostics) }
        let map = PatternFormat.ofInput(input) == .hjif ? HJIFDecoder.decode(contentsOfFile: input).sourceMap : SourceMap(file: input)
        if format.isMPEG {
            return mpegOutput(document, output: output, format: format, map: map, diagnostics: read.diagnostics)
        }
        let converted = HJIFToHaptic.convert(document)
        let diagnostics = read.diagnostics + converted.issues.map(map.diagnostic)
        guard let file = converted.file else { return Result(outputs: [], diagnostics: diagnostics) }
        return fromHapticFile(file, map: map, input: input, output: output, format: format, options: options, diagnostics: diagnostics)
    }

    /// `document` written as HJIF or `.hmpg` to `output`, with the stream's losses located by `map`.
    static func mpegOutput(
        _ document: HJIFDocument?, output: String, format: PatternFormat, map: SourceMap, diagnostics read: [Diagnostic]
    ) -> Result {
        guard let document else { return Result(outputs: [], diagnostics: read) }
        guard format == .hmpg else { return Result(outputs: [Output(output, HJIFEncoder.encode(document))], diagnostics: read) }
        let stream = HMPGEncoder.encode(document)
        let diagnostics = read + stream.issues.map(map.diagnostic)
        guard let data = stream.data else { return Result(outputs: [], diagnostics: diagnostics) }
        return Result(outputs: [Output(output, data: data)], diagnostics: diagnostics)
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
            return Result(outputs: [Output(output, AHAPEncoder.encode(sources[0].pattern))], diagnostics: diagnostics)
        }
        if format.isMPEG {
            let converted = AHAPToHJIF.convert(sources)
            diagnostics += converted.issues.map { maps[$0.source].diagnostic($0) }
            return mpegOutput(converted.document, output: output, format: format, map: maps[0], diagnostics: diagnostics)
        }
        let converted = haptic(from: sources, maps: maps)
        diagnostics += converted.diagnostics
        guard let file = converted.file else { return Result(outputs: [], diagnostics: diagnostics) }
        if format == .haptic {
            return Result(outputs: [Output(output, HapticFileEncoder.encode(file))], diagnostics: diagnostics)
        }
        // Android from AHAP goes through the .haptic form; its losses are said about that form.
        let (vibration, issues) = AndroidExport.convert(file, resolution: options.resolution)
        diagnostics += issues.map { issue in
            Diagnostic(
                issue.severity, file: inputs[0], path: "", message: issue.message + " (in the .haptic form)",
                suggestion: issue.suggestion, code: issue.code)
        }
        return Result(outputs: [Output(output, AndroidExport.json(vibration, source: inputs[0]))], diagnostics: diagnostics)
    }
}
