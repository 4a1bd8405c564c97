import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import Thrum
import ThrumModel
import ThrumServices

/// The facts `thrum info` reports about one pattern.
struct PatternSummary {
    let file: String
    let pattern: PatternData
    let warnings: Int
    /// The pattern's length with its audio files counted (those that can be found; docs/decisions.md "Audio events").
    let duration: Double

    var eventCounts: [(String, Int)] {
        CHHapticEvent.EventType.allKnown.map { type in
            (type.rawValue, pattern.events.filter { $0.type == type }.count)
        }
    }

    func counts(of ids: [CHHapticDynamicParameter.ID]) -> [(String, Int)] {
        (CHHapticDynamicParameter.ID.allKnown + CHHapticDynamicParameter.ID.thrumExtensions).compactMap { id in
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
        let folder = PathName.parent(file)
        var lines = [
            "file: \(file)",
            "version: \(pattern.version.map { "\($0)" } ?? "missing (1.0 assumed)")",
        ]
        if let description = pattern.metadata.first(where: { $0.key == "Description" }) {
            lines.append("description: \(description.value)")
        }
        lines += [
            "duration: \(String(cFormat: "%.3f", duration)) s",
            "events: \(pattern.events.count)" + list(eventCounts.filter { $0.1 > 0 }),
            "parameter curves: \(pattern.curves.count)" + list(counts(of: pattern.curves.map(\.id))),
            "parameter steps: \(pattern.parameters.count)" + list(counts(of: pattern.parameters.map(\.id))),
            "audio files: " + (audioFiles.isEmpty ? "none" : audioFiles.map { path in
                let found = FileSystem.exists(PathName.appending(folder, path))
                return path + (found ? "" : " (not next to the pattern)")
            }.joined(separator: ", ")),
            "peak intensity: \(String(cFormat: "%.2f", peakIntensity))",
            "warnings: \(warnings)",
        ]
        return lines.joined(separator: "\n")
    }

    var jsonObject: [String: Any] {
        [
            "file": file,
            "version": pattern.version as Any? ?? JSONNull(),
            "duration": duration,
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

/// The facts `thrum info` reports about one `.haptic` file.
struct HapticSummary {
    let path: String
    let file: HapticFile
    let warnings: Int

    var peakAmplitude: Double { file.amplitude.map(\.amplitude).max() ?? 0 }
    var peakEmphasis: Double { file.emphases.map(\.emphasis.amplitude).max() ?? 0 }

    var text: String {
        let version = file.version
        var lines = ["file: \(path)", "format: .haptic \(version.major).\(version.minor).\(version.patch)"]
        if let description = file.metadata?.description, !description.isEmpty { lines.append("description: \(description)") }
        let frequency = file.frequencyBreakpoints.map(\.frequency)
        lines += [
            "duration: \(String(cFormat: "%.3f", file.duration)) s (from \(String(cFormat: "%.3f", file.start)) s)",
            "amplitude breakpoints: \(file.amplitude.count) (peak \(String(cFormat: "%.2f", peakAmplitude)))",
            "frequency breakpoints: \(frequency.count)"
                + (frequency.isEmpty ? " (0.5 throughout)" : String(cFormat: " (%.2f–%.2f)", frequency.min() ?? 0, frequency.max() ?? 0)),
            "emphasis points: \(file.emphases.count)"
                + (file.emphases.isEmpty ? "" : " (peak \(String(cFormat: "%.2f", peakEmphasis)))"),
            "warnings: \(warnings)",
        ]
        return lines.joined(separator: "\n")
    }

    var jsonObject: [String: Any] {
        [
            "file": path, "format": "haptic",
            "version": "\(file.version.major).\(file.version.minor).\(file.version.patch)",
            "duration": file.duration, "start": file.start, "amplitudeBreakpoints": file.amplitude.count,
            "frequencyBreakpoints": file.frequencyBreakpoints.count, "emphasisPoints": file.emphases.count,
            "peakAmplitude": peakAmplitude, "peakEmphasis": peakEmphasis, "warnings": warnings,
            "metadata": metadata,
        ]
    }

    /// The metadata fields the file has.
    var metadata: [String: Any] {
        guard let metadata = file.metadata else { return [:] }
        let fields: [(String, Any?)] = [
            ("author", metadata.author), ("editor", metadata.editor), ("source", metadata.source),
            ("project", metadata.project), ("tags", metadata.tags), ("description", metadata.description),
        ]
        return Dictionary(uniqueKeysWithValues: fields.compactMap { key, value in value.map { (key, $0) } })
    }
}

let infoCommand = Subcommand(
    spec: CommandSpec(
        name: "info",
        summary: "Show a pattern's duration, events, curves, audio files and peak intensity (.haptic: its envelopes; .hasp: its clips).",
        positionalUsage: "FILE[@ACTUATOR]...", minPositionals: 1, maxPositionals: nil, positionalValues: .pattern,
        options: [
            .flag(.json, help: "print the facts as JSON for tools"), EngineArguments.channels, ActuatorArguments.layout,
            ActuatorArguments.profile,
        ] + PatternLimitArguments.options,
        details: """
            FILE may be - for standard input, or a bundled pattern's name (see 'thrum list'). A Haptics Studio
            project (PROJECT.hasp) lists its clips: audio (or none), designed haptic and analysis settings (in
            'thrum analyze' settings names).
            With several files, FILE@ACTUATOR, --channels, --layout or --profile, the facts of each file are
            followed by the actuators of the channel map (default L,R,H): each one's channels, profile and
            position, and the files that play on it (a file without @ plays on every actuator).
            Exit status: 0 ok, 64 usage, 65 the pattern has errors (see 'thrum check'), 66 the file is missing or
            unreadable.
            """),
    run: { arguments, console in
        if let project = arguments.positionals.first(where: { $0.lowercased().hasSuffix(".hasp") }) {
            guard arguments.positionals.count == 1 else {
                throw UsageError(message: "give 'thrum info' one Haptics Studio project (.hasp) on its own")
            }
            return try HaspInfo.run(project, json: arguments.flag(.json), console: console)
        }
        let limits = try PatternLimitArguments.limits(arguments)
        var files: [PatternInfo.File] = []
        var summaries: [(json: [String: Any], text: String)] = []
        for argument in arguments.positionals {
            let file = try PatternInfo.read(argument, limits: limits)
            files.append(file)
            switch file.facts {
            case .haptic(let haptic, let warnings):
                let summary = HapticSummary(path: file.name, file: haptic, warnings: warnings)
                summaries.append((summary.jsonObject, summary.text))
            case .ahap(let pattern, let duration, let warnings):
                let summary = PatternSummary(file: file.name, pattern: pattern, warnings: warnings, duration: duration)
                summaries.append((summary.jsonObject, summary.text))
            }
        }
        let mapGiven = [ValueOption.channels, .layout, .profile].contains { arguments.value($0) != nil }
        guard files.count > 1 || files[0].target.locality != nil || mapGiven else {
            if arguments.flag(.json) {
                console.printExact(try jsonText(summaries[0].json))
            } else {
                console.print(summaries[0].text)
            }
            return .ok
        }
        let actuators = ActuatorSummary(try PatternInfo.actuators(EngineArguments.settings(arguments), files: files))
        if arguments.flag(.json) {
            var object = actuators.jsonObject
            object["files"] = summaries.map(\.json)
            console.printExact(try jsonText(object))
        } else {
            console.print((summaries.map(\.text) + [actuators.text]).joined(separator: "\n\n"))
        }
        return .ok
    })
