import Foundation
import Testing

/// `thrum play` when the sound server dies or a signal arrives mid-play.
@Suite(.serialized, .enabled(if: pulseAvailable))
struct CLIFaultRealTimeTests {
    func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("thrum")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    @Test func sigtermStopsCleanly() throws {
        let (process, errors) = try launch(["play", "textured-drag", "--device", "pulse"])
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGTERM)
        let sent = Date()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 2)
        #expect(process.terminationStatus == 130)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("interrupted; device 'pulse' drained and closed"))
    }

    @Test func serverKilledMidPlayExits69WithoutHanging() throws {
        let (process, errors) = try launch(["play", "textured-drag", "--device", "pulse"])
        Thread.sleep(forTimeInterval: 1)
        pulseScript("stop")
        let killed = Date()
        process.waitUntilExit()
        let waited = Date().timeIntervalSince(killed)
        pulseScript("start")
        #expect(waited < 5, "thrum play took \(waited) s to notice")
        #expect(process.terminationStatus == 69)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("ALSA device 'pulse' failed while playing"))
    }
}
