import ALSAOutput
import Foundation
import Glibc
import Thrum

// MARK: - Helpers

func liveOptions(periodFrames: Int = 256, periodCount: Int = 4) -> CHHapticEngine.Options {
    var options = CHHapticEngine.Options()
    options.output = .device("pulse")
    options.sampleRate = 48_000
    options.periodFrames = periodFrames
    options.periodCount = periodCount
    options.channelMap = .speakers  // 2 channels, as the null sink
    return options
}

func engineFrame(_ engine: CHHapticEngine) -> Int { Int((engine.currentTime * engine.options.sampleRate).rounded()) }

/// A short pattern for start-up timing: a transient at 0 and a 0.2 s continuous haptic.
func tapPattern() throws -> CHHapticPattern {
    try CHHapticPattern(
        events: [
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [parameter(.hapticIntensity, 1), parameter(.hapticSharpness, 0.5)], relativeTime: 0),
            hapticContinuous(at: 0, duration: 0.2, intensity: 0.8, sharpness: 0.5),
        ], parameters: [])
}

// MARK: - latency

/// `thrum-bench latency [--runs N]`: in-process start-up on ALSA `pulse` (256 × 4), medians of N with
/// min and max: the `engine.start()` call, and `engine.start()` + `player.start(atTime: 0)` until the
/// period holding the player's first frame has been rendered and written (the engine clock one period past
/// the frame the start was queued at); then the same start through ALSAOutput alone, with and without
/// `mlockall`. Tools/benchmark.sh times `thrum play` against aplay as processes, at the sink's monitor.
func benchLatency(runs: Int) throws {
    let command = "`thrum-bench latency`"
    guard pulseAvailable() else { throw BenchFailure("no PulseAudio null sink: run it through Tools/benchmark.sh") }
    var startCall: [Double] = []
    var toRendered: [Double] = []
    var period = 0
    var bufferFrames = 0
    for i in 1...runs {
        progress("latency: in-process run \(i)/\(runs)")
        let engine = try CHHapticEngine(options: liveOptions())
        let player = try engine.makePlayer(with: tapPattern())
        let t0 = nowNanos()
        try engine.start()
        let t1 = nowNanos()
        try player.start(atTime: CHHapticTimeImmediate)
        let queuedAt = engineFrame(engine)
        period = engine.periodFrames
        bufferFrames = engine.bufferFrames
        let deadline = t0 + 3_000_000_000
        while engineFrame(engine) < queuedAt + period && nowNanos() < deadline { usleep(50) }
        guard nowNanos() < deadline else { throw BenchFailure("the first period was not written within 3 s") }
        startCall.append(Double(t1 - t0) / 1e6)
        toRendered.append(Double(nowNanos() - t0) / 1e6)
        engine.stop()
        usleep(100_000)
    }
    emit(Row(figure: "`engine.start()` call, live on `pulse` (period \(period), buffer \(bufferFrames))", value: spread(startCall, "ms"), target: "—", command: command))
    emit(Row(figure: "`engine.start()` + `player.start(atTime: 0)` → player's first period rendered and written", value: spread(toRendered, "ms"), target: "≤ 50 ms", command: command))
    print(#"json: {"start_to_written_ms": \#(fmt(median(toRendered), 3))}"#)
    try benchStartupBreakdown(runs: runs, command: command)
}

/// "median (min–max, n = N) UNIT".
func spread(_ values: [Double], _ unit: String, digits: Int = 1) -> String {
    "\(fmt(median(values), digits)) \(unit) (min \(fmt(values.min() ?? .nan, digits)), max \(fmt(values.max() ?? .nan, digits)), n = \(values.count))"
}

// MARK: - Start-up breakdown (ALSAOutput directly)

/// A silent render source.
final class SilentSource: ALSARenderSource {
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        buffer.update(repeating: 0, count: frameCount * channelCount)
    }
}

/// Opens `pulse` with ALSAOutput and starts a silent source: (open ms, start ms, first period written ms).
func alsaStartup(lockMemory: Bool) throws -> (open: Double, start: Double, firstWrite: Double) {
    let configuration = ALSADeviceConfiguration(
        source: .named("pulse"), sampleRate: 48_000, channels: 2, periodFrames: 256, periodCount: 4,
        requireExactRate: true, realtimePriority: 70, lockMemory: lockMemory)
    let t0 = nowNanos()
    let playback = try ALSAPlayback(configuration: configuration)
    let t1 = nowNanos()
    try playback.start(source: SilentSource())
    let t2 = nowNanos()
    let deadline = t0 + 3_000_000_000
    while playback.framesWritten == 0 && nowNanos() < deadline { usleep(50) }
    let t3 = nowNanos()
    playback.stop()
    playback.close()
    return (Double(t1 - t0) / 1e6, Double(t2 - t1) / 1e6, Double(t3 - t0) / 1e6)
}

func benchStartupBreakdown(runs: Int, command: String) throws {
    for lock in [true, false] {
        var opens: [Double] = []
        var starts: [Double] = []
        var firsts: [Double] = []
        for _ in 0..<runs {
            let r = try alsaStartup(lockMemory: lock)
            opens.append(r.open)
            starts.append(r.start)
            firsts.append(r.firstWrite)
            usleep(100_000)
        }
        emit(
            Row(
                figure: "ALSAOutput on `pulse`, \(lock ? "with `mlockall(MCL_CURRENT)` (`Options.lockMemory = true`; off by default)" : "without `mlockall`"): open / start / open → first period written",
                value: "\(fmt(median(opens), 1)) / \(fmt(median(starts), 1)) / \(fmt(median(firsts), 1)) ms (medians of \(runs))",
                target: "—", command: command))
    }
}
