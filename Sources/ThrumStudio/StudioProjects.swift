import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import HapticFormats
import ThrumModel
import ThrumServices

/// Haptics Studio projects (`.hasp`) in the studio: `POST /api/open` of a project lists its clips; with
/// `"clip"`, the clip becomes the document (docs/studio-api.md).
extension Studio {
    /// `POST /api/open {"path": "P.hasp"}`: the project's clips (the document is unchanged);
    /// `{"path": "P.hasp", "clip": "NAME"}`: the clip as a new, unsaved document: its sound analysed with
    /// its own settings (the sound's AudioCustom event first), or, for a clip without audio (Freeform
    /// Haptics), its designed haptic.
    /// - Throws: 403 outside the root, 404 missing, 400 no clip of that name, 422 a broken project or a
    ///   clip that cannot be opened.
    ///
    /// `settings` (a Meta settings object, as in the project) re-analyses a clip with audio with changed settings.
    func openProject(_ path: String, clip name: String?, settings: JSONNode? = nil) throws -> HTTPResponse {
        let absolute = try root.confinedPath(path)
        let info: ProjectInfo
        do {
            info = try ProjectInfo(absolute)
        } catch {
            throw HTTPError(refusing: error)
        }
        var answer: [String: Any] = [
            "format": "hasp", "file": path, "project": info.name ?? JSONNull(), "clips": info.clips.map(Self.clipObject),
            "notes": info.notes,
        ]
        guard let name else { return .json(answer) }
        guard let clip = info.clips.first(where: { $0.name == name }) else {
            let guess = Suggestions.closest(to: name, in: info.clips.map(\.name))
            throw HTTPError(
                400, "\(path) has no clip '\(name)'" + (guess.map { "; did you mean '\($0)'?" } ?? "")
                    + " (its clips: \(info.clips.map { "'\($0.name)'" }.joined(separator: ", ")))")
        }
        let made: StudioDocument
        if clip.hasAudio {
            made = try analysedClip(clip, of: info, path: path, settings: settings)
        } else if let haptic = clip.haptic {
            made = StudioDocument.converted(
                haptic, file: nil, format: .ahap, root: root, extra: [], map: SourceMap(file: "\(path) clip '\(clip.name)'"))
        } else {
            throw HTTPError(
                422, clip.hapticError.map { "clip '\(clip.name)': its haptic has errors: \($0)" }
                    ?? "clip '\(clip.name)' has neither audio nor a designed haptic")
        }
        answer.merge(adoptDocument(made, source: "open")) { $1 }
        answer.merge(made.summary) { $1 }
        answer["clip"] = clip.name
        answer["hasAudio"] = clip.hasAudio
        answer["file"] = JSONNull()
        answer["project"] = path
        answer["format"] = "ahap"
        return .json(answer)
    }

    /// The document of a clip with audio: its sound analysed with the clip's settings, its sound's AudioCustom
    /// event first (the sound's path relative to the root).
    private func analysedClip(
        _ clip: ProjectInfo.Clip, of info: ProjectInfo, path: String, settings: JSONNode?
    ) throws -> StudioDocument {
        guard let sound = info.project.clips[clip.index].audioFile, clip.audioFound else {
            throw HTTPError(422, "clip '\(clip.name)': audio file '\(clip.audioPath ?? "?")' not found (put it at that path, relative to the project's folder)")
        }
        guard let relative = root.relative(sound) else {
            throw HTTPError(403, "clip '\(clip.name)': its audio file '\(clip.audioPath ?? "?")' is outside the studio's folder \(root.path)")
        }
        let chosen = try settings.map { node in
            do { return try HaspSettings.read(node, file: "the request's settings").0 } catch { throw HTTPError(422, "\(error)") }
        } ?? clip.analysisSettings
        let analysis: Analyzing.InMemory
        do {
            analysis = try Analyzing.inMemory(
                sound, settings: chosen,
                settingsName: "clip \(clip.name) of \(PathName.lastComponent(path))")
        } catch {
            throw HTTPError(refusing: error)
        }
        var pattern = analysis.pattern
        pattern.events.insert(EventData(type: .audioCustom, time: 0, waveformPath: relative), at: 0)
        return StudioDocument(text: Data(AHAPEncoder.encode(pattern).utf8), file: nil, format: .ahap, root: root)
    }

    /// A clip as `POST /api/open` lists it.
    static func clipObject(_ clip: ProjectInfo.Clip) -> [String: Any] {
        [
            "name": clip.name, "hasAudio": clip.hasAudio, "audio": clip.audioPath ?? JSONNull(), "audioFound": clip.audioFound,
            "hasHaptic": clip.haptic != nil, "duration": clip.haptic?.duration ?? JSONNull(),
            "emphases": clip.haptic?.emphases.count ?? 0,
            "settings": clip.settings.map(Analyzing.object) ?? JSONNull(),
        ]
    }
}
