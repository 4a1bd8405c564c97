import AHAPCodec
import Foundation
import HapticFormats
import Testing

/// `FormatConverter`: losses are located in the input, `strict` makes them errors and writes nothing, the
/// split form's file names, and the combinations that do not exist.
@Suite("FormatConverter")
struct ConverterTests {
    /// The line where `needle` first occurs in the file at `path`.
    func line(of needle: String, in path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try #require(text.range(of: needle))
        return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }

    @Test func ahapLossesAreLocatedWhereTheyAre() throws {
        let path = TestPaths.fixture("mixed.ahap")
        let result = try FormatConverter.convert(inputs: [path], output: "/tmp/x.haptic")
        #expect(result.outputs.count == 1 && !result.hasErrors)
        let expected: [(String, String)] = [
            ("envelope shape (AttackTime)", "\"Time\": 0.0, \"EventType\": \"HapticContinuous\""),
            ("AudioContinuous event dropped", "\"AudioContinuous\""),
            ("AudioVolumeControl dropped", "\"AudioVolumeControl\""),
            ("HapticReleaseTimeControl dropped", "\"HapticReleaseTimeControl\""),
            ("different sharpness", "\"Time\": 0.2"),
            ("clipped to 1", "\"Time\": 0.0, \"EventType\": \"HapticContinuous\""),
            ("weaker than the continuous signal", "\"HapticTransient\""),
            ("\"Created\" has no .haptic field", "\"Created\""),
        ]
        for (message, place) in expected {
            let diagnostic = try #require(result.diagnostics.first { $0.message.contains(message) }, "\(message)")
            #expect(diagnostic.severity == .warning && diagnostic.file == path)
            #expect(diagnostic.line == (try line(of: place, in: path)), "\(diagnostic.formatted)")
        }
        #expect(result.diagnostics.count == expected.count, "\(result.diagnostics.map(\.formatted))")
    }

    @Test func strictTurnsLossesIntoErrorsAndWritesNothing() throws {
        var options = FormatConverter.Options()
        options.strict = true
        let lossy = try FormatConverter.convert(inputs: [TestPaths.fixture("gear.haptic")], output: "/tmp/g.ahap", options: options)
        #expect(lossy.outputs.isEmpty && lossy.hasErrors)
        #expect(lossy.diagnostics.allSatisfy { $0.severity == .error })
        let clean = try FormatConverter.convert(inputs: [TestPaths.fixture("gear.haptic")], output: "/tmp/g.haptic", options: options)
        #expect(clean.outputs.count == 1 && clean.diagnostics.isEmpty, "\(clean.diagnostics.map(\.formatted))")
    }

    @Test func hapticToAHAPLosses() throws {
        let gear = try FormatConverter.convert(inputs: [TestPaths.fixture("gear.haptic")], output: "/tmp/g.ahap")
        #expect(gear.diagnostics.map(\.message).contains { $0.hasPrefix("1 emphasis point(s) become transients that the intensity curve scales too") })
        #expect(!gear.diagnostics.contains { $0.message.contains("sags") })
        var meta = FormatConverter.Options()
        meta.metaCompatible = true
        let asMeta = try FormatConverter.convert(inputs: [TestPaths.fixture("gear.haptic")], output: "/tmp/g.ahap", options: meta)
        let messages = asMeta.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("sags below the straight line by up to 0.0783 (before 0.61 s)") })
        #expect(messages.contains { $0.contains("intensity lowered to 0.8 × √amplitude at 1 emphasis breakpoint(s)") })
        let rumble = try FormatConverter.convert(inputs: [TestPaths.fixture("rumble.haptic")], output: "/tmp/r.ahap")
        #expect(rumble.diagnostics.contains { $0.message.contains("the amplitude envelope needs") && $0.message.contains("curves (Core Haptics takes at most 16 points per curve)") })
        #expect(rumble.diagnostics.contains { $0.message.contains("it becomes 2 HapticContinuous events") })
        #expect(rumble.diagnostics.allSatisfy { $0.line != nil && $0.severity == .warning })
    }

    @Test func splitWritesTwoFilesNamedAsMetaDoes() throws {
        var options = FormatConverter.Options()
        options.split = true
        let result = try FormatConverter.convert(inputs: [TestPaths.fixture("gear.haptic")], output: "/tmp/out/gear.ahap", options: options)
        #expect(result.outputs.map(\.path) == ["/tmp/out/gear_continuous.ahap", "/tmp/out/gear_transients.ahap"])
        #expect(!result.diagnostics.contains { $0.message.contains("scales too") })
        let transients = try jsonObject(text: try #require(result.outputs.last?.text))
        #expect((transients["Pattern"] as? [Any])?.count == 1)
    }

    @Test func combinationsThatDoNotExist() {
        let gear = TestPaths.fixture("gear.haptic")
        let pulses = TestPaths.fixture("pulses.ahap")
        var split = FormatConverter.Options()
        split.split = true
        let cases: [([String], String, FormatConverter.Options, String)] = [
            ([gear], "/tmp/x.wav", .init(), "cannot tell the output format"),
            ([gear, pulses], "/tmp/x.ahap", .init(), "not a mix"),
            ([gear, gear], "/tmp/x.ahap", .init(), "one .haptic file at a time"),
            ([gear], "/tmp/x.json", split, "--split applies to .haptic, .hjif or .hmpg → AHAP only"),
            ([pulses], "/tmp/x.haptic", { var o = FormatConverter.Options(); o.metaCompatible = true; return o }(),
                "--meta-compatible applies to .haptic, .hjif or .hmpg → AHAP only"),
            ([pulses, pulses], "/tmp/x.ahap", .init(), "AHAP → AHAP takes one input"),
        ]
        for (inputs, output, options, message) in cases {
            #expect(throws: FormatConverter.UsageError.self) {
                _ = try FormatConverter.convert(inputs: inputs, output: output, options: options)
            }
            do {
                _ = try FormatConverter.convert(inputs: inputs, output: output, options: options)
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }

    @Test func androidFromAHAPGoesThroughTheHapticForm() throws {
        let result = try FormatConverter.convert(inputs: [TestPaths.fixture("pulses.ahap")], output: "/tmp/p.json")
        let text = try #require(result.outputs.first?.text)
        let json = try jsonObject(text: text)
        #expect(json["durationMillis"] as? Int == 1700)
        #expect(result.diagnostics.contains { $0.message.hasSuffix("(in the .haptic form)") })
    }
}
