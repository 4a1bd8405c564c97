import AHAPCodec
import Foundation
import HapticFormats
import Testing
import ThrumModel

/// The `.haptic` reader's diagnostics: where (line:column of the value, from the text itself), which JSON
/// path, what and what to do.
@Suite("HapticDecoder")
struct HapticDecoderTests {
    /// The 1-based line and column where `needle` first occurs in `text` (after `after`, when given).
    func position(of needle: String, in text: String, after: String? = nil) throws -> (Int, Int) {
        var searchStart = text.startIndex
        if let after { searchStart = try #require(text.range(of: after)).upperBound }
        let found = try #require(text.range(of: needle, range: searchStart..<text.endIndex))
        let before = text[..<found.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return (line, text[lineStart..<found.lowerBound].count + 1)
    }

    func document(amplitude: String, frequency: String? = nil, extra: String = "") -> String {
        """
        {
          "version": {"major": 1, "minor": 0, "patch": 0},\(extra)
          "signals": {
            "continuous": {
              "envelopes": {
                "amplitude": \(amplitude)\(frequency.map { ",\n        \"frequency\": " + $0 } ?? "")
              }
            }
          }
        }
        """
    }

    @Test func wrongTypeIsLocatedAtTheValue() throws {
        let text = document(amplitude: "[{\"time\": 0, \"amplitude\": 0.5}, {\"time\": \"1\", \"amplitude\": 0.5}]")
        let result = HapticFileDecoder.decode(text: text, file: "bad.haptic")
        let error = try #require(result.errors.first)
        let (line, column) = try position(of: "\"1\"", in: text)
        #expect((error.line, error.column) == (line, column))
        #expect(error.path == "signals.continuous.envelopes.amplitude[1].time")
        #expect(error.message == "time must be a number, found a string")
        #expect(error.suggestion == "write the number without quotes")
        #expect(error.formatted.hasPrefix("bad.haptic:\(line):\(column): error: signals.continuous.envelopes.amplitude[1].time: "))
        #expect(result.file == nil)
    }

    @Test func ruleViolationIsLocatedAtTheOffendingValue() throws {
        let text = document(
            amplitude: "[{\"time\": 0, \"amplitude\": 0.5}, {\"time\": 1, \"amplitude\": 0.4, \"emphasis\": {\"amplitude\": 0.3, \"frequency\": 2}}]")
        let result = HapticFileDecoder.decode(text: text)
        #expect(result.errors.count == 2)
        let lower = try #require(result.errors.first { $0.path.hasSuffix("emphasis.amplitude") })
        #expect(lower.message == "emphasis amplitude 0.3 lower than envelope amplitude 0.4 at time 1.0")
        let (line, column) = try position(of: "0.3", in: text)
        #expect((lower.line, lower.column) == (line, column))
        let range = try #require(result.errors.first { $0.path.hasSuffix("emphasis.frequency") })
        #expect(range.message.hasPrefix("emphasis frequency out of range: time 1.0, frequency 2.0"))
    }

    /// Legacy mode accepts a frequency breakpoint past the envelope (a warning), but not past the longest
    /// effect Thrum reads (3600 s): such a time cannot be played or exported (found by the .haptic fuzzer,
    /// whose AHAP export of a 4.4e127 s breakpoint was refused by the AHAP checker).
    @Test func frequencyBreakpointPastTheLongestEffectIsAnErrorInLegacyMode() throws {
        let text = document(
            amplitude: "[{\"time\": 0, \"amplitude\": 0.5}, {\"time\": 1, \"amplitude\": 0.5}]",
            frequency: "[{\"time\": 0, \"frequency\": 0.5}, {\"time\": 4e127, \"frequency\": 0.5}]")
        let result = HapticFileDecoder.decode(text: text, file: "far.haptic", mode: .legacyCompatibility)
        #expect(result.file == nil)
        let error = try #require(result.errors.first)
        #expect(error.path == "signals.continuous.envelopes.frequency[1].time")
        let (line, column) = try position(of: "4e127", in: text)
        #expect((error.line, error.column) == (line, column))
        let near = document(
            amplitude: "[{\"time\": 0, \"amplitude\": 0.5}, {\"time\": 1, \"amplitude\": 0.5}]",
            frequency: "[{\"time\": 0, \"frequency\": 0.5}, {\"time\": 2, \"frequency\": 0.5}]")
        #expect(HapticFileDecoder.decode(text: near, mode: .legacyCompatibility).file != nil, "past the envelope only: a warning")
    }

    @Test func missingKeysAndUnknownKeys() throws {
        let text = """
            {"version": {"minor": 0}, "signal": {}, "metadata": {"autor": "x", "tags": ["a", 3]}}
            """
        let result = HapticFileDecoder.decode(text: text)
        let messages = result.diagnostics.map { "\($0.severity.rawValue) \($0.path): \($0.message); \($0.suggestion ?? "")" }
        #expect(messages.contains("error version: missing \"major\"; add \"major\": 1"))
        #expect(messages.contains("error : missing \"signals\"; rename \"signal\" to \"signals\""))
        #expect(messages.contains("warning signal: unknown key \"signal\" is ignored; did you mean \"signals\"?"))
        #expect(messages.contains("warning metadata.autor: unknown key \"autor\" is ignored; did you mean \"author\"?"))
        #expect(messages.contains("error metadata.tags[1]: a tag must be a string, found a number; "))
    }

    @Test func versionTwoIsNotSupported() throws {
        let text = document(amplitude: "[{\"time\": 0, \"amplitude\": 0}, {\"time\": 1, \"amplitude\": 0}]")
            .replacingOccurrences(of: "\"major\": 1", with: "\"major\": 2")
        let error = try #require(HapticFileDecoder.decode(text: text).errors.first)
        #expect(error.code == .notSupported && error.path == "version.major")
    }

    @Test func syntaxErrorsAndNotices() throws {
        let broken = HapticFileDecoder.decode(text: "{\"version\": {\"major\": 1},\n  \"signals\": [1 2]}")
        let error = try #require(broken.errors.first)
        #expect(error.message.hasPrefix("invalid JSON: "))
        #expect(error.line == 2)
        let text = document(amplitude: "[{\"time\": 0, \"amplitude\": 0}, {\"time\": 1, \"amplitude\": 0, \"time\": 2},]")
        let result = HapticFileDecoder.decode(text: text)
        #expect(!result.hasErrors)
        #expect(result.warnings.contains { $0.message.hasPrefix("trailing comma") })
        #expect(result.warnings.contains { $0.message == "duplicate key \"time\"; the last one wins" })
        #expect(result.file?.duration == 2)
        let array = HapticFileDecoder.decode(text: "[]")
        #expect(array.errors.first?.message == "the top level must be an object, found an array")
    }

    @Test func unreadableFileIsFileNotFound() {
        let result = HapticFileDecoder.decode(contentsOfFile: "/nonexistent/x.haptic")
        #expect(result.errors.first?.code == .fileNotFound)
        #expect(result.errors.first?.message == "cannot open the file: no such file")
    }

    @Test func tooLongAnEffectIsRefused() throws {
        let text = document(amplitude: "[{\"time\": 0, \"amplitude\": 0}, {\"time\": 1e9, \"amplitude\": 0}]")
        let error = try #require(HapticFileDecoder.decode(text: text).errors.first)
        #expect(error.message.contains("at most 3600 s"))
    }

    @Test func meaningFollowsTheSpec() throws {
        let file = try #require(HapticFileDecoder.decode(contentsOfFile: TestPaths.fixture("gear.haptic")).file)
        // Amplitude: linear between breakpoints, 0 outside.
        #expect(abs(file.amplitude(at: 0.1) - 0.055) < 1e-12)
        #expect(file.amplitude(at: 0.95) == 0)
        // Frequency: linear, holding its ends.
        #expect(abs(file.frequency(at: 0.005) - 0.365) < 1e-12)
        #expect(file.frequency(at: 2) == 0)
        let taps = try #require(HapticFileDecoder.decode(contentsOfFile: TestPaths.fixture("taps.haptic")).file)
        #expect(taps.frequency(at: 0.1) == 0.5, "no frequency envelope: 0.5")
        #expect(taps.version == HapticFile.Version(major: 1, minor: 0, patch: 0), "minor and patch default to 0")
    }

    @Test func writerOutputReadsBackEqual() throws {
        for name in ["gear", "rumble", "taps"] {
            let file = try #require(HapticFileDecoder.decode(contentsOfFile: TestPaths.fixture(name + ".haptic")).file)
            let text = HapticFileEncoder.encode(file)
            let again = HapticFileDecoder.decode(text: text, mode: .strict)
            #expect(again.diagnostics.isEmpty, "\(again.diagnostics.map(\.formatted))")
            #expect(again.file == file, "\(name)")
        }
    }
}
