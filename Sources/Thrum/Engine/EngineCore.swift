internal import ALSAOutput
internal import RenderCore
internal import Synchronization

/// The render side of an engine: the renderer, its bus buffers and the channel map. Owned by exactly one
/// thread — the ALSA playback thread in live mode, the caller of `renderOffline` in offline mode — so
/// live and offline output are the same code.
///
/// Every call after `init` is real-time safe: commands come from a lock-free ring, buses are allocated
/// once, nothing allocates, frees, retains, releases, locks, logs or waits (`thrum-bench storm` counts it).
final class EngineCore: ALSARenderSource {
    let renderer: Renderer
    let link: EngineLink
    // The parts of `link` the render path uses, held directly: a property of a property of `self` is
    // retained around every call that uses it (release object code), one of `self` is not.
    private let commands: SPSCRing<EngineCommand>
    private let feedback: SPSCRing<EngineFeedback>
    private let settings: InstanceSettings
    private let wake: WakeSignal
    let channelMap: ChannelMap
    let blockFrames: Int
    private let audioL: UnsafeMutablePointer<Float>
    private let audioR: UnsafeMutablePointer<Float>
    /// The haptic buses, one per actuator, `blockFrames` apart.
    private let haptics: UnsafeMutablePointer<Float>
    /// The trigger bus when the channel map has a `T` channel, else nil.
    private let trigger: UnsafeMutablePointer<Float>?
    private let busCount: Int
    /// The tag of the last `InstanceSettings` write taken, per slot and setting.
    private let seenSettings: UnsafeMutablePointer<UInt64>
    /// The generation of the last start taken from the command ring, per slot (0: none yet).
    private let startedGenerations: UnsafeMutablePointer<UInt32>

    init(configuration: RendererConfiguration, channelMap: ChannelMap) throws {
        renderer = Renderer(configuration: configuration)
        link = try EngineLink(configuration: configuration, statistics: renderer.statistics)
        commands = link.commands
        feedback = link.feedback
        settings = link.settings
        wake = link.wake
        self.channelMap = channelMap
        blockFrames = configuration.maxBlockFrames
        audioL = .allocate(capacity: blockFrames)
        audioR = .allocate(capacity: blockFrames)
        busCount = configuration.actuators.count
        haptics = .allocate(capacity: blockFrames * busCount)
        trigger = channelMap.carriesTrigger ? .allocate(capacity: blockFrames) : nil
        seenSettings = .allocate(capacity: configuration.maxPlayers * InstanceSetting.count)
        seenSettings.initialize(repeating: 0, count: configuration.maxPlayers * InstanceSetting.count)
        startedGenerations = .allocate(capacity: configuration.maxPlayers)
        startedGenerations.initialize(repeating: 0, count: configuration.maxPlayers)
        Self.warmUp(configuration: configuration, channelMap: channelMap)
    }

    /// Renders one silent block through a throwaway renderer, so first-use runtime work (type metadata,
    /// lazy globals) happens here on the control side, not on the render thread, and the engine clock
    /// still starts at frame 0.
    private static func warmUp(configuration: RendererConfiguration, channelMap: ChannelMap) {
        var small = configuration
        small.maxVoices = 1
        small.maxPlayers = 1
        small.maxBlockFrames = 64
        let renderer = Renderer(configuration: small)
        let haptics = small.actuators.count
        let buses = UnsafeMutablePointer<Float>.allocate(capacity: 64 * (2 + haptics + channelMap.channelCount))
        buses.initialize(repeating: 0, count: 64 * (2 + haptics + channelMap.channelCount))
        renderer.render(frameCount: 64, audioL: buses, audioR: buses + 64, haptics: buses + 128, hapticStride: 64)
        channelMap.interleave(
            audioL: buses, audioR: buses + 64, haptics: buses + 128, hapticStride: 64, frameCount: 64,
            into: buses + 64 * (2 + haptics))
        buses.deallocate()
    }

    deinit {
        audioL.deallocate()
        audioR.deallocate()
        haptics.deallocate()
        trigger?.deallocate()
        seenSettings.deallocate()
        startedGenerations.deallocate()
    }

    /// Renders `frameCount` interleaved frames: applies queued commands and settings (mutes included),
    /// renders the buses and maps them to channels; reports ended instances and wakes the control side.
    /// Render thread only; real-time safe.
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        drainCommands()
        applySettings()
        var done = 0
        while done < frameCount {
            let count = min(blockFrames, frameCount - done)
            renderer.audioHapticsMuted = link.mutedHaptics.load(ordering: .relaxed)
            renderer.render(
                frameCount: count, audioL: audioL, audioR: audioR, haptics: haptics, hapticStride: blockFrames,
                trigger: trigger)
            channelMap.interleave(
                audioL: audioL, audioR: audioR, haptics: haptics, hapticStride: blockFrames, trigger: trigger,
                frameCount: count, into: buffer + done * channelCount)
            done += count
        }
        var ended = false
        while let note = renderer.nextNotification() {
            feedback.push(.ended(note.instance, frame: note.frame))  // cannot fill (see EngineLink)
            ended = true
        }
        if ended { wake.signal() }
    }

    /// Hands every queued command to the renderer. Commands for an instance that is no longer its slot's
    /// current one are dropped there; the renderer's lists have room for every list-bound command (the
    /// control side counts them against `retiredParameterCalls`/`retiredCommandCalls`).
    private func drainCommands() {
        var failed = false
        while let command = commands.pop() {
            switch command {
            case .start(let id, let pattern, let frame, let rate, let loopEnd, let passes, let muted, let offset, let buses):
                let started = pattern._withUnsafeGuaranteedRef {
                    renderer.startPlayer(
                        id, pattern: $0, atFrame: frame, playbackRate: rate, loopEnd: loopEnd, passes: passes,
                        muted: muted, offset: offset, buses: buses)
                }
                startedGenerations[id.slot] = id.generation
                if !started {
                    feedback.push(.startFailed(id))
                    failed = true
                }
            case .stop(let id, let frame):
                renderer.stopPlayer(id, atFrame: frame)
            case .pause(let id, let frame):
                renderer.pausePlayer(id, atFrame: frame)
            case .resume(let id, let frame):
                renderer.resumePlayer(id, atFrame: frame)
            case .seek(let id, let seconds, let frame):
                renderer.seekPlayer(id, toOffset: seconds, atFrame: frame)
            case .parameter(let id, let lane, let value, let frame):
                renderer.setParameter(id, lane, value: value, atFrame: frame)
            case .ramp(let id, let lane, let from, let frame, let to, let endFrame):
                renderer.setParameterRamp(id, lane, from: from, atFrame: frame, to: to, endFrame: endFrame)
            }
        }
        if failed { wake.signal() }
    }

    /// Applies the mute, rate, loop and stop values written since the last period, each to the instance it was
    /// written for (the renderer ignores it when that instance is no longer current).
    ///
    /// A write is only ever made for an instance whose start is already in the command ring (the hub
    /// registers the instance and pushes its start under one lock), but the ring may have been drained just
    /// before that push. So a write for an instance newer than the slot's last start taken is left unseen
    /// and read again next period, after the drain has started it: a setting made after `start()` returns
    /// is never lost (docs/engine-contract.md).
    private func applySettings() {
        for slot in 0..<settings.slotCount {
            if let (id, value) = takeWrite(slot, .muted) {
                renderer.setMuted(id, PlayerMute(rawValue: UInt8(truncatingIfNeeded: value)))
            }
            if let (id, value) = takeWrite(slot, .rate) {
                renderer.setPlaybackRateNow(id, rate: Double(bitPattern: value))
            }
            if let (id, value) = takeWrite(slot, .loopEnd) {
                let loopEnd = Double(bitPattern: value)
                renderer.setLoopNow(id, loopEnd: loopEnd < 0 ? nil : loopEnd)
            }
            if let (id, _) = takeWrite(slot, .stopped) {
                renderer.stopPlayer(id, atFrame: 0)
            }
        }
    }

    /// The slot's unseen write of `setting`, marked seen, unless it addresses an instance whose start has
    /// not been taken from the ring yet (generation ahead of the slot's last start, compared with
    /// wrap-around): that one stays unseen for the next period. Real-time safe.
    @inline(__always)
    private func takeWrite(_ slot: Int, _ setting: InstanceSetting) -> (InstanceID, UInt64)? {
        let seen = seenSettings + slot * InstanceSetting.count + setting.rawValue
        guard let write = settings.read(slot, setting, seen: seen.pointee) else { return nil }
        guard Int32(bitPattern: write.instance.generation &- startedGenerations[slot]) <= 0 else { return nil }
        seen.pointee = write.tag
        return (write.instance, write.value)
    }
}
