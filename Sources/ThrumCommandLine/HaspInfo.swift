import AHAPCodec
import FoundationStandIns
import HapticFormats
import ThrumServices

/// What `thrum info PROJECT.hasp` prints: the project's clips, each with its audio (or none: a Freeform
/// Haptics clip), its designed haptic and its analysis settings in Thrum's names (docs/analysis.md maps
/// them to Haptics Studio's), ready for `thrum analyze --settings PROJECT.hasp --clip NAME`; then the notes
/// on fields Thrum does not read.
enum HaspInfo {
    /// Prints the facts of the project at `path`.
    /// - Throws: `ServiceError` for a missing (66) or broken (65) project, located.
    static func run(_ path: String, json: Bool, console: Console) throws -> ExitCode {
        let project = try ProjectInfo(path)
        let withAudio = project.clips.filter(\.hasAudio).count
        var clips: [[String: Any]] = []
        var lines = [
            "project: \(project.name ?? "(unnamed)") (Haptics Studio project \(project.version ?? "of unknown version")), "
                + "\(project.clips.count) clip\(project.clips.count == 1 ? "" : "s")"
                + (withAudio == project.clips.count ? "" : ", \(withAudio) with audio")
        ]
        for clip in project.clips {
            var object: [String: Any] = ["name": clip.name]
            object["audio"] = clip.audioPath ?? JSONNull()
            object["audioFound"] = clip.audioFound
            object["hasAudio"] = clip.hasAudio
            lines.append("clip \(clip.index + 1): \(clip.name)")
            lines.append(
                "  audio: " + (clip.audioPath.map { $0 + (clip.audioFound ? "" : " (not found)") } ?? "none (Freeform Haptics: the designed haptic alone)"))
            if let file = clip.haptic {
                lines.append(
                    "  haptic: " + String(cFormat: "%.3f s", file.duration) + ", \(file.amplitude.count) amplitude and "
                        + "\(file.frequencyBreakpoints.count) frequency breakpoints, \(file.emphases.count) emphases")
                object["duration"] = file.duration
                object["amplitudeBreakpoints"] = file.amplitude.count
                object["frequencyBreakpoints"] = file.frequencyBreakpoints.count
                object["emphases"] = file.emphases.count
            } else if let error = clip.hapticError {
                lines.append("  haptic: has errors: \(error)")
                object["hapticError"] = error
            } else {
                lines.append("  haptic: none yet")
            }
            if let settings = clip.settings {
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
                    "notes": project.notes,
                ]))
        } else {
            lines += project.notes.map { "note: \($0)" }
            console.print(lines.joined(separator: "\n"))
        }
        return .ok
    }
}
