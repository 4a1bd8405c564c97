import FoundationEssentials

/// `.haptic` amplitude ramps linearly; Core Haptics ramps intensity linearly and plays amplitude =
/// intensity² (the square law). A ramp from intensity r₀ to r₁ squared sags (r₁ − r₀)²/4 below the straight
/// amplitude line at its middle, so cutting ramps into pieces of at most `maxStep` in intensity keeps the
/// two within `tolerance`. Conversions in both directions cut at the same step, so a converted ramp is
/// not cut again on the way back. Pure and thread-safe.
package enum IntensityRamps {
    /// How far (0…1 full scale) the played amplitude may stray from the amplitude line.
    package static let tolerance = 0.001
    /// The largest intensity step of one piece: 2√(0.9 × tolerance), so a piece sags at most 0.9 × tolerance
    /// and rounding cannot take it past the tolerance.
    package static let maxStep = 2 * (0.9 * tolerance).squareRoot()

    /// How many pieces a ramp from intensity `from` to `to` needs.
    package static func pieces(from: Double, to: Double) -> Int {
        max(1, Int((abs(to - from) / maxStep - 1e-9).rounded(.up)))
    }

    /// Intensity points (absolute times) through `amplitude` breakpoints whose linear ramps, squared, stay
    /// within `tolerance` of the straight lines between the breakpoints: √amplitude at each breakpoint,
    /// and inside each ramp the points where the amplitude line reaches equal intensity steps. `source` is
    /// the index of the breakpoint each point belongs to (a cut point belongs to the ramp's end).
    package static func points(_ amplitude: [(time: Double, value: Double)]) -> [(time: Double, value: Double, source: Int)] {
        var points: [(time: Double, value: Double, source: Int)] = []
        for (index, point) in amplitude.enumerated() {
            let root = max(point.value, 0).squareRoot()
            if index > 0 {
                let previous = amplitude[index - 1]
                let rootBefore = max(previous.value, 0).squareRoot()
                let count = pieces(from: rootBefore, to: root)
                if count > 1 && point.time > previous.time && point.value != previous.value {
                    for k in 1..<count {
                        let r = rootBefore + (root - rootBefore) * Double(k) / Double(count)
                        let fraction = (r * r - previous.value) / (point.value - previous.value)
                        points.append((previous.time + fraction * (point.time - previous.time), r, index))
                    }
                }
            }
            points.append((point.time, root, index))
        }
        return points
    }
}
