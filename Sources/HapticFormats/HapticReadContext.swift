import AHAPCodec
import FoundationEssentials
import ThrumModel

/// Diagnostics and source positions while reading one JSON document (a `.haptic` file): typed member
/// access that reports wrong types, missing keys and unknown keys in the AHAP decoder's style.
struct HapticReadContext: JSONReadingContext {
    let file: String?
    var diagnostics: [Diagnostic] = []
    /// JSON path → position of the value at that path.
    var positions = SourcePositions()

    init(file: String?) {
        self.file = file
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Reports an issue at the position of `path`, or of its nearest ancestor that has one.
    mutating func report(_ issue: HapticIssue) {
        report(
            issue.severity, issue.code, issue.message, suggestion: issue.suggestion, path: issue.path,
            at: SourcePosition.nearest(to: issue.path, in: positions))
    }

    /// The members of an object by key (the last of duplicates wins), warning about keys not in `known`.
    /// `unknownNote` may give a message for a particular unknown key.
    mutating func members(
        of node: JSONNode, path: String, known: [String], unknownNote: (String) -> String? = { _ in nil }
    ) -> [String: JSONMember] {
        guard case .object(let list) = node.value else { return [:] }
        var result: [String: JSONMember] = [:]
        for member in list {
            result[member.key] = member
        }
        var warned: Set<String> = []
        for member in list where !known.contains(member.key) && warned.insert(member.key).inserted {
            let guess = Self.closeKey(member.key, in: known)
            report(
                .warning, nil, unknownNote(member.key) ?? "unknown key \"\(member.key)\" is ignored",
                suggestion: guess.map { "did you mean \"\($0)\"?" }, path: Self.join(path, member.key),
                at: member.keyPosition ?? member.value.position)
        }
        return result
    }

    /// A known key close to `key` (case, or a few edits), for suggestions.
    static func closeKey(_ key: String, in known: [String]) -> String? {
        Suggestions.closest(to: key, in: known).flatMap { candidate in
            candidate.lowercased() == key.lowercased()
                || Suggestions.editDistance(candidate.lowercased(), key.lowercased()) <= max(1, key.count / 3)
                ? candidate : nil
        }
    }

    /// The member `key` of an object at `path`; when absent reports an error at the object, suggesting
    /// `example` or the rename of a misspelt key.
    mutating func required(
        _ key: String, in members: [String: JSONMember], of node: JSONNode, path: String, example: String
    ) -> JSONMember? {
        if let member = members[key] { return member }
        let misspelt = members.keys.sorted().first { Self.closeKey($0, in: [key]) != nil }
        report(
            .error, .invalidPatternDictionary, "missing \"\(key)\"",
            suggestion: misspelt.map { "rename \"\($0)\" to \"\(key)\"" } ?? "add \(example)", path: path,
            at: node.position)
        return nil
    }

    /// The object in `member`, or nil after reporting its type.
    mutating func object(_ member: JSONMember, path: String) -> JSONNode? {
        if case .object = member.value.value { return member.value }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be an object, found \(member.value.typeDescription)",
            path: path, at: member.value.position)
        return nil
    }

    /// The elements of the array in `member`, or nil after reporting its type.
    mutating func array(_ member: JSONMember, path: String) -> [JSONNode]? {
        if case .array(let elements) = member.value.value { return elements }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be an array, found \(member.value.typeDescription)",
            path: path, at: member.value.position)
        return nil
    }

    /// The number in `member`, or nil after reporting its type (numeric strings are errors: Meta's
    /// tools refuse them too).
    mutating func number(_ member: JSONMember, path: String) -> Double? {
        if case .number(let value, _) = member.value.value { return value }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be a number, found \(member.value.typeDescription)",
            suggestion: { if case .string = member.value.value { "write the number without quotes" } else { nil } }(),
            path: path, at: member.value.position)
        return nil
    }

    /// A whole number ≥ 0 in `member`, or nil after reporting it.
    mutating func count(_ member: JSONMember, path: String) -> Int? {
        guard let value = number(member, path: path) else { return nil }
        guard value >= 0, value == value.rounded(), value <= Double(Int32.max) else {
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be a whole number ≥ 0, found \(value)",
                path: path, at: member.value.position)
            return nil
        }
        return Int(value)
    }
}
