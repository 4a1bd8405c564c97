import Foundation
import Testing
import ThrumTestSupport

/// `thrum play --device jack` through a private jackd2 with the dummy driver (Tools/dev/jack-dummy.sh) and
/// ALSA's `jack` PCM from libasound2-plugins, which connects to system:playback_1/2.
/// `Tools/test.sh` starts the server and runs these alone.
let jackAvailable = ProcessInfo.processInfo.environment["THRUM_JACK_TESTS"] == "1"

/// Records what reaches system:playback_1/2 with jack_capture (float WAV) for a fixed time.
final class JACKCapture {
    let path = NSTemporaryDirectory() + "thrum-jack-capture-\(UUID().uuidString).wav"
    let process = Process()

    /// Starts recording for `seconds`; jack_capture stops and finishes the file by itself.
    init(seconds: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jack_capture")
        process.arguments = ["--daemon", "--recording-time", "\(seconds)", "--channels", "2", "-f", "wav", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(500_000)  // let jack_capture register and connect before anything plays
    }

    func finish() throws -> [Float] {
        process.waitUntilExit()
        defer { unlink(path) }
        return try loadSamples(path)
    }
}

/// A second private jackd for the tests that kill one (the suite's own server survives): named after the
/// suite's, so two runs coexist, and always the same, so JACK's machine-wide registry (8 names) reuses its entry.
private struct CrashServer {
    let name = (ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "thrum-jack") + "-crash"

    init() {
        #expect(runToolScript("jack-dummy.sh", "start", environment: ["THRUM_JACK_SERVER": name]) == 0)
    }

    /// Starts `thrum play heartbeat --loop --device jack` on this server and lets it play for 1.5 s.
    func playLooping() throws -> ChildProcess {
        let play = try ChildProcess(
            [thrumTool, "play", "heartbeat", "--loop", "--device", "jack"], environment: ["JACK_DEFAULT_SERVER": name])
        Thread.sleep(forTimeInterval: 1.5)
        return play
    }

    /// Kills the server (SIGKILL, as a crash).
    func crash() { runToolScript("jack-dummy.sh", "crash", environment: ["THRUM_JACK_SERVER": name]) }

    func stop() { runToolScript("jack-dummy.sh", "stop", environment: ["THRUM_JACK_SERVER": name]) }
}

@Suite(
    .serialized,
    .enabled(if: jackAvailable, "needs the private JACK server of Tools/dev/jack-dummy.sh (Tools/test.sh starts it)"))
struct JACKRealTimeTests {
    /// What JACK receives equals `thrum render` bit for bit (after the first 0.1 s: jack_capture follows
    /// the plugin's port connections, one JACK cycle late). A run the server's graph lost a cycle of is
    /// repeated (repeatWhileTheMachineSpoils).
    @Test func playOnJackEqualsRender() throws {
        let expected = try thrumRender("countdown")
        try repeatWhileTheMachineSpoils("the JACK capture differed from thrum render") {
            let capture = try JACKCapture(seconds: 6)
            let play = try ChildProcess([
                thrumTool, "play", "countdown", "--device", "jack", "--period", "256", "--periods", "4",
            ])
            let result = try #require(play.wait(timeout: 30), "thrum play did not finish")
            let captured = try capture.finish()
            #expect(result.status == 0, "thrum play: \(play.errorText)")
            #expect(play.errorText.isEmpty, "stderr: \(play.errorText)")
            guard let mismatch = captureMismatch(captured, expected, skip: 9600) else { return .done(()) }
            return .spoiled(mismatch)
        }
    }

    /// The JACK server dies mid-play (SIGKILL, as a crash); a SIGTERM afterwards must end `thrum play`
    /// at once. Before the fix it hung in `snd_pcm_drain` for ever (only SIGKILL ended it).
    @Test func serverKilledMidPlayThenSigtermEndsPlay() throws {
        let server = CrashServer()
        defer { server.stop() }
        let play = try server.playLooping()
        #expect(play.wait(timeout: 0) == nil, "thrum play ended before the server died: \(play.errorText)")
        server.crash()
        Thread.sleep(forTimeInterval: 0.5)
        play.send(SIGTERM)
        let sent = Date()
        let result = play.wait(timeout: 10)
        let waited = Date().timeIntervalSince(sent)
        if result == nil { play.send(SIGKILL) }
        // The promise is one second; the bound leaves room for a loaded machine (the bug is a hang).
        #expect(result != nil && waited < 3, "thrum play still ran \(waited) s after SIGTERM")
        #expect(result?.status == 130 || result?.status == 69, "exit \(result?.status ?? -1): \(play.errorText)")
        #expect(play.errorText.contains("'jack'"), "stderr: \(play.errorText)")
    }

    /// jackd freezes for 0.3 s mid-play (SIGSTOP … SIGCONT): JACK's clock went on without Thrum's
    /// samples, so the summary must count at least one xrun, and playback goes on to the end.
    @Test func serverStallIsCountedAsXrun() throws {
        try expectServerStallCountedAsXrun(device: "jack", script: "jack-dummy.sh")
    }

    /// The JACK server dies mid-play and nobody interrupts: `thrum play` notices (no frame taken for 2 s),
    /// exits 69 and names the server and what to do, instead of playing silence for ever.
    @Test func serverKilledMidPlayExits69NamingTheServer() throws {
        let server = CrashServer()
        defer { server.stop() }
        let play = try server.playLooping()
        server.crash()
        let result = play.wait(timeout: 15)
        if result == nil { play.send(SIGKILL) }
        #expect(result?.status == 69, "exit \(result?.status ?? -1): \(play.errorText)")
        #expect(play.errorText.contains("the JACK server stopped taking samples"), "\(play.errorText)")
        #expect(play.errorText.contains("JACK_DEFAULT_SERVER"), "\(play.errorText)")
    }

    /// No JACK server under that name: the error says so and how to start one, not "try --device".
    @Test func noServerIsReportedAsTheServerNotRunning() throws {
        let play = try ChildProcess(
            [thrumTool, "play", "tap", "--device", "jack"], environment: ["JACK_DEFAULT_SERVER": "thrum-no-such-server"])
        let result = try #require(play.wait(timeout: 30))
        #expect(result.status == 69)
        #expect(play.errorText.contains("the JACK server is not running or cannot be reached"), "\(play.errorText)")
        #expect(!play.errorText.contains("plughw"), "\(play.errorText)")
    }

    /// Ports that do not exist: reported as a port connection problem, not as a format or rate one.
    @Test func missingPortsAreReportedAsAPortConnectionProblem() throws {
        let config = NSTemporaryDirectory() + "thrum-jack-ports-\(UUID().uuidString).conf"
        defer { unlink(config) }
        try "pcm.jackbad { type jack playback_ports { 0 nosuch:in_1 1 nosuch:in_2 } }\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let play = try ChildProcess(
            [thrumTool, "play", "tap", "--device", "jackbad"],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(config)"])
        let result = try #require(play.wait(timeout: 30))
        #expect(result.status == 69)
        #expect(play.errorText.contains("JACK could not connect the ports named in its playback_ports"), "\(play.errorText)")
        #expect(!play.errorText.contains("convert formats"), "\(play.errorText)")
    }
}
