import FoundationStandIns
import FoundationEssentials
internal import RenderCore
internal import Synchronization

// The hub's instances and the commands for them: a start takes a slot and a new generation; every batch
// is queued for the render thread whole (room reserved first) or refused with an error, under the hub's
// lock, so the command ring has one producer at a time.
extension DeviceHub {
    /// Throws `resourceNotAvailable` when `adding` more entries to the `queued` ones already waiting in one of
    /// the renderer's lists would pass `limit` (the `Options` property named `option`).
    private static func requireRoom(queued: Int, adding: Int, limit: Int, what: String, option: String) throws {
        guard queued + adding > limit else { return }
        throw CHHapticError(
            .resourceNotAvailable,
            "\(queued) \(what) are already waiting for their time and \(adding) more do not fit "
                + "(Options.\(option) = \(limit)); send them closer to their time, or raise \(option)")
    }

    /// Queues `batch` for the render thread: all of it, or none of it and an error.
    ///
    /// Room is reserved before anything is pushed: the renderer's parameter and transport lists must hold
    /// every entry already queued (calls sent minus calls the renderer retired) plus the batch's, and the
    /// command ring must hold the whole batch; the ring then publishes the batch with one store.
    /// - Throws: `engineNotRunning`; `resourceNotAvailable` naming the limit that is reached.
    func send(_ batch: [EngineCommand], in state: inout HubState) throws {
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
        try Self.requireRoom(
            queued: state.sentParameterCalls - statistics.retiredParameterCalls, adding: parameters,
            limit: options.maxPendingParameters, what: "parameter changes", option: "maxPendingParameters")
        try Self.requireRoom(
            queued: state.sentCommandCalls - statistics.retiredCommandCalls, adding: transport,
            limit: options.maxPendingCommands, what: "pause, resume, seek, rate and loop commands",
            option: "maxPendingCommands")
        guard run.link.commands.pushAll(batch) else {
            throw CHHapticError(
                .resourceNotAvailable,
                "the engine's command queue is full (\(run.link.commands.capacity) commands the render thread has "
                    + "not taken yet); try again after the next render period")
        }
        state.sentParameterCalls += parameters
        state.sentCommandCalls += transport
    }

    /// Starts one instance of `player`'s pattern for `engine` at engine frame `frame`, on `buses`, in the
    /// first free slot with a new generation, with the player's settings as they are under the hub's lock
    /// (a setter on another thread either lands before this read or publishes to the new instance after it).
    /// - Returns: the pending seek the instance starts from (nil: the beginning).
    /// - Throws: `engineNotRunning`; `resourceNotAvailable` (every slot busy, queue full);
    ///   `operationNotPermitted` when the renderer would refuse the start (`Renderer.startRefusal`).
    func startInstance(
        of player: HapticPatternPlayer, engine: CHHapticEngine, buses: UInt64, frame: UInt64
    ) throws -> Double? {
        try state.withLock { state in
            guard state.run != nil else {
                throw CHHapticError(.engineNotRunning, "the engine is not running; call start()")
            }
            guard let slot = state.slots.firstIndex(where: { $0 == nil }) else {
                throw CHHapticError(
                    .resourceNotAvailable,
                    "\(options.maxPlayers) patterns are already playing (the engine's maxPlayers); stop one first")
            }
            let settings = player.startSettings
            if let refusal = Renderer.startRefusal(
                pattern: player.pattern, configuration: rendererConfiguration, playbackRate: settings.rate, buses: buses)
            {
                throw CHHapticError(.operationNotPermitted, "the pattern cannot start: \(refusal)")
            }
            state.nextGeneration &+= 1
            let instance = InstanceID(slot: slot, generation: state.nextGeneration)
            let muted = (settings.muted ? PlayerMute.all : []).union(state.mutes[ObjectIdentifier(engine)] ?? [])
            let onsets = state.run?.onsets
            onsets?.instanceStarted(instance.generation, playerID: player.playerID)
            do {
                try send(
                    [
                        .start(
                            instance, pattern: .passUnretained(player.pattern), frame: frame, rate: settings.rate,
                            loopEnd: settings.loopEnd, passes: settings.passes, muted: muted, offset: settings.offset,
                            buses: buses)
                    ], in: &state)
            } catch {
                onsets?.instanceEnded(instance.generation)
                throw error
            }
            // The slot table keeps the pattern alive until the instance's end comes back.
            state.slots[slot] = SlotUse(
                player: player, pattern: player.pattern, instance: instance, engine: ObjectIdentifier(engine))
            return settings.offset
        }
    }

    /// Sends `make(instance)` for every current instance of `player`, as one batch (all or nothing).
    /// - Returns: whether `player` had an instance (false: nothing was sent).
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
    /// at its next period. The value is read under the hub's lock, so of two setters racing, the one that
    /// publishes last writes the player's latest value, and an instance starting meanwhile either starts
    /// with the new value or receives it. Never fails: settings are latest values, not queued commands.

    func position(of player: HapticPatternPlayer) -> ThrumPlayerPosition? {
        state.withLock { state in
            guard let run = state.run, let slot = state.slots.firstIndex(where: { $0?.player === player }) else {
                return nil
            }
            let position = run.link.statistics.position(of: slot)
            return ThrumPlayerPosition(
                seconds: position.seconds, loopCount: position.loopCount, isPaused: position.phase == .paused)
        }
    }

    /// Whether `engine` has an instance playing (or ending).
    func hasInstances(of engine: CHHapticEngine) -> Bool {
        let id = ObjectIdentifier(engine)
        return state.withLock { state in state.slots.contains { $0?.engine == id } }
    }
}
