import Foundation
import ThrumModel

/// What decoding an AHAP document produced: the pattern (when it has no errors) and every diagnostic.
public struct AHAPDecodeResult: Sendable {
    /// The pattern; nil exactly when there is at least one error diagnostic.
    public var pattern: PatternData?
    /// Every problem found, errors and warnings, in source order.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(pattern: PatternData?, diagnostics: [Diagnostic]) {
        self.pattern = pattern
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// The error diagnostics.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warning diagnostics.
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

/// Reads AHAP text, files and pattern dictionaries into `PatternData`, reporting every problem with
/// its position (`core-haptics-behaviour.md` §1, DECISIONS.md "AHAP leniency"). Pure and thread-safe.
///
/// The decoder checks structure and types; `PatternValidator` then checks values (event types,
/// parameter IDs, ranges, durations, curve limits), and its issues are reported at the place in the
/// source they refer to.
public enum AHAPDecoder {
    /// Decodes AHAP `text`; `file` is only used in diagnostics.
    public static func decode(text: String, file: String? = nil) -> AHAPDecodeResult {
        decode(parsed: JSONReader.parse(text), file: file)
    }

    /// Decodes AHAP UTF-8 `data` (a leading byte order mark is skipped); `file` is only used in diagnostics.
    public static func decode(data: Data, file: String? = nil) -> AHAPDecodeResult {
        decode(parsed: JSONReader.parse(data), file: file)
    }

    /// Reads and decodes the file at `path`. An unreadable file gives a `fileNotFound` error diagnostic.
    public static func decode(contentsOfFile path: String) -> AHAPDecodeResult {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let reason = !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "it cannot be read"
            return AHAPDecodeResult(
                pattern: nil,
                diagnostics: [
                    Diagnostic(.error, file: path, path: "", message: "cannot open the file: \(reason)", code: .fileNotFound)
                ])
        }
        return decode(data: data, file: path)
    }

    /// Decodes a pattern dictionary (`CHHapticPattern(dictionary:)`). Keys may be `String`s or
    /// `RawRepresentable` values with a `String` raw value (such as `CHHapticPattern.Key`); values may be
    /// numbers (`Double`, `Float`, `Int`…, `NSNumber`), `Bool`, `String`, arrays, dictionaries and
    /// String-backed `RawRepresentable`s (such as `CHHapticEvent.EventType`). Diagnostics have no positions;
    /// object keys are visited in sorted order.
    public static func decode(dictionary: [AnyHashable: Any]) -> AHAPDecodeResult {
        var context = DecodeContext(file: nil)
        let root = DictionaryConverter.node(from: dictionary, depth: 0)
        return context.decodeDocument(root, notices: nil)
    }

    static func decode(parsed: JSONParseResult, file: String?) -> AHAPDecodeResult {
        var context = DecodeContext(file: file)
        guard let root = parsed.root else {
            var diagnostics: [Diagnostic] = []
            // Notices before the syntax error are still worth seeing.
            for notice in parsed.trailingCommas { diagnostics.append(context.trailingCommaDiagnostic(notice)) }
            for notice in parsed.duplicateKeys { diagnostics.append(context.duplicateKeyDiagnostic(notice)) }
            if let error = parsed.error {
                diagnostics.append(
                    Diagnostic(
                        .error, file: file, line: error.position.line, column: error.position.column, path: "",
                        message: "invalid JSON: \(error.message)"))
            }
            return AHAPDecodeResult(pattern: nil, diagnostics: DecodeContext.sorted(diagnostics))
        }
        return context.decodeDocument(root, notices: parsed)
    }
}

/// Turns Swift/Foundation values into a position-less JSON tree.
enum DictionaryConverter {
    static func node(from value: Any, depth: Int) -> JSONNode {
        if depth > JSONReader.maxDepth { return JSONNode(.unsupported(typeName: "nesting deeper than \(JSONReader.maxDepth) levels")) }
        if let value = value as? JSONNode { return value }
        switch value {
        case let v as Bool where type(of: value) == Bool.self: return JSONNode(.bool(v))
        case let v as Double where type(of: value) == Double.self: return number(v, literal: "\(v)")
        case let v as Float where type(of: value) == Float.self: return number(Double(v), literal: "\(v)")
        case let v as Int where type(of: value) == Int.self: return number(Double(v), literal: "\(v)")
        case let v as any BinaryInteger: return number(Double(v), literal: "\(v)")
        case let v as any BinaryFloatingPoint: return number(Double(v), literal: "\(Double(v))")
        case let v as String: return JSONNode(.string(v))
        case let v as NSNumber:
            // A Foundation boolean keeps its type; other numbers are numbers.
            if v === (true as NSNumber) || v === (false as NSNumber) { return JSONNode(.bool(v.boolValue)) }
            return number(v.doubleValue, literal: "\(v.doubleValue)")
        case let v as NSString: return JSONNode(.string(v as String))
        case is NSNull: return JSONNode(.null)
        case let v as any RawRepresentable:
            if let raw = v.rawValue as? String { return JSONNode(.string(raw)) }
            return JSONNode(.unsupported(typeName: "\(type(of: value))"))
        case let v as [AnyHashable: Any]: return object(v, depth: depth)
        case let v as NSDictionary:
            var converted: [AnyHashable: Any] = [:]
            for (key, item) in v { if let key = key as? AnyHashable { converted[key] = item } }
            return object(converted, depth: depth)
        case let v as [Any]: return JSONNode(.array(v.map { node(from: $0, depth: depth + 1) }))
        case let v as NSArray: return JSONNode(.array(v.map { node(from: $0, depth: depth + 1) }))
        default: return JSONNode(.unsupported(typeName: "\(type(of: value))"))
        }
    }

    static func number(_ value: Double, literal: String) -> JSONNode {
        JSONNode(.number(value, literal: literal))
    }

    static func keyString(_ key: AnyHashable) -> String {
        if let string = key.base as? String { return string }
        if let raw = key.base as? any RawRepresentable, let string = raw.rawValue as? String { return string }
        return "\(key.base)"
    }

    static func object(_ dictionary: [AnyHashable: Any], depth: Int) -> JSONNode {
        let members = dictionary.map { (key: keyString($0.key), value: $0.value) }
            .sorted { $0.key < $1.key }
            .map { JSONMember(key: $0.key, value: node(from: $0.value, depth: depth + 1)) }
        return JSONNode(.object(members))
    }
}

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
struct DecodeContext {
    let file: String?
    var diagnostics: [Diagnostic] = []
    /// JSON path → position of the value at that path (duplicates: the last one).
    var positions: [String: SourcePosition] = [:]
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

    mutating func report(
        _ severity: Diagnostic.Severity, _ code: CHHapticError.Code?, _ message: String, suggestion: String? = nil,
        path: String, at position: SourcePosition?
    ) {
        diagnostics.append(
            Diagnostic(
                severity, file: file, line: position?.line, column: position?.column, path: path, message: message,
                suggestion: suggestion, code: code))
    }

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

    /// Diagnostics in source order; position-less ones keep their order, before positioned ones.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let pa = a.element.position ?? SourcePosition(line: 0, column: 0)
            let pb = b.element.position ?? SourcePosition(line: 0, column: 0)
            if pa != pb { return pa < pb }
            return a.offset < b.offset
        }.map(\.element)
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Records the position of every node under `node`.
    mutating func recordPositions(_ node: JSONNode, path: String) {
        if let position = node.position { positions[path] = position }
        switch node.value {
        case .object(let members):
            for member in members { recordPositions(member.value, path: Self.join(path, member.key)) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { recordPositions(element, path: "\(path)[\(index)]") }
        default:
            break
        }
    }

    // MARK: Document

    mutating func decodeDocument(_ root: JSONNode, notices: JSONParseResult?) -> AHAPDecodeResult {
        if let notices {
            for notice in notices.trailingCommas { diagnostics.append(trailingCommaDiagnostic(notice)) }
            for notice in notices.duplicateKeys { diagnostics.append(duplicateKeyDiagnostic(notice)) }
        }
        recordPositions(root, path: "")
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
        let diagnostics = Self.sorted(self.diagnostics)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return AHAPDecodeResult(pattern: hasErrors ? nil : pattern, diagnostics: diagnostics)
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
        // The position of the path, or of its nearest ancestor that exists.
        var lookup = path
        var position = positions[lookup]
        while position == nil && !lookup.isEmpty {
            if lookup.hasSuffix("]"), let open = lookup.lastIndex(of: "[") {
                lookup = String(lookup[..<open])
            } else if let dot = lookup.lastIndex(of: ".") {
                lookup = String(lookup[..<dot])
            } else {
                lookup = ""
            }
            position = positions[lookup]
        }
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

    // MARK: Typed values

    /// A number, or a numeric string (with a warning). Reports an error and returns nil otherwise.
    mutating func number(_ member: JSONMember, path: String) -> (value: Double, literal: String)? {
        let node = member.value
        switch node.value {
        case .number(let value, let literal):
            return (value, literal)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let value = Double(trimmed), value.isFinite {
                report(
                    .warning, nil, "\(member.key) is the string \"\(text)\"; read as the number \(trimmed)",
                    suggestion: "write the number without quotes", path: path, at: node.position)
                return (value, trimmed)
            }
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be a number, found the string \"\(text)\"",
                path: path, at: node.position)
            return nil
        default:
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be a number, found \(node.typeDescription)",
                path: path, at: node.position)
            return nil
        }
    }

    /// A `Float` value read from its literal text (so a shortest-form `Float` reads back exactly).
    mutating func float(_ member: JSONMember, path: String) -> Float? {
        guard let (value, literal) = number(member, path: path) else { return nil }
        return Float(literal) ?? Float(value)
    }

    mutating func string(_ member: JSONMember, path: String) -> String? {
        if case .string(let text) = member.value.value { return text }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be a string, found \(member.value.typeDescription)",
            path: path, at: member.value.position)
        return nil
    }

    /// A boolean; the numbers 0 and 1 are accepted with a warning.
    mutating func bool(_ member: JSONMember, path: String) -> Bool? {
        switch member.value.value {
        case .bool(let flag):
            return flag
        case .number(let value, let literal) where value == 0 || value == 1:
            report(
                .warning, nil, "\(member.key) is the number \(literal); read as \(value == 1)",
                suggestion: "write \(value == 1) instead", path: path, at: member.value.position)
            return value == 1
        case .number(_, let literal):
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be true or false, found the number \(literal)",
                path: path, at: member.value.position)
            return nil
        default:
            report(
                .error, .invalidPatternDictionary,
                "\(member.key) must be true or false, found \(member.value.typeDescription)", path: path,
                at: member.value.position)
            return nil
        }
    }

    /// The `Time` member, or its alias; warns when both are present.
    mutating func timeMember(_ members: [String: JSONMember], alias: String, path: String) -> JSONMember? {
        if let time = members["Time"] {
            if let other = members[alias] {
                report(
                    .warning, nil, "\(alias) is ignored because Time is also given", path: Self.join(path, alias),
                    at: other.keyPosition ?? other.value.position)
            }
            return time
        }
        if let time = members[alias] {
            aliases[Self.join(path, "Time")] = Self.join(path, alias)
            return time
        }
        return nil
    }

    // MARK: Entries

    mutating func decodeEntry(_ entry: JSONNode, path: String, into pattern: inout PatternData) {
        guard case .object = entry.value else {
            report(
                .error, .invalidPatternDictionary, "a Pattern entry must be an object, found \(entry.typeDescription)",
                path: path, at: entry.position)
            droppedEntries = true
            return
        }
        _ = self.members(of: entry, path: path, known: Keys.entry)  // warns about unknown keys
        var found = false
        for member in orderedMembers(of: entry) {
            let memberPath = Self.join(path, member.key)
            switch member.key {
            case "Event":
                found = true
                if let event = decodeEvent(member, path: memberPath) {
                    pattern.events.append(event)
                    eventPaths.append(memberPath)
                } else {
                    droppedEntries = true
                }
            case "Parameter":
                found = true
                if let parameter = decodeParameter(member, path: memberPath) {
                    pattern.parameters.append(parameter)
                    parameterPaths.append(memberPath)
                } else {
                    droppedEntries = true
                }
            case "ParameterCurve":
                found = true
                if let curve = decodeCurve(member, path: memberPath) {
                    pattern.curves.append(curve)
                    curvePaths.append(memberPath)
                } else {
                    droppedEntries = true
                }
            default:
                break
            }
        }
        if !found {
            report(
                .warning, nil, "the entry has no Event, Parameter or ParameterCurve; it is ignored", path: path,
                at: entry.position)
        }
    }

    /// Checks that `member` holds an object; reports an error otherwise.
    mutating func requireObject(_ member: JSONMember, path: String) -> Bool {
        if case .object = member.value.value { return true }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be an object, found \(member.value.typeDescription)",
            path: path, at: member.value.position)
        return false
    }

    /// Reads an optional number member; nil when absent. A wrong type is reported and clears `ok`.
    mutating func readNumber(_ member: JSONMember?, in path: String, ok: inout Bool) -> Double? {
        guard let member else { return nil }
        let value = number(member, path: Self.join(path, member.key))?.value
        if value == nil { ok = false }
        return value
    }

    /// Reads an optional `Float` member from its literal (see `readNumber` and `float`).
    mutating func readFloat(_ member: JSONMember?, in path: String, ok: inout Bool) -> Float? {
        guard let member else { return nil }
        let value = float(member, path: Self.join(path, member.key))
        if value == nil { ok = false }
        return value
    }

    /// Reads an optional string member (see `readNumber`).
    mutating func readString(_ member: JSONMember?, in path: String, ok: inout Bool) -> String? {
        guard let member else { return nil }
        let value = string(member, path: Self.join(path, member.key))
        if value == nil { ok = false }
        return value
    }

    /// Reads an optional bool member (see `readNumber`).
    mutating func readBool(_ member: JSONMember?, in path: String, ok: inout Bool) -> Bool? {
        guard let member else { return nil }
        let value = bool(member, path: Self.join(path, member.key))
        if value == nil { ok = false }
        return value
    }

    /// Reports a required key that is absent (an error at the entry) and clears `ok`.
    mutating func requirePresent(
        _ member: JSONMember?, _ code: CHHapticError.Code, _ message: String, suggestion: String, node: JSONNode,
        path: String, ok: inout Bool
    ) {
        guard member == nil else { return }
        report(.error, code, message, suggestion: suggestion, path: path, at: node.position)
        ok = false
    }

    mutating func decodeEvent(_ member: JSONMember, path: String) -> EventData? {
        guard requireObject(member, path: path) else { return nil }
        let node = member.value
        let members = self.members(of: node, path: path, known: Keys.event)
        var ok = true

        let typeMember = members["EventType"]
        requirePresent(
            typeMember, .badEventEntry, "Missing event type: the event has no EventType",
            suggestion: "add \"EventType\": one of "
                + CHHapticEvent.EventType.allKnown.map(\.rawValue).joined(separator: ", "),
            node: node, path: path, ok: &ok)
        let type = readString(typeMember, in: path, ok: &ok).map { CHHapticEvent.EventType(rawValue: $0) }
        let time = timeMember(members, alias: "EventTime", path: path)
        requirePresent(
            time, .invalidEventTime, "Illegal or missing event time: the event has no Time",
            suggestion: "add \"Time\" (seconds from the pattern start)", node: node, path: path, ok: &ok)
        let seconds = readNumber(time, in: path, ok: &ok)
        let duration = readNumber(members["EventDuration"], in: path, ok: &ok)
        let waveformPath = readString(members["EventWaveformPath"], in: path, ok: &ok)
        let useVolumeEnvelope = readBool(members["EventWaveformUseVolumeEnvelope"], in: path, ok: &ok)
        let loopEnabled = readBool(members["EventWaveformLoopEnabled"], in: path, ok: &ok)

        var parameters: [EventParameterData] = []
        if let list = members["EventParameters"] {
            let listPath = Self.join(path, "EventParameters")
            if case .array(let entries) = list.value.value {
                for (index, entry) in entries.enumerated() {
                    if let parameter = decodeEventParameter(entry, path: "\(listPath)[\(index)]") {
                        parameters.append(parameter)
                    } else {
                        ok = false
                    }
                }
            } else {
                report(
                    .error, .invalidPatternDictionary,
                    "EventParameters must be an array, found \(list.value.typeDescription)", path: listPath,
                    at: list.value.position)
                ok = false
            }
        }

        guard ok, let type, let seconds else { return nil }
        return EventData(
            type: type, time: seconds, duration: duration, parameters: parameters, waveformPath: waveformPath,
            useVolumeEnvelope: useVolumeEnvelope, loopEnabled: loopEnabled)
    }

    mutating func decodeEventParameter(_ node: JSONNode, path: String) -> EventParameterData? {
        guard case .object = node.value else {
            report(
                .error, .badParameterEntry, "an EventParameters entry must be an object, found \(node.typeDescription)",
                path: path, at: node.position)
            return nil
        }
        let members = self.members(of: node, path: path, known: Keys.eventParameter)
        var ok = true
        requirePresent(
            members["ParameterID"], .badParameterEntry, "the event parameter has no ParameterID",
            suggestion: "add \"ParameterID\", e.g. \"HapticIntensity\"", node: node, path: path, ok: &ok)
        let id = readString(members["ParameterID"], in: path, ok: &ok)
        requirePresent(
            members["ParameterValue"], .badParameterEntry, "the event parameter has no ParameterValue",
            suggestion: "add \"ParameterValue\"", node: node, path: path, ok: &ok)
        let value = readFloat(members["ParameterValue"], in: path, ok: &ok)
        guard ok, let id, let value else { return nil }
        return EventParameterData(id: CHHapticEvent.ParameterID(rawValue: id), value: value)
    }

    /// The `ParameterID` of a `Parameter` or `ParameterCurve`; reports badParameterEntry when missing.
    mutating func dynamicID(_ members: [String: JSONMember], node: JSONNode, path: String, kind: String) -> String? {
        guard let idMember = members["ParameterID"] else {
            report(
                .error, .badParameterEntry, "the \(kind) has no ParameterID",
                suggestion: "add \"ParameterID\", e.g. \"HapticIntensityControl\"", path: path, at: node.position)
            return nil
        }
        return string(idMember, path: Self.join(path, "ParameterID"))
    }

    mutating func decodeParameter(_ member: JSONMember, path: String) -> DynamicParameterData? {
        guard requireObject(member, path: path) else { return nil }
        let node = member.value
        let members = self.members(of: node, path: path, known: Keys.parameter)
        let id = dynamicID(members, node: node, path: path, kind: "Parameter")
        var ok = id != nil
        let timeMember = timeMember(members, alias: "ParameterTime", path: path)
        requirePresent(
            timeMember, .badParameterEntry, "the Parameter has no Time",
            suggestion: "add \"Time\" (seconds from the pattern start)", node: node, path: path, ok: &ok)
        let time = readNumber(timeMember, in: path, ok: &ok)
        let value = readFloat(members["ParameterValue"], in: path, ok: &ok) ?? 0
        if members["ParameterValue"] == nil, let id {
            let silences = id == CHHapticDynamicParameter.ID.hapticIntensityControl.rawValue
                ? " (for HapticIntensityControl this silences the player)" : ""
            report(
                .warning, nil, "the Parameter has no ParameterValue; 0 is used, as Core Haptics does\(silences)",
                suggestion: "add \"ParameterValue\"", path: path, at: node.position)
        }
        guard ok, let id, let time else { return nil }
        return DynamicParameterData(id: CHHapticDynamicParameter.ID(rawValue: id), value: value, time: time)
    }

    mutating func decodeCurve(_ member: JSONMember, path: String) -> ParameterCurveData? {
        guard requireObject(member, path: path) else { return nil }
        let node = member.value
        let members = self.members(of: node, path: path, known: Keys.curve)
        let id = dynamicID(members, node: node, path: path, kind: "ParameterCurve")
        var ok = id != nil
        requirePresent(
            members["Time"], .badParameterEntry, "the ParameterCurve has no Time",
            suggestion: "add \"Time\" (seconds from the pattern start)", node: node, path: path, ok: &ok)
        let time = readNumber(members["Time"], in: path, ok: &ok)
        var points: [ControlPointData] = []
        if let list = members["ParameterCurveControlPoints"] {
            let listPath = Self.join(path, "ParameterCurveControlPoints")
            if case .array(let entries) = list.value.value {
                for (index, entry) in entries.enumerated() {
                    if let point = decodePoint(entry, path: "\(listPath)[\(index)]") {
                        points.append(point)
                    } else {
                        ok = false
                    }
                }
            } else {
                report(
                    .error, .invalidPatternDictionary,
                    "ParameterCurveControlPoints must be an array, found \(list.value.typeDescription)",
                    path: listPath, at: list.value.position)
                ok = false
            }
        }
        guard ok, let id, let time else { return nil }
        return ParameterCurveData(id: CHHapticDynamicParameter.ID(rawValue: id), time: time, points: points)
    }

    mutating func decodePoint(_ node: JSONNode, path: String) -> ControlPointData? {
        guard case .object = node.value else {
            report(
                .error, .badParameterEntry, "a control point must be an object, found \(node.typeDescription)",
                path: path, at: node.position)
            return nil
        }
        let members = self.members(of: node, path: path, known: Keys.point)
        var ok = true
        requirePresent(
            members["Time"], .badParameterEntry, "the control point has no Time",
            suggestion: "add \"Time\" (seconds from the curve's Time)", node: node, path: path, ok: &ok)
        let time = readNumber(members["Time"], in: path, ok: &ok)
        requirePresent(
            members["ParameterValue"], .badParameterEntry, "the control point has no ParameterValue",
            suggestion: "add \"ParameterValue\"", node: node, path: path, ok: &ok)
        let value = readFloat(members["ParameterValue"], in: path, ok: &ok)
        guard ok, let time, let value else { return nil }
        return ControlPointData(time: time, value: value)
    }
}
