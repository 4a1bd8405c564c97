import AudioResources
import Foundation
import Testing
import ThrumTestSupport

@Suite struct RenderCommandTests {
    /// This test's own folder (each test gets a new suite value), removed after it.
    let folder = TemporaryDirectory("render")

    func temporaryWAV() -> String { folder.file("out-\(UUID().uuidString).wav") }

    @Test func rendersABundledPatternToItsDurationWithASummary() throws {
        let output = temporaryWAV()
        let result = runThrum(["render", "HEARTBEAT.ahap", "-o", output, "--sample-rate", "8000"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("wrote \(output): 8000 frames (1.000 s) at 8000 Hz"))
        #expect(result.out.contains("peak L 0.000 (silent), R 0.000 (silent), H 0."))
        #expect(result.out.hasSuffix("; 0 clipped samples\n"))
        let info = try AudioFileInfo.probe(output)
        #expect(info.frames == 8000)
        #expect(info.channels == 3)
    }

    @Test func loopsRenderNPassesAndLoopNeedsADuration() throws {
        let output = temporaryWAV()
        #expect(runThrum(["render", "heartbeat", "--loops", "3", "-o", output, "--sample-rate", "8000"]).status == 0)
        #expect(try AudioFileInfo.probe(output).frames == 24000)
        #expect(
            runThrum(["render", "heartbeat", "--loop", "--duration", "2.5", "-o", output, "--sample-rate", "8000"]).status
                == 0)
        #expect(try AudioFileInfo.probe(output).frames == 20000)
        let forever = runThrum(["render", "heartbeat", "--loop", "-o", output])
        #expect(forever == (64, "", "thrum render: --loop renders forever; add --duration S\n"))
    }

    @Test(arguments: [
        (["--loop", "--loops", "2"], "thrum render: use either --loop (forever) or --loops N, not both\n"),
        (["--loop-end", "0.5"], "thrum render: --loop-end needs --loop or --loops N\n"),
        (["--rate", "0"], "thrum render: --rate takes a number from 0.01 to 100, not '0'\n"),
        (["--format", "mp4"], "thrum render: --format takes float, pcm16, pcm24 or pcm32, not 'mp4'\n"),
        (["--channels", "L,X"], nil),
    ])
    func usageErrors(extra: [String], message: String?) {
        let result = runThrum(["render", "heartbeat", "-o", "/tmp/never.wav"] + extra)
        #expect(result.status == 64)
        if let message { #expect(result.err == message) } else { #expect(result.err.contains("--channels")) }
    }

    @Test func missingOutputAndMissingPattern() {
        #expect(runThrum(["render", "heartbeat"]) == (64, "", "thrum render: 'thrum render' needs -o FILE (the file to write)\n"))
        let missing = runThrum(["render", "/nonexistent/x.ahap", "-o", "/tmp/never.wav"])
        #expect(missing.status == 66)
        #expect(missing.err.contains("/nonexistent/x.ahap"))
    }

    @Test func badAudioFileExits65NamingTheFile() throws {
        let pattern = try folder.write(
            "audio.ahap",
            #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "boom.wav"}}]}"#
        )
        try Data("not a wav file at all".utf8).write(to: URL(fileURLWithPath: folder.file("boom.wav")))
        let result = runThrum(["render", pattern, "-o", temporaryWAV()])
        #expect(result.status == 65)
        #expect(result.err.contains("boom.wav"))
        let escaping = try folder.write(
            "escape.ahap",
            #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "../../etc/passwd"}}]}"#
        )
        let denied = runThrum(["render", escaping, "-o", temporaryWAV()])
        #expect(denied.status == 65)
        #expect(denied.err.contains("../../etc/passwd"))
    }

    @Test func unwritableOutputExits74() {
        let result = runThrum(["render", "tap", "-o", "/nonexistent-folder/out.wav"])
        #expect(result.status == 74)
        #expect(result.err.contains("/nonexistent-folder/out.wav"))
    }

    @Test func playWithoutADeviceExits69NamingIt() {
        let result = runThrum(["play", "tap", "--device", "hw:97,0"])
        #expect(result.status == 69)
        #expect(result.err.contains("'hw:97,0'"))
        #expect(result.err.contains("--device"))
        #expect(result.err.contains("thrum render"))
    }

    @Test func listShowsEveryBundledPattern() throws {
        let result = runThrum(["list"])
        #expect(result.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot.path + "/Resources/Patterns")
            .filter { $0.hasSuffix(".ahap") }.map { String($0.dropLast(5)) }
        for name in names { #expect(result.out.contains("\n\(name) ") || result.out.hasPrefix("\(name) ")) }
        #expect(result.out.split(separator: "\n").count == names.count)
    }
}
