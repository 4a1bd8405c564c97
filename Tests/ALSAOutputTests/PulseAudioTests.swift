import Foundation
import Synchronization
import FoundationStandIns
import Testing

@testable import ALSAOutput

/// Real-time tests through a private PulseAudio server with a float32 stereo 48 kHz null sink.
///
/// Run with:
///   eval "$(Tools/dev/pulse-null-sink.sh start)"     # exports THRUM_PULSE_TESTS=1 and PULSE_SERVER
///   swift test --filter ALSAOutputTests
///   Tools/dev/pulse-null-sink.sh stop
/// If only THRUM_PULSE_TESTS=1 is set, the tests use the script's default socket
/// (unix:/tmp/thrum-pulse/native).
private let pulseTestsEnabled = ProcessInfo.processInfo.environment["THRUM_PULSE_TESTS"] == "1"

private func usePulseServer() {
    setenv("PULSE_SERVER", "unix:/tmp/thrum-pulse/native", 0)
}

@Sendable private func toneSample(frame: Int, channel: Int) -> Float {
    let t = Float(frame) / 48_000
    let frequency: Float = channel == 0 ? 440 : 661
    return 0.25 * sinf(2 * .pi * frequency * t + 0.5) + 0.125 * sinf(2 * .pi * 97 * t + 1)
}

/// Records `null.monitor` as raw float32 stereo 48 kHz into a file.
private final class MonitorRecorder {
    let path: String
    let process = Process()

    init() throws {
        path = temporaryPath("monitor")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        process.arguments = [
            "--device=null.monitor", "--format=float32le", "--rate=48000", "--channels=2", "--raw",
            "--latency-msec=10",
        ]
        process.standardOutput = output
        try process.run()
        usleep(500_000)  // Let parec connect before anything is played.
    }

    func finish() -> [Float] {
        // The test process blocks SIGTERM/SIGINT and children inherit the mask, so only SIGKILL works.
        // parec writes each fragment as it arrives, so nothing already captured is lost.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        defer { if ProcessInfo.processInfo.environment["THRUM_KEEP_CAPTURE"] == nil { unlink(path) } else { print("capture kept at \(path)") } }
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}

extension ALSAOutputSuites {
@Suite("ALSAOutput through PulseAudio", .serialized, .enabled(if: pulseTestsEnabled))
struct PulseAudioTests {
    /// 4 periods (21 ms) by default; the bit-exact test takes 16 (85 ms): what it checks does not depend on
    /// the buffer, and this VM's host stalls it for 20 ms and more at times (steal time).
    private func pulseConfiguration(periods: Int = 4) -> ALSADeviceConfiguration {
        ALSADeviceConfiguration(
            source: .named("pulse"), sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: periods,
            preferredFormat: .float32LE)
    }

    @Test func playsSignalBitExactInRealTime() throws {
        usePulseServer()
        let recorder = try MonitorRecorder()
        let playback = try ALSAPlayback(configuration: pulseConfiguration(periods: 16))
        #expect(playback.format == .float32LE)
        #expect(playback.sampleRate == 48_000)
        #expect(playback.periodFrames == 256)

        // PulseAudio rewinds the sink to mix a new stream in at once, and the monitor source drops the
        // rewound part: the first ~100-200 frames of a stream never reach null.monitor. So the signal
        // starts after 0.25 s of silence, and the comparison starts at the first non-zero sample.
        let lead = 12_000
        let total = 96_000  // 2 s
        let progress = SourceProgress()
        let clock = ContinuousClock()
        try playback.start(
            source: FunctionSource(progress: progress, expectedFrameCount: 256, limit: lead + total) { frame, channel in
                frame < lead ? 0 : toneSample(frame: frame - lead, channel: channel)
            })
        // Pacing: from the moment the device buffer is full (the stream runs) until one more
        // lead + total frames were accepted, the wall time must be (lead + total) / rate.
        // Measured from the stream start, not from `start()`, so PulseAudio's start-up latency (up to
        // ~0.6 s seen on a loaded 2-core machine) does not count.
        #expect(waitUntil(timeout: 3) { playback.framesWritten >= UInt64(playback.bufferFrames) })
        let started = clock.now
        #expect(playback.isRealtime || playback.realtimeWarning != nil)
        #expect(waitUntil(timeout: 5) { playback.framesWritten >= UInt64(lead + total + playback.bufferFrames) })
        let elapsed = clock.now - started
        playback.stop(drain: true)
        #expect(playback.state == .stopped)
        usleep(300_000)
        let captured = recorder.finish()

        #expect(playback.xrunCount == 0, "timing \(playback.timingXrunCount)")
        #expect(progress.wrongFrameCount.load(ordering: .relaxed) == 0)
        // Writing total + one buffer takes total/rate seconds of wall time once the buffer is full.
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(abs(seconds - 2.25) < 0.3, "elapsed \(seconds) s for 2.25 s of audio")

        let first = try #require(captured.firstIndex { $0 != 0 }, "no signal captured (\(captured.count) samples)")
        #expect(first % 2 == 0, "capture starts mid-frame")
        #expect(captured.count - first >= total * 2, "captured \(captured.count - first) samples after onset")
        var mismatches = 0
        var firstMismatch: Int?
        var maxError: Float = 0
        for i in 0..<min(total * 2, captured.count - first) {
            let expected = toneSample(frame: i / 2, channel: i % 2)
            let got = captured[first + i]
            if got.bitPattern != expected.bitPattern {
                mismatches += 1
                if firstMismatch == nil { firstMismatch = i }
                maxError = max(maxError, abs(got - expected))
            }
        }
        let head = captured[first..<min(first + 8, captured.count)].map { $0 }
        let want = (0..<8).map { toneSample(frame: $0 / 2, channel: $0 % 2) }
        let match = captured.firstIndex { $0.bitPattern == want[0].bitPattern }
        #expect(
            mismatches == 0,
            "first mismatch at \(firstMismatch ?? -1), max error \(maxError); got \(head) want \(want); first=\(first) exact match of frame 0 at \(match ?? -1), count \(captured.count)")
        // After the signal the source renders silence.
        let after = captured[(first + total * 2)...]
        #expect(after.allSatisfy { $0 == 0 })
    }

    @Test func injectedStallIsRecoveredAsXrun() throws {
        usePulseServer()
        let playback = try ALSAPlayback(configuration: pulseConfiguration())
        let progress = SourceProgress()
        try playback.start(source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: toneSample))
        #expect(waitUntil(timeout: 3) { playback.framesWritten >= 48_000 / 4 })
        #expect(playback.xrunCount == 0)
        playback.injectStall(milliseconds: 200)  // The buffer holds ~21 ms.
        #expect(waitUntil(timeout: 3) { playback.xrunCount >= 1 })
        let afterXrun = playback.framesWritten
        // Playback goes on after recovery.
        #expect(waitUntil(timeout: 3) { playback.framesWritten >= afterXrun + 24_000 })
        #expect(playback.state == .running)
        playback.stop()
        #expect(playback.state == .stopped)
        #expect(playback.lastError == nil)
    }
}

}

/// Kills a private PulseAudio server under a running playback: the thread must fail cleanly.
/// An extension of `PulseAudioTests` so it never runs concurrently with the timing-sensitive tests.
extension ALSAOutputSuites.PulseAudioTests {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/dev/pulse-null-sink.sh").path

    /// Runs the script with `system()`: Foundation's `Process.waitUntilExit` hangs here when the
    /// script leaves background children (pulseaudio, pacat) behind.
    private func runScript(_ command: String, runtime: String) throws -> Int32 {
        let status = system("env -u PULSE_SERVER THRUM_PULSE_RUNTIME='\(runtime)' bash '\(Self.script)' \(command) >/dev/null 2>&1")
        return (status >> 8) & 0xff
    }

    @Test func serverDeathFailsPlaybackAndCallsOnFailureOnce() throws {
        let runtime = "/tmp/thrum-pulse-failtest-\(getpid())"
        #expect(try runScript("start", runtime: runtime) == 0)
        defer {
            _ = try? runScript("stop", runtime: runtime)
            _ = system("rm -rf '\(runtime)'")
        }
        let text = """
            pcm.doomed { type pulse server "unix:\(runtime)/native" }
            """
        let playback = try ALSAPlayback(
            configuration: ALSADeviceConfiguration(source: .configuration(text: text, pcmName: "doomed")))
        let calls = Atomic<Int>(0)
        let reported = Locked<ALSAError?>(nil)
        let progress = SourceProgress()
        try playback.start(
            source: FunctionSource(progress: progress, expectedFrameCount: 256, sample: toneSample),
            onFailure: { [playback] error in
                reported.withLock { $0 = error }
                // Allowed on the notifier thread: joins the already-exited playback thread.
                playback.stop()
                calls.add(1, ordering: .releasing)
            })
        #expect(waitUntil(timeout: 3) { playback.framesWritten >= 12_000 })
        #expect(try runScript("stop", runtime: runtime) == 0)
        #expect(waitUntil(timeout: 5) { calls.load(ordering: .acquiring) == 1 })
        usleep(100_000)
        #expect(calls.load(ordering: .acquiring) == 1)
        #expect(playback.state == .failed)
        let error = try #require(playback.lastError)
        #expect(reported.withLock { $0 } == error)
        #expect(error.description.contains("'doomed'"))
        #expect(error.description.contains("failed during playback"))
        playback.close()
        #expect(playback.state == .closed)
    }
}
