/// One point of a piecewise-linear envelope.
public struct Breakpoint: Sendable, Equatable {
    /// Seconds from the start of the sound.
    public var time: Double
    /// Value on the envelope's 0…1 scale.
    public var value: Float

    /// Creates a breakpoint.
    public init(time: Double, value: Float) {
        self.time = time
        self.value = value
    }
}

/// Reduces a uniformly sampled envelope to few breakpoints whose straight lines stay within a tolerance
/// of every sample (the "feasible slope window" method: each segment grows while some line from its
/// first point passes within the tolerance of every sample so far; linear time, one pass).
/// - Important: Thread safety: any thread (pure functions). Real-time safe: no (builds arrays).
public enum BreakpointReducer {
    /// The breakpoints of `values` (sample i at time `start + i × step`), each sample within
    /// `tolerance` of the lines between them. The first and last samples are breakpoints.
    /// - Precondition: every value lies in 0…1 (the lines then do too).
    public static func reduce(_ values: [Float], start: Double, step: Double, tolerance: Float) -> [Breakpoint] {
        guard let first = values.first else { return [] }
        var points = [Breakpoint(time: start, value: first)]
        guard values.count > 1 else { return points }
        var anchorIndex = 0
        var anchorValue = first
        var low = -Float.infinity
        var high = Float.infinity
        func close(at index: Int) {
            // The feasible slope nearest the one that ends on the sample itself.
            let span = Float(index - anchorIndex)
            let slope = min(max((values[index] - anchorValue) / span, low), high)
            let value = min(max(anchorValue + slope * span, 0), 1)
            points.append(Breakpoint(time: start + Double(index) * step, value: value))
            anchorIndex = index
            anchorValue = value
        }
        var i = 1
        while i < values.count {
            let span = Float(i - anchorIndex)
            // Lines must pass within the tolerance of sample i and stay within 0…1 there.
            let lo = max(low, (max(values[i] - tolerance, 0) - anchorValue) / span)
            let hi = min(high, (min(values[i] + tolerance, 1) - anchorValue) / span)
            if lo > hi {
                close(at: i - 1)
                low = -Float.infinity
                high = Float.infinity
                continue  // sample i again, from the new anchor
            }
            low = lo
            high = hi
            i += 1
        }
        close(at: values.count - 1)
        return points
    }

    /// `reduce` with the tolerance raised (by factors of 1.25, up to 1) until at most `maxPoints`
    /// breakpoints remain (at least 2).
    /// - Returns: the breakpoints and the tolerance used.
    public static func reduce(
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
}
