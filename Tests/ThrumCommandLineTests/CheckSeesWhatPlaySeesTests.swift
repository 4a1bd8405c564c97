import AudioResources
import Foundation
import Testing
import ThrumModel
import ThrumServices
import ThrumTestSupport

@testable import ThrumCommandLine
import ThrumModel

/// Issue 13, problems 2, 3 and 7: `check` reports every audio problem `play` and `render` refuse, voice
/// peaks above the engine's voices and lengths over the render limit; work is bounded by default, each
/// limit named with the option that raises it; a voice overflow is said in the summary.
@Suite struct CheckSeesWhatPlaySeesTests {
    /// A folder with `pattern.ahap` (one AudioCustom event per path, in order) and the files it creates.
    static func patternFolder(audioPaths: [String]) throws -> String {
        let folder = NSTemporaryDirectory() + "thrum-check-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/p", withIntermediateDirectories: true)
        let events = audioPaths.enumerated().map { index, path in
            #"{"Event": {"Time": \#(Double(index) * 0.1), "EventType": "AudioCustom", "EventWaveformPath": "\#(path)"}}"#
        }
        try #"{"Version": 1, "Pattern": [\#(events.joined(separator: ",\n"))]}"#
            .write(toFile: folder + "/p/pattern.ahap", atomically: true, encoding: .utf8)
        return folder
    }

    static func writeWAV(_ path: String, seconds: Double, rate: Int = 8000) throws {
        let writer = try AudioFileWriter(path: path, sampleRate: rate, channelCount: 1)
        try writer.write([Float](repeating: 0.1, count: Int(seconds * Double(rate))))
        try writer.close()
    }

    @Test func everyAudioProblemPlayRefusesIsAnErrorInCheck() throws {
        let folder = try Self.patternFolder(audioPaths: [
            "ok.wav", "missing.wav", "/etc/hostname", "../outside/secret.wav", "fifo.wav", "long.wav", "ok.wav",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeWAV(folder + "/p/ok.wav", seconds: 0.1)
        try Self.writeWAV(folder + "/outside/secret.wav", seconds: 0.1)
        try Self.writeWAV(folder + "/p/long.wav", seconds: 24)
        #expect(mkfifo(folder + "/p/fifo.wav", 0o600) == 0)
        let pattern = folder + "/p/pattern.ahap"

        let result = runThrum(["check", pattern])
        #expect(result.status == 65)
        let lines = result.out.split(separator: "\n").map(String.init)
        func finding(_ index: Int, _ text: String) -> Bool {
            lines.contains { $0.contains("Pattern[\(index)].Event.EventWaveformPath") && $0.contains(text) && $0.contains(": error: ") }
        }
        #expect(finding(1, "'missing.wav' not found"))
        #expect(finding(2, "is an absolute path, which is not allowed"))
        #expect(finding(3, "resolves outside the allowed folders"))
        #expect(finding(4, "it is not a regular file"))
        #expect(finding(5, "is 24 s long; the limit is 23 s per file"))
        #expect(lines.last == "checked 1 file: 5 errors, 0 warnings, 1 rejected")
        // The same options as play: a raised limit and an allowed path clear those errors (/etc/hostname
        // is then found, and is not audio).
        let relaxed = runThrum(["check", pattern, "--allow-any-path", "--max-audio-seconds", "25"])
        #expect(relaxed.out.contains("Pattern[2].Event.EventWaveformPath: audio file '/etc/hostname' cannot be read"))
        #expect(relaxed.out.split(separator: "\n").last == "checked 1 file: 3 errors, 0 warnings, 1 rejected")
        // And play/render refuse the first of them.
        let render = runThrum(["render", pattern, "-o", folder + "/out.wav"])
        #expect(render.status == 65)
        #expect(render.err.contains("'missing.wav' not found"))
    }

    @Test func resourceFoldersCountInCheckAsInPlay() throws {
        let folder = try Self.patternFolder(audioPaths: ["lib.wav"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeWAV(folder + "/outside/lib.wav", seconds: 0.1)
        #expect(runThrum(["check", folder + "/p/pattern.ahap"]).status == 65)
        #expect(runThrum(["check", folder + "/p/pattern.ahap", "--resources", folder + "/outside"]).status == 0)
    }

    @Test func voicePeaksAboveTheEngineVoicesAreWarnedAndReported() throws {
        let folder = TemporaryDirectory("cli")
        let events = (0..<100).map { _ in #"{"Event": {"Time": 0, "EventType": "HapticTransient"}}"# }
        let pattern = try folder.write("crowd.ahap", #"{"Version": 1, "Pattern": [\#(events.joined(separator: ","))]}"#)
        let check = runThrum(["check", pattern])
        #expect(check.status == 0)
        #expect(check.out.contains("warning: Pattern[99].Event: 100 events sound at once here, more than the engine's 64 voices: 36 of them will not play; raise the pool with --voices 100"))
        #expect(runThrum(["check", pattern, "--voices", "100"]).out == "checked 1 file: 0 errors, 0 warnings\n")
        let output = NSTemporaryDirectory() + "thrum-crowd-\(UUID().uuidString).wav"
        defer { unlink(output) }
        let render = runThrum(["render", pattern, "-o", output, "--sample-rate", "8000"])
        #expect(render.status == 0)
        #expect(render.out.contains("; 36 events dropped: more than 64 sounding at once (raise the pool with --voices N)"))
        let enough = runThrum(["render", pattern, "-o", output, "--sample-rate", "8000", "--voices", "100"])
        #expect(!enough.out.contains("dropped"))
    }

    @Test func aLongRenderNeedsDurationAndCheckSaysSo() throws {
        let folder = TemporaryDirectory("cli")
        let pattern = try folder.write(
            "late.ahap", #"{"Version": 1, "Pattern": [{"Event": {"Time": 86000, "EventType": "HapticTransient"}}]}"#)
        let output = NSTemporaryDirectory() + "thrum-late-\(UUID().uuidString).wav"
        let render = runThrum(["render", pattern, "-o", output])
        #expect(render.status == 65)
        #expect(render.err.contains("the render would last 86000 s, more than the 600 s rendered without --duration (pass --duration S to render that long)"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let check = runThrum(["check", pattern])
        #expect(check.status == 0)
        #expect(check.out.contains("warning: the pattern lasts 86000 s: 'thrum render' and 'thrum plot' take at most 600 s without --duration"))
        let plot = runThrum(["plot", pattern, "-o", output + ".svg"])
        #expect(plot.status == 65)
        #expect(plot.err.contains("pass --duration S to plot its start"))
        // A time past 24 h, which crashed play before, is a located error.
        let huge = try folder.write(
            "huge.ahap", #"{"Version": 1, "Pattern": [{"Event": {"Time": 1e9, "EventType": "HapticTransient"}}]}"#)
        let hugeCheck = runThrum(["check", huge])
        #expect(hugeCheck.status == 65)
        #expect(hugeCheck.out.contains(":1:47: error: Pattern[0].Event.Time: event Time 1e+09 s is past 86400 s, the longest pattern Thrum plays (24 h) [CHHapticError.invalidEventTime"))
    }

    @Test func patternSizeAndCountsAreLimitedByDefaultAndEachLimitNamesItsOption() throws {
        let folder = TemporaryDirectory("cli")
        let padding = String(repeating: " ", count: 4_000_001)
        let big = try folder.write("big.ahap", #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"# + padding)
        let tooBig = runThrum(["check", big])
        #expect(tooBig.status == 65)
        let size = try #require(FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        #expect(tooBig.out.contains("big.ahap: error: the file is \(size) bytes; the limit for a pattern file is 4000000 bytes (raise it with --max-pattern-bytes N)"))
        #expect(runThrum(["check", big, "--max-pattern-bytes", "5000000"]).status == 0)
        #expect(runThrum(["render", big, "-o", "/tmp/x.wav"]).status == 65)

        let events = (0..<11).map { #"{"Event": {"Time": \#(Double($0) * 0.01), "EventType": "HapticTransient"}}"# }
        let points = (0..<20).map { #"{"Time": \#(Double($0) * 0.01), "ParameterValue": 0.5}"# }
        let many = try folder.write(
            "many.ahap",
            #"{"Version": 1, "Pattern": [\#(events.joined(separator: ",")), {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [\#(points.joined(separator: ","))]}}]}"#)
        let counted = runThrum(["check", many, "--max-events", "10", "--max-curve-points", "19"])
        #expect(counted.status == 65)
        #expect(counted.out.contains("the pattern has 11 events and parameter steps; the limit is 10 (raise it with --max-events N)"))
        #expect(counted.out.contains("the pattern has 20 curve control points; the limit is 19 (raise it with --max-curve-points N)"))
        let plotted = runThrum(["plot", many, "--max-events", "10", "-o", "/tmp/x.svg"])
        #expect(plotted.status == 65)
        #expect(plotted.err.contains("(raise it with --max-events N)"))
    }

    /// Every option an error message suggests exists on the commands that can print it.
    @Test func messagesSuggestOnlyOptionsThatExist() throws {
        let messages = [
            AudioResourceError.missing(path: "a.wav", searched: ["x"]),
            .fileTooLarge(path: "a.wav", bytes: 2, limit: 1), .tooLong(path: "a.wav", seconds: 2, limit: 1),
            .budgetExceeded(path: "a.wav", decodedBytes: 2, used: 0, limit: 1),
            .pathEscapesRoots(path: "a.wav", roots: []), .absolutePathNotAllowed(path: "/a.wav"),
        ].map(\.description) + [
            PatternLimits().problems(in: .init(events: .init(repeating: .init(type: .hapticTransient, time: 0), count: 100_001))).joined(),
            "pass --duration S", OfflineRender.Outcome(frames: 0, droppedEvents: 1, zeroedSamples: 0).losses(voices: 64),
        ]
        let pattern = try NSRegularExpression(pattern: "--[a-z][a-z-]*")
        for command in [playCommand, renderCommand, checkCommand, plotCommand] {
            let known = Set(command.spec.options.map(\.long))
            for message in messages where !(command.spec.name == "plot" && message.contains("--voices")) {
                let range = NSRange(message.startIndex..., in: message)
                for match in pattern.matches(in: message, range: range) {
                    let option = String(message[Range(match.range, in: message)!].dropFirst(2))
                    if command.spec.name == "check" && option == "duration" { continue }
                    #expect(known.contains(option), "'thrum \(command.spec.name)' has no --\(option), suggested by: \(message)")
                }
            }
        }
    }
}
