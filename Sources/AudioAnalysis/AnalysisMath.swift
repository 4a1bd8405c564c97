// Elementary functions for the analysis, without Foundation or libm.
// The Double versions design filters and twiddle tables when a detector is built; `log2Fast` runs on the
// detector's control ticks (a few thousand times a second), never per sample.

/// Elementary functions used to design the detector's filters and FFT tables, and the cheap logarithm
/// used on its control ticks. Pure functions, no state.
/// - Important: Thread safety: any thread. Real-time safe: yes (no allocation, no locks).
enum AnalysisMath {
    static let pi = 3.141_592_653_589_793_238
    static let ln2 = 0.693_147_180_559_945_309
    /// ln 100: a one-pole smoother with time constant τ covers 99 % of a step in τ × ln 100.
    static let ln100 = 4.605_170_185_988_091_368

    /// e^x, relative error about 1e-15 (range reduction by powers of two, then Taylor); 0 below −700.
    static func exp(_ x: Double) -> Double {
        if x < -700 { return 0 }
        let n = (x / ln2).rounded()
        let r = x - n * ln2  // |r| ≤ ln2 / 2
        var term = 1.0
        var sum = 1.0
        for k in 1...20 {
            term *= r / Double(k)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(n), significand: 1)
    }

    /// The coefficient k of a one-pole smoother `y += k × (x − y)` with time constant `seconds` at `rate`
    /// updates per second: k = 1 − e^(−1/(τ × rate)); 1 (no smoothing) for τ ≤ 0.
    static func smoothing(seconds: Double, rate: Double) -> Double {
        seconds <= 0 ? 1 : 1 - exp(-1 / (seconds * rate))
    }

    /// 10^(decibels / 20): the linear amplitude of a level in dB.
    static func amplitude(decibels: Double) -> Double { exp(decibels / 20 * 2.302_585_092_994_045_684) }

    /// (sin 2πx, cos 2πx) for a phase `x` in cycles (any finite value), absolute error about 1e-16.
    static func sinCos(cycles x: Double) -> (sin: Double, cos: Double) {
        // Reduce to an eighth of a turn: x = q/4 + r with |r| ≤ 1/8.
        let turns = x - x.rounded(.down)
        let q = (turns * 4).rounded()
        let r = (turns - q / 4) * 2 * pi
        let r2 = r * r
        var s = 1.0
        var c = 1.0
        var ts = 1.0
        var tc = 1.0
        for k in 1...10 {
            ts *= -r2 / Double((2 * k) * (2 * k + 1))
            tc *= -r2 / Double((2 * k - 1) * (2 * k))
            s += ts
            c += tc
        }
        s *= r
        switch Int(q) & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// log2 of a positive finite `x`, absolute error below 1e-4 (exponent bits plus a polynomial of the
    /// mantissa). Values ≤ 0 or subnormal give the logarithm of the smallest normal Float (−126).
    @inline(__always)
    static func log2Fast(_ x: Float) -> Float {
        let v = max(x, Float.leastNormalMagnitude)
        let bits = v.bitPattern
        let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)  // 1 ≤ m < 2
        // log2(m) for m in [1, 2): odd series in t = (m − 1)/(m + 1), |t| ≤ 1/3.
        let t = (m - 1) / (m + 1)
        let t2 = t * t
        var p: Float = 2.0 / 9
        p = p * t2 + 2.0 / 7
        p = p * t2 + 2.0 / 5
        p = p * t2 + 2.0 / 3
        p = p * t2 + 2
        return exponent + p * t * 1.442_695_04
    }
}
