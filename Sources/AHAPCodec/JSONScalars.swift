import FoundationEssentials
import FoundationStandIns

/// Strings, numbers and literals: the scalar values of a JSON document.
extension JSONParser {
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
                throw fail("unescaped control character in string; write it as \\u\(String(cFormat: "%04X", UInt32(byte)))", at: index)
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
                throw fail("invalid escape \\\(describe(index).trimming { $0 == "'" }) in string", at: escape)
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
