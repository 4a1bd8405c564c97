// The analysis of one recorded run: the response, the fitted resonance, the band, the distortion, the
// noise floor and SNR, and the latency of each click.
import Glibc
import RenderCore

struct ResponseAnalysis {
    let recording: LoopRecording
    let signal: TestSignal
    let profile: ActuatorProfile
    let impulse: ImpulseResponse

    init(recording: LoopRecording, signal: TestSignal, profile: ActuatorProfile) {
        self.recording = recording
        self.signal = signal
        self.profile = profile
        impulse = ImpulseResponse(recording: recording.samples, signal: signal)
    }

    /// RMS of the recording over `range`.
    private func rms(_ range: Range<Int>) -> Double {
        let clamped = max(range.lowerBound, 0)..<min(range.upperBound, recording.samples.count)
        guard !clamped.isEmpty else { return 0 }
        return (recording.samples[clamped].reduce(0) { $0 + $1 * $1 } / Double(clamped.count)).squareRoot()
    }

    func result(input: String) throws(MeasurementError) -> MeasurementResult {
        let rate = signal.rate
        var warnings: [String] = []
        let noise = rms(signal.noise)
        let sweepRange = signal.sweepStart..<(signal.sweepStart + signal.reference.count)
        let sweepPower = max(rms(sweepRange) * rms(sweepRange) - noise * noise, 0)
        let snr = 10 * log10(max(sweepPower, 1e-30) / max(noise * noise, 1e-30))
        if sweepPower == 0 || snr < ActuatorMeasurement.silentSNR {
            throw .silent(
                "the sweep came back from input '\(input)' no louder than its noise (SNR \(format(snr, 1)) dB); check the "
                    + "sensor's wiring and the input's gain, and that the actuator is on a haptic channel of --channels")
        }
        // The response at the report's points, and the noise in it (the same window where the response is over).
        let linear = impulse.linear
        let noiseWindow = impulse.noiseWindow
        let frequencies = ActuatorMeasurement.responseFrequencies
        let measured = frequencies.map { impulse.response(linear, at: $0) }
        let noiseLevel = frequencies.map { impulse.response(noiseWindow, at: $0).magnitude }
        let noiseFloorOfResponse = max(noiseLevel.sorted()[noiseLevel.count / 2], 1e-30)
        let weights = measured.map { h -> Double in
            let p = h.magnitude * h.magnitude
            let n = 100 * noiseFloorOfResponse * noiseFloorOfResponse  // 20 dB above the noise: full weight
            return p / (p + n)
        }
        guard let fit = ResonanceFit.fit(frequencies: frequencies, measured: measured, weights: weights) else {
            throw .noisy("the response from input '\(input)' stands out of its noise at too few frequencies to fit")
        }
        if snr < ActuatorMeasurement.noisySNR {
            warnings.append("input too noisy: SNR \(format(snr, 1)) dB (under \(Int(ActuatorMeasurement.noisySNR)) dB); the figures are doubtful")
        }
        let points = zip(frequencies, measured).map { f, h in
            var phase = (h * Complex.unit(2 * Double.pi * f * fit.delay)).phase * 180 / Double.pi
            if phase <= -180 { phase += 360 }
            return ResponsePoint(hz: f, magnitudeDB: 20 * log10(max(h.magnitude, 1e-30)), phaseDegrees: phase)
        }
        let band = threeDecibelBand(linear)
        let thd = distortion(at: fit.f0, linear: linear)
        let inBand = fit.f0 >= profile.lowFrequency && fit.f0 <= profile.highFrequency
        let groupFrequency = inBand ? fit.f0 : (profile.lowFrequency * profile.highFrequency).squareRoot()
        let actuatorDelay = fit.groupDelay(at: groupFrequency)
        let clicks = clickLatencies(linear: linear).map { $0 / rate + fit.delay + actuatorDelay }
        let sorted = clicks.sorted()
        let median = sorted.isEmpty ? fit.delay + actuatorDelay : sorted[sorted.count / 2]
        let p99 = sorted.isEmpty ? median : sorted[min(sorted.count - 1, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
        let mean = clicks.reduce(0, +) / Double(max(clicks.count, 1))
        let jitter = (clicks.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(clicks.count - 1, 1))).squareRoot()
        return MeasurementResult(
            latency: LatencyFigures(
                median: median, p99: p99, jitter: jitter, device: fit.delay, actuator: actuatorDelay,
                atFrequency: groupFrequency, clicks: clicks),
            resonance: fit.f0, q: fit.q, model: fit.model, band: band, response: points, thdPercent: thd,
            noiseFloorDBFS: 20 * log10(max(noise, 1e-30)), snrDB: snr, driveDBFS: 20 * log10(signal.amplitude),
            sampleRate: Int(rate), warnings: warnings)
    }

    /// The band around the strongest response (20 Hz – 1 kHz, 1/48 octave) within 3 dB of it.
    private func threeDecibelBand(_ linear: (samples: [Double], firstLag: Int)) -> (low: Double, high: Double) {
        let grid = (0..<271).map { 20 * pow(50.0, Double($0) / 270) }
        let level = grid.map { 20 * log10(max(impulse.response(linear, at: $0).magnitude, 1e-30)) }
        guard let peak = level.indices.max(by: { level[$0] < level[$1] }) else { return (20, 1000) }
        let edge = level[peak] - 3
        func crossing(_ inner: Int, _ outer: Int) -> Double {
            let t = (level[inner] - edge) / max(level[inner] - level[outer], 1e-12)
            return exp(log(grid[inner]) + t * (log(grid[outer]) - log(grid[inner])))
        }
        var low = grid[0]
        var i = peak
        while i > 0 {
            if level[i - 1] < edge {
                low = crossing(i, i - 1)
                break
            }
            i -= 1
        }
        var high = grid[grid.count - 1]
        i = peak
        while i < grid.count - 1 {
            if level[i + 1] < edge {
                high = crossing(i, i + 1)
                break
            }
            i += 1
        }
        return (low, high)
    }

    /// THD at `f0`, percent: the 2nd to 5th harmonics' responses at k·f0 over the linear response at f0
    /// (each harmonic's deconvolved response at k·f0 is its amplitude when the drive is at f0).
    private func distortion(at f0: Double, linear: (samples: [Double], firstLag: Int)) -> Double {
        let fundamental = impulse.response(linear, at: f0).magnitude
        guard fundamental > 0 else { return 0 }
        var sum = 0.0
        for k in 2...5 where Double(k) * f0 < signal.sweep.highFrequency * 0.9 {
            let h = impulse.response(impulse.harmonic(k), at: Double(k) * f0).magnitude
            sum += h * h
        }
        return 100 * sum.squareRoot() / fundamental
    }

    /// Each click's arrival against the response the sweep predicts for it, in frames (positive: later):
    /// the lag of the cross-correlation's peak within ±2 ms, to a fraction of a frame.
    private func clickLatencies(linear: (samples: [Double], firstLag: Int)) -> [Double] {
        guard !signal.clickStarts.isEmpty else { return [] }
        // The predicted response to one click: the click convolved with the linear response.
        let click = signal.click.map { $0 * signal.amplitude }
        var predicted = [Double](repeating: 0, count: linear.samples.count + click.count)
        for (i, c) in click.enumerated() {
            for (j, h) in linear.samples.enumerated() { predicted[i + j] += c * h }
        }
        // Only where it carries energy (99.9 % of it), so the noise elsewhere does not count.
        let energy = predicted.reduce(0) { $0 + $1 * $1 }
        var cumulative = 0.0
        var last = predicted.count
        for (i, p) in predicted.enumerated() {
            cumulative += p * p
            if cumulative >= 0.999 * energy {
                last = i + 1
                break
            }
        }
        let shape = Array(predicted[0..<last])
        let reach = Int((0.002 * signal.rate).rounded())
        return recording.samples.withUnsafeBufferPointer { y in
            signal.clickStarts.compactMap { start -> Double? in
                let origin = start + linear.firstLag
                var scores: [Double] = []
                for lag in -reach...reach {
                    var sum = 0.0
                    for (n, p) in shape.enumerated() {
                        let index = origin + n + lag
                        if index >= 0 && index < y.count { sum += y[index] * p }
                    }
                    scores.append(sum)
                }
                guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), best > 0, best < scores.count - 1
                else { return nil }
                let (a, b, c) = (scores[best - 1], scores[best], scores[best + 1])
                let denominator = a - 2 * b + c
                let offset = denominator == 0 ? 0 : 0.5 * (a - c) / denominator
                return Double(best - reach) + offset
            }
        }
    }
}

/// `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value > 0 ? "inf" : "-inf" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded() / scale
    let sign = value < 0 && rounded != 0 ? "-" : ""
    let whole = Int(rounded)
    var text = "\(sign)\(whole)"
    if digits > 0 {
        let fraction = Int(((rounded - Double(whole)) * scale).rounded())
        let digitsText = String(fraction)
        text += "." + String(repeating: "0", count: max(0, digits - digitsText.count)) + digitsText
    }
    return text
}
