/// Offline analysis of a whole sound into a ``HapticAnalysis``, Meta Haptics Studio's model
/// (meta-haptics-sdk, `audio_analysis/src/offline_analysis.rs`, MIT; the code is Thrum's):
/// 1. the amplitude envelope (``AmplitudeEnvelope``), reduced to breakpoints (``BreakpointReducer``,
///    `breakpointsPerSecond` a second), with a point at time 0;
/// 2. the spectral frames (``SpectralFrames``) and from them the frequency (sharpness) envelope
///    (``FrequencyAnalyzer``), reduced to `frequencyBreakpointsPerSecond` a second;
/// 3. emphases on chosen amplitude breakpoints (``EmphasisPicker``), each of which is lowered by the
///    `ducking` fraction;
/// 4. both envelopes end at the same time: the sound's length or the last point, whichever is later.
/// The amplitude envelope is analysed and reduced as drive amplitude (`.haptic`'s scale); for the
/// intensity scale (AHAP) each breakpoint's value is then √amplitude.
/// - Important: Thread safety: any thread (pure). Real-time safe: no.
package enum AudioAnalyzer {
    /// Analyses interleaved float samples.
    /// - Parameters:
    ///   - samples: `frames × channels` interleaved samples.
    ///   - channels: channels per frame (≥ 1; they are averaged).
    ///   - sampleRate: in Hz (> 0).
    ///   - settings: validated settings.
    ///   - scale: the scale of the envelope's values (the one the output format interpolates).
    package static func analyze(
        samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Double, settings: AnalysisSettings,
        scale: EnvelopeScale = .intensity
    ) -> HapticAnalysis {
        precondition(channels >= 1 && sampleRate > 0, "AudioAnalyzer: channels ≥ 1 and a positive sample rate")
        guard samples.count >= channels else {
            let zero = [Breakpoint(time: 0, value: 0)]
            return HapticAnalysis(duration: 0, scale: scale, envelope: zero, sharpness: zero, transients: [], peakLevel: 0)
        }
        let mono = AmplitudeEnvelope.preprocess(samples: samples, channels: channels, settings: settings)
        var loudest: Float = 0
        for i in 0..<(samples.count / channels * channels) { loudest = max(loudest, abs(samples[i])) }
        let (times, values) = AmplitudeEnvelope.points(mono: mono, sampleRate: sampleRate, settings: settings)
        let envelope = zip(times, values).map { Breakpoint(time: $0, value: $1) }
        var amplitude = reduced(envelope, perSecond: settings.breakpointsPerSecond, settings: settings)
        if let first = amplitude.first, first.time != 0 { amplitude.insert(Breakpoint(time: 0, value: first.value), at: 0) }

        let frames = SpectralFrames(mono: mono, sampleRate: sampleRate, settings: settings)
        var frequency = reduced(
            FrequencyAnalyzer.points(frames, sampleRate: sampleRate, settings: settings),
            perSecond: settings.frequencyBreakpointsPerSecond, settings: settings)

        let picks = EmphasisPicker.pick(amplitude, frames: frames, settings: settings)
        let keep = Float(1 - settings.ducking)
        var transients: [HapticAnalysis.Transient] = []
        for pick in picks {
            amplitude[pick.index].value *= keep
            transients.append(HapticAnalysis.Transient(
                time: amplitude[pick.index].time, intensity: pick.amplitude.squareRoot(), sharpness: pick.sharpness))
        }

        let duration = max(Double(mono.count) / sampleRate, amplitude.last?.time ?? 0, frequency.last?.time ?? 0)
        if frequency.isEmpty { frequency = [Breakpoint(time: 0, value: 0)] }
        extend(&amplitude, to: duration)
        extend(&frequency, to: duration)
        if scale == .intensity {
            for i in amplitude.indices { amplitude[i].value = amplitude[i].value.squareRoot() }
        }
        return HapticAnalysis(
            duration: duration, scale: scale, envelope: amplitude, sharpness: frequency, transients: transients,
            peakLevel: loudest)
    }

    /// Ends `points` at `duration`: a point there with the last value, or the last point moved there when
    /// it is within 0.1 ms (so times stay distinct when written to 0.1 ms).
    static func extend(_ points: inout [Breakpoint], to duration: Double) {
        guard let last = points.last, last.time < duration else { return }
        if duration - last.time < 0.0001 && points.count > 1 {
            points[points.count - 1].time = duration
        } else {
            points.append(Breakpoint(time: duration, value: last.value))
        }
    }

    /// `points` reduced with the settings' breakpoint score and tolerance, at most `perSecond` a second.
    static func reduced(_ points: [Breakpoint], perSecond: Double, settings: AnalysisSettings) -> [Breakpoint] {
        BreakpointReducer.reduce(
            points, perRegion: max(2, Int(perSecond.rounded())), minimumScore: Float(settings.minimumBreakpointScore),
            tolerance: Float(settings.tolerance)
        ).map { points[$0] }
    }
}
