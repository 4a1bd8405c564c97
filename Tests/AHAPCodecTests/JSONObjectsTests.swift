import AHAPCodec
import Foundation
import Testing

/// JSONObjects writes and reads the JSON of the command line and the studio; Foundation's JSONSerialization,
/// which a test target may link, is the oracle for what the text means and for the pretty layout.
@Suite("JSON objects")
struct JSONObjectsTests {
    static var sample: [String: Any] {
        [
            "name": "Boing \"x\"\n\u{1}é/", "count": 3, "ratio": 0.1, "float": Float(0.1), "big": 1e300, "whole": 2.0,
            "negative": -42.5, "flag": true, "off": false, "none": JSONNull(), "list": [1, "two", [3.5], [String: Any]()],
            "nested": ["b": 1, "a": [Any]()], "int64": Int64.max,
        ]
    }

    @Test func foundationReadsWhatItWrites() throws {
        let text = try JSONObjects.text(Self.sample)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(read["name"] as? String == "Boing \"x\"\n\u{1}é/")
        #expect(read["count"] as? Int == 3)
        #expect(read["ratio"] as? Double == 0.1)
        #expect(read["float"] as? Double == 0.1)  // written as the Float it is ("0.1"), not 0.10000000149011612
        #expect(read["big"] as? Double == 1e300)
        #expect(read["whole"] as? Double == 2)
        #expect(read["negative"] as? Double == -42.5)
        #expect(read["flag"] as? Bool == true)
        #expect(read["off"] as? Bool == false)
        #expect(read["none"] is NSNull)
        #expect((read["list"] as? [Any])?.count == 4)
        #expect(read["int64"] as? Int64 == Int64.max)
        #expect(text.hasSuffix(#""whole":2}"#))  // an integral Double is written as an integer
    }

    @Test func keysAreSortedAndCompactTextHasNoSpaces() throws {
        #expect(try JSONObjects.text(["b": 1, "a": [true, JSONNull()], "c": [String: Any]()]) == #"{"a":[true,null],"b":1,"c":{}}"#)
    }

    @Test func prettyTextIsFoundationsLayout() throws {
        // Lower-case keys and no empty containers: there Foundation's layout and order are the same as ours.
        let object: [String: Any] = ["severity": "error", "files": [["line": 2, "ok": false]], "count": 1]
        let ours = try JSONObjects.text(object, pretty: true)
        let foundation = String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        #expect(ours == foundation)
    }

    @Test func whatJSONCannotHoldIsRefusedByPlace() {
        #expect(throws: JSONObjects.Unwritable.self) { try JSONObjects.text(["a": Double.nan]) }
        #expect(throws: JSONObjects.Unwritable.self) { try JSONObjects.text(["a": Double.infinity]) }
        do {
            _ = try JSONObjects.text(["list": [1, Date(timeIntervalSince1970: 0)]])
            Issue.record("a Date was written")
        } catch {
            #expect(error.description == "a value of type Date at list[1]")
        }
    }

    @Test func readingGivesPlainValues() throws {
        let value = try #require(JSONObjects.value(Data(#"{"n": 1.5, "b": true, "z": null, "s": "x", "a": [1], "d": {"k": 2}, "k": 1, "k": 2}"#.utf8)))
        let object = try #require(value as? [String: Any])
        #expect(object["n"] as? Double == 1.5)
        #expect(object["b"] as? Bool == true)
        #expect(object["b"] as? Double == nil)  // a boolean is not a number
        #expect(object["n"] as? Bool == nil)
        #expect(object["z"] is JSONNull)
        #expect(object["s"] as? String == "x")
        #expect((object["a"] as? [Any])?.first as? Double == 1)
        #expect((object["d"] as? [String: Any])?["k"] as? Double == 2)
        #expect(object["k"] as? Double == 2)  // the last of a repeated key, as Foundation reads it
    }

    @Test(arguments: ["", "{", "[1,]", #"{"a": 1,}"#, "nul", "\u{FF}"])
    func notStrictJSONReadsAsNil(text: String) {
        #expect(JSONObjects.value(Data(text.utf8)) == nil)
    }
}
