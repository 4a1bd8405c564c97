import Foundation
import Testing
import ThrumTestSupport

/// `thrum play --watch` through the PulseAudio null sink: an edit changes what is heard within a second,
/// a broken edit keeps the previous version playing.
@Suite(.serialized, .enabled(if: pulseAvailable))
struct WatchRealTimeTests {
    func buzz(intensity: Double) -> String {
        """
        {"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.5,
          "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \(intensity)}]}}]}
        """
    }

    /// Peak level of the captured left channel in 0.1 s windows.
    func levels(_ samples: [Float]) -> [Float] {
        stride(from: 0, to: samples.count - 9600, by: 9600).map { start in
            stride(from: start, to: start + 9600, by: 2).map { abs(samples[$0]) }.max() ?? 0
        }
    }

    @Test func editsReplayWithinASecondAndBrokenEditsKeepTheLastGoodVersion() throws {
        let temporary = TemporaryDirectory("watch")
        let folder = temporary.path
        let file = folder + "/buzz.ahap"
        try buzz(intensity: 0.3).write(toFile: file, atomically: true, encoding: .utf8)
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("thrum")
        let capture = try MonitorCapture()
        let process = Process()
        process.executableURL = tool
        process.arguments = ["play", "--watch", "--loop", file, "--device", "pulse"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        try buzz(intensity: 1.0).write(toFile: file, atomically: true, encoding: .utf8)  // saved by rename
        Thread.sleep(forTimeInterval: 1.5)
        try "{\"Pattern\": [ {\"Event\": ".write(toFile: file, atomically: false, encoding: .utf8)  // broken
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let captured = capture.finish()

        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("reloaded \(file)"))
        #expect(stderr.contains("\(file):1:"), "the broken edit's diagnostic names the file and line")
        #expect(stderr.contains("still playing the last good version"))
        let level = levels(captured)
        let start = try #require(level.firstIndex { $0 > 0.01 })
        // 0.3² = 0.09 at first; within a second of the edit (1.5 s after start) the level is the full buzz.
        let quiet = level[(start + 2)..<(start + 12)]
        #expect(quiet.allSatisfy { $0 > 0.05 && $0 < 0.15 }, "\(Array(quiet))")
        let loud = level[(start + 25)..<(start + 42)]
        #expect(loud.allSatisfy { $0 > 0.6 }, "the edit is heard within a second and survives the broken edit: \(Array(loud))")
    }
}
