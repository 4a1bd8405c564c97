/// Something queued for an exact engine frame (a transport command, an external parameter change).
protocol DueEntry {
    /// The engine frame at which it is due.
    var frame: Int { get }
    /// Queue order among entries due at the same frame: set by `DueList.append`, unique per list.
    var sequence: Int { get set }
}

/// A fixed-capacity list of entries waiting for their frame, taken earliest (frame, sequence) first.
///
/// Storage is allocated once in `init` and never grows: `append` refuses an entry when the list is full.
/// Entries are unordered in storage (removal moves the last entry into the hole); `(frame, sequence)` is a
/// total order, so the order in which entries are taken never depends on the storage order.
/// Internal and generic over a small protocol: the optimiser specialises it for each entry type within
/// this module (no dynamic dispatch in release builds).
/// - Important: Thread safety: one thread at a time (the renderer's). Real-time safe: yes, except `init`/`deinit`.
struct DueList<Entry: DueEntry>: ~Copyable {
    /// The most entries the list holds (≥ 1).
    let capacity: Int
    /// Entries held now, 0 … capacity.
    private(set) var count = 0
    private let storage: UnsafeMutablePointer<Entry>
    private var nextSequence = 0

    /// Allocates room for `capacity` entries. Control side.
    /// - Precondition: capacity ≥ 1.
    init(capacity: Int) {
        precondition(capacity >= 1, "DueList: capacity ≥ 1")
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds `entry`, stamping it with the next sequence number.
    /// - Returns: false (and changes nothing) when the list is full.
    mutating func append(_ entry: Entry) -> Bool {
        guard count < capacity else { return false }
        var stamped = entry
        stamped.sequence = nextSequence
        nextSequence &+= 1
        (storage + count).initialize(to: stamped)
        count += 1
        return true
    }

    /// Removes and returns the earliest entry (smallest frame, then smallest sequence) due at or before
    /// `now`, or nil when none is due.
    mutating func takeEarliest(dueBy now: Int) -> Entry? {
        var best = -1
        for i in 0..<count where storage[i].frame <= now {
            if best < 0 || storage[i].frame < storage[best].frame
                || (storage[i].frame == storage[best].frame && storage[i].sequence < storage[best].sequence)
            {
                best = i
            }
        }
        if best < 0 { return nil }
        let entry = storage[best]
        remove(at: best)
        return entry
    }

    /// Removes every entry for which `matches` is true.
    mutating func removeAll(where matches: (Entry) -> Bool) {
        var i = 0
        while i < count {
            if matches(storage[i]) { remove(at: i) } else { i += 1 }
        }
    }

    /// The earliest frame of any entry (`Int.max` when empty).
    var earliestFrame: Int {
        var earliest = Int.max
        for i in 0..<count { earliest = min(earliest, storage[i].frame) }
        return earliest
    }

    /// Moves the last entry into slot `i`.
    private mutating func remove(at i: Int) {
        count -= 1
        if i != count { storage[i] = storage[count] }
        (storage + count).deinitialize(count: 1)
    }
}
