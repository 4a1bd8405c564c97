// A radix-2 complex FFT and the spectra the analysis needs; plain arithmetic (Glibc's sin/cos for the twiddles).
import Glibc

/// An in-place radix-2 decimation-in-time FFT of length `count` (a power of two), on separate real and
/// imaginary arrays. Forward: X[k] = Σ x[n] e^(−2πikn/N); inverse: the same with +i, divided by N.
/// - Important: Thread safety: a value; any thread. Not for the render thread (the analysis runs offline).
struct FFT {
    let count: Int
    private let cosines: [Double]
    private let sines: [Double]

    /// - Precondition: `count` is a power of two ≥ 2.
    init(count: Int) {
        precondition(count >= 2 && count & (count - 1) == 0, "FFT: the length must be a power of two")
        self.count = count
        cosines = (0..<count / 2).map { cos(2 * Double.pi * Double($0) / Double(count)) }
        sines = (0..<count / 2).map { sin(2 * Double.pi * Double($0) / Double(count)) }
    }

    /// The smallest power of two ≥ `n`.
    static func size(atLeast n: Int) -> Int {
        var size = 2
        while size < n { size <<= 1 }
        return size
    }

    /// Transforms `re`, `im` (each `count` long) in place.
    func transform(_ re: inout [Double], _ im: inout [Double], inverse: Bool = false) {
        precondition(re.count == count && im.count == count)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                cosines.withUnsafeBufferPointer { c in
                    sines.withUnsafeBufferPointer { s in
                        run(r.baseAddress!, i.baseAddress!, c.baseAddress!, s.baseAddress!, inverse: inverse)
                    }
                }
            }
        }
        if inverse {
            let scale = 1 / Double(count)
            for k in 0..<count {
                re[k] *= scale
                im[k] *= scale
            }
        }
    }

    private func run(
        _ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>, _ c: UnsafePointer<Double>,
        _ s: UnsafePointer<Double>, inverse: Bool
    ) {
        let n = count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                swap(&re[i], &re[j])
                swap(&im[i], &im[j])
            }
        }
        let sign: Double = inverse ? 1 : -1
        var length = 2
        while length <= n {
            let half = length / 2
            let step = n / length
            var start = 0
            while start < n {
                for k in 0..<half {
                    let wr = c[k * step]
                    let wi = sign * s[k * step]
                    let a = start + k
                    let b = a + half
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start += length
            }
            length <<= 1
        }
    }
}

/// A complex number, for the response and its model.
struct Complex: Equatable {
    var re: Double
    var im: Double

    init(_ re: Double, _ im: Double) {
        self.re = re
        self.im = im
    }

    /// e^(iφ).
    static func unit(_ phase: Double) -> Complex { Complex(cos(phase), sin(phase)) }

    var magnitude: Double { (re * re + im * im).squareRoot() }
    var phase: Double { atan2(im, re) }

    static func * (a: Complex, b: Complex) -> Complex { Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    static func / (a: Complex, b: Complex) -> Complex {
        let d = b.re * b.re + b.im * b.im
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
    static func * (a: Complex, b: Double) -> Complex { Complex(a.re * b, a.im * b) }
}

/// The DTFT of `samples` (sample n at time (n + `offset`) / `rate`) at `frequency` Hz: Σ x[n] e^(−2πif(n+offset)/rate).
func spectrum(of samples: UnsafeBufferPointer<Double>, offset: Double, rate: Double, at frequency: Double) -> Complex {
    // A rotating phasor, renormalised now and then, instead of a sine and a cosine per sample.
    let step = -2 * Double.pi * frequency / rate
    let rotation = Complex.unit(step)
    var phasor = Complex.unit(step * offset)
    var sumRe = 0.0
    var sumIm = 0.0
    for (n, x) in samples.enumerated() {
        sumRe += x * phasor.re
        sumIm += x * phasor.im
        phasor = phasor * rotation
        if n & 1023 == 1023 { phasor = phasor * (1 / phasor.magnitude) }
    }
    return Complex(sumRe, sumIm)
}
