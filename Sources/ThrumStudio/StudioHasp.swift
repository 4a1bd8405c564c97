import AHAPCodec
import AudioResources
import FoundationEssentials
import FoundationStandIns
import Synchronization
import HapticFormats
import ThrumServices

/// Saving a Haptics Studio project (`.hasp`) from the studio: a clip's haptic (the document) and analysis
/// settings written into the project, every other field kept as it was (docs/studio-api.md).
extension Studio {
    static let projectRoutes: [StudioRoute] = [
        StudioRoute(method: "POST", path: "/api/project/save", bodyLimit: StudioLimits.jsonBytes) { try $0.saveProject($1) }
    ]

    /// The `"settings"` object of a request's body (Meta's analysis settings, as in a project); nil when absent.
    /// - Throws: 400 settings without `"clip"`, 422 settings of a wrong type or out of range.
    static func projectSettings(_ request: HTTPRequest, clip: String?) throws -> JSONNode? {
        guard let node = settingsNode(request) else { return nil }
        guard clip != nil else { throw HTTPError(400, "\"settings\" re-analyses a clip: give its \"clip\" too") }
        do {
            _ = try HaspSettings.read(node, file: "the request's settings")
        } catch {
            throw HTTPError(422, "\(error)")
        }
        return node
    }

    /// `POST /api/project/save {"path": "P.hasp", "clip": "NAME", "settings"?: {…}, "to"?: "OUT.hasp",
    /// "overwrite"?: bool}`: the project with clip NAME's `haptic` replaced by the document (as `.haptic`) and,
    /// when given, its `settings` by `settings`; every other field, known or not, kept. Written to `to`
    /// (default: `path`, which needs no `overwrite`; another existing file does).
    /// - Throws: 409 no document or one with errors, 400 no such clip, 422 a broken project.
    func saveProject(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request)
        guard let path = try Self.string(body, "path"), let name = try Self.string(body, "clip") else {
            throw HTTPError(400, "give the project and the clip: {\"path\": \"P.hasp\", \"clip\": \"NAME\"}")
        }
        let target = try Self.string(body, "to") ?? path
        let settings = try Self.projectSettings(request, clip: name)
        let document = try lock.withLock { (_) throws in try current() }
        guard document.isPlayable else { throw HTTPError(409, "the document has errors; fix them first (see its diagnostics)") }
        let export = try Self.nativeExport(document, format: "haptic") ?? StudioExports.export(document, as: "haptic")
        guard let hapticText = export.texts.first?.text, let haptic = JSONReader.parse(hapticText).root else {
            throw HTTPError(422, "the document cannot be written as .haptic")
        }
        let parsed = JSONReader.parse(try root.read(path, limit: StudioLimits.patternBytes))
        guard let top = parsed.root, case .object(var members) = top.value,
            let clipsAt = members.lastIndex(where: { $0.key == "clips" }), case .array(var clips) = members[clipsAt].value.value
        else { throw HTTPError(422, "\(path) is not a Haptics Studio project (a JSON object with \"clips\")") }
        guard let index = clips.firstIndex(where: { Self.clipName($0) == name }), case .object(var clip) = clips[index].value else {
            throw HTTPError(400, "\(path) has no clip '\(name)'")
        }
        Self.set("haptic", haptic, in: &clip)
        if let settings { Self.set("settings", settings, in: &clip) }
        clips[index].value = .object(clip)
        members[clipsAt].value.value = .array(clips)
        let file = try root.writablePath(target)
        if target != path, FileSystem.exists(file), try Self.bool(body, "overwrite") != true {
            throw HTTPError(409, "\(target) exists; save again with \"overwrite\": true to replace it", extra: ["conflict": "exists"])
        }
        do throws(AudioResourceError) {
            try OutputFile.write(Data((JSONNodeText.text(JSONNode(.object(members))) + "\n").utf8), to: file)
        } catch {
            throw HTTPError(500, error.description)
        }
        return .json(["written": [target], "clip": name, "losses": export.losses.map(StudioDocument.json)])
    }

    private static func settingsNode(_ request: HTTPRequest) -> JSONNode? {
        guard let root = JSONReader.parse(request.body).root, case .object(let members) = root.value,
            let node = members.last(where: { $0.key == "settings" })?.value
        else { return nil }
        return node
    }

    private static func clipName(_ clip: JSONNode) -> String? {
        guard case .object(let members) = clip.value, case .string(let name) = members.last(where: { $0.key == "name" })?.value.value
        else { return nil }
        return name
    }

    /// Replaces the member `key` (its last occurrence) in place, or appends it.
    private static func set(_ key: String, _ value: JSONNode, in members: inout [JSONMember]) {
        if let at = members.lastIndex(where: { $0.key == key }) {
            members[at].value = value
        } else {
            members.append(JSONMember(key: key, value: value))
        }
    }
}
