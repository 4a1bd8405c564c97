import AHAPCodec
import AudioAnalysis
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import ThrumServices

/// What `thrum info PROJECT.hasp` prints: the project's clips, each with its audio, its designed haptic
/// and its analysis settings in Thrum's names (docs/analysis.md maps them to Haptics Studio's), ready
/// for `thrum analyze --settings PROJECT.hasp --clip NAME`; then the notes on fields Thrum does not read.
enum HaspInfo {
    /// Prints the facts of the project at `path`.
    /// - Throws: `ServiceError` for a missing (66) or broken (65) project, located.
    static func run(_ path: String, json: Bool, console: Console) throws -> ExitCode {
        let project = try HaspProject.open(path)
        var notes = project.notes
        var clips: [[String: Any]] = []
        var lines = [
            "project: \(project.name ?? "(unnamed)") (Haptics Studio project \(project.version ?? "of unknown version")), "
                + "\(project.clips.count) clip\(project.clips.count == 1 ? "" : "s")"
        ]
        for clip in project.clips {
            var object: [String: Any] = ["name": clip.name]
            let found = clip.audioFile.map { FileManager.default.fileExists(atPath: $0) } ?? false
            object["audio"] = clip.audioPath ?? JSONNull()
            object["audioFound"] = found
            lines.append("clip \(clip.index + 1): \(clip.name)")
            lines.append("  audio: " + (clip.audioPath.map { $0 + (found ? "" : " (not found)") } ?? "none"))
            if let haptic = clip.haptic {
                let decoded = HapticFileDecoder.decode(root: haptic, file: path)
                if let file = decoded.file {
                    lines.append(
                        "  haptic: " + String(cFormat: "%.3f s", file.duration) + ", \(file.amplitude.count) amplitude and "
                            + "\(file.frequencyBreakpoints.count) frequency breakpoints, \(file.emphases.count) emphases")
                    object["duration"] = file.duration
                    object["amplitudeBreakpoints"] = file.amplitude.count
                    object["frequencyBreakpoints"] = file.frequencyBreakpoints.count
                    object["emphases"] = file.emphases.count
                } else {
                    let first = decoded.errors.first?.formatted ?? "cannot be read"
                    lines.append("  haptic: has errors: \(first)")
                    object["hapticError"] = first
                }
            } else {
                lines.append("  haptic: none yet")
            }
            if let node = clip.settings {
                let (settings, settingNotes) = try HaspSettings.read(node, file: path)
                notes += settingNotes
                let text = AnalysisSettingsFile.json(settings)
                lines.append("  settings: \(text)")
                object["settings"] = JSONObjects.value(text.utf8) ?? text
            } else {
                lines.append("  settings: none (the general preset)")
            }
            clips.append(object)
        }
        if json {
            console.printExact(
                try jsonText([
                    "file": path, "project": project.name ?? JSONNull(), "version": project.version ?? JSONNull(), "clips": clips,
                    "notes": notes,
                ]))
        } else {
            lines += notes.map { "note: \($0)" }
            console.print(lines.joined(separator: "\n"))
        }
        return .ok
    }
}
