import Foundation

/// A place in source text: 1-based line and column (columns count characters, not bytes).
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in characters from the start of the line.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// One JSON value with the place it starts in the source (nil when it came from a dictionary).
public struct JSONNode: Sendable, Equatable {
    /// The kinds of JSON value.
    public enum Value: Sendable, Equatable {
        /// An object; members in source order, duplicates kept (readers use the last one).
        case object([JSONMember])
        case array([JSONNode])
        case string(String)
        /// A number: its value and the literal text as written (used to read `Float`s exactly).
        case number(Double, literal: String)
        case bool(Bool)
        case null
        /// A value of a type JSON cannot hold (only from `AHAPDecoder.decode(dictionary:)`): the type's name.
        case unsupported(typeName: String)
    }

    /// The value.
    public var value: Value
    /// Where the value starts (its first character); nil when unknown.
    public var position: SourcePosition?

    /// Creates a node.
    public init(_ value: Value, position: SourcePosition? = nil) {
        self.value = value
        self.position = position
    }

    /// The article-and-noun name of the value's type, for messages ("an array", "a string").
    public var typeDescription: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .unsupported(let name): "a value of type \(name)"
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The key.
    public var key: String
    /// Where the key's opening quote is; nil when unknown.
    public var keyPosition: SourcePosition?
    /// The value.
    public var value: JSONNode

    /// Creates a member.
    public init(key: String, keyPosition: SourcePosition? = nil, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// Something legal but noteworthy the reader saw: a trailing comma or a duplicate key.
public struct JSONNotice: Sendable, Equatable {
    /// Where it is (the comma, or the duplicate key's opening quote).
    public var position: SourcePosition
    /// The JSON path of the container (trailing comma) or of the duplicated key (`Pattern[0].Event.Time`).
    public var path: String
    /// The duplicated key; nil for a trailing comma.
    public var key: String?

    /// Creates a notice.
    public init(position: SourcePosition, path: String, key: String?) {
        self.position = position
        self.path = path
        self.key = key
    }
}

/// A syntax error: what is wrong and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is wrong ("expected ',' or '}' after object member").
    public var message: String
    /// Where it is.
    public var position: SourcePosition

    public var description: String { "\(position): \(message)" }
}

/// What `JSONReader` produced: a tree, or an error, plus notices.
public struct JSONParseResult: Sendable {
    /// The document's root value; nil when there is a syntax error.
    public var root: JSONNode?
    /// The syntax error, if any (the reader stops at the first one).
    public var error: JSONSyntaxError?
    /// Trailing commas seen before the error (accepted, as Core Haptics does).
    public var trailingCommas: [JSONNotice]
    /// Duplicate object keys seen before the error (all members are kept; the last one counts).
    public var duplicateKeys: [JSONNotice]
}

/// A lenient JSON reader that keeps the line and column of every value and key.
///
/// Strict RFC 8259 JSON, except that a trailing comma before `}` or `]` is accepted and recorded.
/// A leading UTF-8 byte order mark is skipped. Nesting deeper than `maxDepth` is an error, so hostile
/// input cannot overflow the stack. Never traps on any input. Pure and thread-safe.
public enum JSONReader {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 512

    /// Parses `text`.
    public static func parse(_ text: String) -> JSONParseResult {
        parse(bytes: Array(text.utf8))
    }

    /// Parses UTF-8 `data`; bytes that are not valid UTF-8 are an error at their position.
    public static func parse(_ data: Data) -> JSONParseResult {
        parse(bytes: [UInt8](data))
    }

    static func parse(bytes input: [UInt8]) -> JSONParseResult {
        var bytes = input
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            bytes.removeFirst(3)
        }
        var parser = Parser(bytes: bytes)
        if let bad = firstInvalidUTF8(bytes) {
            let position = parser.positionScanningLines(to: bad)
            return JSONParseResult(
                root: nil, error: JSONSyntaxError(message: "invalid UTF-8 byte sequence", position: position),
                trailingCommas: [], duplicateKeys: [])
        }
        do {
            let root = try parser.parseDocument()
            return JSONParseResult(
                root: root, error: nil, trailingCommas: parser.trailingCommas, duplicateKeys: parser.duplicateKeys)
        } catch {
            return JSONParseResult(
                root: nil, error: error, trailingCommas: parser.trailingCommas, duplicateKeys: parser.duplicateKeys)
        }
    }

    /// The offset of the first byte that does not start a valid UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let need: Int
            var scalar: UInt32
            let minimum: UInt32
            if lead & 0xE0 == 0xC0 {
                need = 1; scalar = UInt32(lead & 0x1F); minimum = 0x80
            } else if lead & 0xF0 == 0xE0 {
                need = 2; scalar = UInt32(lead & 0x0F); minimum = 0x800
            } else if lead & 0xF8 == 0xF0 {
                need = 3; scalar = UInt32(lead & 0x07); minimum = 0x10000
            } else {
                return i
            }
            guard i + need < count else { return i }
            for k in 1...need {
                let next = bytes[i + k]
                guard next & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += need + 1
        }
        return nil
    }
}

/// Path components while parsing, for notices.
private enum PathComponent {
    case key(String)
    case index(Int)
}

/// Builds a JSON path string from components: `Pattern[3].Event.EventType`.
private func pathString(_ components: [PathComponent]) -> String {
    var result = ""
    for component in components {
        switch component {
        case .key(let key): result += result.isEmpty ? key : "." + key
        case .index(let index): result += "[\(index)]"
        }
    }
    return result
}

private struct Parser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    // Incremental column counting on the current line.
    var cacheOffset = 0
    var cacheColumn = 1
    var path: [PathComponent] = []
    var trailingCommas: [JSONNotice] = []
    var duplicateKeys: [JSONNotice] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Positions

    /// The position of `offset`, which must be on the current line (at or after `lineStart`).
    mutating func position(at offset: Int) -> SourcePosition {
        if cacheOffset < lineStart || cacheOffset > offset {
            cacheOffset = lineStart
            cacheColumn = 1
        }
        cacheColumn += characterCount(cacheOffset, offset)
        cacheOffset = offset
        return SourcePosition(line: line, column: cacheColumn)
    }

    func characterCount(_ from: Int, _ to: Int) -> Int {
        guard from < to else { return 0 }
        var ascii = true
        for i in from..<to where bytes[i] >= 0x80 {
            ascii = false
            break
        }
        if ascii { return to - from }
        return String(decoding: bytes[from..<to], as: UTF8.self).count
    }

    /// Position of `offset` counted from the start (used before parsing, for invalid UTF-8).
    mutating func positionScanningLines(to offset: Int) -> SourcePosition {
        var i = 0
        while i < offset {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            } else if bytes[i] == 0x0D {
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return position(at: max(offset, lineStart))
    }

    mutating func fail(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position(at: offset))
    }

    // MARK: Scanning

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            case 0x0D:
                index += 1
                if index < bytes.count && bytes[index] == 0x0A { index += 1 }
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    /// A description of the character at `offset` for messages: `'x'` or "end of input".
    func describe(_ offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x20 { return "control character U+\(String(format: "%04X", Int(byte)))" }
        let end = min(offset + 4, bytes.count)
        if let character = String(decoding: bytes[offset..<end], as: UTF8.self).first {
            return "'\(character)'"
        }
        return "an unexpected character"
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else { throw fail("the input is empty; expected a JSON value", at: index) }
        let root = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw fail("unexpected \(describe(index)) after the JSON value", at: index)
        }
        return root
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input; expected a value", at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            let start = position(at: index)
            return JSONNode(.string(try parseString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try parseLiteral()
        default:
            throw fail("expected a value, found \(describe(index))", at: index)
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = position(at: index)
        guard depth <= JSONReader.maxDepth else {
            throw fail("nesting deeper than \(JSONReader.maxDepth) levels", at: index)
        }
        index += 1
        var members: [JSONMember] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(.object([]), position: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw fail("unexpected end of input; expected a string key or '}'", at: index)
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in double quotes, found \(describe(index))", at: index)
            }
            let keyPosition = position(at: index)
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after object key \"\(key)\"", at: index)
            }
            index += 1
            path.append(.key(key))
            let value = try parseValue(depth: depth)
            if !seen.insert(key).inserted {
                duplicateKeys.append(JSONNotice(position: keyPosition, path: pathString(path), key: key))
            }
            path.removeLast()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            if try endOfItem(closedBy: UInt8(ascii: "}"), after: "object member") {
                return JSONNode(.object(members), position: start)
            }
        }
    }

    /// After an object member or array element: consumes `,` (noting a trailing comma before the closing
    /// bracket) or the closing bracket. Returns true when the container is closed.
    mutating func endOfItem(closedBy close: UInt8, after item: String) throws(JSONSyntaxError) -> Bool {
        let expected = "expected ',' or '\(Character(UnicodeScalar(close)))' after \(item)"
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input; \(expected)", at: index) }
        if bytes[index] == UInt8(ascii: ",") {
            let commaPosition = position(at: index)
            index += 1
            skipWhitespace()
            guard index < bytes.count && bytes[index] == close else { return false }
            trailingCommas.append(JSONNotice(position: commaPosition, path: pathString(path), key: nil))
            index += 1
            return true
        }
        if bytes[index] == close {
            index += 1
            return true
        }
        throw fail("\(expected), found \(describe(index))", at: index)
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = position(at: index)
        guard depth <= JSONReader.maxDepth else {
            throw fail("nesting deeper than \(JSONReader.maxDepth) levels", at: index)
        }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(.array([]), position: start)
        }
        while true {
            path.append(.index(elements.count))
            let element = try parseValue(depth: depth)
            path.removeLast()
            elements.append(element)
            if try endOfItem(closedBy: UInt8(ascii: "]"), after: "array element") {
                return JSONNode(.array(elements), position: start)
            }
        }
    }

    /// Parses a string starting at the opening quote; leaves `index` after the closing quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1
        var buffer: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw fail("unterminated string", at: open) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 {
                if byte == 0x0A || byte == 0x0D { throw fail("unterminated string", at: open) }
                throw fail("unescaped control character in string; write it as \\u\(String(format: "%04X", Int(byte)))", at: index)
            }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            buffer.append(contentsOf: bytes[runStart..<index])
            let escape = index
            index += 1
            guard index < bytes.count else { throw fail("unterminated string", at: open) }
            switch bytes[index] {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                index += 1
                var scalar = try hex4(escape: escape)
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("invalid \\u escape: high surrogate without a low surrogate", at: escape) }
                    let second = index
                    index += 2
                    let low = try hex4(escape: second)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("invalid \\u escape: high surrogate without a low surrogate", at: escape)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("invalid \\u escape: low surrogate without a high surrogate", at: escape)
                }
                if let unicode = Unicode.Scalar(scalar) {
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                }
                runStart = index
                continue
            default:
                throw fail("invalid escape \\\(describe(index).trimmingCharacters(in: ["'"])) in string", at: escape)
            }
            index += 1
            runStart = index
        }
    }

    /// Reads four hex digits at `index` (after `\u`).
    mutating func hex4(escape: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail("invalid \\u escape; expected 4 hex digits", at: escape) }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape; expected 4 hex digits", at: escape)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        let startPosition = position(at: start)
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw fail("invalid number: expected a digit after '-'", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw fail("invalid number: expected a digit after '.'", at: start) }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { throw fail("invalid number: expected a digit in the exponent", at: start) }
            while isDigit(index) { index += 1 }
        }
        if isDigit(index) {
            throw fail("invalid number: leading zeros are not allowed", at: start)
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw fail("number \(literal) is out of range", at: start)
        }
        return JSONNode(.number(value, literal: literal), position: startPosition)
    }

    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        let startPosition = position(at: start)
        for (word, value) in [("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null)] {
            let utf8 = Array(word.utf8)
            if start + utf8.count <= bytes.count && Array(bytes[start..<start + utf8.count]) == utf8 {
                let end = start + utf8.count
                let next = end < bytes.count ? bytes[end] : 0
                let isWordCharacter =
                    (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z"))
                    || (next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z")) || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"))
                if !isWordCharacter {
                    index = end
                    return JSONNode(value, position: startPosition)
                }
            }
        }
        throw fail("invalid literal; expected true, false or null", at: start)
    }
}
