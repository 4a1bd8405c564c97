/// Something that happened to a player, reported without allocation through `Renderer.nextNotification()`.
package struct PlayerNotification: Sendable, Equatable, BitwiseCopyable {
    /// Why the player ended.
    package enum Reason: UInt8, Sendable, Equatable, BitwiseCopyable {
        /// All its events, release tails and files are done (and the pattern duration has passed).
        case finished
        /// `stopPlayer` ended it and its fade is done.
        case stopped
    }
    /// The instance that ended (its slot is free from now on).
    package var instance: InstanceID
    /// Engine frame at which its last sound ended (or its pattern duration, whichever is later).
    package var frame: UInt64
    /// Why it ended.
    package var reason: Reason
}

/// A fixed-capacity FIFO of notifications waiting to be read, allocated once; a full queue refuses more.
/// - Important: Thread safety: one thread at a time (the renderer's). Real-time safe: yes, except `init`/`deinit`.
struct NotificationQueue: ~Copyable {
    /// The most notifications held (≥ 1).
    let capacity: Int
    private let storage: UnsafeMutablePointer<PlayerNotification>
    private var head = 0
    private var count = 0

    /// Allocates room for `capacity` notifications. Control side.
    init(capacity: Int) {
        precondition(capacity >= 1, "NotificationQueue: capacity ≥ 1")
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(
            repeating: PlayerNotification(instance: InstanceID(slot: 0, generation: 0), frame: 0, reason: .finished),
            count: capacity)
    }

    deinit {
        storage.deinitialize(count: capacity)
        storage.deallocate()
    }

    /// Adds `notification` at the back; false (nothing changes) when full.
    mutating func push(_ notification: PlayerNotification) -> Bool {
        guard count < capacity else { return false }
        storage[(head + count) % capacity] = notification
        count += 1
        return true
    }

    /// Removes and returns the oldest notification, or nil.
    mutating func pop() -> PlayerNotification? {
        guard count > 0 else { return nil }
        let n = storage[head]
        head = (head + 1) % capacity
        count -= 1
        return n
    }
}
