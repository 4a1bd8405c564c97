import Foundation
import Testing
import ThrumTestSupport
import Thrum

/// The live engine through ALSA itself (the `file` plugin over `null`, from an in-memory config): the
/// bytes written to the device equal the offline render, bit for bit.
@Suite struct EngineALSAFileTests {
    func options(output: CHHapticEngine.Output) -> CHHapticEngine.Options {
        var options = CHHapticEngine.Options()
        options.output = output
        options.sampleRate = 48000
        options.channelMap = .separate
        options.periodFrames = 256
        options.realtimePriority = nil
        return options
    }

    @Test(arguments: [("checkout", false), ("heartbeat", false), ("click-with-sound", false), ("click-with-sound", true)])
    func deviceBytesEqualTheOfflineRender(name: String, hapticsFromAudio: Bool) throws {
        let path = NSTemporaryDirectory() + "thrum-file-\(name)-\(UUID().uuidString).raw"
        defer { unlink(path) }
        let config = "pcm.thrumtest { type file slave.pcm { type null } file \"\(path)\" format raw }"
        var liveOptions = options(output: .alsaConfiguration(text: config, pcmName: "thrumtest"))
        liveOptions.resourceRoots = [packageRoot.appendingPathComponent("Resources/Audio").path]
        liveOptions.hapticsFromAudio = hapticsFromAudio ? .general : nil
        var offlineOptions = options(output: .offline)
        offlineOptions.resourceRoots = liveOptions.resourceRoots
        offlineOptions.hapticsFromAudio = liveOptions.hapticsFromAudio
        let pattern = try CHHapticPattern(
            contentsOf: packageRoot.appendingPathComponent("Resources/Patterns/\(name).ahap"))

        let offline = try CHHapticEngine(options: offlineOptions)
        try offline.start()
        let reference = try offline.makePlayer(with: pattern)
        try reference.start(atTime: 0)
        var expected: [Float] = []
        while (reference as? ThrumPlayerState)?.endFrame == nil { expected += try render(offline, frames: 256) }
        let end = try #require((reference as? ThrumPlayerState)?.endFrame)
        expected = Array(expected[0..<(Int(end) * 3)])

        let live = try CHHapticEngine(options: liveOptions)
        try live.start()
        let player = try live.makePlayer(with: pattern)
        try player.start(atTime: CHHapticTimeImmediate)
        let deadline = Date().addingTimeInterval(10)
        while (player as? ThrumPlayerState)?.endFrame == nil && Date() < deadline { usleep(1000) }
        live.stop()
        #expect((player as? ThrumPlayerState)?.endFrame != nil)

        let data = try #require(FileManager.default.contents(atPath: path))
        let written = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let liveStart = try #require(written.firstIndex { $0 != 0 }) / 3
        let offlineStart = try #require(expected.firstIndex { $0 != 0 }) / 3
        let shift = (liveStart - offlineStart) * 3
        #expect(shift >= 0 && shift % (256 * 3) == 0, "the start lands on a period boundary")
        #expect(written.count >= shift + expected.count)
        let captured = Array(written[shift..<min(written.count, shift + expected.count)])
        #expect(captured == expected, "live output differs from the offline render")
    }

    @Test func missingDeviceIsServerInitFailedNamingTheDevice() throws {
        var options = options(output: .device("hw:97,0"))
        options.realtimePriority = nil
        let engine = try CHHapticEngine(options: options)
        do {
            try engine.start()
            Issue.record("a missing device started")
        } catch let error as CHHapticError {
            #expect(error.code == .serverInitFailed)
            #expect(error.message.contains("'hw:97,0'"))
            #expect(error.message.contains("--device"))
        }
        #expect(!engine.isRunning)
    }
}
