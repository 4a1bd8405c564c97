/// Offline analysis of a whole sound into a ``HapticAnalysis``: runs the streaming detector over it,
/// then normalises the level, maps it to intensity, reduces both envelopes to breakpoints and places
/// a transient at each onset.
/// - Important: Thread safety: any thread (pure; each call has its own detector). Real-time safe: no.
public enum AudioAnalyzer {
    /// How long after an onset the transient's intensity is looked for, in seconds.
    static let transientWindow = 0.03
    /// How long after an onset the transient's sharpness is read, in seconds.
    static let transientSharpnessDelay = 0.01

    /// Analyses interleaved float samples.
    /// - Parameters:
    ///   - samples: `frames × channels` interleaved samples.
    ///   - channels: channels per frame (≥ 1; they are averaged).
    ///   - sampleRate: in Hz (> 0).
    ///   - settings: validated settings.
    public static func analyze(
        samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Double, settings: AnalysisSettings
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
                if let onset = tick.onset { onsets.append(onset) }
            }
        }
        let duration = Double(frames) / sampleRate
        let peak = levels.max() ?? 0
        let map = LevelMap(settings: settings, reference: settings.normalize ? peak : 1)
        let intensity = levels.map(map.intensity)
        holdSharpnessThroughSilence(&sharpness, intensity: intensity)

        let maxPoints = Int((settings.breakpointsPerSecond * duration).rounded(.up)) + 2
        let tolerance = Float(settings.tolerance)
        var (intensityPoints, intensityTolerance) = BreakpointReducer.reduce(
            intensity, start: 0, step: tickSeconds, tolerance: tolerance, maxPoints: maxPoints)
        var (sharpnessPoints, sharpnessTolerance) = BreakpointReducer.reduce(
            sharpness, start: 0, step: tickSeconds, tolerance: tolerance, maxPoints: maxPoints)
        extend(&intensityPoints, to: duration, tick: tickSeconds)
        extend(&sharpnessPoints, to: duration, tick: tickSeconds)

        let windowTicks = Int((transientWindow / tickSeconds).rounded())
        let delayTicks = Int((transientSharpnessDelay / tickSeconds).rounded())
        var transients: [HapticAnalysis.Transient] = []
        for onset in onsets {
            let first = min(onset.frame / detector.tickFrames, intensity.count - 1)
            let last = min(first + windowTicks, intensity.count - 1)
            let strongest = intensity[first...last].max() ?? 0
            guard strongest > 0 else { continue }
            transients.append(
                HapticAnalysis.Transient(
                    time: Double(onset.frame) / sampleRate, intensity: strongest,
                    sharpness: sharpness[min(first + delayTicks, sharpness.count - 1)]))
        }
        return HapticAnalysis(
            duration: duration, intensity: intensityPoints, sharpness: sharpnessPoints, transients: transients,
            peakLevel: peak, toleranceUsed: max(intensityTolerance, sharpnessTolerance))
    }

    /// Where the intensity is 0 the sharpness means nothing: hold the last value heard (the first value
    /// heard before any sound), so silence costs no breakpoints.
    static func holdSharpnessThroughSilence(_ sharpness: inout [Float], intensity: [Float]) {
        guard let firstHeard = intensity.firstIndex(where: { $0 > 0 }) else { return }
        var held = sharpness[firstHeard]
        for i in sharpness.indices {
            if intensity[i] > 0 { held = sharpness[i] } else { sharpness[i] = held }
        }
    }

    /// Makes the envelope end at `duration`: the ticks stop up to one tick short of it (a partial last
    /// tick), so the last point moves there when it is closer than a tick, else one more point holds it.
    static func extend(_ points: inout [Breakpoint], to duration: Double, tick: Double) {
        guard let last = points.last, last.time < duration else { return }
        if points.count > 1 && duration - last.time < tick {
            points[points.count - 1].time = duration
        } else {
            points.append(Breakpoint(time: duration, value: last.value))
        }
    }
}
