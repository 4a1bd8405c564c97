/// The power spectrum of a block of real samples: a radix-2 complex FFT of half the size on the samples
/// taken in pairs, then the split step that separates the even and odd halves.
///
/// All tables and work buffers are allocated in `init` and freed by `deallocate()` (a plain struct of
/// pointers, so the render thread can hold it without reference counting); `powerSpectrum` allocates
/// nothing. Copies share the buffers: exactly one owner calls `deallocate()`, once.
/// - Important: Thread safety: one thread at a time (the work buffers are shared by copies). Real-time
///   safe: `powerSpectrum` yes; `init` and `deallocate` no.
struct RealFFT {
    /// Samples per transform (a power of two, ≥ 4).
    let size: Int
    /// Bins produced: `size / 2 + 1` (0 Hz … Nyquist).
    var binCount: Int { half + 1 }

    private let half: Int
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    private let reversed: UnsafeMutablePointer<Int32>
    /// e^(−2πi j / half), j < half / 2: the complex FFT's twiddles.
    private let twiddleRe: UnsafeMutablePointer<Float>
    private let twiddleIm: UnsafeMutablePointer<Float>
    /// e^(−2πi k / size), k < half: the split step's twiddles.
    private let splitRe: UnsafeMutablePointer<Float>
    private let splitIm: UnsafeMutablePointer<Float>

    /// Builds the tables for transforms of `size` samples.
    /// - Precondition: `size` is a power of two, at least 4.
    init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "RealFFT: size must be a power of two ≥ 4")
        self.size = size
        half = size / 2
        re = .allocate(capacity: half)
        im = .allocate(capacity: half)
        re.initialize(repeating: 0, count: half)
        im.initialize(repeating: 0, count: half)
        reversed = .allocate(capacity: half)
        let bits = half.trailingZeroBitCount
        for i in 0..<half {
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            (reversed + i).initialize(to: Int32(r))
        }
        let quarter = max(half / 2, 1)
        twiddleRe = .allocate(capacity: quarter)
        twiddleIm = .allocate(capacity: quarter)
        for j in 0..<quarter {
            let (s, c) = AnalysisMath.sinCos(cycles: Double(j) / Double(half))
            (twiddleRe + j).initialize(to: Float(c))
            (twiddleIm + j).initialize(to: Float(-s))
        }
        splitRe = .allocate(capacity: half)
        splitIm = .allocate(capacity: half)
        for k in 0..<half {
            let (s, c) = AnalysisMath.sinCos(cycles: Double(k) / Double(size))
            (splitRe + k).initialize(to: Float(c))
            (splitIm + k).initialize(to: Float(-s))
        }
    }

    /// Frees the tables and work buffers; the value (and every copy) is unusable afterwards.
    func deallocate() {
        re.deallocate()
        im.deallocate()
        reversed.deallocate()
        twiddleRe.deallocate()
        twiddleIm.deallocate()
        splitRe.deallocate()
        splitIm.deallocate()
    }

    /// Writes |X[k]|² for k = 0 … size/2 of the DFT X[k] = Σ x[n] e^(−2πi kn / size) into `power`.
    /// - Parameters:
    ///   - input: `size` samples (apply any window first).
    ///   - power: room for `binCount` values.
    func powerSpectrum(of input: UnsafePointer<Float>, into power: UnsafeMutablePointer<Float>) {
        // z[n] = x[2n] + i x[2n+1], loaded in bit-reversed order.
        for n in 0..<half {
            let r = Int(reversed[n])
            re[r] = input[2 &* n]
            im[r] = input[2 &* n &+ 1]
        }
        transformInPlace()
        // Split: X[k] = E[k] + W^k O[k], E = (Z[k] + Z*[M−k]) / 2, O = −i (Z[k] − Z*[M−k]) / 2.
        power[0] = (re[0] + im[0]) * (re[0] + im[0])
        power[half] = (re[0] - im[0]) * (re[0] - im[0])
        for k in 1..<half {
            let ar = re[k], ai = im[k]
            let br = re[half &- k], bi = -im[half &- k]
            let er = (ar + br) * 0.5, ei = (ai + bi) * 0.5
            let or = (ai - bi) * 0.5, oi = (br - ar) * 0.5
            let wr = splitRe[k], wi = splitIm[k]
            let xr = er + wr * or - wi * oi
            let xi = ei + wr * oi + wi * or
            power[k] = xr * xr + xi * xi
        }
    }

    /// Iterative radix-2 decimation-in-time FFT of (re, im), input already in bit-reversed order.
    private func transformInPlace() {
        var span = 1
        while span < half {
            let stride = half / (2 &* span)
            var start = 0
            while start < half {
                for j in 0..<span {
                    let wr = twiddleRe[j &* stride], wi = twiddleIm[j &* stride]
                    let a = start &+ j, b = a &+ span
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start &+= 2 &* span
            }
            span &*= 2
        }
    }
}
