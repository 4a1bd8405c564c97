import AHAPCodec
import FoundationEssentials
import ThrumModel

/// What reading a `.haptic` document produced: the file (when it has no errors), every diagnostic, and
/// where each value is (for conversion warnings). A value type; thread-safe.
package struct HapticDecodeResult: Sendable {
    /// The file; nil exactly when there is at least one error diagnostic.
    package var file: HapticFile?
    /// Every problem found, errors and warnings, in source order.
    package var diagnostics: [Diagnostic]
    /// The positions of the document's values.
    package var sourceMap: SourceMap

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// The error diagnostics.
    package var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warning diagnostics.
    package var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

/// Reads `.haptic` text and files into `HapticFile`, reporting every problem with its line, column, JSON
/// path and a suggestion, in the AHAP decoder's style: structure and types first, then the spec's rules
/// (`HapticFileValidator`) in the given mode. Pure and thread-safe.
package enum HapticFileDecoder {
    /// Decodes `.haptic` UTF-8 `data`; `file` is only used in diagnostics.
    package static func decode(
        data: Data, file: String? = nil, mode: HapticValidationMode = .legacyCompatibility
    ) -> HapticDecodeResult {
        decode(parsed: JSONReader.parse(data), file: file, mode: mode)
    }

    /// Decodes `.haptic` `text`; `file` is only used in diagnostics.
    package static func decode(
        text: String, file: String? = nil, mode: HapticValidationMode = .legacyCompatibility
    ) -> HapticDecodeResult {
        decode(parsed: JSONReader.parse(text), file: file, mode: mode)
    }

    /// Decodes a `.haptic` document that is a value inside another JSON file (a Haptics Studio project's
    /// clip): diagnostics carry `file` and the positions of `root`'s values in that file, and paths from
    /// the document's own top level.
    package static func decode(
        root: JSONNode, file: String? = nil, mode: HapticValidationMode = .legacyCompatibility
    ) -> HapticDecodeResult {
        var context = HapticReadContext(file: file)
        return finish(root: root, error: nil, context: &context, mode: mode)
    }

    /// Reads and decodes the file at `path`; an unreadable file is a `fileNotFound` error diagnostic.
    package static func decode(
        contentsOfFile path: String, mode: HapticValidationMode = .legacyCompatibility
    ) -> HapticDecodeResult {
        guard let data = AHAPDecoder.readPatternFile(path) else {
            return HapticDecodeResult(file: nil, diagnostics: [AHAPDecoder.unreadableFile(path)], sourceMap: SourceMap(file: path))
        }
        return decode(data: data, file: path, mode: mode)
    }

    static func decode(parsed: JSONParseResult, file: String?, mode: HapticValidationMode) -> HapticDecodeResult {
        var context = HapticReadContext(file: file)
        for notice in parsed.trailingCommas {
            context.report(
                .warning, nil, "trailing comma (strict JSON and Meta's tools do not accept it)",
                suggestion: "remove the comma", path: notice.path, at: notice.position)
        }
        for notice in parsed.duplicateKeys {
            context.report(
                .warning, nil, "duplicate key \"\(notice.key ?? "")\"; the last one wins", path: notice.path,
                at: notice.position)
        }
        return finish(root: parsed.root, error: parsed.error, context: &context, mode: mode)
    }

    /// Decodes the tree (or reports the syntax error) into the result.
    private static func finish(
        root: JSONNode?, error: JSONSyntaxError?, context: inout HapticReadContext, mode: HapticValidationMode
    ) -> HapticDecodeResult {
        let file = context.file
        var decoded: HapticFile?
        if let root {
            context.positions = SourcePositions(root)
            decoded = context.decodeDocument(root)
            if let file = decoded {
                for issue in HapticFileValidator.issues(in: file, mode: mode) { context.report(issue) }
            }
        } else if let error {
            context.report(.error, nil, "invalid JSON: \(error.message)", path: "", at: error.position)
        }
        let diagnostics = Diagnostic.inSourceOrder(context.diagnostics)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return HapticDecodeResult(
            file: hasErrors ? nil : decoded, diagnostics: diagnostics,
            sourceMap: SourceMap(file: file, positions: context.positions))
    }
}

/// Known keys at each level of a `.haptic` document.
private enum Keys {
    static let topLevel = ["version", "metadata", "signals"]
    static let version = ["major", "minor", "patch"]
    static let metadata = ["author", "editor", "source", "project", "tags", "description"]
    static let signals = ["continuous"]
    static let continuous = ["envelopes"]
    static let envelopes = ["amplitude", "frequency"]
    static let amplitude = ["time", "amplitude", "emphasis"]
    static let emphasis = ["amplitude", "frequency"]
    static let frequency = ["time", "frequency"]
}

extension HapticReadContext {
    /// The file's structure; nil when something required is missing or has the wrong type (reported).
    mutating func decodeDocument(_ root: JSONNode) -> HapticFile? {
        guard case .object = root.value else {
            report(
                .error, .invalidPatternDictionary, "the top level must be an object, found \(root.typeDescription)",
                path: "", at: root.position)
            return nil
        }
        let top = members(of: root, path: "", known: Keys.topLevel)
        let version = decodeVersion(top, root: root)
        var metadata: HapticFile.Metadata?
        var ok = true
        if let member = top["metadata"] {
            metadata = decodeMetadata(member)
            ok = metadata != nil
        }
        let envelopes = decodeSignals(top, root: root)
        guard ok, let version, let (amplitude, frequency) = envelopes else { return nil }
        return HapticFile(version: version, metadata: metadata, amplitude: amplitude, frequency: frequency)
    }

    mutating func decodeVersion(_ top: [String: JSONMember], root: JSONNode) -> HapticFile.Version? {
        guard
            let member = required(
                "version", in: top, of: root, path: "", example: "\"version\": {\"major\": 1, \"minor\": 0, \"patch\": 0}"),
            let node = object(member, path: "version")
        else { return nil }
        let fields = members(of: node, path: "version", known: Keys.version)
        guard let majorMember = required("major", in: fields, of: node, path: "version", example: "\"major\": 1")
        else { return nil }
        let major = count(majorMember, path: "version.major")
        // minor and patch: required by the spec, optional in Meta's reader (valid_required_v1.haptic).
        let minor = fields["minor"].map { count($0, path: "version.minor") } ?? 0
        let patch = fields["patch"].map { count($0, path: "version.patch") } ?? 0
        guard let major, let minor, let patch else { return nil }
        return HapticFile.Version(major: major, minor: minor, patch: patch)
    }

    mutating func decodeMetadata(_ member: JSONMember) -> HapticFile.Metadata? {
        guard let node = object(member, path: "metadata") else { return nil }
        let fields = members(of: node, path: "metadata", known: Keys.metadata)
        var ok = true
        func text(_ key: String) -> String? {
            guard let field = fields[key] else { return nil }
            let value = string(field, path: "metadata." + key)
            if value == nil { ok = false }
            return value
        }
        var metadata = HapticFile.Metadata(
            author: text("author"), editor: text("editor"), source: text("source"), project: text("project"),
            description: text("description"))
        if let field = fields["tags"] {
            if let elements = array(field, path: "metadata.tags") {
                var tags: [String] = []
                for (index, element) in elements.enumerated() {
                    let tag = string(JSONMember(key: "a tag", value: element), path: "metadata.tags[\(index)]")
                    if let tag { tags.append(tag) } else { ok = false }
                }
                metadata.tags = tags
            } else {
                ok = false
            }
        }
        return ok ? metadata : nil
    }

    mutating func decodeSignals(
        _ top: [String: JSONMember], root: JSONNode
    ) -> ([HapticFile.AmplitudeBreakpoint], [HapticFile.FrequencyBreakpoint]?)? {
        let amplitudeExample = "\"amplitude\": [{\"time\": 0, \"amplitude\": 0}, {\"time\": 1, \"amplitude\": 0}]"
        guard
            let signalsMember = required(
                "signals", in: top, of: root, path: "",
                example: "\"signals\": {\"continuous\": {\"envelopes\": {\(amplitudeExample)}}}"),
            let signals = object(signalsMember, path: "signals")
        else { return nil }
        let signalFields = members(of: signals, path: "signals", known: Keys.signals) { key in
            key == "impulses"
                ? "\"impulses\" (a beta field of Lofelt's tools) is not part of .haptic v1 and is ignored" : nil
        }
        guard
            let continuousMember = required(
                "continuous", in: signalFields, of: signals, path: "signals",
                example: "\"continuous\": {\"envelopes\": {\(amplitudeExample)}}"),
            let continuous = object(continuousMember, path: "signals.continuous")
        else { return nil }
        let continuousFields = members(of: continuous, path: "signals.continuous", known: Keys.continuous)
        guard
            let envelopesMember = required(
                "envelopes", in: continuousFields, of: continuous, path: "signals.continuous",
                example: "\"envelopes\": {\(amplitudeExample)}"),
            let envelopes = object(envelopesMember, path: HapticPaths.envelopes)
        else { return nil }
        let envelopeFields = members(of: envelopes, path: HapticPaths.envelopes, known: Keys.envelopes)
        guard
            let amplitudeMember = required(
                "amplitude", in: envelopeFields, of: envelopes, path: HapticPaths.envelopes, example: amplitudeExample),
            let amplitudeNodes = array(amplitudeMember, path: HapticPaths.amplitude)
        else { return nil }
        var ok = true
        var amplitude: [HapticFile.AmplitudeBreakpoint] = []
        for (index, node) in amplitudeNodes.enumerated() {
            if let point = decodeAmplitudePoint(node, path: HapticPaths.amplitude(index)) {
                amplitude.append(point)
            } else {
                ok = false
            }
        }
        var frequency: [HapticFile.FrequencyBreakpoint]?
        if let frequencyMember = envelopeFields["frequency"] {
            if let nodes = array(frequencyMember, path: HapticPaths.frequency) {
                frequency = []
                for (index, node) in nodes.enumerated() {
                    let path = HapticPaths.frequency(index)
                    guard let fields = pointFields(node, path: path, known: Keys.frequency),
                        let time = requiredNumber("time", fields, node, path),
                        let value = requiredNumber("frequency", fields, node, path)
                    else {
                        ok = false
                        continue
                    }
                    frequency?.append(HapticFile.FrequencyBreakpoint(time: time, frequency: value))
                }
            } else {
                ok = false
            }
        }
        return ok ? (amplitude, frequency) : nil
    }

    mutating func decodeAmplitudePoint(_ node: JSONNode, path: String) -> HapticFile.AmplitudeBreakpoint? {
        guard let fields = pointFields(node, path: path, known: Keys.amplitude) else { return nil }
        let time = requiredNumber("time", fields, node, path)
        let value = requiredNumber("amplitude", fields, node, path)
        var emphasis: HapticFile.Emphasis?
        var ok = true
        if let member = fields["emphasis"] {
            let emphasisPath = path + ".emphasis"
            if let emphasisNode = object(member, path: emphasisPath) {
                let emphasisFields = members(of: emphasisNode, path: emphasisPath, known: Keys.emphasis)
                let amplitude = requiredNumber("amplitude", emphasisFields, emphasisNode, emphasisPath)
                let frequency = requiredNumber("frequency", emphasisFields, emphasisNode, emphasisPath)
                if let amplitude, let frequency {
                    emphasis = HapticFile.Emphasis(amplitude: amplitude, frequency: frequency)
                } else {
                    ok = false
                }
            } else {
                ok = false
            }
        }
        guard ok, let time, let value else { return nil }
        return HapticFile.AmplitudeBreakpoint(time: time, amplitude: value, emphasis: emphasis)
    }

    /// The members of a breakpoint object, or nil after reporting that it is not an object.
    mutating func pointFields(_ node: JSONNode, path: String, known: [String]) -> [String: JSONMember]? {
        guard case .object = node.value else {
            report(
                .error, .invalidPatternDictionary, "a breakpoint must be an object, found \(node.typeDescription)",
                path: path, at: node.position)
            return nil
        }
        return members(of: node, path: path, known: known)
    }

    /// The number member `key` of the object `node` at `path`; reports it missing or mistyped.
    mutating func requiredNumber(
        _ key: String, _ fields: [String: JSONMember], _ node: JSONNode, _ path: String
    ) -> Double? {
        guard let member = required(key, in: fields, of: node, path: path, example: "\"\(key)\": a number")
        else { return nil }
        return number(member, path: Self.join(path, key))
    }
}
