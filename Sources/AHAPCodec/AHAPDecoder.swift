import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// What decoding an AHAP document produced: the pattern (when it has no errors) and every diagnostic.
package struct AHAPDecodeResult: Sendable {
    /// The pattern; nil exactly when there is at least one error diagnostic.
    package var pattern: PatternData?
    /// Every problem found, errors and warnings, in source order.
    package var diagnostics: [Diagnostic]
    /// Where the pattern's entries are: the JSON path of each of `pattern.events`, `.parameters` and
    /// `.curves` (`Pattern[3].Event`), in their order, and the position of every JSON path (empty for a
    /// dictionary). For tools that report on the pattern later (converters).
    package var sourcePaths: SourcePaths

    /// JSON paths of decoded entries and positions of JSON values.
    package struct SourcePaths: Sendable {
        package var events: [String] = []
        package var parameters: [String] = []
        package var curves: [String] = []
        package var positions = SourcePositions()

        /// Creates paths (empty by default).
        package init(
            events: [String] = [], parameters: [String] = [], curves: [String] = [],
            positions: SourcePositions = SourcePositions()
        ) {
            self.events = events
            self.parameters = parameters
            self.curves = curves
            self.positions = positions
        }
    }

    /// Creates a result.
    package init(pattern: PatternData?, diagnostics: [Diagnostic], sourcePaths: SourcePaths = SourcePaths()) {
        self.pattern = pattern
        self.diagnostics = diagnostics
        self.sourcePaths = sourcePaths
    }

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// The error diagnostics.
    package var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warning diagnostics.
    package var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

/// Reads AHAP text, files and pattern dictionaries into `PatternData`, reporting every problem with
/// its position (`docs/core-haptics-behaviour.md` §1, docs/decisions.md "AHAP leniency"). Pure and thread-safe.
///
/// The decoder checks structure and types; `PatternValidator` then checks values (event types,
/// parameter IDs, ranges, durations, curve limits), and its issues are reported at the place in the
/// source they refer to.
package enum AHAPDecoder {
    /// Decodes AHAP `text`; `file` is only used in diagnostics.
    package static func decode(text: String, file: String? = nil) -> AHAPDecodeResult {
        decode(parsed: JSONReader.parse(text), file: file)
    }

    /// Decodes AHAP UTF-8 `data` (a leading byte order mark is skipped); `file` is only used in diagnostics.
    package static func decode(data: Data, file: String? = nil) -> AHAPDecodeResult {
        decode(parsed: JSONReader.parse(data), file: file)
    }

    /// Reads and decodes the file at `path`. An unreadable file gives a `fileNotFound` error diagnostic; a
    /// name that does not end in `.ahap` or `.json` (the only ones Core Haptics opens) a warning.
    package static func decode(contentsOfFile path: String) -> AHAPDecodeResult {
        guard let data = readPatternFile(path) else {
            return AHAPDecodeResult(pattern: nil, diagnostics: [unreadableFile(path)])
        }
        var result = decode(data: data, file: path)
        if let warning = fileNameWarning(path) { result.diagnostics.insert(warning, at: 0) }
        return result
    }

    /// The bytes of the pattern file at `path`, or nil when it is missing, a directory or unreadable
    /// (``unreadableFile(_:)`` says which). Shared by the AHAP and `.haptic` readers.
    package static func readPatternFile(_ path: String) -> Data? {
        FileSystem.isDirectory(path) == false ? FileBytes.read(path: path, limit: Int.max) : nil
    }

    /// The `fileNotFound` error for a pattern file `readPatternFile` could not read: no such file, a
    /// directory, or unreadable.
    package static func unreadableFile(_ path: String) -> Diagnostic {
        let isDirectory = FileSystem.isDirectory(path)
        let reason = isDirectory == nil ? "no such file" : isDirectory == true ? "it is a directory" : "it cannot be read"
        return Diagnostic(.error, file: path, path: "", message: "cannot open the file: \(reason)", code: .fileNotFound)
    }

    /// A warning for a pattern file whose name does not end in `.ahap` or `.json` (the only ones Core Haptics
    /// opens; Thrum reads it as AHAP), or nil (docs/decisions.md "AHAP leniency").
    package static func fileNameWarning(_ path: String) -> Diagnostic? {
        let name = PathName.lastComponent(path)
        let suffix = PathName.fileExtension(path).lowercased()
        guard suffix != "ahap" && suffix != "json" else { return nil }
        let stem = suffix.isEmpty ? name : String(name.dropLast(suffix.count + 1))
        return Diagnostic(
            .warning, file: path, path: "",
            message: "the file name does not end in .ahap or .json: Core Haptics refuses to open it (Thrum reads it as AHAP)",
            suggestion: "rename it to \(stem).ahap", code: .notSupported)
    }

    /// Decodes a pattern dictionary (`CHHapticPattern(dictionary:)`). Keys may be `String`s or
    /// `RawRepresentable` values with a `String` raw value (such as `CHHapticPattern.Key`); values may be
    /// numbers (`Double`, `Float`, `Int`…, `NSNumber`), `Bool`, `String`, arrays, dictionaries and
    /// String-backed `RawRepresentable`s (such as `CHHapticEvent.EventType`). Diagnostics have no positions;
    /// object keys are visited in sorted order.
    package static func decode(dictionary: [AnyHashable: Any]) -> AHAPDecodeResult {
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
            return AHAPDecodeResult(pattern: nil, diagnostics: Diagnostic.inSourceOrder(diagnostics))
        }
        return context.decodeDocument(root, notices: parsed)
    }
}

/// Turns Swift/Foundation values into a position-less JSON tree.
enum DictionaryConverter {
    /// Foundation's objects (from `JSONSerialization` or written as `NSNumber(value:)` in a dictionary), read
    /// through the runtime's bridging casts and their class names, so that Thrum need not link Foundation
    /// (see docs/performance.md): `NSNull` is null, an `NSNumber` made from a boolean (`__NSCFBoolean`) is a
    /// boolean, other `NSNumber`s are numbers, `NSString`, `NSArray` and `NSDictionary` bridge.
    static func foundationObject(_ value: Any, depth: Int) -> JSONNode {
        switch String(reflecting: type(of: value)) {
        case "Foundation.NSNull": return JSONNode(.null)
        case "Foundation.__NSCFBoolean": if let v = value as? Bool { return JSONNode(.bool(v)) }
        default: break
        }
        if let v = value as? Int { return number(Double(v), literal: "\(v)") }  // an integral NSNumber reads as "1", not "1.0"
        if let v = value as? Double { return number(v, literal: "\(v)") }
        if let v = value as? String { return JSONNode(.string(v)) }
        if let v = value as? [AnyHashable: Any] { return object(v, depth: depth) }
        if let v = value as? [Any] { return JSONNode(.array(v.map { node(from: $0, depth: depth + 1) })) }
        return JSONNode(.unsupported(typeName: "\(type(of: value))"))
    }

    static func node(from value: Any, depth: Int) -> JSONNode {
        if depth > JSONReader.maxDepth { return JSONNode(.unsupported(typeName: "nesting deeper than \(JSONReader.maxDepth) levels")) }
        if let value = value as? JSONNode { return value }
        if type(of: value) is AnyClass { return foundationObject(value, depth: depth) }
        switch value {
        case let v as Bool where type(of: value) == Bool.self: return JSONNode(.bool(v))
        case let v as Double where type(of: value) == Double.self: return number(v, literal: "\(v)")
        case let v as Float where type(of: value) == Float.self: return number(Double(v), literal: "\(v)")
        case let v as Int where type(of: value) == Int.self: return number(Double(v), literal: "\(v)")
        case let v as any BinaryInteger: return number(Double(v), literal: "\(v)")
        case let v as any BinaryFloatingPoint: return number(Double(v), literal: "\(Double(v))")
        case let v as String: return JSONNode(.string(v))
        case let v as any RawRepresentable:
            if let raw = v.rawValue as? String { return JSONNode(.string(raw)) }
            return JSONNode(.unsupported(typeName: "\(type(of: value))"))
        case let v as [AnyHashable: Any]: return object(v, depth: depth)
        case let v as [Any]: return JSONNode(.array(v.map { node(from: $0, depth: depth + 1) }))
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
