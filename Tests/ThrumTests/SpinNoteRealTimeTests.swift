import Foundation
import Testing
import ThrumTestSupport

/// `thrum play` on a simulated card whose wake-up never clears (an ALSA plugin bug that makes a poll
/// loop spin): playback completes and the summary notes that the device thread paced itself.
@Suite(.serialized) struct SpinNoteRealTimeTests {
    @Test func spinningPluginIsNotedAndPlaybackCompletes() throws {
        let run = try SimulatedCardRun(fields: "formats [ FLOAT_LE ]\nchannels 2\nwakeup_never_clears yes")
        defer { run.remove() }
        let environment = try SimulatedCard.environment(extraConfigurations: [try #require(try run.configurationFile())])
        let play = try ChildProcess(
            [thrumTool, "play", "heartbeat", "--device", run.deviceName],
            environment: environment.filter { $0.key == "ALSA_CONFIG_PATH" || $0.key == "THRUM_SIMCARD_PLUGIN" })
        let result = try #require(play.wait(timeout: 30), "thrum play did not finish")
        #expect(result.status == 0, "\(play.errorText)")
        #expect(play.errorText.contains("kept waking the playback thread with nothing to do"), "\(play.errorText)")
        #expect(play.outputText.hasPrefix("played "), "\(play.outputText)")
        // Spinning, a second of audio costs about a CPU-second; paced, a small fraction.
        #expect(result.cpuSeconds < 0.5, "thrum play used \(result.cpuSeconds) CPU-s for a 1 s pattern")
    }
}
