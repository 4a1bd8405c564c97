internal import ALSAOutput
import Foundation
internal import RenderCore
internal import Synchronization

/// One pattern instance occupying a renderer slot. Holds the compiled pattern until the render thread
/// reports the instance's end (the render thread has only an unmanaged reference and a view of its
/// storage), so the pattern is released here, on the control side, never on the render thread.
/// The player is held weakly: players hold their engine, so a strong one would keep an engine whose app
/// let go of it (and its render thread) alive for as long as an instance plays, forever for a loop. An
/// engine that stops while others of its device go on lets go of its instances' players (nil) at once.
struct SlotUse {
    weak var player: HapticPatternPlayer?
    let pattern: CompiledPattern
    let instance: InstanceID
    /// The engine that started the instance.
    let engine: ObjectIdentifier
}

/// An engine of the hub, held weakly (engines hold their hub).
struct EngineReference {
    weak var engine: CHHapticEngine?
    let id: ObjectIdentifier
}

/// The hub's control-side state, behind its lock.
struct HubState {
    var run: EngineRun?
    var slots: [SlotUse?]
    /// The generation of the last instance started (each start takes the next).
    var nextGeneration: UInt32 = 0
    /// Parameter and transport calls queued in this run (see `DeviceHub.send`).
    var sentParameterCalls = 0
    var sentCommandCalls = 0
    /// The engines running on `run`, and what each one mutes (`isMutedForHaptics`, `isMutedForAudio`).
    var engines: [EngineReference] = []
    var mutes: [ObjectIdentifier: PlayerMute] = [:]

    init(maxPlayers: Int) {
        slots = Array(repeating: nil, count: maxPlayers)
    }
}

/// What the engines made from one device share (DECISIONS "Output"): one renderer with a haptic bus per
/// actuator, one ALSA stream (or offline render core), one render thread, one clock, the renderer's player
/// slots and the queues to the render thread. A `CHHapticEngine` made with `init(options:)` has a hub of
/// its own; the engines of a `GCDeviceHaptics` share its hub.
///
/// The run starts when the first engine starts and ends when the last one stops.
/// - Important: Thread safety: any thread. Lock order: an engine's lock may be held while taking the
///   hub's, never the other way round; handlers run outside both.
final class DeviceHub: @unchecked Sendable {
    /// The device's options (output, rate, period, channel map, actuators, capacities).
    let options: CHHapticEngine.Options
    /// The actuators, one haptic bus each, and the localities they form.
    let layout: ActuatorLayout
    let state: Locked<HubState>

    /// Checks `options`.
    /// - Throws: `CHHapticError.invalidEngineParameter` for out-of-range options.
    init(options: CHHapticEngine.Options) throws {
        func check(_ ok: Bool, _ message: String) throws {
            if !ok { throw CHHapticError(.invalidEngineParameter, message) }
        }
        try check((1000...768_000).contains(options.sampleRate), "sample rate \(options.sampleRate) Hz is outside 1000–768000 Hz")
        try check((16...8192).contains(options.periodFrames), "period \(options.periodFrames) frames is outside 16–8192")
        try check((2...64).contains(options.periodCount), "\(options.periodCount) periods is outside 2–64")
        try check((1...1024).contains(options.maxVoices), "maxVoices \(options.maxVoices) is outside 1–1024")
        try check((1...256).contains(options.maxPlayers), "maxPlayers \(options.maxPlayers) is outside 1–256")
        do {
            try options.actuatorProfile.validate(sampleRate: options.sampleRate)
        } catch {
            throw CHHapticError(.invalidEngineParameter, "\(error)")
        }
        try check(
            (1...65536).contains(options.maxPendingParameters),
            "maxPendingParameters \(options.maxPendingParameters) is outside 1–65536")
        try check(
            (1...65536).contains(options.maxPendingCommands),
            "maxPendingCommands \(options.maxPendingCommands) is outside 1–65536")
        self.options = options
        layout = try ActuatorLayout(options: options)
        state = Locked(HubState(maxPlayers: options.maxPlayers))
    }

    deinit {
        let run = state.withLock { state -> EngineRun? in
            defer { state.run = nil }
            return state.run
        }
        run?.shutDown(drain: false)
    }

    // MARK: - Run

    /// Adds `engine` to the run, starting it first when none is going (opening the device, or making the
    /// offline render core). Does nothing more when the engine is already in it.
    /// - Parameters:
    ///   - mute: what the engine mutes for its players.
    ///   - holdingOutput: a new device run's render thread waits before its first period until
    ///     `releaseOutput()`; ignored when the run is going already.
    /// - Throws: `CHHapticError.serverInitFailed` with the ALSA message naming the device.
    func join(_ engine: CHHapticEngine, mute: PlayerMute, holdingOutput: Bool) throws -> EngineRun {
        try state.withLock { state in
            let run = try state.run ?? startRun(holdingOutput: holdingOutput)
            if state.run == nil {
                state.run = run
                state.slots = Array(repeating: nil, count: options.maxPlayers)
                state.sentParameterCalls = 0
                state.sentCommandCalls = 0
                state.engines = []
                state.mutes = [:]
            }
            let id = ObjectIdentifier(engine)
            if !state.engines.contains(where: { $0.id == id }) { state.engines.append(EngineReference(engine: engine, id: id)) }
            state.mutes[id] = mute
            updateAudioHapticsMute(state)
            return run
        }
    }

    /// A new run: the render core, and the device and its render thread (live) or nothing more (offline).
    private func startRun(holdingOutput: Bool) throws -> EngineRun {
        let configuration = RendererConfiguration(
            sampleRate: options.sampleRate, actuators: layout.actuators, maxVoices: options.maxVoices,
            maxPlayers: options.maxPlayers, maxBlockFrames: max(options.periodFrames, 1024),
            maxPendingParameters: options.maxPendingParameters, maxNotifications: options.maxPlayers * 2,
            maxPendingCommands: options.maxPendingCommands, hapticsFromAudio: options.hapticsFromAudio,
            onsetReportCapacity: options.onsetHandler == nil ? 0 : options.maxPendingOnsets)
        let core: EngineCore
        do {
            core = try EngineCore(configuration: configuration, channelMap: options.channelMap)
        } catch {
            throw CHHapticError(.serverInitFailed, "\(error)")
        }
        let source: ALSADeviceSource
        switch options.output {
        case .offline:
            return EngineRun(link: core.link, offlineCore: core, playback: nil, onsets: onsetDelivery(core, playback: nil))
        case .alsaConfiguration(let text, let name):
            source = .configuration(text: text, pcmName: name)
        case .device(let name):
            source = .named(name)
        }
        let device = ALSADeviceConfiguration(
            source: source, sampleRate: Int(options.sampleRate), channels: options.channelMap.channelCount,
            periodFrames: options.periodFrames, periodCount: options.periodCount, requireExactRate: true,
            realtimePriority: options.realtimePriority, lockMemory: options.lockMemory)
        let playback: ALSAPlayback
        do {
            playback = try ALSAPlayback(configuration: device)
        } catch {
            throw CHHapticError(.serverInitFailed, error.description)
        }
        let onsets = onsetDelivery(core, playback: playback)
        let run = EngineRun(link: core.link, offlineCore: nil, playback: playback, onsets: onsets)
        do {
            try playback.start(source: core, holdingOutput: holdingOutput) { [weak self] error in
                self?.deviceFailed(error, run: run)
            }
        } catch {
            playback.close()
            throw CHHapticError(.serverInitFailed, error.description)
        }
        run.startHousekeeping(hub: self)
        onsets?.startThread()
        return run
    }

    /// The onset delivery for `Options.onsetHandler`, or nil without one.
    private func onsetDelivery(_ core: EngineCore, playback: ALSAPlayback?) -> OnsetDelivery? {
        guard let handler = options.onsetHandler, let reports = core.renderer.onsetReports else { return nil }
        return OnsetDelivery(reports: reports, handler: handler, sampleRate: options.sampleRate, playback: playback)
    }

    /// Takes `engine` out of `run`. Its instances stop (a 5 ms fade; their slots are freed when the render
    /// thread reports their ends) and their players are let go of; when no engine is left, the run ends
    /// (after the device played what was written, with `drain`, waiting at most `drainLimit` seconds).
    /// - Returns: the players that had instances of `engine`, each once, and false when a drain was cut short.
    func leave(
        _ engine: CHHapticEngine, run: EngineRun, drain: Bool, drainLimit: Double?
    ) -> (players: [HapticPatternPlayer], drained: Bool) {
        let id = ObjectIdentifier(engine)
        let (players, ended, uses) = state.withLock { state -> ([HapticPatternPlayer], EngineRun?, [SlotUse?]) in
            guard state.run === run else { return ([], nil, []) }
            state.engines.removeAll { $0.id == id || $0.engine == nil }
            state.mutes = state.mutes.filter { key, _ in state.engines.contains { $0.id == key } }
            updateAudioHapticsMute(state)
            var players: [HapticPatternPlayer] = []
            for index in state.slots.indices {
                guard let use = state.slots[index], use.engine == id else { continue }
                if let player = use.player, !players.contains(where: { $0 === player }) { players.append(player) }
                state.slots[index]?.player = nil
                run.link.settings.write(use.instance, .stopped, 1)
            }
            guard state.engines.isEmpty else { return (players, nil, []) }
            state.run = nil
            let uses = state.slots
            state.slots = Array(repeating: nil, count: state.slots.count)
            return (players, run, uses)
        }
        // The slots' patterns are released only once the render side is done with them.
        let drained = withExtendedLifetime(uses) { ended?.shutDown(drain: drain, drainLimit: drainLimit) ?? true }
        return (players, drained)
    }

    /// After a device failure of `run`: every engine on it stops (`stoppedHandler(.systemError)`), then
    /// waits for the device to come back (`resetHandler`).
    func deviceFailed(_ error: ALSAError, run: EngineRun) {
        let engines = state.withLock { state in state.run === run ? state.engines.compactMap(\.engine) : [] }
        for engine in engines { engine.deviceFailed(error, run: run) }
    }

    // MARK: - Instances

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
    /// first free slot with a new generation.
    /// - Throws: `engineNotRunning`, or `resourceNotAvailable` (every slot busy, queue full).
    func startInstance(
        of player: HapticPatternPlayer, engine: CHHapticEngine, buses: UInt64, frame: UInt64, settings: StartSettings
    ) throws {
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

    /// Writes `value` of `setting` for each instance of `player`; the render thread applies it at its next
    /// period. Never fails: settings are latest values, not queued commands.
    func publish(_ setting: InstanceSetting, _ value: UInt64, of player: HapticPatternPlayer) {
        state.withLock { state in
            guard let run = state.run else { return }
            for case let use? in state.slots where use.player === player {
                run.link.settings.write(use.instance, setting, value)
            }
        }
    }

    /// Writes what each instance of `player` mutes: everything when `playerMuted`, else what its engine mutes.
    func publishMute(of player: HapticPatternPlayer, playerMuted: Bool) {
        state.withLock { state in
            guard let run = state.run else { return }
            for case let use? in state.slots where use.player === player {
                let muted = playerMuted ? PlayerMute.all : state.mutes[use.engine] ?? []
                run.link.settings.write(use.instance, .muted, UInt64(muted.rawValue))
            }
        }
    }

    /// Sets what `engine` mutes (`isMutedForHaptics`, `isMutedForAudio`) for its instances from the next
    /// period, and for the haptics from audio when every engine on the run mutes haptics.
    func setMute(_ mute: PlayerMute, of engine: CHHapticEngine) {
        let id = ObjectIdentifier(engine)
        state.withLock { state in
            guard let run = state.run, state.mutes[id] != nil else { return }
            state.mutes[id] = mute
            for case let use? in state.slots where use.engine == id {
                let muted = use.player?.startSettings.muted == true ? PlayerMute.all : mute
                run.link.settings.write(use.instance, .muted, UInt64(muted.rawValue))
            }
            updateAudioHapticsMute(state)
        }
    }

    /// Haptics from audio are left out while every engine on the run mutes haptics.
    private func updateAudioHapticsMute(_ state: HubState) {
        let muted = !state.mutes.isEmpty && state.mutes.values.allSatisfy { $0.contains(.haptics) }
        state.run?.link.mutedHaptics.store(muted, ordering: .relaxed)
    }

    /// The position of `player`'s first playing instance, read from the render thread's atomics.
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

    // MARK: - Feedback

    /// Takes the render thread's feedback, frees the slots of ended instances and calls their players
    /// (`instanceEnded`), then lets each engine run its finished handlers and auto-shutdown. Runs on the
    /// housekeeping thread (live) or after each offline render, outside every lock while handlers run.
    /// - Returns: milliseconds until the earliest auto-shutdown is due, or −1 when nothing is due without
    ///   a signal.
    @discardableResult
    func service() -> Int32 {
        var ended: [(player: HapticPatternPlayer, frame: UInt64, isLast: Bool)] = []
        let engines = state.withLock { state -> [CHHapticEngine] in
            guard let run = state.run else { return [] }
            while let feedback = run.link.feedback.pop() {
                let (instance, frame): (InstanceID, UInt64)
                switch feedback {
                case .ended(let id, let endFrame): (instance, frame) = (id, endFrame)
                case .startFailed(let id): (instance, frame) = (id, run.link.statistics.currentFrame)
                }
                guard let use = state.slots[instance.slot], use.instance == instance else { continue }
                state.slots[instance.slot] = nil
                run.onsets?.instanceEnded(instance.generation)
                guard let player = use.player else { continue }  // let go of (app or stopped engine)
                let isLast = !state.slots.contains { $0?.player === player }
                ended.append((player, frame, isLast))
            }
            return state.engines.compactMap(\.engine)
        }
        for end in ended { end.player.instanceEnded(frame: end.frame, isLast: end.isLast) }
        var wait: Int32 = -1
        for engine in engines {
            let due = engine.serviceIdle()
            if due >= 0 { wait = wait < 0 ? due : min(wait, due) }
        }
        return wait
    }
}
