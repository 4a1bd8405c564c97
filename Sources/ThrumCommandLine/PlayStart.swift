import ALSAOutput
import Thrum
import ThrumServices

/// `thrum play`'s device, engines and players, started: the engines on the device (held until the players
/// are queued, so every pattern starts on the stream's first frame, or running with `--start-at`) and the
/// players at the start time.
/// - Important: Main thread (the command's); the engines' own threads run the device.
struct PlayStart {
    let haptics: GCDeviceHaptics
    let engines: [CHHapticEngine]
    let players: [any CHHapticAdvancedPatternPlayer]
    /// The engine time the players start at (`CHHapticTimeImmediate`, or the frame of `--start-at`).
    let startTime: TimeInterval

    /// The device refused the stream when the engine started (ALSA's message): nothing is left open, so
    /// the caller can check the device and start again.
    struct Refused: Error {
        let message: String
    }

    /// Builds everything for `options` and starts it.
    /// - Throws: `Refused` when the device refuses the stream; `ServiceError` or `UsageError` for the
    ///   patterns, the actuators and `--start-at`.
    init(
        options: CHHapticEngine.Options, patterns: [PatternArgument], transport: TransportArguments, timing: PlayTiming,
        console: Console
    ) throws {
        let path = patterns.map(\.path).joined(separator: ", ")
        do {
            haptics = try GCDeviceHaptics(options: options)
        } catch {
            throw serviceError(error, patternPath: path)
        }
        engines = try ActuatorArguments.engines(on: haptics, for: patterns.map(\.target))
        var players: [any CHHapticAdvancedPatternPlayer] = []
        for (engine, loaded) in zip(engines, patterns) {
            do {
                let player = try engine.makeAdvancedPlayer(with: loaded.pattern)
                try transport.apply(to: player)
                players.append(player)
            } catch let error as UsageError {
                throw error
            } catch {
                throw serviceError(error, patternPath: loaded.path)
            }
        }
        self.players = players
        timing.name(players, patterns: patterns.map(\.path))
        let engines = engines
        do {
            try timing.start(engines)
        } catch let error as CHHapticError {
            for engine in engines { engine.stop() }
            throw Refused(message: error.message)
        }
        do {
            startTime = try timing.startTime(engines[0])
        } catch let error as CHHapticError {
            for engine in engines { engine.stop() }
            throw ServiceError(.unavailable, error.message)
        } catch {
            for engine in engines { engine.stop() }
            throw error
        }
        if let warning = engines[0].startWarning { console.error("thrum play: warning: \(warning)") }
        for (player, loaded) in zip(players, patterns) {
            do {
                try player.start(atTime: startTime)
                // --duration is pattern time: the stop lands on the exact frame `thrum render --duration` ends on.
                if let duration = transport.duration { try player.stop(atTime: startTime + duration) }
            } catch {
                for engine in engines { engine.stop() }
                throw serviceError(error, patternPath: loaded.path)
            }
        }
    }
}
