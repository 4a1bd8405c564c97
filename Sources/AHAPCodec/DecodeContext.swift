import ThrumModel

/// Known keys at each level.
enum Keys {
    static let topLevel = ["Version", "Pattern", "Metadata"]
    static let entry = ["Event", "Parameter", "ParameterCurve"]
    static let event = [
        "Time", "EventType", "EventDuration", "EventParameters", "EventWaveformPath",
        "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled", "EventTime",
    ]
    static let eventParameter = ["ParameterID", "ParameterValue"]
    static let parameter = ["ParameterID", "Time", "ParameterValue", "ParameterTime"]
    static let curve = ["ParameterID", "Time", "ParameterCurveControlPoints"]
    static let point = ["Time", "ParameterValue"]
}

/// The state of one decode: diagnostics so far, positions of every node, and where each decoded
/// entry came from.
struct DecodeContext: JSONReadingContext {
    let file: String?
    var diagnostics: [Diagnostic] = []
    /// JSON path → position of the value at that path (duplicates: the last one).
    var positions = SourcePositions()
    /// Paths the validator uses (`…Event.Time`) → the path actually written (`…Event.EventTime`).
    var aliases: [String: String] = [:]
    var eventPaths: [String] = []
    var parameterPaths: [String] = []
    var curvePaths: [String] = []
    /// Whether entries were left out because they were broken.
    var droppedEntries = false

    init(file: String?) {
        self.file = file
    }

    // MARK: Reporting

    func trailingCommaDiagnostic(_ notice: JSONNotice) -> Diagnostic {
        Diagnostic(
            .warning, file: file, line: notice.position.line, column: notice.position.column, path: notice.path,
            message: "trailing comma (Core Haptics accepts it; strict JSON does not)", suggestion: "remove the comma")
    }

    func duplicateKeyDiagnostic(_ notice: JSONNotice) -> Diagnostic {
        Diagnostic(
            .warning, file: file, line: notice.position.line, column: notice.position.column, path: notice.path,
            message: "duplicate key \"\(notice.key ?? "")\"; the last one wins")
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    // MARK: Document

    mutating func decodeDocument(_ root: JSONNode, notices: JSONParseResult?) -> AHAPDecodeResult {
        if let notices {
            for notice in notices.trailingCommas { diagnostics.append(trailingCommaDiagnostic(notice)) }
            for notice in notices.duplicateKeys { diagnostics.append(duplicateKeyDiagnostic(notice)) }
        }
        positions = SourcePositions(root)
        guard case .object = root.value else {
            report(
                .error, .invalidPatternDictionary, "the top level must be an object, found \(root.typeDescription)",
                path: "", at: root.position)
            return finish(nil)
        }
        let members = self.members(of: root, path: "", known: Keys.topLevel)
        var pattern = PatternData(version: nil)

        if let version = members["Version"] {
            if case .number(let value, _) = version.value.value {
                pattern.version = value
            } else {
                report(
                    .warning, nil, "Version must be a number, found \(version.value.typeDescription); 1.0 assumed",
                    suggestion: "write \"Version\": 1.0", path: "Version", at: version.value.position)
            }
        } else {
            report(
                .warning, nil, "Version missing; 1.0 assumed", suggestion: "add \"Version\": 1.0", path: "",
                at: root.position)
        }

        if let metadata = members["Metadata"] {
            if case .object = metadata.value.value {
                for member in orderedMembers(of: metadata.value) {
                    pattern.metadata.append(MetadataEntry(key: member.key, value: Self.text(of: member.value)))
                }
            } else {
                report(
                    .warning, nil, "Metadata must be an object, found \(metadata.value.typeDescription); it is ignored",
                    path: "Metadata", at: metadata.value.position)
            }
        }

        if let list = members["Pattern"] {
            if case .array(let entries) = list.value.value {
                for (index, entry) in entries.enumerated() {
                    decodeEntry(entry, path: "Pattern[\(index)]", into: &pattern)
                }
            } else {
                report(
                    .error, .invalidPatternDictionary, "Pattern must be an array, found \(list.value.typeDescription)",
                    path: "Pattern", at: list.value.position)
                droppedEntries = true
            }
        } else {
            report(
                .error, .invalidPatternDictionary, "missing \"Pattern\"",
                suggestion: "add \"Pattern\": [ … ] with at least one Event", path: "", at: root.position)
            droppedEntries = true
        }

        for issue in PatternValidator.issues(in: pattern) {
            if issue.element == .pattern && droppedEntries { continue }
            add(issue)
        }
        return finish(pattern)
    }

    mutating func finish(_ pattern: PatternData?) -> AHAPDecodeResult {
        let diagnostics = Diagnostic.inSourceOrder(self.diagnostics)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return AHAPDecodeResult(
            pattern: hasErrors ? nil : pattern, diagnostics: diagnostics,
            sourcePaths: AHAPDecodeResult.SourcePaths(
                events: eventPaths, parameters: parameterPaths, curves: curvePaths, positions: positions))
    }

    /// Converts a validator issue to a diagnostic at the source place it refers to.
    mutating func add(_ issue: PatternIssue) {
        let base: String
        switch issue.element {
        case .pattern: base = "Pattern"
        case .version: base = "Version"
        case .event(let index): base = index < eventPaths.count ? eventPaths[index] : "Pattern"
        case .parameter(let index): base = index < parameterPaths.count ? parameterPaths[index] : "Pattern"
        case .curve(let index): base = index < curvePaths.count ? curvePaths[index] : "Pattern"
        }
        var path = issue.subpath.map { Self.join(base, $0) } ?? base
        path = aliases[path] ?? path
        let position = SourcePosition.nearest(to: path, in: positions)
        let severity: Diagnostic.Severity = issue.severity == .error ? .error : .warning
        report(severity, issue.code, issue.message, suggestion: issue.suggestion, path: path, at: position)
    }

    // MARK: Objects

    /// The members of an object, the last of each key winning, in source order of the winners.
    func orderedMembers(of node: JSONNode) -> [JSONMember] {
        guard case .object(let members) = node.value else { return [] }
        var result: [JSONMember] = []
        var indexOf: [String: Int] = [:]
        for member in members {
            if let index = indexOf[member.key] {
                result[index] = member
            } else {
                indexOf[member.key] = result.count
                result.append(member)
            }
        }
        return result
    }

    /// The members of an object by key (the last of duplicates), warning about unknown keys.
    mutating func members(of node: JSONNode, path: String, known: [String]) -> [String: JSONMember] {
        var result: [String: JSONMember] = [:]
        for member in orderedMembers(of: node) {
            result[member.key] = member
            if !known.contains(member.key) {
                // Stricter than `Suggestions.closest` alone, whose minimum distance of 2 turns
                // short keys such as "Name" into "Time".
                let guess = Suggestions.closest(to: member.key, in: known).flatMap { candidate in
                    candidate.lowercased() == member.key.lowercased()
                        || Suggestions.editDistance(candidate.lowercased(), member.key.lowercased())
                            <= max(1, member.key.count / 3) ? candidate : nil
                }
                report(
                    .warning, nil, "unknown key \"\(member.key)\" is ignored",
                    suggestion: guess.map { "did you mean \"\($0)\"?" }, path: Self.join(path, member.key),
                    at: member.keyPosition ?? member.value.position)
            }
        }
        return result
    }

    /// A metadata value as text: strings as they are, other values as compact JSON.
    static func text(of node: JSONNode) -> String {
        switch node.value {
        case .string(let string): return string
        case .number(_, let literal): return literal
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .unsupported(let name): return "<\(name)>"
        case .array(let elements): return "[" + elements.map(json(of:)).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { AHAPEncoder.quoted($0.key) + ":" + json(of: $0.value) }.joined(separator: ",") + "}"
        }
    }

    static func json(of node: JSONNode) -> String {
        if case .string(let string) = node.value { return AHAPEncoder.quoted(string) }
        return text(of: node)
    }
}
