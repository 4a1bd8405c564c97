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

    /// Deconvolves `recording` (lined up with the playback's frames) by the sweep `signal` played, scaled by
    /// its amplitude, so that the response is captured ÷ played.
    init(recording: [Double], signal: TestSignal) {
        rate = signal.rate
        sweep = signal.sweep
        let tail = Int(0.6 * rate)
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
        // regularisation keeps noise from being amplified.
        let low = signal.sweep.lowFrequency * 1.1
        let high = signal.sweep.highFrequency / 1.1
        for k in 0..<size {
            let f = Double(min(k, size - k)) * rate / Double(size)
            let epsilon = peak * (f >= low && f <= high ? 1e-10 : 1)
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

    /// How long after the linear response (seconds) the linear window may reach: short of the second
    /// harmonic's response, which lies L ln 2 before it (circularly, after the end), and at most 0.3 s.
    var linearLength: Double { min(0.3, 0.45 * sweep.rateConstant * log(2.0)) }

    /// The linear response's window (10 ms before lag 0 to `linearLength` after).
    var linear: (samples: [Double], firstLag: Int) { window(center: 0, before: 0.01, after: linearLength) }

    /// The k-th harmonic's response window (k ≥ 2), as long as fits before the next one.
    func harmonic(_ k: Int) -> (samples: [Double], firstLag: Int) {
        let l = sweep.rateConstant
        let spacing = l * log(Double(k + 1) / Double(k))
        return window(center: -l * log(Double(k)) * rate, before: 0.01, after: min(linearLength, 0.45 * spacing))
    }

    /// A window of the same length as the linear one where the response holds only noise (after the
    /// linear response's window), for the noise level of the response.
    var noiseWindow: (samples: [Double], firstLag: Int) {
        window(center: (linearLength + 0.02) * rate, before: 0.01, after: linearLength)
    }

    /// The response of a window at `frequency` Hz (lags in frames: a phase of −2πf·lag/rate each).
    func response(_ window: (samples: [Double], firstLag: Int), at frequency: Double) -> Complex {
        window.samples.withUnsafeBufferPointer { spectrum(of: $0, offset: Double(window.firstLag), rate: rate, at: frequency) }
    }
}
