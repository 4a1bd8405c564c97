import AHAPCodec
import Foundation
import ThrumModel

/// The facts `thrum info` reports about one pattern.
struct PatternSummary {
    let file: String
    let pattern: PatternData
    let warnings: Int

    var eventCounts: [(String, Int)] {
        CHHapticEvent.EventType.allKnown.map { type in
            (type.rawValue, pattern.events.filter { $0.type == type }.count)
        }
    }

    func counts(of ids: [CHHapticDynamicParameter.ID]) -> [(String, Int)] {
        CHHapticDynamicParameter.ID.allKnown.compactMap { id in
            let count = ids.filter { $0 == id }.count
            return count > 0 ? (id.rawValue, count) : nil
        }
    }

    var audioFiles: [String] {
        var seen: [String] = []
        for path in pattern.events.compactMap(\.waveformPath) where !seen.contains(path) { seen.append(path) }
        return seen
    }

    /// The strongest haptic event intensity (clamped event values, before controls).
    var peakIntensity: Float {
        pattern.events.filter(\.type.isHaptic).map { $0.value(of: .hapticIntensity) }.max() ?? 0
    }

    var text: String {
        func list(_ items: [(String, Int)]) -> String {
            items.isEmpty ? "" : " (" + items.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")"
        }
        let folder = (file as NSString).deletingLastPathComponent
        var lines = [
            "file: \(file)",
            "version: \(pattern.version.map { "\($0)" } ?? "missing (1.0 assumed)")",
        ]
        if let description = pattern.metadata.first(where: { $0.key == "Description" }) {
            lines.append("description: \(description.value)")
        }
        lines += [
            "duration: \(String(format: "%.3f", pattern.duration)) s",
            "events: \(pattern.events.count)" + list(eventCounts.filter { $0.1 > 0 }),
            "parameter curves: \(pattern.curves.count)" + list(counts(of: pattern.curves.map(\.id))),
            "parameter steps: \(pattern.parameters.count)" + list(counts(of: pattern.parameters.map(\.id))),
            "audio files: " + (audioFiles.isEmpty ? "none" : audioFiles.map { path in
                let found = FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(path))
                return path + (found ? "" : " (not next to the pattern)")
            }.joined(separator: ", ")),
            "peak intensity: \(String(format: "%.2f", peakIntensity))",
            "warnings: \(warnings)",
        ]
        return lines.joined(separator: "\n")
    }

    var jsonObject: [String: Any] {
        [
            "file": file,
            "version": pattern.version as Any? ?? NSNull(),
            "duration": pattern.duration,
            "events": Dictionary(uniqueKeysWithValues: eventCounts),
            "eventCount": pattern.events.count,
            "curves": Dictionary(uniqueKeysWithValues: counts(of: pattern.curves.map(\.id))),
            "parameters": Dictionary(uniqueKeysWithValues: counts(of: pattern.parameters.map(\.id))),
            "audioFiles": audioFiles,
            "peakIntensity": Double(peakIntensity),
            "warnings": warnings,
            "metadata": Dictionary(pattern.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }),
        ]
    }
}

let infoCommand = Subcommand(
    spec: CommandSpec(
        name: "info",
        summary: "Show a pattern's duration, events, curves, audio files and peak intensity.",
        positionalUsage: "FILE", minPositionals: 1, maxPositionals: 1,
        options: [.flag(.json, help: "print the facts as JSON for tools")] + PatternLimits.options,
        details: """
            FILE may be - for standard input.
            Exit status: 0 ok, 65 the pattern has errors (see 'thrum check'), 66 the file is missing or unreadable.
            """),
    run: { arguments, console in
        let path = arguments.positionals[0]
        let loaded = try loadPattern(path, limits: PatternLimits(arguments))
        let summary = PatternSummary(
            file: PatternInput.displayName(path), pattern: loaded.pattern, warnings: loaded.diagnostics.count)
        if arguments.flag(.json) {
            console.printExact(try jsonText(summary.jsonObject))
        } else {
            console.print(summary.text)
        }
        return .ok
    })
