import FoundationEssentials
import Thrum
import ThrumModel

/// The studio's playback on the engine's advanced players: play, pause, stop, seek, loop region, rate,
/// edits heard at the next loop seam, and the compare run. Everything goes through the engine's public
/// API, which hands commands to the render thread through its queues; nothing here touches that thread.
/// Not thread-safe: the studio calls it under its lock (the position ticker included).
final class StudioTransport {
    private(set) var engine: CHHapticEngine?
    /// Why no device plays (nil when the engine runs).
    private(set) var deviceError: String?
    private(set) var loop = false
    private(set) var loopStart = 0.0
    /// 0: the pattern's end.
    private(set) var loopEnd = 0.0
    private(set) var rate: Float = 1
    private(set) var paused = false

    /// The player sounding now, and the pattern it plays.
    private var player: (any CHHapticAdvancedPatternPlayer)?
    private var pattern: CHHapticPattern?
    /// A newer version of the document, to take over at the next loop seam.
    private var pendingPattern: CHHapticPattern?
    /// The player scheduled to take over at engine time `at` (a loop seam).
    private var successor: (player: any CHHapticAdvancedPatternPlayer, pattern: CHHapticPattern, at: Double)?
    /// Where playback resumes when nothing plays (seconds).
    private var heldPosition = 0.0
    /// Loop passes made by seams (a loop region starting later, an edit heard at the seam): each seam starts a
    /// new player, whose own count starts at 0 again.
    private var seamPasses = 0
    /// A seek the render thread has not applied yet: reported as the position (running on at the rate) until the
    /// player's own position gets there, so the position pushed right after a seek is already the new one.
    private var pendingSeek: (position: Double, at: Double)?
    /// The compare run: each export's players and engine times.
    private var compareRun: [(export: String, players: [any CHHapticAdvancedPatternPlayer], start: Double, end: Double)] = []

    /// Seconds without a player after which the engine closes the device.
    static let idleSeconds = 10.0

    /// How far ahead of a loop seam the next pass is scheduled, in engine seconds: several position ticks
    /// (1/60 s each), so a tick always lands inside it.
    static let seamLead = 0.08

    /// Runs without an engine because of `reason`.
    func fail(_ reason: String) {
        stop()
        engine?.stop()
        engine = nil
        deviceError = reason
    }

    /// Opens the engine on the device of `options`; on failure the studio runs without one.
    func open(_ options: CHHapticEngine.Options) {
        stop()
        engine?.stop()
        engine = nil
        do {
            var options = options
            options.idleTimeout = Self.idleSeconds
            let engine = try CHHapticEngine(options: options)
            try engine.start()
            // Idle, the engine closes the device (no CPU, the card free for other programs); a play reopens
            // it. Set once running, so the engine's housekeeping times the deadline from now.
            engine.isAutoShutdownEnabled = true
            self.engine = engine
            deviceError = nil
        } catch {
            deviceError = (error as? CHHapticError)?.message ?? "\(error)"
        }
    }

    /// The engine, started; 503 without one.
    private func runningEngine() throws -> CHHapticEngine {
        guard let engine else {
            throw HTTPError(503, "no usable output device (\(deviceError ?? "none opened")); audition in the browser")
        }
        if !engine.isRunning {
            do {
                try engine.start()
            } catch {
                deviceError = (error as? CHHapticError)?.message ?? "\(error)"
                throw HTTPError(503, "the output device stopped (\(deviceError!)); audition in the browser")
            }
        }
        return engine
    }

    private static func failure(_ error: any Error) -> HTTPError {
        HTTPError(422, (error as? CHHapticError)?.message ?? "\(error)")
    }

    /// A player of `pattern` with the loop and rate set.
    private func makePlayer(_ pattern: CHHapticPattern, on engine: CHHapticEngine) throws
        -> any CHHapticAdvancedPatternPlayer
    {
        do {
            var player = try engine.makeAdvancedPlayer(with: pattern)
            configure(&player)
            return player
        } catch {
            throw Self.failure(error)
        }
    }

    /// The engine loops from 0 by itself (sample-accurately); a region starting later is looped by seams.
    private func configure(_ player: inout any CHHapticAdvancedPatternPlayer) {
        player.playbackRate = rate
        player.loopEnd = loopEnd
        player.loopEnabled = loop && loopStart == 0
    }

    private var state: ThrumPlayerPosition? { (player as? ThrumPlayerState)?.position }

    /// Whether something sounds (a player not paused, or a compare run).
    var isPlaying: Bool { (player != nil && !paused && state != nil) || comparing != nil }

    /// Pattern seconds of the player (the held position when none plays).
    var position: Double {
        if paused { return heldPosition }
        guard let now = state else { return heldPosition }
        if let seek = pendingSeek, let engine {
            let elapsed = max(0, engine.currentTime - seek.at)
            let expected = seek.position + elapsed * Double(rate)
            // The player reports the new place once the render thread took the seek (its next period); a
            // quarter second without that (a loop wrapped meanwhile) ends the wait anyway.
            if abs(now.seconds - expected) > 0.05 && elapsed < 0.25 { return expected }
            pendingSeek = nil
        }
        return now.seconds
    }
    /// Loop passes completed since playback started: the engine's own (a loop from 0) plus those made by seams.
    var loopCount: Int { seamPasses + (state?.loopCount ?? 0) }
    var duration: Double { (player as? ThrumPlayerState)?.duration ?? pattern?.duration ?? 0 }

    /// The export of the compare run sounding now, and its position.
    var comparing: (export: String, position: Double)? {
        guard let engine, let last = compareRun.last, engine.currentTime < last.end + 0.5 else { return nil }
        let now = engine.currentTime
        let current = compareRun.last { $0.start <= now } ?? compareRun[0]
        return (current.export, max(0, now - current.start))
    }

    /// Plays `pattern` from the held position, or resumes it when paused.
    func play(_ pattern: CHHapticPattern) throws {
        let engine = try runningEngine()
        stopCompare()
        if paused, let player {
            do { try player.resume(atTime: CHHapticTimeImmediate) } catch { throw Self.failure(error) }
            paused = false
            return
        }
        if player != nil && state != nil { return }  // already playing
        let player = try makePlayer(pattern, on: engine)
        seamPasses = 0
        do {
            if heldPosition > 0 { try player.seek(toOffset: heldPosition) }
            try player.start(atTime: CHHapticTimeImmediate)
        } catch {
            throw Self.failure(error)
        }
        if heldPosition > 0 { pendingSeek = (heldPosition, engine.currentTime) }
        self.player = player
        self.pattern = pattern
        pendingPattern = nil
        paused = false
    }

    func pause() throws {
        guard let player, state != nil, !paused else { return }
        heldPosition = position
        do { try player.pause(atTime: CHHapticTimeImmediate) } catch { throw Self.failure(error) }
        paused = true
    }

    /// Stops everything (players, a scheduled seam, the compare run) and returns to 0.
    func stop() {
        try? player?.stop(atTime: CHHapticTimeImmediate)
        try? successor?.player.stop(atTime: CHHapticTimeImmediate)
        stopCompare()
        player = nil
        successor = nil
        pendingPattern = nil
        paused = false
        heldPosition = 0
        seamPasses = 0
        pendingSeek = nil
    }

    private func stopCompare() {
        for run in compareRun { for player in run.players { try? player.stop(atTime: CHHapticTimeImmediate) } }
        compareRun = []
    }

    func seek(_ seconds: Double) throws {
        heldPosition = seconds
        guard let player, state != nil else { return }
        do { try player.seek(toOffset: seconds) } catch { throw Self.failure(error) }
        if !paused, let engine { pendingSeek = (seconds, engine.currentTime) }
    }

    func setLoop(_ enabled: Bool?, start: Double?, end: Double?) {
        if let enabled { loop = enabled }
        if let start { loopStart = start }
        if let end { loopEnd = end }
        if var player { configure(&player) }
        if var next = successor?.player { configure(&next) }
    }

    func setRate(_ rate: Float) {
        self.rate = rate
        player?.playbackRate = rate
        successor?.player.playbackRate = rate
    }

    /// The document changed to `pattern` (nil: it has errors now). While looping, the new version takes over
    /// at the next loop seam; playing without a loop, at once (20 ms ahead) from the same position. A
    /// document with errors keeps the last good version playing.
    func documentChanged(_ pattern: CHHapticPattern?) {
        guard let pattern else { return }
        if loopStart > 0 && loopStart >= pattern.duration {
            // A loop region wholly after the new version's end would never play: the loop starts over.
            (loop, loopStart, loopEnd) = (false, 0, 0)
        }
        guard let engine, let old = player, state != nil, !paused else {
            // Nothing sounds: the next play uses the new version from the held position.
            if paused { heldPosition = position }
            try? player?.stop(atTime: CHHapticTimeImmediate)
            player = nil
            paused = false
            self.pattern = pattern
            return
        }
        if loop {
            pendingPattern = pattern
            return
        }
        guard let next = try? makePlayer(pattern, on: engine) else { return }
        let at = engine.currentTime + 0.02
        do {
            try next.seek(toOffset: position + 0.02 * Double(rate))
            try next.start(atTime: at)
            try old.stop(atTime: at)
        } catch {
            return
        }
        player = next
        self.pattern = pattern
    }

    /// Called by the position ticker (≥ 30 Hz): promotes a player whose seam has passed, schedules the
    /// next pass of a loop region or of an edited document when its seam is near, and notices the end.
    /// Returns true when playback just ended by itself.
    func tick() -> Bool {
        guard let engine else { return false }
        if let next = successor, engine.currentTime >= next.at {
            player = next.player
            pattern = next.pattern
            successor = nil
            seamPasses += 1
        }
        guard let player, let pattern, !paused else { return false }
        guard let now = state else {
            if successor == nil {
                self.player = nil
                heldPosition = 0
                return true
            }
            return false
        }
        guard loop, successor == nil, loopStart > 0 || pendingPattern != nil else { return false }
        let end = loopEnd > 0 ? loopEnd : duration
        let remaining = (end - now.seconds) / Double(max(rate, 0.001))
        guard remaining < Self.seamLead else { return false }
        let nextPattern = pendingPattern ?? pattern
        guard let next = try? makePlayer(nextPattern, on: engine) else { return false }
        let at = engine.currentTime + max(remaining, 0.005)
        do {
            if loopStart > 0 { try next.seek(toOffset: loopStart) }
            try next.start(atTime: at)
            try player.stop(atTime: at)
        } catch {
            return false
        }
        successor = (next, nextPattern, at)
        pendingPattern = nil
        return false
    }

    /// What of the transport belongs to a document (issue 39): stashed when another file opens, restored
    /// when it opens again; a file never opened before starts from ``Settings/init()``.
    struct Settings {
        var loop = false
        var loopStart = 0.0
        /// 0: the pattern's end.
        var loopEnd = 0.0
        var rate: Float = 1
        /// Where playback resumes (seconds).
        var position = 0.0
    }

    /// The current document's settings, to stash.
    var settings: Settings { Settings(loop: loop, loopStart: loopStart, loopEnd: loopEnd, rate: rate, position: position) }

    /// Stops playback and takes `settings` (another document opens).
    func restore(_ settings: Settings) {
        stop()
        (loop, loopStart, loopEnd, rate) = (settings.loop, settings.loopStart, settings.loopEnd, settings.rate)
        heldPosition = settings.position
    }

    /// Plays `exports` back to back from 0.1 s ahead, `gap` seconds apart; each export's patterns start
    /// together. Returns each export's engine start and end times.
    func compare(_ exports: [(export: String, patterns: [CHHapticPattern])], gap: Double) throws
        -> [(export: String, start: Double, end: Double)]
    {
        let engine = try runningEngine()
        stop()
        var at = engine.currentTime + 0.1
        for (export, patterns) in exports {
            var players: [any CHHapticAdvancedPatternPlayer] = []
            for pattern in patterns {
                do {
                    let player = try engine.makeAdvancedPlayer(with: pattern)
                    try player.start(atTime: at)
                    players.append(player)
                } catch {
                    stop()
                    throw Self.failure(error)
                }
            }
            let length = players.compactMap { ($0 as? ThrumPlayerState)?.duration }.max() ?? 0
            compareRun.append((export, players, at, at + length))
            at += length + gap
        }
        return compareRun.map { ($0.export, $0.start, $0.end) }
    }
}
