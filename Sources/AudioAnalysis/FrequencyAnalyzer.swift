/// The sharpness (`.haptic` frequency) envelope of a whole sound: the spectral centroid of the spectrum
/// below a brick-wall low-pass, in the actuator's band, mapped linearly onto the output range.
///
/// Windows of `fftSize` samples (Hann) every `fftSize / overlap` samples, each centred on its time
/// (zeros before the start and after the end). The centroid is the magnitude-weighted mean frequency
/// of the bins from the first above 0 Hz to the last below `centroidLowpass`; it maps
/// `frequencyMin` → `frequencyOutputMin` and `frequencyMax` → `frequencyOutputMax`, clamped to 0…1.
/// A window quieter than −70 dBFS, or than `floor` dB under the loudest window, carries no pitch: it
/// holds the value heard last (before any sound, the first heard), so silence costs no breakpoints.
///
/// The design follows Meta Haptics Studio's frequency analysis (meta-haptics-sdk,
/// `audio_analysis/src/spectrum_analysis.rs` and `frequency_analyzer.rs`, MIT); the code is Thrum's.
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
enum FrequencyAnalyzer {
    /// The values at times 0, hop, 2 × hop, … over the sound (`channels` interleaved, averaged), one per
    /// window, the last at or after the end; and the hop in frames.
    static func analyze(
        samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Double, settings: AnalysisSettings
    ) -> (values: [Float], hop: Int) {
        let frames = samples.count / channels
        let scale = 1 / Float(channels)
        @inline(__always) func mono(_ frame: Int) -> Float {
            if channels == 1 { return samples[frame] }
            var sum: Float = 0
            for c in 0..<channels { sum += samples[frame &* channels &+ c] }
            return sum * scale
        }
        let size = settings.fftSize
        let hop = max(1, size / settings.overlap)
        let fft = RealFFT(size: size)
        defer { fft.deallocate() }
        let work = UnsafeMutablePointer<Float>.allocate(capacity: size)
        let power = UnsafeMutablePointer<Float>.allocate(capacity: fft.binCount)
        defer {
            work.deallocate()
            power.deallocate()
        }
        var window = [Float](repeating: 0, count: size)
        for i in 0..<size { window[i] = Float(0.5 - 0.5 * AnalysisMath.sinCos(cycles: Double(i) / Double(size)).cos) }
        let binHz = sampleRate / Double(size)
        let lastBin = min(size / 2, max(1, Int((settings.centroidLowpass / binHz).rounded(.up)) - 1))
        let count = frames == 0 ? 1 : (frames + hop - 1) / hop + 1
        var centroids = [Float](repeating: -1, count: count)
        var energies = [Float](repeating: 0, count: count)
        for j in 0..<count {
            let first = j * hop - size / 2
            let low = max(0, -first)
            let high = min(size, frames - first)
            if high <= low {
                work.update(repeating: 0, count: size)
            } else {
                for i in 0..<low { work[i] = 0 }
                for i in low..<high { work[i] = mono(first + i) * window[i] }
                for i in high..<size { work[i] = 0 }
            }
            fft.powerSpectrum(of: work, into: power)
            var total: Float = 0
            var moment: Float = 0
            var energy: Float = 0
            for k in 1...lastBin {
                let magnitude = power[k].squareRoot()
                energy += power[k]
                total += magnitude
                moment += magnitude * Float(k)
            }
            energies[j] = energy
            if total > 0 { centroids[j] = Float(Double(moment / total) * binHz) }
        }
        // Σ|X|² of a Hann-windowed signal of mean square m is about m × n² × 3/8 (one side); −70 dBFS.
        let absolute = Float(1e-7) * Float(size * size) * 3 / 8
        let loudest = energies.max() ?? 0
        let floorRatio = Float(AnalysisMath.amplitude(decibels: settings.floor))
        let relative = loudest * floorRatio * floorRatio
        let silent = max(absolute, relative)
        let span = settings.frequencyMax - settings.frequencyMin
        let outputSpan = settings.frequencyOutputMax - settings.frequencyOutputMin
        func mapped(_ hz: Float) -> Float {
            let u = (Double(hz) - settings.frequencyMin) / span
            return Float(min(max(settings.frequencyOutputMin + u * outputSpan, 0), 1))
        }
        guard let firstHeard = energies.indices.first(where: { energies[$0] > silent && centroids[$0] >= 0 }) else {
            return ([Float](repeating: mapped(Float(settings.frequencyMin)), count: count), hop)
        }
        var values = [Float](repeating: 0, count: count)
        var held = mapped(centroids[firstHeard])
        for j in 0..<count {
            if energies[j] > silent && centroids[j] >= 0 { held = mapped(centroids[j]) }
            values[j] = held
        }
        return (values, hop)
    }
}
