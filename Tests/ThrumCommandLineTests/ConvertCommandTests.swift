import Foundation
import Testing
import ThrumTestSupport

/// `thrum convert` end to end, and `.haptic` files in `check`, `info` and `render`.
@Suite struct ConvertCommandTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/HapticFormatsTests/Fixtures").path + "/"

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func hapticToAHAPWritesAFileCoreHapticsReadsCleanly() throws {
        let temporary = TemporaryDirectory("convert")
        let out = temporary.file("gear.ahap")
        let result = runThrum(["convert", Self.fixtures + "gear.haptic", "-o", out])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "wrote \(out) (2 warnings)\n")
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix(Self.fixtures + "gear.haptic:") && $0.contains(": warning: ") })
        let check = runThrum(["check", out])
        #expect(check == (0, "checked 1 file: 0 errors, 0 warnings\n", ""))
    }

    @Test func splitWritesTwoFiles() throws {
        let temporary = TemporaryDirectory("convert")
        let dir = temporary.path
        let result = runThrum(["convert", "--split", Self.fixtures + "gear.haptic", "-o", dir + "/gear.ahap"])
        #expect(result.status == 0)
        #expect(files(in: dir) == ["gear_continuous.ahap", "gear_transients.ahap"])
        let none = runThrum(["convert", "--split", Self.fixtures + "rumble.haptic", "-o", dir + "/r.ahap"])
        #expect(none.status == 0 && !none.out.contains("no transient file"))
    }

    @Test func strictRefusesLossesAndWritesNothing() throws {
        let temporary = TemporaryDirectory("convert")
        let dir = temporary.path
        let result = runThrum(["convert", "--strict", Self.fixtures + "gear.haptic", "-o", dir + "/gear.ahap"])
        #expect(result.status == 65)
        #expect(result.err.hasSuffix("thrum convert: nothing written: 2 errors (with --strict every loss is an error)\n"))
        #expect(files(in: dir).isEmpty, "no output and no temporary file")
        let lossless = runThrum(["convert", "--strict", Self.fixtures + "gear.haptic", "-o", dir + "/gear.haptic"])
        #expect(lossless.status == 0 && lossless.err.isEmpty)
    }

    @Test func exitCodes() throws {
        let temporary = TemporaryDirectory("convert")
        let dir = temporary.path
        #expect(runThrum(["convert", dir + "/missing.haptic", "-o", dir + "/x.ahap"]).status == 66)
        #expect(runThrum(["convert", Self.fixtures + "gear.haptic", "-o", dir + "/x.wav"]).status == 64)
        #expect(runThrum(["convert", Self.fixtures + "gear.haptic"]).status == 64)
        #expect(runThrum(["convert", "--to", "mp3", Self.fixtures + "gear.haptic", "-o", dir + "/x"]).status == 64)
        #expect(runThrum(["convert", "--resolution", "0", Self.fixtures + "gear.haptic", "-o", dir + "/x.json"]).status == 64)
        let unwritable = runThrum(["convert", Self.fixtures + "gear.haptic", "-o", dir + "/no/such/folder/x.ahap"])
        #expect(unwritable.status == 74)
        let text = #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 2}, {"time": 1, "amplitude": 0}]}}}}"#
        let broken = try temporary.write("in/broken.haptic", text)
        let column = try #require(text.range(of: #""amplitude": 2"#)).lowerBound.utf16Offset(in: text) + 14
        let bad = runThrum(["convert", broken, "-o", dir + "/x.ahap"])
        #expect(bad.status == 65)
        #expect(bad.err.contains("broken.haptic:1:\(column): error: signals.continuous.envelopes.amplitude[0].amplitude: amplitude out of range: time 0.0, amplitude 2.0"))
        #expect(files(in: dir) == ["in"], "nothing written beside the input's folder")
    }

    @Test func ahapToHapticAndAndroid() throws {
        let temporary = TemporaryDirectory("convert")
        let dir = temporary.path
        let haptic = runThrum(["convert", Self.fixtures + "pulses.ahap", "-o", dir + "/pulses.haptic"])
        #expect(haptic.status == 0 && haptic.err.isEmpty, "\(haptic.err)")
        #expect(runThrum(["check", "--strict", dir + "/pulses.haptic"]).status == 0)
        let android = runThrum(["convert", dir + "/pulses.haptic", "-o", dir + "/pulses.json", "--resolution", "20"])
        #expect(android.status == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/pulses.json"))) as? [String: Any])
        let waveform = try #require(json["waveform"] as? [String: Any])
        #expect((waveform["timings"] as? [Int])?.reduce(0, +) == 1700)
        #expect((waveform["timings"] as? [Int])?.allSatisfy { $0 == 20 } == true)
    }

    @Test func hapticFilesInOtherCommands() throws {
        let gear = Self.fixtures + "gear.haptic"
        #expect(runThrum(["check", gear]) == (0, "checked 1 file: 0 errors, 0 warnings\n", ""))
        let info = runThrum(["info", gear])
        #expect(info.status == 0 && info.out.contains("format: .haptic 1.0.0\n") && info.out.contains("emphasis points: 1 (peak 0.80)"))
        let temporary = TemporaryDirectory("convert")
        let wav = temporary.file("gear.wav")
        let render = runThrum(["render", gear, "-o", wav, "--sample-rate", "8000"])
        #expect(render.status == 0, "\(render.err)")
        #expect(render.out.contains("7288 frames"), "\(render.out)")
        let svg = temporary.file("gear.svg")
        let plot = runThrum(["plot", gear, "-o", svg])
        #expect(plot.status == 0, "\(plot.err)")
        #expect((try? String(contentsOfFile: svg, encoding: .utf8))?.hasSuffix("</svg>\n") == true)
        let broken = try temporary.write("x.haptic", #"{"version": {"major": 1}}"#)
        let check = runThrum(["check", broken])
        #expect(check.status == 65)
        #expect(check.out.hasPrefix(broken + ":1:1: error: missing \"signals\""))
    }
}
