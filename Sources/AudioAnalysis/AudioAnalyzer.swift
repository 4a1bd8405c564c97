/// Offline analysis of a whole sound into a ``HapticAnalysis``: runs the streaming detector over it (and
/// over silence after it, until the envelope's release has fallen silent), then normalises the level,
/// maps it to intensity or amplitude, reduces both envelopes to breakpoints and places a transient at each
/// onset.
/// - Important: Thread safety: any thread (pure; each call has its own detector). Real-time safe: no.
public enum AudioAnalyzer {
    /// How long after an onset the transient's intensity is looked for, in seconds.
    static let transientWindow = 0.03
    /// Breakpoints every envelope may have, however short the sound (one Core Haptics curve's worth).
    public static let minimumBudget = 16

    /// Analyses interleaved float samples.
    /// - Parameters:
    ///   - samples: `frames × channels` interleaved samples.
    ///   - channels: channels per frame (≥ 1; they are averaged).
    ///   - sampleRate: in Hz (> 0).
    ///   - settings: validated settings.
    ///   - scale: the scale the level envelope is reduced in (the one the output format interpolates).
    public static func analyze(
        samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Double, settings: AnalysisSettings,
        scale: EnvelopeScale = .intensity
    ) -> HapticAnalysis {
        precondition(channels >= 1 && sampleRate > 0, "AudioAnalyzer: channels ≥ 1 and a positive sample rate")
        let frames = samples.count / channels
        let detector = AudioFeatureDetector(sampleRate: sampleRate, settings: settings)
        let tickSeconds = Double(detector.tickFrames) / sampleRate
        // Index 0 is the state before any sound (time 0); tick i ends at i × tickSeconds.
        var levels: [Float] = [0]
        var sharpness: [Float] = [SpectrumTracker.initialSharpness]
        var onsets: [DetectedOnset] = []
        levels.reserveCapacity(frames / detector.tickFrames + 1)
        sharpness.reserveCapacity(frames / detector.tickFrames + 1)
        if let base = samples.baseAddress {
            detector.process(interleaved: base, channels: channels, frameCount: frames) { tick in
                levels.append(tick.level)
                sharpness.append(tick.sharpness)
                // An onset's settled sharpness comes later (before or with the next onset's detection).
                if let settled = tick.settledSharpness, !onsets.isEmpty { onsets[onsets.count - 1].sharpness = settled }
                if let onset = tick.onset { onsets.append(onset) }
            }
        }
        let peak = levels.max() ?? 0
        let map = LevelMap(settings: settings, reference: settings.normalize ? peak : 1)
        // The release after the sound: silence until the envelope maps to 0 (or hold + 10 × release).
        let zeros = [Float](repeating: 0, count: detector.tickFrames)
        let tailLimit = frames + Int(((settings.hold + 10 * settings.release) * sampleRate).rounded())
        var fed = frames
        while fed < tailLimit && (map.intensity(levels[levels.count - 1]) > 0 || fed % detector.tickFrames != 0) {
            let count = detector.tickFrames - fed % detector.tickFrames
            zeros.withUnsafeBufferPointer { zero in
                detector.process(interleaved: zero.baseAddress!, channels: 1, frameCount: count) { tick in
                    levels.append(tick.level)
                    sharpness.append(tick.sharpness)
                }
            }
            fed += count
        }
        // Ticks end on multiples of tickFrames, and `fed` is one: the last tick ends at `duration`.
        let duration = Double(fed) / sampleRate
        let intensity = levels.map(map.intensity)
        // Until a whole spectrum window (two hops) after the first sound, the tracker has not measured it:
        // everything up to there takes the first measurement that covers it.
        if let firstHeard = intensity.firstIndex(where: { $0 > 0 }) {
            let window = (2 * detector.spectrumHop + detector.tickFrames - 1) / detector.tickFrames
            let covered = min(firstHeard + window, sharpness.count - 1)
            for i in 0..<covered { sharpness[i] = sharpness[covered] }
        }
        holdSharpnessThroughSilence(&sharpness, intensity: intensity)

        let maxPoints = max(Int((settings.breakpointsPerSecond * duration).rounded(.up)) + 2, minimumBudget)
        let tolerance = Float(settings.tolerance)
        let levelValues = scale == .intensity ? intensity : levels.map(map.amplitude)
        let (envelopePoints, envelopeTolerance) = BreakpointReducer.reduce(
            levelValues, start: 0, step: duration / Double(max(levels.count - 1, 1)), tolerance: tolerance, maxPoints: maxPoints)
        let (sharpnessPoints, sharpnessTolerance) = BreakpointReducer.reduce(
            sharpness, start: 0, step: duration / Double(max(levels.count - 1, 1)), tolerance: tolerance, maxPoints: maxPoints)

        let windowTicks = Int((transientWindow / tickSeconds).rounded())
        var transients: [HapticAnalysis.Transient] = []
        for onset in onsets {
            let first = min(onset.frame / detector.tickFrames, intensity.count - 1)
            let last = min(first + windowTicks, intensity.count - 1)
            let strongest = intensity[first...last].max() ?? 0
            guard strongest > 0 else { continue }
            transients.append(
                HapticAnalysis.Transient(
                    time: Double(onset.frame) / sampleRate, intensity: strongest, sharpness: onset.sharpness))
        }
        return HapticAnalysis(
            duration: duration, scale: scale, envelope: envelopePoints, sharpness: sharpnessPoints,
            transients: transients, peakLevel: peak, toleranceUsed: max(envelopeTolerance, sharpnessTolerance))
    }

    /// Where the intensity is 0 the sharpness means nothing: hold the last value heard, so silence costs
    /// no breakpoints.
    static func holdSharpnessThroughSilence(_ sharpness: inout [Float], intensity: [Float]) {
        guard let firstHeard = intensity.firstIndex(where: { $0 > 0 }) else { return }
        var held = sharpness[firstHeard]
        for i in sharpness.indices {
            if intensity[i] > 0 { held = sharpness[i] } else { sharpness[i] = held }
        }
    }
}
