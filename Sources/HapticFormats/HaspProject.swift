import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// A Meta Haptics Studio project (`.hasp`): a JSON object with `version`, `metadata` {name}, `state`,
/// `clips`, `groups` and `updatedAt`; each clip has `clipId`, `name`, `audioAsset` {filename, path
/// (relative to the project), channels}, `waveform`, `settings` (Meta's analysis settings, read by
/// ``HaspSettings``), `lastUpdate` and `haptic` (the designer's `.haptic` document).
///
/// Every problem is located (`FILE:LINE:COLUMN: …`; ``Failure`` says what kind it is). Keys Thrum does not know
/// are reported as notes (`notes`), never dropped silently; a clip's `haptic` keeps them all, since it
/// is written out as it stands (``JSONNodeText``).
/// - Important: Thread safety: any thread (a value).
package struct HaspProject: Sendable {
    /// One clip.
    package struct Clip: Sendable {
        package let index: Int
        package let name: String
        /// Where the clip's `name` is, for messages.
        package let position: SourcePosition?
        /// `audioAsset.path` as written, and the file it names (relative to the project's folder).
        package let audioPath: String?
        package let audioFile: String?
        package let audioPosition: SourcePosition?
        /// The `settings` object, if any.
        package let settings: JSONNode?
        /// The `haptic` document, if any.
        package let haptic: JSONNode?
    }

    /// Why a project cannot be read, or has no clip of a name: one located line.
    package struct Failure: Error, Sendable {
        package enum Kind: Sendable {
            /// The file is missing or unreadable.
            case missing
            /// It is not a Haptics Studio project, or one of its values is wrong.
            case invalid
            /// No clip has the name asked for.
            case unknownClip
        }

        package let kind: Kind
        package let message: String
    }

    package let path: String
    package let name: String?
    package let version: String?
    package let clips: [Clip]
    /// Located notes on keys Thrum does not read.
    package let notes: [String]

    static let topKeys = ["version", "metadata", "state", "clips", "groups", "updatedAt"]
    static let clipKeys = ["clipId", "name", "audioAsset", "waveform", "settings", "lastUpdate", "haptic"]

    /// Reads the project at `path` (at most 1 GB).
    /// - Throws: ``Failure`` (missing, or invalid: not a project) naming the file and place.
    package init(path: String) throws(Failure) {
        guard let data = FileBytes.read(path: path, limit: 1 << 30) else {
            throw Failure(kind: .missing, message: "cannot open project '\(path)': no such file (check the path)")
        }
        let parsed = JSONReader.parse(data)
        if let error = parsed.error {
            throw Failure(kind: .invalid, message: "\(path):\(error.position): invalid JSON: \(error.message) (is it a Haptics Studio project?)")
        }
        guard let root = parsed.root, case .object(let top) = root.value else {
            throw Failure(kind: .invalid, message: "\(path):1:1: a Haptics Studio project is a JSON object with \"clips\"")
        }
        self.path = path
        var notes: [String] = []
        func place(_ position: SourcePosition?) -> String { position.map { "\(path):\($0)" } ?? path }
        func note(_ member: JSONMember, _ where_: String) {
            notes.append("\(place(member.keyPosition)): \(where_)\(member.key) is not a project field Thrum reads; ignored")
        }
        for member in top where !Self.topKeys.contains(member.key) { note(member, "") }
        name = top.last { $0.key == "metadata" }.flatMap { Self.member("name", of: $0.value) }.flatMap(Self.string)
        version = top.last { $0.key == "version" }.flatMap { node -> String? in
            let parts = ["major", "minor", "patch"].map { Self.member($0, of: node.value).flatMap(Self.number) }
            return parts.contains(nil) ? nil : parts.map { "\(Int($0!))" }.joined(separator: ".")
        }
        guard let clipsMember = top.last(where: { $0.key == "clips" }) else {
            throw Failure(kind: .invalid, message: "\(path):\(root.position ?? SourcePosition(line: 1, column: 1)): the project has no \"clips\" list (is it a Haptics Studio project?)")
        }
        guard case .array(let list) = clipsMember.value.value else {
            throw Failure(kind: .invalid, message: "\(place(clipsMember.keyPosition)): clips must be a list, not \(clipsMember.value.typeDescription)")
        }
        let folder = PathName.parent(path)
        var clips: [Clip] = []
        for (index, node) in list.enumerated() {
            guard case .object(let members) = node.value else {
                throw Failure(kind: .invalid, message: "\(place(node.position)): clips[\(index)] must be an object, not \(node.typeDescription)")
            }
            for member in members where !Self.clipKeys.contains(member.key) { note(member, "clips[\(index)].") }
            let nameMember = members.last { $0.key == "name" }
            guard let nameMember, let name = Self.string(nameMember.value), !name.isEmpty else {
                throw Failure(kind: .invalid, message: "\(place(nameMember?.keyPosition ?? node.position)): clips[\(index)] needs a \"name\" (a non-empty string)")
            }
            let asset = members.last { $0.key == "audioAsset" }?.value
            let pathNode = asset.flatMap { Self.member("path", of: $0) }
            let filename = asset.flatMap { Self.member("filename", of: $0) }.flatMap(Self.string)
            let audioPath = pathNode.flatMap(Self.string) ?? filename
            var audioFile: String?
            if let audioPath {
                let candidates = [audioPath, filename].compactMap { $0 }.map {
                    $0.hasPrefix("/") ? $0 : (folder.isEmpty ? $0 : PathName.appending(folder, $0))
                }
                audioFile = candidates.first(where: FileSystem.exists) ?? candidates.first
            }
            let settings = members.last { $0.key == "settings" }?.value
            if let settings, case .object = settings.value {} else if let settings {
                throw Failure(kind: .invalid, message: "\(place(settings.position)): clips[\(index)] \"\(name)\": settings must be an object, not \(settings.typeDescription)")
            }
            clips.append(
                Clip(
                    index: index, name: name, position: nameMember.value.position, audioPath: audioPath,
                    audioFile: audioFile, audioPosition: pathNode?.position ?? asset?.position, settings: settings,
                    haptic: members.last { $0.key == "haptic" }?.value))
        }
        self.clips = clips
        self.notes = notes
    }

    /// The clip called `name`, or a usage error listing the clips (with the closest name).
    package func clip(named name: String) throws(Failure) -> Clip {
        if let clip = clips.first(where: { $0.name == name }) { return clip }
        let names = clips.map(\.name)
        let guess = Suggestions.closest(to: name, in: names)
        throw Failure(
            kind: .unknownClip,
            message: "--clip \(name): \(path) has no clip of that name"
                + (guess.map { "; did you mean '\($0)'?" } ?? "")
                + " (its clips: \(names.map { "'\($0)'" }.joined(separator: ", ")); see 'thrum info \(path)')")
    }

    /// `file:line:column` of a place in the project.
    package func place(_ position: SourcePosition?) -> String { position.map { "\(path):\($0)" } ?? path }

    static func member(_ key: String, of node: JSONNode) -> JSONNode? {
        guard case .object(let members) = node.value else { return nil }
        return members.last { $0.key == key }?.value
    }

    static func string(_ node: JSONNode) -> String? {
        if case .string(let text) = node.value { return text }
        return nil
    }

    static func number(_ node: JSONNode) -> Double? {
        if case .number(let value, _) = node.value { return value }
        return nil
    }
}

/// JSON text of a parsed tree as it was written: keys in source order (duplicates too), numbers as
/// their literals, so nothing of the source is lost (layout aside).
/// - Important: Thread safety: any thread (pure).
package enum JSONNodeText {
    /// The text of `node`, indented by two spaces per level.
    package static func text(_ node: JSONNode, indent: String = "") -> String {
        let inner = indent + "  "
        switch node.value {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let items = members.map { inner + quoted($0.key) + ": " + text($0.value, indent: inner) }
            return "{\n" + items.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            let simple = items.allSatisfy {
                if case .object = $0.value { return false }
                if case .array = $0.value { return false }
                return true
            }
            if simple { return "[" + items.map { text($0) }.joined(separator: ", ") + "]" }
            return "[\n" + items.map { inner + text($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .string(let value): return quoted(value)
        case .number(_, let literal): return literal
        case .bool(let value): return value ? "true" : "false"
        case .null, .unsupported: return "null"
        }
    }

    /// A JSON string literal (the AHAP encoder's escaping).
    static func quoted(_ value: String) -> String { AHAPEncoder.quoted(value) }
}
