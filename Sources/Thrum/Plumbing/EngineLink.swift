internal import ALSAOutput
internal import RenderCore
internal import Synchronization

/// A command from the control side to the render thread, for one instance (slot + generation).
/// (Mute, rate and loop are latest values: `InstanceSettings`, not commands.)
///
/// `BitwiseCopyable`: it holds no counted reference, so the render thread copies and drops commands
/// without retaining or releasing anything. A start carries its pattern unmanaged; the control side keeps
/// the `CompiledPattern` alive (`SlotUse`) until the instance's end comes back through the feedback ring.
enum EngineCommand: BitwiseCopyable {
    case start(
        InstanceID, pattern: Unmanaged<CompiledPattern>, frame: UInt64, rate: Double, loopEnd: Double?, passes: Int,
        muted: PlayerMute, offset: Double?, buses: UInt64)
    case stop(InstanceID, frame: UInt64)
    case pause(InstanceID, frame: UInt64)
    case resume(InstanceID, frame: UInt64)
    case seek(InstanceID, seconds: Double, frame: UInt64)
    case parameter(InstanceID, lane: ControlLane, value: Float, frame: UInt64)
    case ramp(InstanceID, lane: ControlLane, from: Float, frame: UInt64, to: Float, endFrame: UInt64)

    /// The renderer list the command takes an entry of until it is due (`nil`: applied when taken).
    var list: RendererList? {
        switch self {
        case .parameter, .ramp: .parameters
        case .pause, .resume, .seek: .transport
        case .start, .stop: nil
        }
    }
}

/// The renderer's fixed lists of queued entries (`RendererConfiguration.maxPendingParameters`,
/// `.maxPendingCommands`).
enum RendererList {
    case parameters, transport
}

/// What the render thread reports back.
enum EngineFeedback: Equatable, BitwiseCopyable {
    /// An instance ended (its pattern finished, or a stop's fade is done) at `frame`; its slot is free.
    case ended(InstanceID, frame: UInt64)
    /// A start was refused (busy slot, wrong rate); the slot is free again.
    case startFailed(InstanceID)
}

/// The shared plumbing of one engine run: the command ring and the instance settings (control → render),
/// the feedback ring (render → control), the wake-up for the control side, and the atomics both sides read. Created on
/// the control side before the render thread starts; thread-safe by construction (each ring has one
/// producer and one consumer).
final class EngineLink: Sendable {
    let commands: SPSCRing<EngineCommand>
    let settings: InstanceSettings
    let feedback: SPSCRing<EngineFeedback>
    /// Wakes the housekeeping thread: signalled by the render thread when it pushed feedback (an instance
    /// ended or a start failed), and by the control side when the idle deadline may have changed or the
    /// run ends.
    let wake: WakeSignal
    let statistics: RenderStatistics
    /// Every engine on the run is muted for haptics: haptics from audio are left out too.
    let mutedHaptics = Atomic<Bool>(false)

    /// - Parameter configuration: the renderer's; the command ring holds both of its lists plus a few
    ///   starts and stops for every slot, so list-bound commands are refused for their list, not the ring.
    init(configuration: RendererConfiguration, statistics: RenderStatistics) throws {
        let maxPlayers = configuration.maxPlayers
        commands = SPSCRing(
            minimumCapacity: configuration.maxPendingParameters + configuration.maxPendingCommands + 4 * maxPlayers)
        // Each start takes a free slot and yields one feedback entry when it ends (or fails), and a slot
        // is freed only when its entry has been read, so at most maxPlayers entries wait: it never fills.
        feedback = SPSCRing(minimumCapacity: maxPlayers * 2 + 16)
        settings = InstanceSettings(slots: maxPlayers)
        wake = try WakeSignal()
        self.statistics = statistics
    }
}
