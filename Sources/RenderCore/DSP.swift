// Small real-time-safe DSP helpers used by the voices and the mixer.
// Everything here is pure arithmetic: no allocation, no locks, no libm calls in the per-sample paths.

/// sin(2π·x) for a phase `x` in cycles, −0.5 ..< 1.5; absolute error about 1e-7.
///
/// Folds the phase into −¼…¼ cycle and evaluates the odd Taylor series to the 11th power.
/// - Important: Thread safety: any thread. Real-time safe: yes.
@inline(__always)
package func sinCycles(_ x: Float) -> Float {
    var y = x > 0.5 ? x - 1 : x
    y = y > 0.25 ? 0.5 - y : y
    y = y < -0.25 ? -0.5 - y : y
    let t = y * 6.283_185_307
    let t2 = t * t
    var r: Float = -2.505_210_8e-8
    r = r * t2 + 2.755_731_9e-6
    r = r * t2 - 1.984_127e-4
    r = r * t2 + 8.333_333_3e-3
    r = r * t2 - 0.166_666_67
    r = r * t2 + 1
    return t * r
}

/// 2^x for x in −126…126 (clamped), relative error about 2e-7. Used for pitch per sample without `pow`.
/// - Important: Thread safety: any thread. Real-time safe: yes.
@inline(__always)
package func fastExp2(_ x: Float) -> Float {
    let c = min(max(x, -126), 126)
    let i = c.rounded(.down)
    let u = (c - i - 0.5) * 0.693_147_18
    // e^u for |u| ≤ 0.347, Taylor to u^6.
    var r: Float = 1.0 / 720
    r = r * u + 1.0 / 120
    r = r * u + 1.0 / 24
    r = r * u + 1.0 / 6
    r = r * u + 0.5
    r = r * u + 1
    r = r * u + 1
    let scale = Float(bitPattern: UInt32(Int32(i) + 127) << 23)
    return r * 1.414_213_56 * scale
}

/// A memoryless soft limiter: identity up to `knee`, then a smooth rational saturation that approaches
/// but never exceeds ±1. Continuous, odd, monotonic, slope 1 at the knee.
///
/// Above the knee: y = knee + (1 − knee)·u / (1 + u), u = (|x| − knee) / (1 − knee).
/// - Important: Thread safety: any thread (a value). Real-time safe: yes.
public struct SoftLimiter: Sendable, Equatable {
    /// The level (0 < knee < 1) up to which the signal passes unchanged.
    public let knee: Float
    let range: Float
    let inverseRange: Float

    /// Creates a limiter; `knee` is clamped to 0.01…0.999 (NaN becomes 0.9).
    public init(knee: Float) {
        let k = min(max(knee.isNaN ? 0.9 : knee, 0.01), 0.999)
        self.knee = k
        range = 1 - k
        inverseRange = 1 / (1 - k)
    }

    /// The limited value of `x` (within −1…1).
    @inline(__always)
    public func apply(_ x: Float) -> Float {
        let a = abs(x)
        if a <= knee { return x }
        let u = (a - knee) * inverseRange
        let y = min(knee + range * (u / (1 + u)), 1)
        return x < 0 ? -y : y
    }

    /// Limits `count` samples in place.
    @inline(__always)
    public func apply(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let x = buffer[i]
            if abs(x) > knee { buffer[i] = apply(x) }
        }
    }
}
