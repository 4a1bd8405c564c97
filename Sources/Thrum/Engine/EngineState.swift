internal import ALSAOutput
internal import AudioResources
import FoundationEssentials
import FoundationStandIns
internal import RenderCore
internal import Synchronization

/// A registered audio resource.
struct RegisteredResource {
    let audio: DecodedAudio
    let buffer: SampleBuffer
    let useVolumeEnvelope: Bool
    let loopEnabled: Bool
}

/// The control-side state of an engine, behind its lock (what it shares with the other engines of its
/// device is its hub's).
struct EngineState {
    /// The run the engine takes part in (its hub's), nil while stopped.
    var run: EngineRun?
    var stoppedTime: TimeInterval = 0
    var stoppedHandler: CHHapticEngine.StoppedHandler?
    var resetHandler: CHHapticEngine.ResetHandler?
    var finishedHandlers: [CHHapticEngine.FinishedHandler] = []
    var isAutoShutdownEnabled = false
    var playsHapticsOnly = false
    var playsAudioOnly = false
    var mutedHaptics = false
    var mutedAudio = false
    /// What the engine mutes for its players.
    var mute: PlayerMute { (mutedHaptics ? PlayerMute.haptics : []).union(mutedAudio ? .audio : []) }
    var idleSince: ContinuousClock.Instant?
    var stoppedByIdle = false
    var lastDeviceError: String?
    var resources: [CHHapticAudioResourceID: RegisteredResource] = [:]
    var nextResourceID: CHHapticAudioResourceID = 1
    /// AHAP audio files by the identity (device, inode) of the file opened, loaded once and kept for
    /// the engine's life.
    var fileCache: [AudioFileHandle.Identity: SampleBuffer] = [:]
}

/// One start-to-stop run of a device (its hub): the shared link, and the device or the offline core.
final class EngineRun: @unchecked Sendable {
    let link: EngineLink
    /// Offline mode: the render core, driven by `renderOffline` on the caller's thread.
    let offlineCore: EngineCore?
    /// Live mode: the ALSA device and its render thread (which owns the core).
    let playback: ALSAPlayback?
    /// Delivers onsets to `Options.onsetHandler`, when one is set.
    let onsets: OnsetDelivery?
    /// Held by `renderOffline` while it renders, so `shutDown` returns only when the render side is done with
    /// the run's patterns; its value says the run was shut down (a render that comes later does nothing).
    let offlineRendering = Locked(false)
    /// Whether the housekeeping thread should go on (`startHousekeeping`).
    let housekeeping = Atomic<Bool>(false)
    /// How many times the housekeeping thread woke up (signalled or timed out).
    let wakeUps = Atomic<Int>(0)

    init(link: EngineLink, offlineCore: EngineCore?, playback: ALSAPlayback?, onsets: OnsetDelivery? = nil) {
        self.link = link
        self.offlineCore = offlineCore
        self.playback = playback
        self.onsets = onsets
    }

    /// Stops the render thread (after the device played its buffer, with `drain`, waiting at most
    /// `drainLimit` seconds or the device's own default), closes the device and ends the housekeeping
    /// thread.
    /// - Returns: false when a drain was cut short (the device did not play everything in time).
    @discardableResult
    func shutDown(drain: Bool, drainLimit: Double? = nil) -> Bool {
        housekeeping.store(false, ordering: .releasing)
        link.wake.signal()
        let drained = drain ? playback?.stop(drain: true, drainLimit: drainLimit) ?? true : true
        let stopTime = monotonicSeconds()
        playback?.close()
        onsets?.finish(drained: drain && drained, stopTime: stopTime)
        offlineRendering.withLock { $0 = true }  // a `renderOffline` under way ends first
        return drained
    }
}
