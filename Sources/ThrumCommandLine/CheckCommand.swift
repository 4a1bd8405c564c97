import AHAPCodec
import FoundationEssentials
import HapticFormats
import RenderCore
import ThrumModel
import ThrumServices

let checkCommand = Subcommand(
    spec: CommandSpec(
        name: "check",
        summary: "Check AHAP files the way Core Haptics reads them (and .haptic files) and 'thrum play' plays them; list every problem.",
        positionalUsage: "FILE...", minPositionals: 1, maxPositionals: nil,
        positionalValues: .files(OptionValues.patternExtensions),
        options: [
            .flag(.strict, help: "treat warnings as errors (exit 65 if there are any); .haptic: the spec's strict mode"),
            .flag(.json, help: "print the findings as JSON for tools"),
            EngineArguments.sampleRate, EngineArguments.voices,
        ] + EngineArguments.resourceOptions + PatternLimits.options,
        details: """
            Each finding is one line: FILE:LINE:COLUMN: error|warning: PATH: MESSAGE [CHHapticError.code].
            Besides the file itself, check loads its audio files as 'thrum play' does (the same folders,
            --resources, --allow-any-path and limits), and warns when more events sound at once than the
            engine has voices (--voices) or when the pattern is longer than 'thrum render' takes without
            --duration. FILE may be - for standard input.
            Exit status: 0 clean or warnings only, 65 errors (or warnings with --strict), 66 a file is
            missing or unreadable.
            """),
    run: { arguments, console in
        let limits = try PatternLimits(arguments)
        var files: [[String: Any]] = []
        var errorCount = 0
        var warningCount = 0
        var missing = 0
        var rejected = 0
        for argument in arguments.positionals {
            let name = PatternInput.displayName(argument)
            let diagnostics: [Diagnostic]
            do {
                diagnostics = try checkFile(argument, limits: limits, arguments: arguments)
            } catch let failure as PatternInput.Failure {
                missing += 1
                let reason = failure.reason
                if arguments.flag(.json) {
                    files.append([
                        "file": name, "missing": true, "loaded": false, "reason": reason, "diagnostics": [Any](),
                    ])
                } else {
                    console.print("\(name): error: \(reason)")
                }
                continue
            }
            let errors = diagnostics.filter { $0.severity == .error }.count
            errorCount += errors
            warningCount += diagnostics.count - errors
            if errors > 0 { rejected += 1 }
            if arguments.flag(.json) {
                files.append([
                    "file": name, "missing": false, "loaded": errors == 0,
                    "diagnostics": diagnostics.map(\.jsonObject),
                ])
            } else {
                for diagnostic in diagnostics { console.print(diagnostic.formatted) }
            }
        }
        let fileCount = arguments.positionals.count
        let summary =
            "checked \(fileCount) file\(fileCount == 1 ? "" : "s"): \(errorCount) error\(errorCount == 1 ? "" : "s"), "
            + "\(warningCount) warning\(warningCount == 1 ? "" : "s")"
            + (rejected > 0 ? ", \(rejected) rejected" : "") + (missing > 0 ? ", \(missing) missing" : "")
        if arguments.flag(.json) {
            let document: [String: Any] = [
                "files": files, "errors": errorCount, "warnings": warningCount, "rejected": rejected,
                "missing": missing,
            ]
            console.printExact(try jsonText(document))
        } else {
            console.print(summary)
        }
        if missing > 0 { return .noInput }
        return errorCount > 0 ? .dataError : .ok
    })

/// Every finding `check` reports for the file `argument` (`-`: standard input); with `--strict` every
/// warning is an error. A file over the size limit is one error.
/// - Throws: `PatternInput.Failure` (66) when the file is missing or unreadable; `UsageError` for a bad option.
func checkFile(_ argument: String, limits: PatternLimits, arguments: ParsedArguments) throws -> [Diagnostic] {
    let strict = arguments.flag(.strict)
    var diagnostics: [Diagnostic]
    do {
        let data = try PatternInput.read(argument, limits: limits)
        diagnostics = try checkDiagnostics(
            data, argument: argument, limits: limits, arguments: arguments, mode: strict ? .strict : .legacyCompatibility)
    } catch let failure as PatternInput.Failure where failure.code != .noInput {
        diagnostics = [Diagnostic(.error, file: PatternInput.displayName(argument), path: "", message: failure.reason)]
    }
    guard strict else { return diagnostics }
    return diagnostics.map { diagnostic in
        var promoted = diagnostic
        promoted.severity = .error
        return promoted
    }
}

/// Every finding for one pattern file's bytes: the decoder's (`.haptic` files checked in `mode`), then the
/// count limits, then what `play` would refuse or lose (``PlayCheck``), each stage only when the one
/// before found no error.
func checkDiagnostics(
    _ data: Data, argument: String, limits: PatternLimits, arguments: ParsedArguments, mode: HapticValidationMode
) throws -> [Diagnostic] {
    let decoded = PatternInput.decode(data, name: PatternInput.displayName(argument), mode: mode)
    return try checkDiagnostics(decoded, argument: argument, limits: limits, arguments: arguments)
}

/// The findings of ``checkDiagnostics(_:argument:limits:arguments:mode:)`` for a file already decoded.
func checkDiagnostics(
    _ decoded: LoadedPattern, argument: String, limits: PatternLimits, arguments: ParsedArguments
) throws -> [Diagnostic] {
    let name = PatternInput.displayName(argument)
    guard let pattern = decoded.pattern, !decoded.diagnostics.contains(where: { $0.severity == .error }) else {
        return decoded.diagnostics
    }
    let problems = limits.problems(in: pattern)
    guard problems.isEmpty else {
        return decoded.diagnostics + problems.map { Diagnostic(.error, file: name, path: "", message: $0) }
    }
    let options = try EngineArguments.engineOptions(arguments, patternPaths: [argument], defaultChannels: .separate)
    let folder = argument == "-" ? nil : URL(fileURLWithPath: argument).deletingLastPathComponent().path
    return decoded.diagnostics + PlayCheck.diagnostics(decoded, file: name, folder: folder, options: options)
}

/// Pretty, key-sorted JSON text of plain JSON values (see `JSONObjects`).
func jsonText(_ object: Any) throws -> String {
    try JSONObjects.text(object, pretty: true)
}
