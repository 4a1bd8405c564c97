internal import ALSAOutput
import FoundationStandIns
import FoundationEssentials
internal import RenderCore
internal import Synchronization

/// What the engines made from one device share (docs/decisions.md "Output"): one renderer with a haptic bus per
/// actuator, one ALSA stream (or offline render core), one render thread, one clock, the renderer's player
/// slots and the queues to the render thread. A `CHHapticEngine` made with `init(options:)` has a hub of
/// its own; the engines of a `GCDeviceHaptics` share its hub.
///
/// The run starts when the first engine starts and ends when the last one stops. One job a file: the run
/// (this file: joining, leaving, device failure), the instances and their commands (HubCommands.swift),
/// latest-value settings (HubSettings.swift), the render thread's feedback (HubFeedback.swift); the state
/// they share is `HubState`, behind `state`'s lock. Engine options are checked by `Options.rangeProblem()`.
/// - Important: Thread safety: any thread. Lock order: an engine's lock may be held while taking the
///   hub's, never the other way round; handlers run outside both.
final class DeviceHub: @unchecked Sendable {
    /// The device's options (output, rate, period, channel map, actuators, capacities).
    let options: CHHapticEngine.Options
    /// The actuators, one haptic bus each, and the localities they form.
    let layout: ActuatorLayout
    let state: Locked<HubState>
    /// The renderer every run of the device makes.
    let rendererConfiguration: RendererConfiguration

    /// Checks `options`.
    /// - Throws: `CHHapticError.invalidEngineParameter` for out-of-range options.
    init(options: CHHapticEngine.Options) throws {
        if let problem = options.rangeProblem() { throw CHHapticError(.invalidEngineParameter, problem) }
        do {
            try options.actuatorProfile.validate(sampleRate: options.sampleRate)
        } catch {
            throw CHHapticError(.invalidEngineParameter, "\(error)")
        }
        self.options = options
        layout = try ActuatorLayout(options: options)
        rendererConfiguration = RendererConfiguration(
            sampleRate: options.sampleRate, actuators: layout.actuators, maxVoices: options.maxVoices,
            maxPlayers: options.maxPlayers, maxBlockFrames: max(options.periodFrames, 1024),
            maxPendingParameters: options.maxPendingParameters, maxNotifications: options.maxPlayers * 2,
            maxPendingCommands: options.maxPendingCommands, hapticsFromAudio: options.hapticsFromAudio,
            onsetReportCapacity: options.onsetHandler == nil ? 0 : options.maxPendingOnsets, hapticOffset: options.hapticOffset)
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
        let core: EngineCore
        do {
            core = try EngineCore(configuration: rendererConfiguration, channelMap: options.channelMap)
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
}
