import FoundationStandIns
import FoundationEssentials
internal import RenderCore
internal import Synchronization

// The control side of player instances: the engine's side of a start (its actuators, its running state),
// and the commands for the render thread, which its device's hub queues whole or refuses with an error
// (never drops) under the hub's lock, so the command ring has one producer at a time.

extension CHHapticEngine {
    /// Engine frame for engine time `time` (0 = immediate, i.e. frame 0 = "now" to the renderer).
    /// - Throws: `invalidTime` for a time that is negative, not finite, or more than
    ///   `HapticLimits.maxPatternDuration` (24 h) after the engine's current time.
    func frame(for time: TimeInterval) throws -> UInt64 {
        guard time.isFinite, time >= 0 else {
            throw CHHapticError(
                .invalidTime,
                "time \(PatternValidator.formatted(time)) is \(time.isFinite ? "negative" : "not a finite number"); use CHHapticTimeImmediate (0) for now")
        }
        let now = currentTime
        guard time <= now + HapticLimits.maxPatternDuration else {
            throw CHHapticError(
                .invalidTime,
                "time \(PatternValidator.formatted(time)) s is more than 24 h after the engine's current time (\(PatternValidator.formatted(now)) s)")
        }
        return UInt64((time * options.sampleRate).rounded())
    }

    /// Starts one instance of `player`'s pattern at `time`, on the engine's actuators, in the first free
    /// slot of its device with a new generation.
    /// - Throws: `engineNotRunning`, `invalidTime`, or `resourceNotAvailable` (every slot busy, queue full).
    func startInstance(of player: HapticPatternPlayer, at time: TimeInterval) throws {
        let frame = try self.frame(for: time)
        let restart = state.withLock { $0.run == nil && $0.stoppedByIdle && $0.isAutoShutdownEnabled }
        if restart { try start() }
        try state.withLock { state in
            guard state.run != nil else {
                throw CHHapticError(.engineNotRunning, "the engine is not running; call start()")
            }
            let offset = try hub.startInstance(of: player, engine: self, buses: buses, frame: frame)
            state.idleSince = nil
            player.instanceStarted(withOffset: offset)
        }
    }

    /// Sends `make(instance)` for every current instance of `player`, as one batch (all or nothing).
    /// - Returns: whether `player` had an instance (false: nothing was sent).
    @discardableResult
    func sendToInstances(of player: HapticPatternPlayer, _ make: (InstanceID) -> [EngineCommand]) throws -> Bool {
        try hub.sendToInstances(of: player, make)
    }

    /// Writes `player`'s current value of `setting` for each of its instances; the render thread applies it
    /// at its next period (see `DeviceHub.publish`).
    func publish(_ setting: InstanceSetting, of player: HapticPatternPlayer) {
        hub.publish(setting, of: player)
    }

    /// The position of `player`'s first playing instance, read from the render thread's atomics.
    func position(of player: HapticPatternPlayer) -> ThrumPlayerPosition? {
        hub.position(of: player)
    }

    /// Engine seconds for `time` where 0 means now.
    func resolve(_ time: TimeInterval) -> TimeInterval { time == CHHapticTimeImmediate ? currentTime : time }
}
