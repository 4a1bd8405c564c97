// From a recorded sweep to the loop's impulse responses: the linear one and the harmonic ones, by
// regularised spectral division (captured ÷ played), which separates them in time as Farina's inverse
// filter does (the k-th harmonic's response lies L ln k before the linear one).
import Glibc

/// The deconvolved loop: `samples[n]` is the response at lag n frames (circular: negative lags at the end),
/// in input units per unit of drive.
struct ImpulseResponse {
    let rate: Double
    let samples: [Double]
    let sweep: LogSweep
    /// Seconds of the recording after the sweep's end that the deconvolution takes (the response's tail;
    /// the clicks come later).
    static let tailSeconds = 0.5

    /// Deconvolves `recording` (lined up with the playback's frames) by the sweep `signal` played, scaled by
    /// its amplitude, so that the response is captured ÷ played.
    init(recording: [Double], signal: TestSignal) {
        rate = signal.rate
        sweep = signal.sweep
        let tail = Int(Self.tailSeconds * rate)
        let length = min(signal.reference.count + tail, recording.count - signal.sweepStart)
        let size = FFT.size(atLeast: signal.reference.count + tail)
        let fft = FFT(count: size)
        var yRe = [Double](repeating: 0, count: size)
        var yIm = [Double](repeating: 0, count: size)
        for n in 0..<max(length, 0) { yRe[n] = recording[signal.sweepStart + n] }
        var xRe = [Double](repeating: 0, count: size)
        var xIm = [Double](repeating: 0, count: size)
        for (n, x) in signal.reference.enumerated() { xRe[n] = x * signal.amplitude }
        fft.transform(&yRe, &yIm)
        fft.transform(&xRe, &xIm)
        var peak = 0.0
        for k in 0..<size { peak = max(peak, xRe[k] * xRe[k] + xIm[k] * xIm[k]) }
        // Inside the sweep's band the division is exact; outside it, where the sweep has no energy, the
        // regularisation keeps noise from being amplified, rising smoothly (half an octave) so the response
        // does not ring at the band's edges.
        let low = signal.sweep.lowFrequency
        let high = signal.sweep.highFrequency
        for k in 0..<size {
            let f = Double(min(k, size - k)) * rate / Double(size)
            var outside = 1.0
            if f >= low * 1.5 && f <= high / 1.5 {
                outside = 0
            } else if f > low && f < low * 1.5 {
                outside = 0.5 + 0.5 * cos(Double.pi * log(f / low) / log(1.5))
            } else if f > high / 1.5 && f < high {
                outside = 0.5 + 0.5 * cos(Double.pi * log(high / f) / log(1.5))
            }
            let epsilon = peak * (1e-10 + outside)
            let power = xRe[k] * xRe[k] + xIm[k] * xIm[k] + epsilon
            let re = (yRe[k] * xRe[k] + yIm[k] * xIm[k]) / power
            let im = (yIm[k] * xRe[k] - yRe[k] * xIm[k]) / power
            yRe[k] = re
            yIm[k] = im
        }
        fft.transform(&yRe, &yIm, inverse: true)
        samples = yRe
    }

    /// Lags from −`before` to `after` seconds around `center` (frames), with a half-Hann taper over the last
    /// fifth: the window's samples and the lag of its first one.
    func window(center: Double, before: Double, after: Double) -> (samples: [Double], firstLag: Int) {
        let first = Int((center - before * rate).rounded(.down))
        let count = Int(((before + after) * rate).rounded())
        let taper = max(1, count / 5)
        let size = samples.count
        let values = (0..<count).map { i -> Double in
            let lag = first + i
            let value = samples[((lag % size) + size) % size]
            let fromEnd = count - 1 - i
            return fromEnd < taper ? value * (0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(taper))) : value
        }
        return (values, first)
    }

    /// How long after lag 0 (seconds) the linear window reaches: 0.4 s, enough for the ring of a resonance
    /// of Q 20 at 100 Hz to die away, and short of the recording's tail the deconvolution took.
    static let linearLength = 0.4

    /// The linear response's window (10 ms before lag 0 to `linearLength` after). The harmonics' responses
    /// lie at negative lags (L ln k before it), outside it.
    var linear: (samples: [Double], firstLag: Int) { window(center: 0, before: 0.01, after: Self.linearLength) }

    /// The k-th harmonic's response window (k ≥ 2), as long as fits before the next one.
    func harmonic(_ k: Int) -> (samples: [Double], firstLag: Int) {
        let l = sweep.rateConstant
        let spacing = l * log(Double(k + 1) / Double(k))
        return window(center: -l * log(Double(k)) * rate, before: 0.01, after: min(Self.linearLength, 0.45 * spacing))
    }

    /// A window of the same length as the linear one where the response holds only noise (after the
    /// linear response's window), for the noise level of the response.
    var noiseWindow: (samples: [Double], firstLag: Int) {
        window(center: (Self.linearLength + 0.05) * rate, before: 0.01, after: Self.linearLength)
    }

    /// The response of a window at `frequency` Hz (lags in frames: a phase of −2πf·lag/rate each).
    func response(_ window: (samples: [Double], firstLag: Int), at frequency: Double) -> Complex {
        window.samples.withUnsafeBufferPointer { spectrum(of: $0, offset: Double(window.firstLag), rate: rate, at: frequency) }
    }
}
