import Foundation
import Testing
import ThrumTestSupport

/// `thrum play` on a simulated card whose wake-up never clears (an ALSA plugin bug that makes a poll
/// loop spin): playback completes and the summary notes that the device thread paced itself.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["THRUM_SIMCARD_PLUGIN"].map { !$0.isEmpty } ?? false,
        "needs the simulated card plugin in THRUM_SIMCARD_PLUGIN (Tools/test.sh builds it)"))
struct SpinNoteRealTimeTests {
    @Test func spinningPluginIsNotedAndPlaybackCompletes() throws {
        let folder = NSTemporaryDirectory() + "thrum-spin-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/spin.conf"
        try """
            pcm.spinning {
                type simcard
                formats [ FLOAT_LE ]
                channels 2
                wakeup_never_clears yes
                stats "\(folder)/spinning.stats"
            }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let profiles = packageRoot.appendingPathComponent("Tools/dev/simcard/profiles.conf").path
        let play = try ChildProcess(
            [thrumTool, "play", "heartbeat", "--device", "spinning"],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(profiles):\(config)"])
        let result = try #require(play.wait(timeout: 30), "thrum play did not finish")
        #expect(result.status == 0, "\(play.errorText)")
        #expect(play.errorText.contains("kept waking the playback thread with nothing to do"), "\(play.errorText)")
        #expect(play.outputText.hasPrefix("played "), "\(play.outputText)")
        // Spinning, a second of audio costs about a CPU-second; paced, a small fraction.
        #expect(result.cpuSeconds < 0.5, "thrum play used \(result.cpuSeconds) CPU-s for a 1 s pattern")
    }
}
