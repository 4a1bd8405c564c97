/// A place in source text: 1-based line and column (columns count characters, not bytes).
package struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    package var line: Int
    /// 1-based column, in characters from the start of the line.
    package var column: Int

    /// Creates a position.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    package var description: String { "\(line):\(column)" }
}

/// One JSON value with the place it starts in the source (nil when it came from a dictionary).
package struct JSONNode: Sendable, Equatable {
    /// The kinds of JSON value.
    package enum Value: Sendable, Equatable {
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
    package var value: Value
    /// Where the value starts (its first character); nil when unknown.
    package var position: SourcePosition?

    /// Creates a node.
    package init(_ value: Value, position: SourcePosition? = nil) {
        self.value = value
        self.position = position
    }

    /// The article-and-noun name of the value's type, for messages ("an array", "a string").
    package var typeDescription: String {
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
package struct JSONMember: Sendable, Equatable {
    /// The key.
    package var key: String
    /// Where the key's opening quote is; nil when unknown.
    package var keyPosition: SourcePosition?
    /// The value.
    package var value: JSONNode

    /// Creates a member.
    package init(key: String, keyPosition: SourcePosition? = nil, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// Something legal but noteworthy the reader saw: a trailing comma or a duplicate key.
package struct JSONNotice: Sendable, Equatable {
    /// Where it is (the comma, or the duplicate key's opening quote).
    package var position: SourcePosition
    /// The JSON path of the container (trailing comma) or of the duplicated key (`Pattern[0].Event.Time`).
    package var path: String
    /// The duplicated key; nil for a trailing comma.
    package var key: String?

    /// Creates a notice.
    package init(position: SourcePosition, path: String, key: String?) {
        self.position = position
        self.path = path
        self.key = key
    }
}

/// A syntax error: what is wrong and where.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is wrong ("expected ',' or '}' after object member").
    package var message: String
    /// Where it is.
    package var position: SourcePosition

    package var description: String { "\(position): \(message)" }
}

/// What `JSONReader` produced: a tree, or an error, plus notices.
package struct JSONParseResult: Sendable {
    /// The document's root value; nil when there is a syntax error.
    package var root: JSONNode?
    /// The syntax error, if any (the reader stops at the first one).
    package var error: JSONSyntaxError?
    /// Trailing commas seen before the error (accepted, as Core Haptics does).
    package var trailingCommas: [JSONNotice]
    /// Duplicate object keys seen before the error (all members are kept; the last one counts).
    package var duplicateKeys: [JSONNotice]
}

/// Where the values of one JSON document start, by JSON path (`Pattern[0].Event.Time`; "" is the root),
/// found by walking the parsed tree when asked. There is no table of every path: for a document of small
/// values it would take several times the memory of the tree itself. Of duplicate keys, the last one's
/// value counts. A value type; thread-safe.
package struct SourcePositions: Sendable {
    /// The document's root value; nil for a document without positions (read from a dictionary).
    let root: JSONNode?

    /// The positions in the document `root`.
    package init(_ root: JSONNode) { self.root = root }

    /// No positions.
    package init() { root = nil }

    /// Where the value at `path` starts; nil when there is no such value or it has no position.
    package subscript(path: String) -> SourcePosition? {
        guard let root else { return nil }
        return Self.find(Substring(path), in: root)?.position
    }

    /// The node at `path` below `node` (keys may contain `.` and `[`: each member whose key fits is tried,
    /// the last one first).
    static func find(_ path: Substring, in node: JSONNode) -> JSONNode? {
        if path.isEmpty { return node }
        switch node.value {
        case .object(let members):
            let rest = path.first == "." ? path.dropFirst() : path
            for member in members.reversed() where rest.hasPrefix(member.key) {
                let after = rest.dropFirst(member.key.count)
                guard after.isEmpty || after.first == "." || after.first == "[" else { continue }
                if let found = find(after, in: member.value) { return found }
            }
            return nil
        case .array(let elements):
            guard path.first == "[", let close = path.firstIndex(of: "]"),
                let index = Int(path[path.index(after: path.startIndex)..<close]), elements.indices.contains(index)
            else { return nil }
            return find(path[path.index(after: close)...], in: elements[index])
        default:
            return nil
        }
    }
}

extension SourcePosition {
    /// The position of `path` in `positions`, or of its nearest ancestor that has one
    /// (`a.b[2].c` → `a.b[2]` → `a.b` → `a` → ""); nil when none has.
    package static func nearest(to path: String, in positions: SourcePositions) -> SourcePosition? {
        var lookup = path
        while true {
            if let position = positions[lookup] { return position }
            if lookup.isEmpty { return nil }
            if lookup.hasSuffix("]"), let open = lookup.lastIndex(of: "[") {
                lookup = String(lookup[..<open])
            } else if let dot = lookup.lastIndex(of: ".") {
                lookup = String(lookup[..<dot])
            } else {
                lookup = ""
            }
        }
    }
}
