import FoundationEssentials
import FoundationStandIns

/// A lenient JSON reader that keeps the line and column of every value and key.
///
/// Strict RFC 8259 JSON, except that a trailing comma before `}` or `]` is accepted and recorded.
/// A leading UTF-8 byte order mark is skipped. Nesting deeper than `maxDepth` is an error, so hostile
/// input cannot overflow the stack. Never traps on any input. Pure and thread-safe.
package enum JSONReader {
    /// The deepest nesting of arrays and objects accepted.
    package static let maxDepth = 512

    /// Parses `text`.
    package static func parse(_ text: String) -> JSONParseResult {
        parse(bytes: Array(text.utf8))
    }

    /// Parses UTF-8 `data`; bytes that are not valid UTF-8 are an error at their position.
    package static func parse(_ data: Data) -> JSONParseResult {
        parse(bytes: [UInt8](data))
    }

    static func parse(bytes input: [UInt8]) -> JSONParseResult {
        var bytes = input
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            bytes.removeFirst(3)
        }
        var parser = JSONParser(bytes: bytes)
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

/// The reader's state while parsing one document (positions, scanning, containers; strings, numbers
/// and literals are in JSONScalars.swift).
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    // Incremental column counting on the current line.
    var cacheOffset = 0
    var cacheColumn = 1
    private var path: [PathComponent] = []
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
        if byte < 0x20 { return "control character U+\(String(cFormat: "%04X", UInt32(byte)))" }
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
        // Built only for a message: building it for every item was a tenth of decoding a large pattern.
        var expected: String { "expected ',' or '\(Character(UnicodeScalar(close)))' after \(item)" }
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
}
