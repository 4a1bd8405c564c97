import AHAPCodec
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
        ] + EngineArguments.resourceOptions + PatternLimitArguments.options,
        details: """
            Each finding is one line: FILE:LINE:COLUMN: error|warning: PATH: MESSAGE [CHHapticError.code].
            Besides the file itself, check loads its audio files as 'thrum play' does (the same folders,
            --resources, --allow-any-path and limits), and warns when more events sound at once than the
            engine has voices (--voices) or when the pattern is longer than 'thrum render' takes without
            --duration. FILE may be - for standard input, or a bundled pattern's name (see 'thrum list').
            Exit status: 0 clean or warnings only, 65 errors (or warnings with --strict), 66 a file is
            missing or unreadable.
            """),
    run: { arguments, console in
        let request = try CheckRequest(
            strict: arguments.flag(.strict), engine: EngineArguments.settings(arguments),
            limits: PatternLimitArguments.limits(arguments))
        var files: [[String: Any]] = []
        var errorCount = 0
        var warningCount = 0
        var missing = 0
        var rejected = 0
        for argument in arguments.positionals {
            let checked = try Checking.check(argument, request)
            if let failure = checked.unreadable {
                missing += 1
                let reason = failure.reason
                if arguments.flag(.json) {
                    files.append([
                        "file": checked.name, "missing": true, "loaded": false, "reason": reason, "diagnostics": [Any](),
                    ])
                } else {
                    console.print("\(checked.name): error: \(reason)")
                }
                continue
            }
            let diagnostics = checked.diagnostics
            let errors = diagnostics.filter { $0.severity == .error }.count
            errorCount += errors
            warningCount += diagnostics.count - errors
            if errors > 0 { rejected += 1 }
            if arguments.flag(.json) {
                files.append([
                    "file": checked.name, "missing": false, "loaded": errors == 0,
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

/// Pretty, key-sorted JSON text of plain JSON values (see `JSONObjects`).
func jsonText(_ object: Any) throws -> String {
    try JSONObjects.text(object, pretty: true)
}
