/// Offline analysis of a whole sound into a ``HapticAnalysis``: runs the streaming detector over it (and
/// over silence after it, until the envelope's release has fallen silent), then normalises the level,
/// maps it to intensity or amplitude and reduces it to breakpoints, derives the sharpness (frequency)
/// envelope from the spectral centroid in the actuator's band (``FrequencyAnalyzer``) and places
/// transients at the peaks a designer keeps (``EmphasisPicker``), lowering the envelope under each by
/// the `ducking` fraction.
/// - Important: Thread safety: any thread (pure; each call has its own detector). Real-time safe: no.
package enum AudioAnalyzer {
    /// Breakpoints every envelope may have, however short the sound (one Core Haptics curve's worth).
    package static let minimumBudget = 16

    /// Analyses interleaved float samples.
    /// - Parameters:
    ///   - samples: `frames × channels` interleaved samples.
    ///   - channels: channels per frame (≥ 1; they are averaged).
    ///   - sampleRate: in Hz (> 0).
    ///   - settings: validated settings.
    ///   - scale: the scale the level envelope is reduced in (the one the output format interpolates).
    package static func analyze(
        samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Double, settings: AnalysisSettings,
        scale: EnvelopeScale = .intensity
    ) -> HapticAnalysis {
        precondition(channels >= 1 && sampleRate > 0, "AudioAnalyzer: channels ≥ 1 and a positive sample rate")
        let frames = samples.count / channels
        let detector = AudioFeatureDetector(sampleRate: sampleRate, settings: settings)
        let tickSeconds = Double(detector.tickFrames) / sampleRate
        // Index 0 is the state before any sound (time 0); tick i ends at i × tickSeconds.
        var levels: [Float] = [0]
        var flux: [Float] = [0]
        var onsets: [DetectedOnset] = []
        levels.reserveCapacity(frames / detector.tickFrames + 1)
        flux.reserveCapacity(frames / detector.tickFrames + 1)
        if let base = samples.baseAddress {
            detector.process(interleaved: base, channels: channels, frameCount: frames) { tick in
                levels.append(tick.level)
                flux.append(tick.flux)
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
                    flux.append(tick.flux)
                }
            }
            fed += count
        }
        // Ticks end on multiples of tickFrames, and `fed` is one: the last tick ends at `duration`.
        let duration = Double(fed) / sampleRate
        let amplitude = levels.map(map.amplitude)
        let levelValues = scale == .intensity ? amplitude.map { $0.squareRoot() } : amplitude
        let step = duration / Double(max(levels.count - 1, 1))
        let tolerance = Float(settings.tolerance)
        func budget(_ perSecond: Double) -> Int { max(Int((perSecond * duration).rounded(.up)) + 2, minimumBudget) }
        let reducedEnvelope = BreakpointReducer.reduce(
            levelValues, start: 0, step: step, tolerance: tolerance, maxPoints: budget(settings.breakpointsPerSecond))
        var envelopePoints = reducedEnvelope.points

        let frequency = FrequencyAnalyzer.analyze(samples: samples, channels: channels, sampleRate: sampleRate, settings: settings)
        var frequencyValues = frequency.values
        let hopSeconds = Double(frequency.hop) / sampleRate
        let needed = Int((duration / hopSeconds).rounded(.up)) + 1
        if frequencyValues.count < needed {
            frequencyValues += [Float](repeating: frequencyValues.last ?? 0, count: needed - frequencyValues.count)
        }
        let reducedSharpness = BreakpointReducer.reduce(
            frequencyValues, start: 0, step: hopSeconds, tolerance: tolerance,
            maxPoints: budget(settings.frequencyBreakpointsPerSecond))
        var sharpnessPoints = reducedSharpness.points
        while sharpnessPoints.count > 1 && sharpnessPoints[sharpnessPoints.count - 2].time >= duration {
            sharpnessPoints.removeLast()
        }
        if !sharpnessPoints.isEmpty { sharpnessPoints[sharpnessPoints.count - 1].time = duration }

        let picks = EmphasisPicker.pick(amplitude: amplitude, flux: flux, tickSeconds: tickSeconds, settings: settings)
        let window = Int((EmphasisPicker.riseSeconds / tickSeconds).rounded())
        let sharpnessSpan = Float(settings.emphasisSharpnessMax - settings.emphasisSharpnessMin)
        var transients: [HapticAnalysis.Transient] = []
        for pick in picks {
            let time = Double(pick.tick) * tickSeconds
            // What rose: the bands of an onset detected during the rise, else the centroid there.
            let onset = onsets.last { (pick.peakTick - window...pick.peakTick).contains($0.frame / detector.tickFrames) }
            let rose = onset?.sharpness ?? HapticAnalysis.value(of: sharpnessPoints, at: time)
            transients.append(
                HapticAnalysis.Transient(
                    time: time, intensity: pick.amplitude.squareRoot(),
                    sharpness: Float(settings.emphasisSharpnessMin) + rose * sharpnessSpan))
        }
        if settings.ducking > 0 {
            let factor = Float(1 - settings.ducking)
            duck(&envelopePoints, at: transients.map(\.time), by: scale == .intensity ? factor.squareRoot() : factor)
        }
        return HapticAnalysis(
            duration: duration, scale: scale, envelope: envelopePoints, sharpness: sharpnessPoints,
            transients: transients, peakLevel: peak, toleranceUsed: max(reducedEnvelope.tolerance, reducedSharpness.tolerance))
    }

    /// Puts a breakpoint at each of `times` (sorted) whose value is the envelope's there × `factor`.
    static func duck(_ points: inout [Breakpoint], at times: [Double], by factor: Float) {
        for time in times {
            let value = HapticAnalysis.value(of: points, at: time) * factor
            let index = points.firstIndex { $0.time >= time } ?? points.count
            if index < points.count && points[index].time == time {
                points[index].value = value
            } else {
                points.insert(Breakpoint(time: time, value: value), at: index)
            }
        }
    }
}
