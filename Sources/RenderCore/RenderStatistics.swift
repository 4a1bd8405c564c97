import Synchronization

/// The transport position of one slot, published with relaxed atomics.
struct SlotCounters: ~Copyable {
    /// Pattern position in seconds, as the bit pattern of a `Double`.
    let seconds = Atomic<UInt64>(0)
    /// Loop iterations completed.
    let loops = Atomic<Int>(0)
    /// `PlayerPhase.rawValue`.
    let phase = Atomic<UInt8>(0)
}

/// Counters the render thread publishes with relaxed atomics; read them from any thread.
/// - Important: Thread safety: any thread. Real-time safe: yes (except `init`/`deinit`).
package final class RenderStatistics: @unchecked Sendable {
    // @unchecked: `slots` is allocated once in init and only ever accessed through its atomics.
    private let overflows = Atomic<Int>(0)
    private let nonFinite = Atomic<Int>(0)
    private let active = Atomic<Int>(0)
    private let droppedNotificationCount = Atomic<Int>(0)
    private let retiredParameters = Atomic<Int>(0)
    private let retiredCommands = Atomic<Int>(0)
    private let frames = Atomic<UInt64>(0)
    /// Number of player slots whose position is published.
    package let slotCount: Int
    private let slots: UnsafeMutablePointer<SlotCounters>

    init(slots count: Int) {
        slotCount = count
        slots = .allocate(capacity: max(count, 1))
        for i in 0..<count { (slots + i).initialize(to: SlotCounters()) }
    }

    deinit {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }

    /// Events that found no free voice (and were not played) since the renderer was created.
    package var voiceOverflowCount: Int { overflows.load(ordering: .relaxed) }
    /// Output samples that were not finite (NaN or ±∞) and were replaced by 0 before leaving the renderer,
    /// since it was created. Never more than 0 for patterns and profiles that passed validation.
    package var nonFiniteSampleCount: Int { nonFinite.load(ordering: .relaxed) }
    /// Voices sounding at the end of the last block.
    package var activeVoices: Int { active.load(ordering: .relaxed) }
    /// Notifications lost because the notification list was full.
    package var droppedNotifications: Int { droppedNotificationCount.load(ordering: .relaxed) }
    /// Parameter calls (`setParameter`, `setParameterRamp`) that no longer hold an entry of the pending
    /// list (applied, dropped or refused), as of the end of the last block. Only grows. Calls made minus
    /// this = entries in use.
    package var retiredParameterCalls: Int { retiredParameters.load(ordering: .relaxed) }
    /// Transport calls (pause, resume, seek, rate, loop) that no longer hold an entry of the command list,
    /// as of the end of the last block. Only grows.
    package var retiredCommandCalls: Int { retiredCommands.load(ordering: .relaxed) }
    /// The engine clock (frames rendered) at the end of the last block.
    package var currentFrame: UInt64 { frames.load(ordering: .relaxed) }

    /// The slot's pattern position (seconds), completed loop iterations and phase at the end of the last
    /// block, as `Renderer.position(of:)` reported it then. Out-of-range slots read as idle at 0.
    /// - Important: Thread safety: any thread. Real-time safe: yes.
    package func position(of slot: Int) -> (seconds: Double, loopCount: Int, phase: PlayerPhase) {
        guard slot >= 0, slot < slotCount else { return (0, 0, .idle) }
        let seconds = Double(bitPattern: slots[slot].seconds.load(ordering: .relaxed))
        let loops = slots[slot].loops.load(ordering: .relaxed)
        let phase = PlayerPhase(rawValue: slots[slot].phase.load(ordering: .relaxed)) ?? .idle
        return (seconds, loops, phase)
    }

    // MARK: Render-thread side (relaxed stores and adds)

    /// An event found no free voice (or a paused voice no parking place, or a resumed one no voice).
    func countVoiceOverflow() { overflows.add(1, ordering: .relaxed) }
    /// `count` output samples were not finite and were zeroed.
    func countNonFinite(_ count: Int) { nonFinite.add(count, ordering: .relaxed) }
    /// A notification was lost: the queue was full.
    func countDroppedNotification() { droppedNotificationCount.add(1, ordering: .relaxed) }

    /// Publishes the end of a block: the engine clock and the voices sounding.
    func publishBlock(frame: UInt64, activeVoices: Int) {
        frames.store(frame, ordering: .relaxed)
        active.store(activeVoices, ordering: .relaxed)
    }

    /// Publishes how many parameter and transport calls no longer hold a list entry.
    func publishRetired(parameters: Int, commands: Int) {
        retiredParameters.store(parameters, ordering: .relaxed)
        retiredCommands.store(commands, ordering: .relaxed)
    }

    /// Publishes one slot's position.
    func publish(_ slot: Int, seconds: Double, loops: Int, phase: PlayerPhase) {
        slots[slot].seconds.store(seconds.bitPattern, ordering: .relaxed)
        slots[slot].loops.store(loops, ordering: .relaxed)
        slots[slot].phase.store(phase.rawValue, ordering: .relaxed)
    }
}
