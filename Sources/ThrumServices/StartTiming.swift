import FoundationStandIns
import Thrum

/// When playback starts and what it logs (docs/timing.md): the onset log (`--onset-log FILE.jsonl`) and a
/// start on the frame that leaves the DAC at a CLOCK_MONOTONIC time (`--start-at T`). A value; the log is
/// thread-safe.
package struct StartTiming: Sendable {
    /// The onset log, when asked for.
    package let log: OnsetLog?
    /// The CLOCK_MONOTONIC time to start at (seconds), when asked for.
    package let startAt: Double?

    package static let startRange = 0...1e12

    /// - Throws: 64 for a start time out of range or in the past; 73 for a log that cannot be created.
    package init(onsetLog: String? = nil, startAt: Double? = nil) throws(ServiceError) {
        self.startAt = try Checked.number(startAt, "start-at", in: Self.startRange)
        if let startAt { try Self.requireFuture(startAt, named: "--start-at") }
        log = try onsetLog.map { (path) throws(ServiceError) in try OnsetLog(path: path) }
    }

    /// CLOCK_MONOTONIC now, in seconds: the clock of start times and of the onset log's `dac_time`. Any thread.
    package static func monotonicNow() -> Double { ThrumClock.monotonicNow() }

    private static func requireFuture(_ time: Double, named name: String) throws(ServiceError) {
        let now = ThrumClock.monotonicNow()
        guard time <= now else { return }
        throw .usage(
            "\(name) \(String(cFormat: "%.6f", time)) is in the past: CLOCK_MONOTONIC reads "
                + "\(String(cFormat: "%.6f", now)) s now; give a later time")
    }

    /// Sends every onset to the log (before the engine is made).
    package func install(in options: inout CHHapticEngine.Options) {
        guard let log else { return }
        options.onsetHandler = { log.record($0) }
    }

    /// Names each player's pattern in the log; with one pattern, reloaded players (`--watch`) get its name.
    package func name(_ players: [any CHHapticAdvancedPatternPlayer], patterns: [String]) {
        guard let log else { return }
        for (player, pattern) in zip(players, patterns) {
            guard let id = (player as? ThrumPlayerState)?.playerID else { continue }
            log.name(playerID: id, pattern: pattern, fallback: patterns.count == 1)
        }
    }

    /// Starts the engines: held until the players are queued (they start on the stream's first frame),
    /// or, with a start time, running, so the DAC clock exists to pick the frame.
    package func start(_ engines: [CHHapticEngine]) throws {
        if startAt == nil { try engines[0].startHoldingOutput() } else { try engines[0].start() }
        for other in engines.dropFirst() { try other.start() }
    }

    /// The engine time the players start at: `CHHapticTimeImmediate`, or the engine time whose frame leaves
    /// the DAC at the start time.
    /// - Throws: as ``engineTime(leavingDACAt:on:named:)``.
    package func startTime(_ engine: CHHapticEngine) throws(ServiceError) -> TimeInterval {
        guard let startAt else { return CHHapticTimeImmediate }
        return try Self.engineTime(leavingDACAt: startAt, on: engine, named: "--start-at")
    }

    /// The engine time whose frame leaves the DAC at CLOCK_MONOTONIC time `startAt` (seconds) on the running
    /// `engine`, waiting at most 5 s for its DAC clock. `name` names the time in messages (`--start-at`).
    /// - Throws: 64 when that time has passed or is nearer than the device's buffer can reach; 69 when the
    ///   device reports no timing.
    package static func engineTime(leavingDACAt startAt: Double, on engine: CHHapticEngine, named name: String)
        throws(ServiceError) -> TimeInterval
    {
        guard engine.waitForOutputClock(timeout: 5) else {
            throw ServiceError(.unavailable, "the device reported no playback position within 5 s; cannot honour \(name)")
        }
        try requireFuture(startAt, named: name)
        guard let time = engine.engineTime(forOutputTime: startAt) else {
            throw ServiceError(.unavailable, "the device stopped before \(name) could be scheduled")
        }
        // The render thread takes commands at its next period: the frames before it are rendered already.
        let earliest = engine.currentTime + 2 * Double(engine.periodFrames) / engine.options.sampleRate
        guard time >= earliest else {
            let soonest = engine.outputTime(forEngineTime: earliest) ?? startAt
            // The lead that works now (the earliest start's distance from now, rounded up to a whole ms), not
            // a rule of thumb: a time that far ahead is taken.
            let lead = max(1, ((soonest - monotonicNow()) * 1000).rounded(.up))
            throw .usage(
                "\(name) \(String(cFormat: "%.6f", startAt)) is too soon for the device's buffer; "
                    + "the earliest start now is \(String(cFormat: "%.6f", soonest)) (give a time at least "
                    + "\(String(cFormat: "%.0f", lead)) ms ahead)")
        }
        return time
    }

    /// The warning for `lost` onsets that could not be logged (the log fell behind), or nil.
    package func lostOnsetsWarning(_ lost: Int) -> String? {
        guard let log, lost > 0 else { return nil }
        return "\(lost) onset\(lost == 1 ? "" : "s") could not be logged (the log fell behind); "
            + "'\(log.path)' ends with {\"lost_onsets\":\(lost)}"
    }

    /// Writes the log once the engines have stopped (every onset the device played has been delivered).
    /// - Throws: 74 when the log cannot be written (nothing is left then).
    package func writeLog(lost: Int) throws(ServiceError) {
        try log?.commit(lost: lost)
    }
}
