internal import RenderCore
internal import Synchronization

/// A discrete command from the control side to the render thread. Fixed size; patterns travel as
/// references the control side keeps alive until the slot's end is reported.
enum EngineCommand {
    case start(slot: Int, pattern: CompiledPattern, frame: UInt64, rate: Double, loopEnd: Double?, passes: Int)
    case stop(slot: Int, frame: UInt64)
    case pause(slot: Int, frame: UInt64)
    case resume(slot: Int, frame: UInt64)
    case seek(slot: Int, seconds: Double, frame: UInt64)
    case rate(slot: Int, rate: Double, frame: UInt64)
    case loop(slot: Int, loopEnd: Double?, frame: UInt64)
    case parameter(slot: Int, lane: ControlLane, value: Float, frame: UInt64)
    case ramp(slot: Int, lane: ControlLane, from: Float, frame: UInt64, to: Float, endFrame: UInt64)
    case mute(slot: Int, muted: Bool)
}

/// What the render thread reports back.
enum EngineFeedback: Equatable {
    /// A slot's player ended (its pattern finished, or a stop's fade is done) at `frame`.
    case ended(slot: Int, frame: UInt64)
    /// `start` was refused (busy slot, wrong rate); the slot is free again.
    case startFailed(slot: Int)
}

/// The shared plumbing of one engine run: the command ring (control → render), the feedback ring
/// (render → control) and the atomics both sides read. Created on the control side before the render
/// thread starts; thread-safe by construction (each ring has one producer and one consumer).
final class EngineLink: Sendable {
    let commands: SPSCRing<EngineCommand>
    let feedback: SPSCRing<EngineFeedback>
    let statistics: RenderStatistics
    let mutedHaptics = Atomic<Bool>(false)
    let mutedAudio = Atomic<Bool>(false)

    init(maxPlayers: Int, statistics: RenderStatistics) {
        commands = SPSCRing(minimumCapacity: 1024)
        // Each start takes a free slot and yields one feedback entry when it ends (or fails), and a slot
        // is freed only when its entry has been read, so at most maxPlayers entries wait: it never fills.
        feedback = SPSCRing(minimumCapacity: maxPlayers * 2 + 16)
        self.statistics = statistics
    }
}
