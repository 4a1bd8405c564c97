import AHAPCodec
import Foundation
import Testing

@Suite("JSON reader")
struct JSONReaderTests {
    func error(_ text: String) -> JSONSyntaxError? {
        let result = JSONReader.parse(text)
        #expect(result.root == nil)
        return result.error
    }

    @Test func positionsOfValuesAndKeys() throws {
        let text = "{\n  \"a\": [1, true],\n  \"bé\": \"x\"\n}"
        let root = try #require(JSONReader.parse(text).root)
        #expect(root.position == SourcePosition(line: 1, column: 1))
        guard case .object(let members) = root.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "bé"])
        #expect(members[0].keyPosition == SourcePosition(line: 2, column: 3))
        #expect(members[0].value.position == SourcePosition(line: 2, column: 8))
        guard case .array(let elements) = members[0].value.value else { Issue.record("not an array"); return }
        #expect(elements[0] == JSONNode(.number(1, literal: "1"), position: SourcePosition(line: 2, column: 9)))
        #expect(elements[1] == JSONNode(.bool(true), position: SourcePosition(line: 2, column: 12)))
        // Columns count characters: "é" is one column although it is two UTF-8 bytes.
        #expect(members[1].value.position == SourcePosition(line: 3, column: 9))
    }

    @Test func columnsCountCharactersAfterNonASCIIText() throws {
        let root = try #require(JSONReader.parse("{\"日本語\": 1, \"k\": 2}").root)
        guard case .object(let members) = root.value else { Issue.record("the root is \(root.typeDescription)"); return }
        #expect(members[1].keyPosition == SourcePosition(line: 1, column: 12))
        #expect(members[1].value.position == SourcePosition(line: 1, column: 17))
    }

    @Test func crlfAndByteOrderMark() throws {
        let result = JSONReader.parse(Data([0xEF, 0xBB, 0xBF] + Array("{\r\n\"a\":\r\n 5}".utf8)))
        let root = try #require(result.root)
        guard case .object(let members) = root.value else { Issue.record("the root is \(root.typeDescription)"); return }
        #expect(root.position == SourcePosition(line: 1, column: 1))
        #expect(members[0].keyPosition == SourcePosition(line: 2, column: 1))
        #expect(members[0].value.position == SourcePosition(line: 3, column: 2))
    }

    @Test func trailingCommasAreAcceptedAndRecorded() throws {
        let result = JSONReader.parse("{\"a\": [1, 2,],\n \"b\": {\"c\": 1,},\n}")
        #expect(result.root != nil)
        #expect(result.error == nil)
        #expect(
            result.trailingCommas == [
                JSONNotice(position: SourcePosition(line: 1, column: 12), path: "a", key: nil),
                JSONNotice(position: SourcePosition(line: 2, column: 14), path: "b", key: nil),
                JSONNotice(position: SourcePosition(line: 2, column: 16), path: "", key: nil),
            ])
    }

    @Test func duplicateKeysAreKeptAndRecorded() throws {
        let result = JSONReader.parse("{\"P\": [{\"T\": 1, \"T\": 2}]}")
        #expect(result.duplicateKeys == [JSONNotice(position: SourcePosition(line: 1, column: 17), path: "P[0].T", key: "T")])
        let root = try #require(result.root)
        guard case .object(let top) = root.value, case .array(let list) = top[0].value.value,
            case .object(let members) = list[0].value
        else { Issue.record("shape"); return }
        #expect(members.map(\.key) == ["T", "T"])
    }

    @Test(arguments: [
        ("", "1:1: the input is empty; expected a JSON value"),
        ("   \n  ", "2:3: the input is empty; expected a JSON value"),
        ("{\"a\": 1 \"b\": 2}", "1:9: expected ',' or '}' after object member, found '\"'"),
        ("[1 2]", "1:4: expected ',' or ']' after array element, found '2'"),
        ("{\"a\": 1", "1:8: unexpected end of input; expected ',' or '}' after object member"),
        ("[1,", "1:4: unexpected end of input; expected a value"),
        ("{\"a\" 1}", "1:6: expected ':' after object key \"a\""),
        ("{a: 1}", "1:2: expected a string key in double quotes, found 'a'"),
        ("{,}", "1:2: expected a string key in double quotes, found ','"),
        ("[,]", "1:2: expected a value, found ','"),
        ("{\"a\": \"abc", "1:7: unterminated string"),
        ("{\"a\": \"ab\nc\"}", "1:7: unterminated string"),
        ("\"a\tb\"", "1:3: unescaped control character in string; write it as \\u0009"),
        ("\"\\q\"", "1:2: invalid escape \\q in string"),
        ("\"\\u12G4\"", "1:2: invalid \\u escape; expected 4 hex digits"),
        ("\"\\uD800\"", "1:2: invalid \\u escape: high surrogate without a low surrogate"),
        ("\"\\uDC00\"", "1:2: invalid \\u escape: low surrogate without a high surrogate"),
        ("-", "1:1: invalid number: expected a digit after '-'"),
        ("1.", "1:1: invalid number: expected a digit after '.'"),
        ("1e+", "1:1: invalid number: expected a digit in the exponent"),
        ("01", "1:1: invalid number: leading zeros are not allowed"),
        ("1e999", "1:1: number 1e999 is out of range"),
        ("tru", "1:1: invalid literal; expected true, false or null"),
        ("nulls", "1:1: invalid literal; expected true, false or null"),
        ("NaN", "1:1: expected a value, found 'N'"),
        ("{} {}", "1:4: unexpected '{' after the JSON value"),
        ("// c\n{}", "1:1: expected a value, found '/'"),
        ("{\"é\": ü}", "1:7: expected a value, found 'ü'"),
    ])
    func syntaxErrors(text: String, expected: String) {
        #expect(error(text)?.description == expected)
    }

    @Test func invalidUTF8IsAnErrorAtItsPosition() {
        let result = JSONReader.parse(Data(Array("{\n \"a\": \"".utf8) + [0xFF] + Array("\"}".utf8)))
        #expect(result.error?.description == "2:8: invalid UTF-8 byte sequence")
    }

    @Test func escapesAndUnicode() throws {
        let root = try #require(JSONReader.parse(#"["\"\\\/\b\f\n\r\t", "\u00e9\u4E2D", "\uD83D\uDE00", "é😀"]"#).root)
        guard case .array(let elements) = root.value else { Issue.record("the root is \(root.typeDescription)"); return }
        #expect(elements[0].value == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(elements[1].value == .string("é中"))
        #expect(elements[2].value == .string("😀"))
        #expect(elements[3].value == .string("é😀"))
    }

    @Test func numbersKeepTheirLiteral() throws {
        let root = try #require(JSONReader.parse("[0, -0.5, 1E3, 2.5e-3, 0.1]").root)
        guard case .array(let elements) = root.value else { Issue.record("the root is \(root.typeDescription)"); return }
        #expect(elements.map(\.value) == [
            .number(0, literal: "0"), .number(-0.5, literal: "-0.5"), .number(1000, literal: "1E3"),
            .number(0.0025, literal: "2.5e-3"), .number(0.1, literal: "0.1"),
        ])
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONReader.parse(deep).error?.description == "1:513: nesting deeper than 512 levels")
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(JSONReader.parse(ok).root != nil)
        let objects = String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(JSONReader.parse(objects).error?.message == "nesting deeper than 512 levels")
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("{}[]\",:.-+eE0123456789truefalsnl \n\\u\u{00e9}".unicodeScalars)
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<40, using: &generator) {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
            }
            let result = JSONReader.parse(text)
            #expect((result.root == nil) != (result.error == nil))
            _ = AHAPDecoder.decode(text: text, file: nil)
        }
    }
}
