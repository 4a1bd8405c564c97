internal import ALSAOutput
internal import AudioResources
import Foundation
internal import RenderCore
internal import Synchronization

/// One pattern instance occupying a renderer slot; keeps the compiled pattern alive until the render
/// thread reports the slot's end, so the render thread never frees it.
struct SlotUse {
    let player: HapticPatternPlayer
    let pattern: CompiledPattern
}

/// A registered audio resource.
struct RegisteredResource {
    let audio: DecodedAudio
    let buffer: SampleBuffer
    let useVolumeEnvelope: Bool
    let loopEnabled: Bool
}

/// The control-side state of an engine, behind its lock.
struct EngineState {
    var run: EngineRun?
    var slots: [SlotUse?]
    var stoppedTime: TimeInterval = 0
    var stoppedHandler: CHHapticEngine.StoppedHandler?
    var resetHandler: CHHapticEngine.ResetHandler?
    var finishedHandlers: [CHHapticEngine.FinishedHandler] = []
    var isAutoShutdownEnabled = false
    var playsHapticsOnly = false
    var playsAudioOnly = false
    var mutedHaptics = false
    var mutedAudio = false
    var idleSince: ContinuousClock.Instant?
    var stoppedByIdle = false
    var lastDeviceError: String?
    var resources: [CHHapticAudioResourceID: RegisteredResource] = [:]
    var nextResourceID: CHHapticAudioResourceID = 1
    /// AHAP audio files by the identity (device, inode) of the file opened, loaded once and kept for
    /// the engine's life.
    var fileCache: [AudioFileHandle.Identity: SampleBuffer] = [:]

    init(maxPlayers: Int) {
        slots = Array(repeating: nil, count: maxPlayers)
    }

    /// Frees every slot and returns the players that had instances, each once.
    mutating func releaseAllSlots() -> [HapticPatternPlayer] {
        var players: [HapticPatternPlayer] = []
        for case let use? in slots where !players.contains(where: { $0 === use.player }) { players.append(use.player) }
        slots = Array(repeating: nil, count: slots.count)
        return players
    }
}

/// One start-to-stop run of an engine: the shared link, and the device or the offline core.
final class EngineRun: @unchecked Sendable {
    let link: EngineLink
    /// Offline mode: the render core, driven by `renderOffline` on the caller's thread.
    let offlineCore: EngineCore?
    /// Live mode: the ALSA device and its render thread (which owns the core).
    let playback: ALSAPlayback?
    private let housekeeping = Atomic<Bool>(false)

    init(link: EngineLink, offlineCore: EngineCore?, playback: ALSAPlayback?) {
        self.link = link
        self.offlineCore = offlineCore
        self.playback = playback
    }

    /// Starts the control-side thread that services feedback every 5 ms while the run lasts.
    func startHousekeeping(engine: CHHapticEngine) {
        housekeeping.store(true, ordering: .releasing)
        Thread.detachNewThread { [weak engine, self] in
            while self.housekeeping.load(ordering: .acquiring) {
                guard let engine else { return }
                engine.service()
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    /// Stops the render thread (after the device played its buffer, with `drain`) and closes the device.
    func shutDown(drain: Bool) {
        housekeeping.store(false, ordering: .releasing)
        if drain { playback?.stop(drain: true) }
        playback?.close()
    }
}
