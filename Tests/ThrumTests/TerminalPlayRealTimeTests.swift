import Foundation
import Testing
import ThrumTestSupport

/// `thrum play` on a pseudo-terminal (Tools/dev/pty-run.py): status line, keys, and the terminal restored.
@Suite(.serialized, .enabled(if: pulseAvailable))
struct TerminalPlayRealTimeTests {
    func runOnTerminal(keys: [String], _ arguments: [String]) throws -> String {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("thrum").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", packageRoot.appendingPathComponent("Tools/dev/pty-run.py").path]
            + keys.flatMap { ["--key", $0] } + ["--", tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output
    }

    @Test func statusLineAndKeys() throws {
        let output = try runOnTerminal(
            keys: ["1.0: ", "1.6: ", "2.0:+", "2.4:m", "3.0:q"], ["play", "heartbeat", "--loop", "--device", "pulse"])
        #expect(output.contains("▶ 0:00."))
        #expect(output.contains("❚❚ "), "space pauses")
        #expect(output.contains("rate ×1.25"), "+ speeds up")
        #expect(output.contains("haptics muted"), "m mutes haptics")
        #expect(output.contains("loop 2"))
        #expect(output.contains("\nexit: 0\n"))
        #expect(output.hasSuffix("stty-restored: yes\n"))
    }

    @Test func ctrlCStopsCleanlyAndRestoresTheTerminal() throws {
        let output = try runOnTerminal(keys: ["1.0:\\x03"], ["play", "heartbeat", "--loop", "--device", "pulse"])
        #expect(output.contains("interrupted; device 'pulse' drained and closed"))
        #expect(output.contains("\nexit: 130\n"))
        #expect(output.hasSuffix("stty-restored: yes\n"))
    }

    @Test func noStatusLineWithoutATerminal() throws {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("thrum").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["play", "tap", "--device", "pulse"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.isEmpty, "stderr: \(text)")
    }
}
