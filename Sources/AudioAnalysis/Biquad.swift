/// A second-order IIR filter section (transposed direct form II, Double state so low corners at high
/// sample rates stay accurate), designed with the RBJ audio-EQ formulas.
/// - Important: Thread safety: a value; one owner. Real-time safe: `process` yes; the designs too
///   (pure arithmetic), though they are meant for set-up.
struct Biquad {
    var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    var z1 = 0.0, z2 = 0.0

    /// The identity filter.
    static let passThrough = Biquad()

    /// Butterworth-like low-pass (Q = 1/√2) at `corner` Hz; the identity when the corner is at or above
    /// 0.45 × `sampleRate` (nothing to remove).
    static func lowPass(corner: Double, sampleRate: Double) -> Biquad {
        guard corner < 0.45 * sampleRate else { return .passThrough }
        let (s, c) = AnalysisMath.sinCos(cycles: corner / sampleRate)
        let alpha = s / (2 * 0.707_106_781_186_547_5)
        return normalised(b0: (1 - c) / 2, b1: 1 - c, b2: (1 - c) / 2, a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    /// Butterworth-like high-pass (Q = 1/√2) at `corner` Hz (> 0, below Nyquist).
    static func highPass(corner: Double, sampleRate: Double) -> Biquad {
        let (s, c) = AnalysisMath.sinCos(cycles: min(corner, 0.45 * sampleRate) / sampleRate)
        let alpha = s / (2 * 0.707_106_781_186_547_5)
        return normalised(b0: (1 + c) / 2, b1: -(1 + c), b2: (1 + c) / 2, a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    private static func normalised(b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double) -> Biquad {
        var f = Biquad()
        f.b0 = b0 / a0
        f.b1 = b1 / a0
        f.b2 = b2 / a0
        f.a1 = a1 / a0
        f.a2 = a2 / a0
        return f
    }

    /// Filters one sample.
    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}

extension Biquad {
    /// Sets state that has decayed below 1e-30 to exactly 0, so silence never reaches subnormal numbers.
    mutating func flushTinyState() {
        if abs(z1) < 1e-30 { z1 = 0 }
        if abs(z2) < 1e-30 { z2 = 0 }
    }
}

/// Four biquads side by side (one per SIMD lane), run on four inputs at once.
/// - Important: Thread safety: a value; one owner. Real-time safe: yes.
struct Biquad4 {
    private var b0: SIMD4<Double>, b1: SIMD4<Double>, b2: SIMD4<Double>, a1: SIMD4<Double>, a2: SIMD4<Double>
    private var z1 = SIMD4<Double>()
    private var z2 = SIMD4<Double>()

    /// The four filters `lanes[0]` … `lanes[3]` (their coefficients; state starts at 0).
    init(_ lanes: InlineArray<4, Biquad>) {
        b0 = SIMD4(lanes[0].b0, lanes[1].b0, lanes[2].b0, lanes[3].b0)
        b1 = SIMD4(lanes[0].b1, lanes[1].b1, lanes[2].b1, lanes[3].b1)
        b2 = SIMD4(lanes[0].b2, lanes[1].b2, lanes[2].b2, lanes[3].b2)
        a1 = SIMD4(lanes[0].a1, lanes[1].a1, lanes[2].a1, lanes[3].a1)
        a2 = SIMD4(lanes[0].a2, lanes[1].a2, lanes[2].a2, lanes[3].a2)
    }

    /// Filters one sample in each lane.
    @inline(__always)
    mutating func process(_ x: SIMD4<Double>) -> SIMD4<Double> {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Sets lanes whose state has decayed below 1e-30 to exactly 0 (no subnormal numbers in silence).
    mutating func flushTinyState() {
        z1.replace(with: 0, where: (z1 .< 1e-30) .& (z1 .> -1e-30))
        z2.replace(with: 0, where: (z2 .< 1e-30) .& (z2 .> -1e-30))
    }
}
