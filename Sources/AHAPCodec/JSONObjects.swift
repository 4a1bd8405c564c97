import FoundationEssentials

/// JSON's `null` inside the plain objects that ``JSONObjects`` reads and writes.
package struct JSONNull: Sendable, Equatable {
    /// The null value.
    package init() {}
}

/// JSON text to and from plain Swift values: objects `[String: Any]`, arrays `[Any]`, `String`, `Bool`, numbers and
/// ``JSONNull``. The command line and the studio use it for their JSON output and request bodies instead of
/// Foundation's `JSONSerialization`, which would link full Foundation (see docs/performance.md). Reading goes
/// through ``JSONReader``. Pure and thread-safe.
package enum JSONObjects {
    /// Why a value cannot be written as JSON.
    package struct Unwritable: Error, CustomStringConvertible {
        /// What was found and where, e.g. "a value of type Date at settings.when".
        package var description: String
    }

    /// The JSON text of `value`, object keys in ascending code-point order. Numbers: integers as integers,
    /// integral floating-point values within ±2⁵³ without a fraction (`1`), others in Swift's shortest exact
    /// form (`0.1`, `1e+300`; a `Float` as the `Float` it is). `pretty`: one member or element per line,
    /// indented by two spaces, `"key" : value` (the layout of Foundation's `.prettyPrinted`).
    /// - Throws: ``Unwritable`` for a value of another type and for a number that is not finite.
    package static func text(_ value: Any, pretty: Bool = false) throws(Unwritable) -> String {
        var out = ""
        try write(value, to: &out, indent: pretty ? "" : nil, at: "")
        return out
    }

    /// The value of JSON `text`: `[String: Any]`, `[Any]`, `String`, `Double`, `Bool` or ``JSONNull``
    /// (for a repeated key, the last value). Nil when `text` is not strict JSON (RFC 8259: a trailing comma,
    /// which ``JSONReader`` lets AHAP files have, makes it nil here).
    package static func value(_ text: some Sequence<UInt8>) -> Any? {
        let parsed = JSONReader.parse(Data(text))
        guard parsed.trailingCommas.isEmpty else { return nil }
        return parsed.root.map(plain)
    }

    private static func plain(_ node: JSONNode) -> Any {
        switch node.value {
        case .object(let members):
            var object: [String: Any] = [:]
            for member in members { object[member.key] = plain(member.value) }
            return object
        case .array(let elements): return elements.map(plain)
        case .string(let string): return string
        case .number(let number, _): return number
        case .bool(let bool): return bool
        case .null, .unsupported: return JSONNull()
        }
    }

    private static func write(_ value: Any, to out: inout String, indent: String?, at path: String) throws(Unwritable) {
        switch value {
        case is JSONNull: out += "null"
        case let bool as Bool: out += bool ? "true" : "false"
        case let string as String: out += AHAPEncoder.quoted(string)
        case let float as Float: out += try number(Double(float), spelled: "\(float)", at: path)
        case let double as Double: out += try number(double, spelled: "\(double)", at: path)
        case let integer as any BinaryInteger: out += "\(integer)"
        case let array as [Any]:
            try container("[", "]", array.enumerated().map { ("", $0.element, "\(path)[\($0.offset)]") }, to: &out, indent: indent)
        case let object as [String: Any]:
            let members = object.keys.sorted().map { key in (AHAPEncoder.quoted(key), object[key]!, path.isEmpty ? key : "\(path).\(key)") }
            try container("{", "}", members, to: &out, indent: indent)
        default:
            throw Unwritable(description: "a value of type \(type(of: value)) at \(path.isEmpty ? "the top" : path)")
        }
    }

    /// Writes `[…]` or `{…}`; each item is (quoted key or "", value, path).
    private static func container(
        _ open: String, _ close: String, _ items: [(key: String, value: Any, path: String)], to out: inout String, indent: String?
    ) throws(Unwritable) {
        out += open
        guard !items.isEmpty else { return out += close }
        let inner = indent.map { $0 + "  " }
        for (index, item) in items.enumerated() {
            if index > 0 { out += "," }
            if let inner { out += "\n" + inner }
            if !item.key.isEmpty { out += item.key + (inner == nil ? ":" : " : ") }
            try write(item.value, to: &out, indent: inner, at: item.path)
        }
        if let indent { out += "\n" + indent }
        out += close
    }

    private static func number(_ value: Double, spelled: String, at path: String) throws(Unwritable) -> String {
        guard value.isFinite else { throw Unwritable(description: "the number \(value) at \(path.isEmpty ? "the top" : path)") }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 { return "\(Int64(value))" }
        return spelled
    }
}
