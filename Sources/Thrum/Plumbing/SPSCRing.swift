internal import Synchronization

/// A fixed-capacity, lock-free ring for exactly one producer thread and one consumer thread.
///
/// Storage is allocated once in `init`; `push`, `pushAll` and `pop` never allocate, lock or wait, so
/// either side may be the real-time render thread. Elements are `BitwiseCopyable`, so moving them in and
/// out never retains or releases. Indices only grow; the slot is `index & mask`. The producer publishes
/// its tail with release ordering after writing its slots, and the consumer publishes its head the same
/// way after taking one, so each side sees the other's writes (acquire on the opposite index).
final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: `slots` is only written by the producer between a load of `head` and the store of
    // `tail` that publishes it, and only read by the consumer after loading that `tail`.
    /// How many elements fit.
    let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<Element>
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    /// Creates a ring holding at least `minimumCapacity` elements (rounded up to a power of two).
    init(minimumCapacity: Int) {
        var size = 1
        while size < max(minimumCapacity, 2) { size <<= 1 }
        capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
    }

    deinit {
        slots.deallocate()
    }

    /// Adds an element. Producer thread only. Returns false, leaving the ring unchanged, when it is full.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let currentTail = tail.load(ordering: .relaxed)
        if currentTail - head.load(ordering: .acquiring) >= capacity { return false }
        (slots + (currentTail & mask)).initialize(to: element)
        tail.store(currentTail + 1, ordering: .releasing)
        return true
    }

    /// Adds all of `elements` or none: the consumer sees them together (one store publishes them).
    /// Producer thread only. Returns false, leaving the ring unchanged, when they do not all fit.
    func pushAll(_ elements: [Element]) -> Bool {
        let currentTail = tail.load(ordering: .relaxed)
        if currentTail - head.load(ordering: .acquiring) + elements.count > capacity { return false }
        for (i, element) in elements.enumerated() { (slots + ((currentTail + i) & mask)).initialize(to: element) }
        tail.store(currentTail + elements.count, ordering: .releasing)
        return true
    }

    /// Takes the oldest element. Consumer thread only. Nil when empty.
    func pop() -> Element? {
        let currentHead = head.load(ordering: .relaxed)
        if currentHead == tail.load(ordering: .acquiring) { return nil }
        let element = (slots + (currentHead & mask)).move()
        head.store(currentHead + 1, ordering: .releasing)
        return element
    }
}
