import Thrum

/// Loop, rate, seek and duration of a pattern played or rendered (the advanced player's transport), as
/// `play` and `render` take them (`--loop`, `--loops`, `--loop-end`, `--rate`, `--seek`, `--duration`).
/// Checked when made. A value; thread-safe.
package struct Transport: Sendable, Equatable {
    /// Loops forever (`--loop`; a render then needs `duration`).
    package private(set) var loopForever = false
    /// Passes in all (`--loops N`); 0: not given.
    package private(set) var passes = 0
    /// Loop point in pattern seconds (`--loop-end`); nil: the pattern's end.
    package private(set) var loopEnd: Double?
    /// Playback rate (`--rate`; 2 = twice as fast, pitch unchanged).
    package private(set) var rate: Double = 1
    /// Seconds into the pattern to start at (`--seek`).
    package private(set) var seek: Double?
    /// Seconds to stop after (`--duration`; a render lasts exactly this long).
    package private(set) var duration: Double?

    package static let passRange = 1...1_000_000
    package static let loopEndRange = 0...86_400.0
    package static let rates = 0.01...100.0
    package static let seekRange = 0...86_400.0
    package static let durationRange = 0.001...86_400.0

    /// Plays once from the start.
    package init() {}

    /// The transport asked for (nil: not given).
    /// - Throws: 64 for a value out of range, `loop` with `passes`, or `loopEnd` without a loop.
    package init(
        loop: Bool = false, passes: Int? = nil, loopEnd: Double? = nil, rate: Double? = nil, seek: Double? = nil,
        duration: Double? = nil
    ) throws(ServiceError) {
        loopForever = loop
        self.passes = try Checked.whole(passes, "loops", in: Self.passRange) ?? 0
        if loopForever && self.passes > 0 { throw .usage("use either --loop (forever) or --loops N, not both") }
        self.loopEnd = try Checked.number(loopEnd, "loop-end", in: Self.loopEndRange)
        if self.loopEnd != nil && !loopForever && self.passes == 0 { throw .usage("--loop-end needs --loop or --loops N") }
        self.rate = try Checked.number(rate, "rate", in: Self.rates) ?? 1
        self.seek = try Checked.number(seek, "seek", in: Self.seekRange)
        self.duration = try Checked.number(duration, "duration", in: Self.durationRange)
    }

    /// Whether the pattern loops.
    package var loops: Bool { loopForever || passes > 1 }

    /// Sets up `player` before it starts.
    /// - Throws: 64 when asked to loop a pattern of duration 0 without `loopEnd` (docs/decisions.md: it
    ///   has nothing to loop); the player's refusal of the seek.
    package func apply(to player: any CHHapticAdvancedPatternPlayer) throws {
        player.playbackRate = Float(rate)
        if loops, loopEnd == nil, let state = player as? ThrumPlayerState, state.duration == 0 {
            throw ServiceError.usage(
                "the pattern has duration 0, so there is nothing to loop; give the loop's length with --loop-end S")
        }
        if loops {
            player.loopEnabled = true
            player.loopEnd = loopEnd ?? 0
            (player as? ThrumPlayerState)?.loopPassLimit = loopForever ? 0 : passes
        }
        if let seek { try player.seek(toOffset: seek) }
    }
}
