import Synchronization

/// One event onset as the renderer played it: which event of which instance, where it is in the pattern,
/// and the engine (stream) frame it starts on.
/// - Important: Thread safety: any thread (a value). Real-time safe: yes.
package struct EventOnset: Sendable, Equatable, BitwiseCopyable {
    /// The instance that played the event (slot + generation).
    package var instance: InstanceID
    /// The event's index in the pattern's events (`PatternData.events`, `CompiledEvent.index`): 0 is the
    /// first event of the pattern file.
    package var eventIndex: Int
    /// The event's kind.
    package var kind: VoiceKind
    /// The event's time in the pattern, seconds from the pattern start, as written (playback rate and seek
    /// do not change it).
    package var patternTime: Double
    /// The engine frame the onset was rendered at: frames since the engine's clock started (frame 0 is
    /// the stream's first frame).
    package var frame: UInt64
    /// Loop passes the instance had completed before this onset (0 on the first pass).
    package var loopPass: Int

    /// An onset (values as documented on the properties).
    package init(instance: InstanceID, eventIndex: Int, kind: VoiceKind, patternTime: Double, frame: UInt64, loopPass: Int) {
        self.instance = instance
        self.eventIndex = eventIndex
        self.kind = kind
        self.patternTime = patternTime
        self.frame = frame
        self.loopPass = loopPass
    }
}

/// The renderer's onset reports: a fixed-capacity, lock-free ring with one producer (the render thread)
/// and one consumer (any one other thread at a time), allocated once in `init`.
///
/// A report that does not fit (the consumer fell behind by `capacity` onsets) is not written and is
/// counted in `lostCount`: nothing is lost silently. `push` never allocates, locks, waits or retains;
/// `EventOnset` is `BitwiseCopyable`. Indices only grow; a slot is `index & mask`. The producer publishes
/// its tail with release ordering after writing the slot; the consumer publishes its head the same way.
/// - Important: Thread safety: `push` from one thread (the render thread), `pop` from one other thread at a
///   time, `lostCount` and `capacity` from any thread. Real-time safe: yes, except `init`/`deinit`.
package final class OnsetReports: @unchecked Sendable {
    // @unchecked: `slots` is written only by the producer between a load of `head` and the store of `tail`
    // that publishes it, and read only by the consumer after loading that `tail`.
    /// How many reports fit (a power of two ≥ the requested capacity).
    package let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<EventOnset>
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)
    private let lost = Atomic<Int>(0)

    /// Allocates room for at least `minimumCapacity` reports. Control side.
    package init(minimumCapacity: Int) {
        var size = 2
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
    }

    deinit {
        slots.deallocate()
    }

    /// Onsets that did not fit since the ring was made (the consumer was `capacity` reports behind).
    package var lostCount: Int { lost.load(ordering: .relaxed) }

    /// Adds a report, or counts it as lost when the ring is full. Producer (render thread) only.
    @inline(__always)
    func push(_ onset: EventOnset) {
        let currentTail = tail.load(ordering: .relaxed)
        if currentTail - head.load(ordering: .acquiring) >= capacity {
            lost.add(1, ordering: .relaxed)
            return
        }
        (slots + (currentTail & mask)).initialize(to: onset)
        tail.store(currentTail + 1, ordering: .releasing)
    }

    /// Takes the oldest report, or nil when there is none. Consumer only (one thread at a time).
    package func pop() -> EventOnset? {
        let currentHead = head.load(ordering: .relaxed)
        if currentHead == tail.load(ordering: .acquiring) { return nil }
        let onset = slots[currentHead & mask]
        head.store(currentHead + 1, ordering: .releasing)
        return onset
    }
}
