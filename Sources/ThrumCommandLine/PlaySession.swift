import FoundationEssentials
import FoundationStandIns
import Thrum

/// The wait loop of `thrum play`: ends when every pattern has ended, on --duration, q, Ctrl-C or device
/// loss, and drives the status line and keys on a terminal.
struct PlaySession {
    enum Outcome { case finished, quit, interrupted, deviceFailed }

    /// One engine per pattern, all on one device; the first one's clock and device figures are shown.
    let engines: [CHHapticEngine]
    /// One player per pattern; the first one's position is shown, the keys act on all of them.
    var players: [any CHHapticAdvancedPatternPlayer]
    let console: Console
    var watch: PatternWatch?

    init(engines: [CHHapticEngine], players: [any CHHapticAdvancedPatternPlayer], console: Console) {
        self.engines = engines
        self.players = players
        self.console = console
    }

    private var engine: CHHapticEngine { engines[0] }

    /// The frame at which the last pattern ended; nil while one plays.
    private var endFrame: UInt64? {
        let ends = players.map { ($0 as? ThrumPlayerState)?.endFrame }
        return ends.contains(nil) ? nil : ends.compactMap { $0 }.max()
    }

    mutating func run(until duration: Double?, interrupt: InterruptFlag) -> Outcome {
        let keys = TerminalKeys()
        defer {
            if keys != nil { console.writeErr("\r\u{1B}[K") }
            keys?.restore()
        }
        let rate = engine.options.sampleRate
        var paused = false
        var lastStatus = ContinuousClock.now - .seconds(1)
        while true {
            if interrupt.signalNumber != 0 { return .interrupted }
            if !engine.isRunning { return .deviceFailed }
            if let replacement = watch?.reloaded(engine: engine, console: console) {
                try? players[0].stop(atTime: CHHapticTimeImmediate)
                players[0] = replacement
                paused = false
            }
            if watch == nil, let end = endFrame, engine.currentTime * rate >= Double(end) + Double(engine.bufferFrames) {
                return .finished
            }
            if let duration, engine.currentTime >= duration {
                return .finished  // the players stopped at `duration`; draining plays the rest of the buffer
            }
            if let keys {
                for key in keys.read() {
                    if key == .quit { return .quit }
                    handle(key, paused: &paused)
                }
                if ContinuousClock.now - lastStatus >= .milliseconds(200), isForegroundOnTerminal() {
                    lastStatus = .now
                    let state = players[0] as? ThrumPlayerState
                    let position = state?.position
                    let line = StatusLine(
                        position: position?.seconds ?? 0, duration: state?.duration ?? 0,
                        loopCount: position?.loopCount ?? 0, looping: players[0].loopEnabled,
                        rate: Double(players[0].playbackRate), xruns: engine.xrunCount, paused: paused,
                        hapticsMuted: engine.isMutedForHaptics)
                    console.writeErr("\r\u{1B}[K" + line.text)
                }
            }
            Threads.sleep(seconds: 0.005)
        }
    }

    /// Applies a key to every player (the seek keys move each from the first one's position) and the
    /// haptic mute to every engine.
    private func handle(_ key: PlayKey, paused: inout Bool) {
        let position = (players[0] as? ThrumPlayerState)?.position?.seconds ?? 0
        for player in players {
            switch key {
            case .pauseResume:
                if paused { try? player.resume(atTime: CHHapticTimeImmediate) } else {
                    try? player.pause(atTime: CHHapticTimeImmediate)
                }
            case .seekBack: try? player.seek(toOffset: max(0, position - 1))
            case .seekForward: try? player.seek(toOffset: position + 1)
            case .faster: player.playbackRate = min(player.playbackRate * 1.25, 100)
            case .slower: player.playbackRate = max(player.playbackRate / 1.25, 0.01)
            case .toggleLoop: player.loopEnabled.toggle()
            case .toggleHapticMute, .quit: break
            }
        }
        if key == .pauseResume { paused.toggle() }
        if key == .toggleHapticMute {
            let muted = !engine.isMutedForHaptics
            for engine in engines { engine.isMutedForHaptics = muted }
        }
    }
}
