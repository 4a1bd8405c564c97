import Foundation
import Testing
import ThrumTestSupport

@testable import ThrumCommandLine

/// Issue 13, problem 5: strings from a pattern or the file system never reach the terminal raw. A crafted
/// file cannot erase its own error line and print a fake "0 errors"; `--json` stays exact.
@Suite struct TerminalEscapingTests {
    /// ESC [2K (erase line), CR, then a fake summary.
    static let attack = "\u{1B}[2K\rchecked 1 file: 0 errors, 0 warnings\u{7}\u{9B}1m\u{202E}"

    static func hostilePattern(in folder: TemporaryDirectory) throws -> String {
        let escapedAttack = attack.unicodeScalars.map { $0.value < 0x20 || $0.value >= 0x7F ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        return try folder.write(
            "hostile.ahap",
            #"{"Version": 1, "Metadata": {"Description": "\#(escapedAttack)"}, "Pattern": [{"Event": {"Time": 0, "EventType": "\#(escapedAttack)"}}, {"Event": {"Time": 0, "EventType": "HapticTransient", "\#(escapedAttack)": 1}}]}"#)
    }

    static func hasNoControlCharacters(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    @Test func escapingShowsEveryControlCharacter() {
        #expect(TerminalText.escaped("a\u{1B}b\rc\td\u{7F}e\u{9B}f\u{202E}g\nh") == "a\\x1bb\\x0dc\\x09d\\x7fe\\u{9b}f\\u{202e}g\nh")
        #expect(TerminalText.escaped("plain ünïcødé ✓") == "plain ünïcødé ✓")
    }

    @Test func checkEscapesPatternText() throws {
        let folder = TemporaryDirectory("cli")
        let path = try Self.hostilePattern(in: folder)
        let result = runThrum(["check", path])
        #expect(result.status == 65)
        #expect(Self.hasNoControlCharacters(result.out), "\(result.out.debugDescription)")
        #expect(result.out.contains("\\x1b[2K\\x0dchecked 1 file: 0 errors"))
        #expect(result.out.hasSuffix("checked 1 file: 1 error, 1 warning, 1 rejected\n"))
    }

    @Test func jsonStaysExact() throws {
        let folder = TemporaryDirectory("cli")
        let path = try Self.hostilePattern(in: folder)
        let result = runThrum(["check", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        let messages = (files.first?["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains(Self.attack) })
    }

    @Test func infoEscapesMetadataAndErrorsEscapeFileNames() throws {
        let folder = TemporaryDirectory("cli")
        let path = try Self.hostilePattern(in: folder)
        let valid = try folder.write(
            "valid.ahap",
            #"{"Version": 1, "Metadata": {"Description": "\u001b]0;owned\u0007"}, "Pattern": [{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "\u001b[31m.wav"}}]}"#)
        let info = runThrum(["info", valid])
        #expect(info.status == 0)
        #expect(Self.hasNoControlCharacters(info.out), "\(info.out.debugDescription)")
        #expect(info.out.contains("description: \\x1b]0;owned\\x07"))
        let rejected = runThrum(["info", path])
        #expect(rejected.status == 65)
        #expect(Self.hasNoControlCharacters(rejected.err), "\(rejected.err.debugDescription)")
        let missing = runThrum(["check", "/nonexistent/\u{1B}[2J.ahap"])
        #expect(Self.hasNoControlCharacters(missing.out + missing.err))
        #expect(missing.out.contains("/nonexistent/\\x1b[2J.ahap: error: no such file"))
    }
}
