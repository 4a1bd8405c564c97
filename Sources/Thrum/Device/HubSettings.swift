import FoundationStandIns
import FoundationEssentials
internal import RenderCore
internal import Synchronization

// Latest-value settings (mutes, rate, loop) written for the hub's instances; the render thread applies them
// at its next period (docs/engine-contract.md).
extension DeviceHub {
    func publish(_ setting: InstanceSetting, of player: HapticPatternPlayer) {
        state.withLock { state in
            guard let run = state.run else { return }
            let settings = player.startSettings
            for case let use? in state.slots where use.player === player {
                let value: UInt64
                switch setting {
                case .muted: value = UInt64((settings.muted ? PlayerMute.all : state.mutes[use.engine] ?? []).rawValue)
                case .rate: value = settings.rate.bitPattern
                case .loopEnd: value = (settings.loopEnd ?? -1).bitPattern
                case .stopped: value = 1
                }
                run.link.settings.write(use.instance, setting, value)
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
    func updateAudioHapticsMute(_ state: HubState) {
        let muted = !state.mutes.isEmpty && state.mutes.values.allSatisfy { $0.contains(.haptics) }
        state.run?.link.mutedHaptics.store(muted, ordering: .relaxed)
    }

    /// The position of `player`'s first playing instance, read from the render thread's atomics.
}
