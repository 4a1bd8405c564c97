import Foundation
import Glibc
import Synchronization
import Thrum

// MARK: - trigger

/// `thrum-bench trigger [--runs N]`: the live engine's trigger latency on the simulated card (`sim_scarlett`,
/// through ALSA_CONFIG_PATH as Tools/benchmark.sh sets it): from `player.start(atTime: CHHapticTimeImmediate)`
/// on a running engine to the instant the card's own clock played the pattern's first frame, at 64 × 2,
/// 128 × 2 and 256 × 4. The frame comes from the engine's onset report (the frame the renderer started the
/// event on, exact); its instant from the card's `timing` log (when its clock played each run of frames), so
/// no estimate of Thrum's is in the figure. The starts come at random moments (5–25 ms apart, seeded), so the
/// period's phase at the call is uniform. Goal: p99 ≤ the device buffer + one period + 0.5 ms.
func benchTrigger(runs: Int) throws {
    let command = "`thrum-bench trigger`"
    for (period, periods) in [(64, 2), (128, 2), (256, 4)] {
        progress("trigger: \(runs) starts at \(period) × \(periods)")
        let result = try triggerCell(period: period, periods: periods, runs: runs)
        let buffer = Double(period * periods) / 48
        let goal = buffer + Double(period) / 48 + 0.5
        emit(Row(
            figure: "trigger latency, `player.start(atTime: CHHapticTimeImmediate)` → first frame at the DAC, simulated card, \(period) × \(periods) (buffer \(fmt(buffer, 2)) ms)",
            value: "median \(fmt(median(result.latencies), 2)) ms, p99 \(fmt(percentile(result.latencies, 99), 2)) ms, max \(fmt(result.latencies.max() ?? .nan, 2)) ms (n = \(result.latencies.count), \(result.xruns) xruns)",
            target: "p99 ≤ \(fmt(goal, 2)) ms", command: command))
        print(#"json: {"period": \#(period), "periods": \#(periods), "median_ms": \#(fmt(median(result.latencies), 3)), "p99_ms": \#(fmt(percentile(result.latencies, 99), 3)), "goal_ms": \#(fmt(goal, 3))}"#)
    }
}

/// The onsets the engine reports, by player instance (any thread).
private final class TriggerOnsets: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [UInt32: UInt64] = [:]
    func add(_ onset: ThrumOnset) { lock.withLock { frames[onset.instance] = onset.streamFrame } }
    func frame(_ instance: UInt32) -> UInt64? { lock.withLock { frames[instance] } }
    var count: Int { lock.withLock { frames.count } }
}

private func triggerCell(period: Int, periods: Int, runs: Int) throws -> (latencies: [Double], xruns: Int) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-bench-trigger-\(getpid())-\(period)")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let onsets = TriggerOnsets()
    var options = CHHapticEngine.Options()
    options.output = .device("sim_scarlett:DIR=\(folder.path)")
    options.periodFrames = period
    options.periodCount = periods
    options.channelMap = .speakers
    options.onsetHandler = { onsets.add($0) }
    let engine = try CHHapticEngine(options: options)
    try engine.start()
    guard engine.waitForOutputClock(timeout: 3) else { throw BenchFailure("the simulated card did not start") }
    let player = try engine.makePlayer(with: CHHapticPattern(
        events: [CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)], parameters: []))
    var random = UInt64(0x5eed_0000 + period)
    var calls: [UInt64] = []
    for _ in 0..<runs {
        random = random &* 6364136223846793005 &+ 1442695040888963407
        usleep(useconds_t(5000 + (random >> 33) % 20000))
        calls.append(nowNanos())
        try player.start(atTime: CHHapticTimeImmediate)
    }
    let deadline = nowNanos() + 3_000_000_000
    while onsets.count < runs && nowNanos() < deadline { usleep(1000) }
    usleep(useconds_t(Double(period * periods) / 48 * 1000 * 2 + 50_000))  // the last onset's frame has played
    let xruns = Int(engine.xrunCount)
    engine.stop()
    let runsPlayed = try playInstants(URL(fileURLWithPath: folder.path + "/sim_scarlett.timing"))
    var latencies: [Double] = []
    for (index, call) in calls.enumerated() {
        // Instances are numbered from 1 on the device, in start order.
        guard let frame = onsets.frame(UInt32(index + 1)), let played = instant(of: frame, in: runsPlayed) else { continue }
        latencies.append((played - Double(call)) / 1e6)
    }
    guard latencies.count == runs else {
        throw BenchFailure("\(runs - latencies.count) of \(runs) starts have no onset or no play instant")
    }
    return (latencies, xruns)
}

/// The card's timing log: runs of frames (first frame since open, ns it began, count, ns after the last).
private func playInstants(_ file: URL) throws -> [(first: UInt64, start: Double, count: UInt64, end: Double)] {
    let text = try String(contentsOf: file, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: " ").compactMap { UInt64($0) }
        guard fields.count == 4 else { return nil }
        return (fields[0], Double(fields[1]), fields[2], Double(fields[3]))
    }
}

/// The CLOCK_MONOTONIC ns at which the card's clock began to play `frame`.
private func instant(of frame: UInt64, in runs: [(first: UInt64, start: Double, count: UInt64, end: Double)]) -> Double? {
    guard let run = runs.first(where: { frame >= $0.first && frame < $0.first + $0.count }) else { return nil }
    return run.start + Double(frame - run.first) * (run.end - run.start) / Double(run.count)
}
