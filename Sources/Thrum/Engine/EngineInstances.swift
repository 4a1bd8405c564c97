import Foundation
internal import RenderCore

// The control side of player instances: slot and generation for each start, and the commands for the
// render thread, queued whole or refused with an error (never dropped). Everything here runs under the
// engine lock, so the command ring has one producer at a time.

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

    /// Queues `batch` for the render thread: all of it, or none of it and an error.
    ///
    /// Room is reserved before anything is pushed: the renderer's parameter and transport lists must hold
    /// every entry already queued (calls sent minus calls the renderer retired) plus the batch's, and the
    /// command ring must hold the whole batch; the ring then publishes the batch with one store.
    /// - Throws: `engineNotRunning`; `resourceNotAvailable` naming the limit that is reached.
    func send(_ batch: [EngineCommand], in state: inout EngineState) throws {
        guard let run = state.run else { throw CHHapticError(.engineNotRunning, "the engine is not running; call start()") }
        var parameters = 0
        var transport = 0
        for command in batch {
            switch command.list {
            case .parameters?: parameters += 1
            case .transport?: transport += 1
            case nil: break
            }
        }
        let statistics = run.link.statistics
        let parametersQueued = state.sentParameterCalls - statistics.retiredParameterCalls
        if parametersQueued + parameters > options.maxPendingParameters {
            throw CHHapticError(
                .resourceNotAvailable,
                "\(parametersQueued) parameter changes are already waiting for their time and \(parameters) more "
                    + "do not fit (Options.maxPendingParameters = \(options.maxPendingParameters)); send them "
                    + "closer to their time, or raise maxPendingParameters")
        }
        let transportQueued = state.sentCommandCalls - statistics.retiredCommandCalls
        if transportQueued + transport > options.maxPendingCommands {
            throw CHHapticError(
                .resourceNotAvailable,
                "\(transportQueued) pause, resume, seek, rate and loop commands are already waiting for their time "
                    + "and \(transport) more do not fit (Options.maxPendingCommands = \(options.maxPendingCommands)); "
                    + "send them closer to their time, or raise maxPendingCommands")
        }
        guard run.link.commands.pushAll(batch) else {
            throw CHHapticError(
                .resourceNotAvailable,
                "the engine's command queue is full (\(run.link.commands.capacity) commands the render thread has "
                    + "not taken yet); try again after the next render period")
        }
        state.sentParameterCalls += parameters
        state.sentCommandCalls += transport
    }

    /// Starts one instance of `player`'s pattern at `time`, in the first free slot with a new generation.
    /// - Throws: `engineNotRunning`, `invalidTime`, or `resourceNotAvailable` (every slot busy, queue full).
    func startInstance(of player: HapticPatternPlayer, at time: TimeInterval) throws {
        let frame = try self.frame(for: time)
        let restart = state.withLock { $0.run == nil && $0.stoppedByIdle && $0.isAutoShutdownEnabled }
        if restart { try start() }
        try state.withLock { state in
            guard state.run != nil else {
                throw CHHapticError(.engineNotRunning, "the engine is not running; call start()")
            }
            guard let slot = state.slots.firstIndex(where: { $0 == nil }) else {
                throw CHHapticError(
                    .resourceNotAvailable,
                    "\(options.maxPlayers) patterns are already playing (the engine's maxPlayers); stop one first")
            }
            state.nextGeneration &+= 1
            let instance = InstanceID(slot: slot, generation: state.nextGeneration)
            let settings = player.startSettings
            try send(
                [
                    .start(
                        instance, pattern: .passUnretained(player.pattern), frame: frame, rate: settings.rate,
                        loopEnd: settings.loopEnd, passes: settings.passes, muted: settings.muted,
                        offset: settings.offset)
                ], in: &state)
            // The slot table keeps the pattern alive until the instance's end comes back.
            state.slots[slot] = SlotUse(player: player, pattern: player.pattern, instance: instance)
            state.idleSince = nil
            player.instanceStarted(withOffset: settings.offset)
        }
    }

    /// Sends `make(instance)` for every current instance of `player`, as one batch (all or nothing).
    /// - Returns: whether `player` had an instance (false: nothing was sent).
    @discardableResult
    func sendToInstances(of player: HapticPatternPlayer, _ make: (InstanceID) -> [EngineCommand]) throws -> Bool {
        try state.withLock { state in
            guard state.run != nil else { return false }
            var batch: [EngineCommand] = []
            for case let use? in state.slots where use.player === player { batch += make(use.instance) }
            guard !batch.isEmpty else { return false }
            try send(batch, in: &state)
            return true
        }
    }

    /// Writes `player`'s current value of `setting` for each of its instances; the render thread applies it
    /// at its next period. Never fails: settings are latest values, not queued commands.
    func publish(_ setting: InstanceSetting, of player: HapticPatternPlayer) {
        state.withLock { state in
            guard let run = state.run else { return }
            let settings = player.startSettings
            let value: UInt64
            switch setting {
            case .muted: value = settings.muted ? 1 : 0
            case .rate: value = settings.rate.bitPattern
            case .loopEnd: value = (settings.loopEnd ?? -1).bitPattern
            }
            for case let use? in state.slots where use.player === player {
                run.link.settings.write(use.instance, setting, value)
            }
        }
    }

    /// The position of `player`'s first playing instance, read from the render thread's atomics.
    func position(of player: HapticPatternPlayer) -> ThrumPlayerPosition? {
        state.withLock { state in
            guard let run = state.run,
                let slot = state.slots.firstIndex(where: { $0?.player === player })
            else { return nil }
            let position = run.link.statistics.position(of: slot)
            return ThrumPlayerPosition(
                seconds: position.seconds, loopCount: position.loopCount, isPaused: position.phase == .paused)
        }
    }

    /// Engine seconds for `time` where 0 means now.
    func resolve(_ time: TimeInterval) -> TimeInterval { time == CHHapticTimeImmediate ? currentTime : time }
}
