import FoundationEssentials
import FoundationStandIns
import Thrum
import ThrumServices

/// `thrum play --onset-log FILE.jsonl` and `--start-at T` (docs/timing.md).
struct PlayTiming {
    static let options: [OptionSpec] = [
        .value(
            .onsetLog, placeholder: "FILE.jsonl", values: .files(["jsonl"]),
            help: "write one JSON line per event onset: pattern time, stream frame, estimated DAC time (CLOCK_MONOTONIC)"),
        .value(
            .startAt, placeholder: "T",
            help: "start the patterns when their first frame leaves the DAC at CLOCK_MONOTONIC time T (seconds)"),
    ]

    /// The onset log, when asked for.
    let log: OnsetLog?
    /// The CLOCK_MONOTONIC time to start at (seconds), when asked for.
    let startAt: Double?

    /// - Throws: `UsageError` for a start time that is not a number or is in the past; `ServiceError`
    ///   (73) for a log that cannot be created.
    init(_ arguments: ParsedArguments) throws {
        startAt = try arguments.double(.startAt, in: 0...1e12)
        if let startAt { try Self.requireFuture(startAt, named: "--start-at") }
        log = try arguments.value(.onsetLog).map { try OnsetLog(path: $0) }
    }

    private static func requireFuture(_ time: Double, named name: String) throws {
        let now = ThrumClock.monotonicNow()
        guard time <= now else { return }
        throw UsageError(
            message: "\(name) \(String(cFormat: "%.6f", time)) is in the past: CLOCK_MONOTONIC reads "
                + "\(String(cFormat: "%.6f", now)) s now; give a later time")
    }

    /// Sends every onset to the log (before the engine is made).
    func install(in options: inout CHHapticEngine.Options) {
        guard let log else { return }
        options.onsetHandler = { log.record($0) }
    }

    /// Names each player's pattern in the log; with one pattern, reloaded players (`--watch`) get its name.
    func name(_ players: [any CHHapticAdvancedPatternPlayer], patterns: [String]) {
        guard let log else { return }
        for (player, pattern) in zip(players, patterns) {
            guard let id = (player as? ThrumPlayerState)?.playerID else { continue }
            log.name(playerID: id, pattern: pattern, fallback: patterns.count == 1)
        }
    }

    /// Starts the engines: held until the players are queued (they start on the stream's first frame),
    /// or, with `--start-at`, running, so the DAC clock exists to pick the frame.
    func start(_ engines: [CHHapticEngine]) throws {
        if startAt == nil { try engines[0].startHoldingOutput() } else { try engines[0].start() }
        for other in engines.dropFirst() { try other.start() }
    }

    /// The engine time the players start at: `CHHapticTimeImmediate`, or the engine time whose frame leaves
    /// the DAC at `--start-at`.
    /// - Throws: as ``engineTime(leavingDACAt:on:named:)``.
    func startTime(_ engine: CHHapticEngine) throws -> TimeInterval {
        guard let startAt else { return CHHapticTimeImmediate }
        return try Self.engineTime(leavingDACAt: startAt, on: engine, named: "--start-at")
    }

    /// The engine time whose frame leaves the DAC at CLOCK_MONOTONIC time `startAt` (seconds) on the running
    /// `engine`, waiting at most 5 s for its DAC clock. `name` names the time in messages (`--start-at`).
    /// - Throws: `UsageError` when that time has passed or is nearer than the device's buffer can reach;
    ///   `ServiceError` (69) when the device reports no timing.
    static func engineTime(leavingDACAt startAt: Double, on engine: CHHapticEngine, named name: String) throws
        -> TimeInterval
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
            throw UsageError(
                message: "\(name) \(String(cFormat: "%.6f", startAt)) is too soon for the device's buffer; "
                    + "the earliest start now is \(String(cFormat: "%.6f", soonest)) (give a time at least "
                    + "\(String(cFormat: "%.0f", Double(engine.bufferFrames) * 1000 / engine.options.sampleRate + 50)) ms ahead)")
        }
        return time
    }

    /// Writes the log once the engines have stopped (every onset the device played has been delivered);
    /// warns about onsets that could not be logged.
    func finish(lost: Int, console: Console) throws {
        guard let log else { return }
        if lost > 0 {
            console.error(
                "thrum play: warning: \(lost) onset\(lost == 1 ? "" : "s") could not be logged (the log fell behind); "
                    + "'\(log.path)' ends with {\"lost_onsets\":\(lost)}")
        }
        try log.commit(lost: lost)
    }
}
