import Thrum

/// The loop, rate and seek flags shared by `play` and `render` (the advanced player's transport).
struct TransportArguments {
    static let options: [OptionSpec] = [
        .flag(.loop, help: "loop forever ('render' then needs --duration)"),
        .value(.loops, placeholder: "N", help: "play the pattern N times in total, then its release tail"),
        .value(.loopEnd, placeholder: "S", help: "loop point in pattern seconds (default: the pattern's end)"),
        .value(.rate, placeholder: "R", help: "playback rate, > 0 (2 = twice as fast; pitch is unchanged)"),
        .value(.seek, placeholder: "S", help: "start S seconds into the pattern"),
        .value(.duration, placeholder: "S", help: "stop after S seconds (render: exactly S seconds)"),
    ]

    var loopForever = false
    var passes = 0
    var loopEnd: Double?
    var rate: Double = 1
    var seek: Double?
    var duration: Double?

    /// Whether the pattern loops.
    var loops: Bool { loopForever || passes > 1 }

    init(_ arguments: ParsedArguments) throws {
        loopForever = arguments.flag(.loop)
        passes = try arguments.int(.loops, in: 1...1_000_000) ?? 0
        if loopForever && passes > 0 { throw UsageError(message: "use either --loop (forever) or --loops N, not both") }
        loopEnd = try arguments.double(.loopEnd, in: 0...86_400)
        if loopEnd != nil && !loopForever && passes == 0 {
            throw UsageError(message: "--loop-end needs --loop or --loops N")
        }
        rate = try arguments.double(.rate, in: 0.01...100) ?? 1
        seek = try arguments.double(.seek, in: 0...86_400)
        duration = try arguments.double(.duration, in: 0.001...86_400)
    }

    /// Sets up `player` before it starts.
    /// - Throws: `UsageError` when asked to loop a pattern of duration 0 without `--loop-end` (docs/decisions.md:
    ///   it has nothing to loop).
    func apply(to player: any CHHapticAdvancedPatternPlayer) throws {
        player.playbackRate = Float(rate)
        if loops, loopEnd == nil, let state = player as? ThrumPlayerState, state.duration == 0 {
            throw UsageError(
                message: "the pattern has duration 0, so there is nothing to loop; give the loop's length with --loop-end S")
        }
        if loops {
            player.loopEnabled = true
            player.loopEnd = loopEnd ?? 0
            (player as? ThrumPlayerState)?.loopPassLimit = loopForever ? 0 : passes
        }
        if let seek { try player.seek(toOffset: seek) }
    }
}
