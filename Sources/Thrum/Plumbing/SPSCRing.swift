internal import Synchronization

/// A fixed-capacity, lock-free ring for exactly one producer thread and one consumer thread.
///
/// Storage is allocated once in `init`; `push` and `pop` never allocate, lock or wait, so either side may
/// be the real-time render thread. Indices only grow; the slot is `index & mask`. The producer publishes
/// its tail with release ordering after writing a slot, and the consumer publishes its head the same way
/// after taking one, so each side sees the other's writes (acquire on the opposite index).
final class SPSCRing<Element>: @unchecked Sendable {
    /// How many elements fit.
    let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<Element?>
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    /// Creates a ring holding at least `minimumCapacity` elements (rounded up to a power of two).
    init(minimumCapacity: Int) {
        var size = 1
        while size < max(minimumCapacity, 2) { size <<= 1 }
        capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: nil, count: size)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Adds an element. Producer thread only. Returns false, leaving the ring unchanged, when it is full.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let currentTail = tail.load(ordering: .relaxed)
        if currentTail - head.load(ordering: .acquiring) >= capacity { return false }
        slots[currentTail & mask] = element
        tail.store(currentTail + 1, ordering: .releasing)
        return true
    }

    /// Takes the oldest element. Consumer thread only. Nil when empty.
    func pop() -> Element? {
        let currentHead = head.load(ordering: .relaxed)
        if currentHead == tail.load(ordering: .acquiring) { return nil }
        let element = (slots + (currentHead & mask)).move()
        (slots + (currentHead & mask)).initialize(to: nil)
        head.store(currentHead + 1, ordering: .releasing)
        return element
    }

    /// How many elements are waiting (a snapshot; exact only on the consumer side).
    var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }
}
