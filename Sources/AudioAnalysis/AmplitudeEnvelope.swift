/// The offline amplitude envelope, as Meta Haptics Studio computes it (meta-haptics-sdk,
/// `audio_analysis/src/amplitude_analyzer.rs` and `audio_preprocessing.rs`, MIT; the code is Thrum's):
///
/// 1. The sound is mixed to mono (channels averaged), its mean (DC) removed, then either scaled so its
///    highest sample is at `normalizeLevel` dBFS (`normalize`) or not; `gain` dB is applied after.
/// 2. The RMS over a moving window of `rmsWindow` seconds (rounded to whole samples; 0: each sample's
///    magnitude) drives an attack / hold / release follower whose stages reach 99 % of a step in
///    `attack` and `release` seconds and which holds a peak for `hold` seconds before releasing.
/// 3. The follower's value is taken every `timeBetweenUpdates` seconds: at the first sample at or after
///    each multiple of it, the last at or after the end of the sound (silence is fed past the end),
///    clipped to 1.
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
enum AmplitudeEnvelope {
    /// The mono sound, DC removed, normalised or not, with the gain applied.
    static func preprocess(samples: UnsafeBufferPointer<Float>, channels: Int, settings: AnalysisSettings) -> [Float] {
        let frames = samples.count / channels
        var mono = [Float](repeating: 0, count: frames)
        if channels == 1 {
            for i in 0..<frames { mono[i] = samples[i] }
        } else {
            let scale = 1 / Float(channels)
            for i in 0..<frames {
                var sum: Float = 0
                for c in 0..<channels { sum += samples[i &* channels &+ c] }
                mono[i] = sum * scale
            }
        }
        guard frames > 0 else { return mono }
        var total = 0.0
        var peak: Float = 0
        for x in mono {
            total += Double(x)
            peak = max(peak, abs(x))
        }
        let mean = Float(total / Double(frames))
        var factor = Float(AnalysisMath.amplitude(decibels: settings.gain))
        // As Haptics Studio does: the highest magnitude before the DC is removed, less the mean.
        if settings.normalize, peak - mean > 0 {
            factor *= Float(AnalysisMath.amplitude(decibels: settings.normalizeLevel)) / (peak - mean)
        }
        for i in 0..<frames { mono[i] = (mono[i] - mean) * factor }
        return mono
    }

    /// The envelope's points: times in seconds (ascending, the first after 0) and values 0…1.
    static func points(mono: [Float], sampleRate: Double, settings: AnalysisSettings) -> (times: [Double], values: [Float]) {
        let frames = mono.count
        let window = max(0, Int((settings.rmsWindow * sampleRate).rounded()))
        let ring = UnsafeMutablePointer<Double>.allocate(capacity: max(window, 1))
        ring.initialize(repeating: 0, count: max(window, 1))
        defer { ring.deallocate() }
        func coefficient(_ seconds: Double) -> Double {
            seconds <= 0 ? 0 : AnalysisMath.exp(-AnalysisMath.ln100 / (seconds * sampleRate))  // 0.01^(1/samples)
        }
        let attack = coefficient(settings.attack)
        let release = coefficient(settings.release)
        let holdSamples = Int(settings.hold * sampleRate)
        let step = settings.timeBetweenUpdates * sampleRate
        var times: [Double] = []
        var values: [Float] = []
        times.reserveCapacity(Int(Double(frames) / step) + 2)
        values.reserveCapacity(Int(Double(frames) / step) + 2)
        var sum = 0.0
        var position = 0
        var envelope = 0.0
        var held = 0
        var index = 0
        var update = 1
        while true {
            // The first sample index at or after update × step (a small margin absorbs rounding).
            let end = max(Int((Double(update) * step - 1e-7).rounded(.up)), index + 1)
            while index < end {
                let x = index < frames ? Double(mono[index]) : 0
                let level: Double
                if window == 0 {
                    level = abs(x)
                } else {
                    let square = x * x
                    sum += square - ring[position]
                    ring[position] = square
                    position = position + 1 == window ? 0 : position + 1
                    level = (max(sum, 0) / Double(window)).squareRoot()
                }
                if level > envelope {
                    envelope = attack * (envelope - level) + level
                    held = 0
                } else if held < holdSamples {
                    held += 1
                } else {
                    envelope = release * (envelope - level) + level
                }
                if envelope < 1e-30 { envelope = 0 }
                index += 1
            }
            times.append(Double(index) / sampleRate)
            values.append(Float(min(envelope, 1)))
            if index >= frames { break }
            update += 1
        }
        return (times, values)
    }
}
