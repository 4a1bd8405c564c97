import FoundationEssentials
import Glibc

/// The curves of HJIF Curve bands, drawn as MPEG's reference synthesizer draws them: through keyframes at
/// whole sample offsets (the first at 0), one value per sample from 0 to the last keyframe's offset. The
/// interpolations (Hermite "cubic" with flat ends, linear, Akima, quadratic Bézier through pairs of
/// segments, quadratic B-spline) are the synthesizer's, so that a curve plays as it does there. Non-finite
/// values (keyframes at one offset) are 0. Pure and thread-safe.
enum HJIFCurves {
    /// The curve through `points` (offset in samples, value), `points.count` ≥ 2, by `type` (nil: cubic).
    static func samples(_ points: [(offset: Int, value: Double)], type: HJIFCurveType?) -> [Double] {
        guard let last = points.last, last.offset >= 0, points.count >= 2 else { return [] }
        var curve: [Double]
        if points.count == 2 {
            curve = segments(points, hermite: false)
        } else {
            switch type ?? .unknown {
            case .linear: curve = segments(points, hermite: false)
            case .cubic, .unknown: curve = segments(points, hermite: true)
            case .akima: curve = akima(points)
            case .bezier: curve = bezier(points)
            case .bspline: curve = bspline(points)
            }
        }
        return curve.map { $0.isFinite ? $0 : 0 }
    }

    /// Piecewise: for each sample offset t = 0, 1, … up to the last keyframe, the segment that holds it
    /// (the first whose end is at or after t), linear or Hermite with zero slopes at both keyframes.
    static func segments(_ points: [(offset: Int, value: Double)], hermite: Bool) -> [Double] {
        var curve: [Double] = []
        let end = points[points.count - 1].offset
        curve.reserveCapacity(end + 1)
        var t = 0
        var segment = 0
        while t < end {
            guard segment + 1 < points.count else { break }
            let (t0, f0) = (Double(points[segment].offset), points[segment].value)
            let (t1, f1) = (Double(points[segment + 1].offset), points[segment + 1].value)
            let h = t1 - t0
            while Double(t) <= t1 {
                let x = Double(t)
                curve.append(
                    hermite ? f0 + (f1 - f0) * (3 * h + 2 * (t0 - x)) * (x - t0) * (x - t0) / (h * h * h)
                        : (f0 * (t1 - x) + f1 * (x - t0)) / (t1 - t0))
                t += 1
            }
            segment += 1
        }
        return curve
    }

    /// Akima's spline: slopes from the neighbouring chords, weighted by how much they change.
    static func akima(_ points: [(offset: Int, value: Double)]) -> [Double] {
        let n = points.count
        let x: [Double] = points.map { Double($0.offset) }
        let y: [Double] = points.map(\.value)
        var m: [Double] = []
        for i in 0..<(n - 1) { m.append((y[i + 1] - y[i]) / (x[i + 1] - x[i])) }
        // The chords with two made-up ones at each end.
        var chords: [Double] = [3 * m[0] - 2 * m[1], 2 * m[0] - m[1]]
        chords += m
        let end1: Double = 2 * m[n - 2] - m[n - 3]
        let end2: Double = 3 * m[n - 2] - 2 * m[n - 3]
        chords += [end1, end2]
        var changes: [Double] = []
        for i in 0..<(chords.count - 1) { changes.append(abs(chords[i + 1] - chords[i])) }
        var slopes: [Double] = []
        var largest: Double = -100
        for i in 0..<n {
            slopes.append(chords[i + 1])
            largest = max(largest, changes[i + 2] + changes[i])
        }
        for i in 0..<n {
            let after: Double = changes[i + 2]
            let before: Double = changes[i]
            let total: Double = after + before
            if total > 1e-8 * largest {
                slopes[i] = (after * chords[i + 1] + before * chords[i + 2]) / total
            }
        }
        let end = points[n - 1].offset
        var curve = [Double](repeating: 0, count: end + 1)
        var index = 0
        var c: Double = 0
        var d: Double = 0
        for i in 0..<(n - 1) {
            let dx: Double = x[i + 1] - x[i]
            c = (3 * m[i] - 2 * slopes[i] - slopes[i + 1]) / dx
            d = (slopes[i] + slopes[i + 1] - 2 * m[i]) / (dx * dx)
            for _ in points[i].offset..<max(points[i].offset, points[i + 1].offset) where index <= end {
                let u: Double = Double(index) - x[i]
                curve[index] = ((u * d + c) * u + slopes[i]) * u + y[i]
                index += 1
            }
        }
        // The last keyframe, on the last piece's cubic (its value there when the offsets rise).
        if index <= end {
            let u: Double = Double(index) - x[n - 1]
            curve[index] = ((u * d + c) * u + slopes[n - 1]) * u + y[n - 1]
        }
        return curve
    }

    /// Quadratic Bézier pieces through keyframes 0–1–2, 2–3–4, … (an even count drops the last keyframe):
    /// at each sample, the Bézier parameter whose x is that sample.
    static func bezier(_ points: [(offset: Int, value: Double)]) -> [Double] {
        var size = points.count
        if size % 2 == 0 { size -= 1 }
        var curve: [Double] = []
        var i = 0
        while i < size - 1 {
            let dx1 = Double(points[i + 1].offset - points[i].offset + 1)
            let dx2 = Double(points[i + 2].offset - points[i].offset + 1)
            let (f0, f1, f2) = (points[i].value, points[i + 1].value, points[i + 2].value)
            let denominator = 1 - 2 * dx1 + dx2
            var j = 1.0
            while j < dx2 {
                let t =
                    denominator != 0
                    ? (1 - dx1 + (dx1 * dx1 - 2 * j * dx1 + j + j * dx2 - dx2).squareRoot()) / denominator
                    : (1 - j) / (2 * (1 - dx1))
                curve.append((1 - t) * (1 - t) * f0 + 2 * (1 - t) * t * f1 + t * t * f2)
                j += 1
            }
            i += 2
        }
        curve.append(points[size - 1].value)
        return curve
    }

    /// The quadratic B-spline with the keyframes as control points (clamped uniform knots): at each sample,
    /// the spline where its x first reaches the sample, found in parameter steps of 1 / (10 × length).
    static func bspline(_ points: [(offset: Int, value: Double)]) -> [Double] {
        let p = points.count
        let n = points[p - 1].offset
        var knots = [Double](repeating: 0, count: p + 3)
        for i in 0..<(p - 1) { knots[i + 2] = Double(i) / Double(p - 2) }
        knots[p + 1] = 1
        knots[p + 2] = 1
        var curve = [Double](repeating: 0, count: n + 1)
        curve[0] = points[0].value
        var t0 = 0.0
        var k = 0
        var reached = 0.0
        /// De Boor's evaluation of coordinate `value` at `t0` in the span ending at knot `k`.
        func deBoor(_ value: (Int) -> Double) -> Double {
            var level = [value(k - 3), value(k - 2), value(k - 1)]
            for i in 1..<3 {
                for j in stride(from: 2, through: i, by: -1) {
                    let num = t0 - knots[k - 3 + j]
                    let weight = num == 0 ? 0 : num / (knots[k + j - i] - knots[k - 3 + j])
                    level[j] = (1 - weight) * level[j - 1] + weight * level[j]
                }
            }
            return level[2]
        }
        for m in stride(from: 1, to: n, by: 1) {
            while reached < Double(m) {
                t0 += 1 / Double(n) / 10
                k = 0
                while k < knots.count && t0 >= knots[k] { k += 1 }
                guard k >= 3, k < knots.count else { return curve }
                reached = deBoor { Double(points[$0].offset) }
            }
            curve[m] = deBoor { points[$0].value }
        }
        curve[n] = points[p - 1].value
        return curve
    }
}
