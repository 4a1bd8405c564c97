import AHAPCodec
import Foundation
import HapticFormats
import ThrumModel

/// Reads one pattern file for a command, AHAP or `.haptic` by extension (a `.haptic` file gives the
/// pattern Thrum plays for it): a missing file is exit 66, errors in it exit 65.
func loadPattern(_ path: String) throws -> (pattern: PatternData, diagnostics: [Diagnostic]) {
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandFailure(.noInput, "cannot open '\(path)': no such file (check the path)")
    }
    let result = PatternFiles.read(contentsOfFile: path)
    guard let pattern = result.pattern, !result.hasErrors else {
        let first = result.diagnostics.first { $0.severity == .error }
        throw CommandFailure(
            .dataError,
            (first?.formatted ?? "\(path): the pattern cannot be loaded")
                + " (run 'thrum check \(path)' for every problem)")
    }
    return (pattern, result.diagnostics)
}

let checkCommand = Subcommand(
    spec: CommandSpec(
        name: "check",
        summary: "Check AHAP files the way Core Haptics reads them, and .haptic files, and list every problem.",
        positionalUsage: "FILE...", minPositionals: 1, maxPositionals: nil,
        options: [
            .flag(.strict, help: "treat warnings as errors (exit 65 if there are any); .haptic: the spec's strict mode"),
            .flag(.json, help: "print the findings as JSON for tools"),
        ],
        details: """
            Each finding is one line: FILE:LINE:COLUMN: error|warning: PATH: MESSAGE [CHHapticError.code].
            Exit status: 0 clean or warnings only, 65 errors (or warnings with --strict), 66 a file is missing.
            """),
    run: { arguments, console in
        let strict = arguments.flag(.strict)
        var files: [[String: Any]] = []
        var errorCount = 0
        var warningCount = 0
        var missing = 0
        var rejected = 0
        for path in arguments.positionals {
            guard FileManager.default.fileExists(atPath: path) else {
                missing += 1
                if arguments.flag(.json) {
                    files.append(["file": path, "missing": true, "loaded": false, "diagnostics": [Any]()])
                } else {
                    console.print("\(path): error: no such file")
                }
                continue
            }
            var diagnostics = PatternFiles.read(contentsOfFile: path, mode: strict ? .strict : .legacyCompatibility).diagnostics
            if strict {
                diagnostics = diagnostics.map { diagnostic in
                    var promoted = diagnostic
                    promoted.severity = .error
                    return promoted
                }
            }
            let errors = diagnostics.filter { $0.severity == .error }.count
            errorCount += errors
            warningCount += diagnostics.count - errors
            if errors > 0 { rejected += 1 }
            if arguments.flag(.json) {
                files.append([
                    "file": path, "missing": false, "loaded": errors == 0,
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
            console.print(try jsonText(document))
        } else {
            console.print(summary)
        }
        if missing > 0 { return .noInput }
        return errorCount > 0 ? .dataError : .ok
    })

/// Pretty, key-sorted JSON text of a Foundation JSON object.
func jsonText(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    return String(decoding: data, as: UTF8.self)
}
