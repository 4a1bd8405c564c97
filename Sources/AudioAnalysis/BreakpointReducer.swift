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

/// Reduces a uniformly sampled envelope to few breakpoints whose straight lines stay within a tolerance
/// of every sample (the "feasible slope window" method: each segment grows while some line from its
/// first point passes within the tolerance of every sample so far; linear time).
///
/// The first and last samples, and the first and last sample of every run of zeros, are kept exactly, so
/// silence stays exactly 0 and every rise starts from it.
/// - Important: Thread safety: any thread (pure functions). Real-time safe: no (builds arrays).
package enum BreakpointReducer {
    /// The breakpoints of `values` (sample i at time `start + i × step`), each sample within
    /// `tolerance` of the lines between them.
    /// - Precondition: every value lies in 0…1 (the lines then do too).
    package static func reduce(_ values: [Float], start: Double, step: Double, tolerance: Float) -> [Breakpoint] {
        guard let first = values.first else { return [] }
        var points = [Breakpoint(time: start, value: first)]
        // Exact anchors: the ends, and the ends of each run of zeros.
        var anchor = 0
        for i in 1..<values.count {
            let edgeOfZeros =
                values[i] == 0 && (values[i - 1] != 0 || (i + 1 < values.count && values[i + 1] != 0))
            if edgeOfZeros || i == values.count - 1 {
                reducePiece(values, from: anchor, to: i, start: start, step: step, tolerance: tolerance, into: &points)
                anchor = i
            }
        }
        return points
    }

    /// `reduce` with the tolerance raised (by factors of 1.25, up to 1) until at most `maxPoints`
    /// breakpoints remain (at least 2).
    /// - Returns: the breakpoints and the tolerance used.
    package static func reduce(
        _ values: [Float], start: Double, step: Double, tolerance: Float, maxPoints: Int
    ) -> (points: [Breakpoint], tolerance: Float) {
        var used = tolerance
        var points = reduce(values, start: start, step: step, tolerance: used)
        while points.count > max(maxPoints, 2) && used < 1 {
            used = min(used * 1.25, 1)
            points = reduce(values, start: start, step: step, tolerance: used)
        }
        return (points, used)
    }

    /// Appends the breakpoints after `values[first]` (already in `points`) up to and including exactly
    /// `values[last]`.
    private static func reducePiece(
        _ values: [Float], from first: Int, to last: Int, start: Double, step: Double, tolerance: Float,
        into points: inout [Breakpoint]
    ) {
        var anchorIndex = first
        var anchorValue = values[first]
        var low = -Float.infinity
        var high = Float.infinity
        func close(at index: Int, slope: Float) {
            let value = index == last ? values[last] : min(max(anchorValue + slope * Float(index - anchorIndex), 0), 1)
            points.append(Breakpoint(time: start + Double(index) * step, value: value))
            anchorIndex = index
            anchorValue = value
            low = -Float.infinity
            high = Float.infinity
        }
        var i = first + 1
        while i <= last {
            let span = Float(i - anchorIndex)
            // Lines must pass within the tolerance of sample i (exactly through the last) and stay in 0…1.
            let margin = i == last ? 0 : tolerance
            let lo = max(low, (max(values[i] - margin, 0) - anchorValue) / span)
            let hi = min(high, (min(values[i] + margin, 1) - anchorValue) / span)
            if lo > hi {
                // Close at the previous sample with the feasible slope nearest to ending on it.
                let previousSpan = Float(i - 1 - anchorIndex)
                close(at: i - 1, slope: min(max((values[i - 1] - anchorValue) / previousSpan, low), high))
                continue  // sample i again, from the new anchor
            }
            low = lo
            high = hi
            i += 1
        }
        close(at: last, slope: 0)
    }
}
