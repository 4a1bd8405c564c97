internal import ALSAOutput
internal import RenderCore
internal import Synchronization

/// The render side of an engine: the renderer, its bus buffers and the channel map. Owned by exactly one
/// thread — the ALSA playback thread in live mode, the caller of `renderOffline` in offline mode — so
/// live and offline output are the same code.
///
/// Every call after `init` is real-time safe: commands come from a lock-free ring, buses are allocated
/// once, nothing allocates, locks, logs or waits.
final class EngineCore: ALSARenderSource {
    let renderer: Renderer
    let link: EngineLink
    let channelMap: ChannelMap
    let blockFrames: Int
    private let audioL: UnsafeMutablePointer<Float>
    private let audioR: UnsafeMutablePointer<Float>
    private let haptic: UnsafeMutablePointer<Float>

    init(configuration: RendererConfiguration, channelMap: ChannelMap) {
        renderer = Renderer(configuration: configuration)
        link = EngineLink(maxPlayers: configuration.maxPlayers, statistics: renderer.statistics)
        self.channelMap = channelMap
        blockFrames = configuration.maxBlockFrames
        audioL = .allocate(capacity: blockFrames)
        audioR = .allocate(capacity: blockFrames)
        haptic = .allocate(capacity: blockFrames)
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
        let buses = UnsafeMutablePointer<Float>.allocate(capacity: 64 * (3 + channelMap.channelCount))
        buses.initialize(repeating: 0, count: 64 * (3 + channelMap.channelCount))
        renderer.render(frameCount: 64, into: buses, buses + 64, buses + 128)
        channelMap.interleave(audioL: buses, audioR: buses + 64, haptic: buses + 128, frameCount: 64, into: buses + 192)
        buses.deallocate()
    }

    deinit {
        audioL.deallocate()
        audioR.deallocate()
        haptic.deallocate()
    }

    /// Renders `frameCount` interleaved frames: applies queued commands, renders the buses, applies the
    /// engine mutes and maps buses to channels. Render thread only; real-time safe.
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        drainCommands()
        var done = 0
        while done < frameCount {
            let count = min(blockFrames, frameCount - done)
            renderer.render(frameCount: count, into: audioL, audioR, haptic)
            if link.mutedHaptics.load(ordering: .relaxed) { haptic.update(repeating: 0, count: count) }
            if link.mutedAudio.load(ordering: .relaxed) {
                audioL.update(repeating: 0, count: count)
                audioR.update(repeating: 0, count: count)
            }
            channelMap.interleave(
                audioL: audioL, audioR: audioR, haptic: haptic, frameCount: count, into: buffer + done * channelCount)
            done += count
        }
        while let note = renderer.nextNotification() {
            link.feedback.push(.ended(slot: note.slot, frame: note.frame))  // cannot fill (see EngineLink)
        }
    }

    private func drainCommands() {
        while let command = link.commands.pop() {
            switch command {
            case .start(let slot, let pattern, let frame, let rate, let loopEnd, let passes):
                let started = renderer.startPlayer(
                    slot, pattern: pattern, atFrame: frame, playbackRate: rate, loopEnd: loopEnd, passes: passes)
                if !started { link.feedback.push(.startFailed(slot: slot)) }
            case .stop(let slot, let frame):
                renderer.stopPlayer(slot, atFrame: frame)
            case .pause(let slot, let frame):
                renderer.pausePlayer(slot, atFrame: frame)
            case .resume(let slot, let frame):
                renderer.resumePlayer(slot, atFrame: frame)
            case .seek(let slot, let seconds, let frame):
                renderer.seekPlayer(slot, toOffset: seconds, atFrame: frame)
            case .rate(let slot, let rate, let frame):
                renderer.setPlaybackRate(slot, rate: rate, atFrame: frame)
            case .loop(let slot, let loopEnd, let frame):
                renderer.setLoop(slot, loopEnd: loopEnd, atFrame: frame)
            case .parameter(let slot, let lane, let value, let frame):
                renderer.setParameter(slot, lane, value: value, atFrame: frame)
            case .ramp(let slot, let lane, let from, let frame, let to, let endFrame):
                renderer.setParameterRamp(slot, lane, from: from, atFrame: frame, to: to, endFrame: endFrame)
            case .mute(let slot, let muted):
                renderer.setMuted(slot, muted)
            }
        }
    }
}
