/// One point of a piecewise-linear envelope.
package struct Breakpoint: Sendable, Equatable {
    /// Seconds from the start of the sound.
    package var time: Double
    /// Value on the envelope's 0…1 scale.
    package var value: Float

    /// Creates a breakpoint.
    package init(time: Double, value: Float) {
        self.time = time
        self.value = value
    }
}

/// Reduces an envelope to its most significant breakpoints, as Meta Haptics Studio does
/// (meta-haptics-sdk, `audio_analysis/src/breakpoint_reduction.rs`, MIT; the code is Thrum's):
/// Visvalingam–Whyatt simplification in consecutive regions of one second.
///
/// In each region (the points from `start + k` seconds up to, not including, `start + k + 1`, `start`
/// the first point's time), the point whose triangle with its two neighbours has the smallest area is
/// removed, again and again, until at most `perRegion` points remain (a region's first and last points
/// always stay). Then, as Haptics Studio does, every point that formed a triangle of (doubled) area
/// below `minimumScore` during the reduction is dropped (this clears silence and straight runs). Last,
/// Thrum's own `tolerance`: the point nearest the straight line between its neighbours is dropped, again
/// and again, while it lies within `tolerance` of that line.
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
package enum BreakpointReducer {
    /// The indices of `points` kept, ascending.
    package static func reduce(
        _ points: [Breakpoint], perRegion: Int, minimumScore: Float, tolerance: Float, regionSeconds: Double = 1
    ) -> [Int] {
        guard let first = points.first else { return [] }
        var kept: [Int] = []
        kept.reserveCapacity(min(points.count, Int(((points.last?.time ?? 0) - first.time) / regionSeconds + 1) * perRegion))
        var start = 0
        var regionEnd = first.time + regionSeconds
        while start < points.count {
            var end = start
            while end < points.count && points[end].time < regionEnd { end += 1 }
            if end > start {
                reduceRegion(points, start..<end, perRegion: perRegion, minimumScore: minimumScore, tolerance: tolerance, into: &kept)
            }
            regionEnd += regionSeconds
            start = end
        }
        return kept
    }

    /// Appends the kept indices of `points[range]` to `kept`.
    private static func reduceRegion(
        _ points: [Breakpoint], _ range: Range<Int>, perRegion: Int, minimumScore: Float, tolerance: Float,
        into kept: inout [Int]
    ) {
        let count = range.count
        let base = range.lowerBound
        guard count > 2 else {
            kept.append(contentsOf: range)
            return
        }
        // A doubly linked list over the region's points; -1 and `count` are the edges.
        var previous = (0..<count).map { $0 - 1 }
        var next = (0..<count).map { $0 + 1 }
        var alive = [Bool](repeating: true, count: count)
        func area(_ left: Int, _ mid: Int, _ right: Int) -> Float {
            let l = points[base + left], m = points[base + mid], r = points[base + right]
            return abs(Float(l.time - m.time) * (r.value - m.value) - Float(r.time - m.time) * (l.value - m.value))
        }
        var heap = TriangleHeap()
        for mid in 1..<(count - 1) { heap.push(Triangle(score: area(mid - 1, mid, mid + 1), left: mid - 1, mid: mid, right: mid + 1)) }
        var remaining = count
        func remove(_ mid: Int) {
            alive[mid] = false
            next[previous[mid]] = next[mid]
            previous[next[mid]] = previous[mid]
            remaining -= 1
        }
        while remaining > perRegion, let smallest = heap.pop() {
            let mid = smallest.mid
            guard alive[mid], previous[mid] == smallest.left, next[mid] == smallest.right else { continue }
            remove(mid)
            for side in 0..<2 {
                let neighbour = side == 0 ? smallest.left : smallest.right
                guard previous[neighbour] >= 0 && next[neighbour] < count else { continue }
                heap.push(Triangle(score: area(previous[neighbour], neighbour, next[neighbour]),
                    left: previous[neighbour], mid: neighbour, right: next[neighbour]))
            }
        }
        // Haptics Studio's minimum score: every triangle still waiting below it drops its middle point.
        while let smallest = heap.peek(), smallest.score < minimumScore {
            _ = heap.pop()
            alive[smallest.mid] = false
        }
        var survivors = (0..<count).filter { alive[$0] }
        if tolerance > 0 { survivors = thin(points, survivors.map { base + $0 }, tolerance: tolerance).map { $0 - base } }
        kept.append(contentsOf: survivors.map { base + $0 })
    }

    /// The indices (into `points`) of `indices` left after dropping, nearest first, every inner point
    /// within `tolerance` of the line between its neighbours.
    private static func thin(_ points: [Breakpoint], _ indices: [Int], tolerance: Float) -> [Int] {
        let count = indices.count
        guard count > 2 else { return indices }
        var previous = (0..<count).map { $0 - 1 }
        var next = (0..<count).map { $0 + 1 }
        var alive = [Bool](repeating: true, count: count)
        func distance(_ left: Int, _ mid: Int, _ right: Int) -> Float {
            let l = points[indices[left]], m = points[indices[mid]], r = points[indices[right]]
            let span = r.time - l.time
            let line = span > 0 ? l.value + Float((m.time - l.time) / span) * (r.value - l.value) : l.value
            return abs(m.value - line)
        }
        var heap = TriangleHeap()
        for mid in 1..<(count - 1) { heap.push(Triangle(score: distance(mid - 1, mid, mid + 1), left: mid - 1, mid: mid, right: mid + 1)) }
        while let nearest = heap.pop(), nearest.score <= tolerance {
            let mid = nearest.mid
            guard alive[mid], previous[mid] == nearest.left, next[mid] == nearest.right else { continue }
            alive[mid] = false
            next[previous[mid]] = next[mid]
            previous[next[mid]] = previous[mid]
            for side in 0..<2 {
                let neighbour = side == 0 ? nearest.left : nearest.right
                guard previous[neighbour] >= 0 && next[neighbour] < count else { continue }
                heap.push(Triangle(score: distance(previous[neighbour], neighbour, next[neighbour]),
                    left: previous[neighbour], mid: neighbour, right: next[neighbour]))
            }
        }
        return (0..<count).filter { alive[$0] }.map { indices[$0] }
    }
}

/// A point's triangle with its neighbours (indices within a region) and its score.
struct Triangle {
    var score: Float
    var left: Int
    var mid: Int
    var right: Int

    /// Heap order: the lower score first, ties by the leftmost point, then the middle one (so the result
    /// does not depend on the heap's history).
    func precedes(_ other: Triangle) -> Bool {
        score != other.score ? score < other.score : left != other.left ? left < other.left : mid < other.mid
    }
}

/// A binary min-heap of triangles.
struct TriangleHeap {
    private var items: [Triangle] = []

    func peek() -> Triangle? { items.first }

    mutating func push(_ triangle: Triangle) {
        items.append(triangle)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].precedes(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Triangle? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && items[left].precedes(items[smallest]) { smallest = left }
                if right < items.count && items[right].precedes(items[smallest]) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
