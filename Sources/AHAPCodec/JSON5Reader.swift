import FoundationEssentials

/// Reads JSON5 (the format of Meta's actuator configuration files, `.acf`) with `JSONReader`: the text
/// is first rewritten as JSON, then every position is mapped back to the JSON5 source, so messages
/// point at the file as written.
///
/// Accepted beyond JSON: `//` and `/* */` comments, unquoted keys (ECMAScript identifiers of ASCII
/// letters, digits, `_` and `$`), single-quoted strings, trailing commas, numbers with a leading `+`,
/// a leading or trailing decimal point, or in hexadecimal. Not accepted (an error at its place):
/// `Infinity`, `NaN`, and line continuations inside strings. Never traps on any input. Pure and
/// thread-safe.
package enum JSON5Reader {
    /// Parses UTF-8 `data` as JSON5.
    package static func parse(_ data: Data) -> JSONParseResult {
        var rewriter = Rewriter(source: [UInt8](data))
        let json: [UInt8]
        do {
            json = try rewriter.rewrite()
        } catch {
            return JSONParseResult(root: nil, error: error, trailingCommas: [], duplicateKeys: [])
        }
        var result = JSONReader.parse(bytes: json)
        let shifts = rewriter.shifts
        func map(_ position: SourcePosition?) -> SourcePosition? {
            guard let position else { return nil }
            let moved = shifts[position.line]?.filter { $0.column < position.column }.reduce(0) { $0 + $1.delta } ?? 0
            return SourcePosition(line: position.line, column: max(1, position.column - moved))
        }
        func map(_ node: JSONNode) -> JSONNode {
            var node = node
            node.position = map(node.position)
            switch node.value {
            case .object(let members):
                node.value = .object(
                    members.map { JSONMember(key: $0.key, keyPosition: map($0.keyPosition), value: map($0.value)) })
            case .array(let items):
                node.value = .array(items.map(map))
            default:
                break
            }
            return node
        }
        result.root = result.root.map(map)
        if var error = result.error, let moved = map(error.position) {
            error.position = moved
            result.error = error
        }
        result.trailingCommas = []  // JSON5 allows them
        result.duplicateKeys = result.duplicateKeys.map {
            JSONNotice(position: map($0.position) ?? $0.position, path: $0.path, key: $0.key)
        }
        return result
    }

    /// Rewrites JSON5 bytes as JSON, recording the characters it inserts on each line.
    private struct Rewriter {
        let source: [UInt8]
        var out: [UInt8] = []
        var index = 0
        var line = 1
        var lineStart = 0
        /// Per line of the output (= of the source: newlines are kept): at which output column how many
        /// characters were inserted (negative: removed).
        var shifts: [Int: [(column: Int, delta: Int)]] = [:]

        init(source: [UInt8]) { self.source = source }

        var column: Int { out.count - lineStart + 1 }

        func error(_ message: String) -> JSONSyntaxError {
            var sourceLine = 1
            var start = 0
            for i in 0..<min(index, source.count) where source[i] == UInt8(ascii: "\n") {
                sourceLine += 1
                start = i + 1
            }
            return JSONSyntaxError(message: message, position: SourcePosition(line: sourceLine, column: index - start + 1))
        }

        mutating func shift(_ delta: Int) { shifts[line, default: []].append((column, delta)) }

        mutating func emit(_ byte: UInt8) {
            out.append(byte)
            if byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = out.count
            }
        }

        static func isIdentifier(_ byte: UInt8, first: Bool) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "$") || (!first && byte >= 0x30 && byte <= 0x39)
        }

        mutating func rewrite() throws(JSONSyntaxError) -> [UInt8] {
            while index < source.count {
                let byte = source[index]
                let next = index + 1 < source.count ? source[index + 1] : 0
                switch byte {
                case UInt8(ascii: "/") where next == UInt8(ascii: "/"):
                    while index < source.count && source[index] != UInt8(ascii: "\n") {
                        emit(UInt8(ascii: " "))
                        index += 1
                    }
                case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                    let start = index
                    index += 2
                    emit(UInt8(ascii: " "))
                    emit(UInt8(ascii: " "))
                    while index < source.count && !(source[index] == UInt8(ascii: "*") && index + 1 < source.count && source[index + 1] == UInt8(ascii: "/")) {
                        emit(source[index] == UInt8(ascii: "\n") ? source[index] : UInt8(ascii: " "))
                        index += 1
                    }
                    guard index < source.count else {
                        index = start
                        throw error("a /* comment is never closed with */")
                    }
                    emit(UInt8(ascii: " "))
                    emit(UInt8(ascii: " "))
                    index += 2
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    try string(quote: byte)
                case UInt8(ascii: "+"):
                    emit(UInt8(ascii: " "))
                    index += 1
                case UInt8(ascii: "."):
                    shift(1)
                    emit(UInt8(ascii: "0"))
                    emit(byte)
                    index += 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try number()
                default:
                    if Self.isIdentifier(byte, first: true) {
                        try identifier()
                    } else {
                        emit(byte)
                        index += 1
                    }
                }
            }
            return out
        }

        /// A string in either quotes, written with double quotes.
        mutating func string(quote: UInt8) throws(JSONSyntaxError) {
            let start = index
            emit(UInt8(ascii: "\""))
            index += 1
            while index < source.count {
                let byte = source[index]
                if byte == quote {
                    emit(UInt8(ascii: "\""))
                    index += 1
                    return
                }
                if byte == UInt8(ascii: "\\") && index + 1 < source.count {
                    let escaped = source[index + 1]
                    if escaped == UInt8(ascii: "\n") { throw error("line continuations in strings are not supported") }
                    if escaped == UInt8(ascii: "'") {
                        shift(-1)
                        emit(escaped)
                    } else {
                        emit(byte)
                        emit(escaped)
                    }
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {  // inside a single-quoted string
                    shift(1)
                    emit(UInt8(ascii: "\\"))
                }
                emit(byte)
                index += 1
            }
            index = start
            throw error("a string is never closed")
        }

        /// A number: hexadecimal becomes decimal; a trailing decimal point gets a 0.
        mutating func number() throws(JSONSyntaxError) {
            let next = index + 1 < source.count ? source[index + 1] : 0
            if source[index] == UInt8(ascii: "0") && (next == UInt8(ascii: "x") || next == UInt8(ascii: "X")) {
                var end = index + 2
                var value: UInt64 = 0
                while end < source.count, let digit = Self.hexDigit(source[end]), value < UInt64(1) << 52 {
                    value = value * 16 + UInt64(digit)
                    end += 1
                }
                guard end > index + 2 else { throw error("a hexadecimal number needs digits after 0x") }
                let text = Array(String(value).utf8)
                shift(text.count - (end - index))
                for byte in text { emit(byte) }
                index = end
                return
            }
            while index < source.count {
                let byte = source[index]
                let isPart = (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                    || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                guard isPart else { break }
                emit(byte)
                index += 1
                if byte == UInt8(ascii: "."), index >= source.count || !(source[index] >= 0x30 && source[index] <= 0x39) {
                    shift(1)
                    emit(UInt8(ascii: "0"))
                }
            }
        }

        static func hexDigit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }

        /// `true`, `false`, `null` as they are; any other identifier followed by `:` is a key, quoted.
        mutating func identifier() throws(JSONSyntaxError) {
            var end = index
            while end < source.count && Self.isIdentifier(source[end], first: end == index) { end += 1 }
            let word = String(decoding: source[index..<end], as: UTF8.self)
            var after = end
            while after < source.count && (source[after] == UInt8(ascii: " ") || source[after] == UInt8(ascii: "\t")) {
                after += 1
            }
            let isKey = after < source.count && source[after] == UInt8(ascii: ":")
            if !isKey {
                guard ["true", "false", "null"].contains(word) else {
                    throw error(word == "Infinity" || word == "NaN" ? "\(word) is not supported" : "unexpected word '\(word)'")
                }
                for byte in source[index..<end] { emit(byte) }
            } else {
                shift(1)
                emit(UInt8(ascii: "\""))
                for byte in source[index..<end] { emit(byte) }
                shift(1)
                emit(UInt8(ascii: "\""))
            }
            index = end
        }
    }
}
