/// The frequency (sharpness) envelope of a whole sound, as Meta Haptics Studio computes it
/// (meta-haptics-sdk, `audio_analysis/src/frequency_analyzer.rs`, MIT; the code is Thrum's): each
/// spectral frame's centroid below the low-pass (``SpectralFrames``), mapped linearly so that
/// `frequencyMin` Hz is `frequencyOutputMin` and `frequencyMax` Hz is `frequencyOutputMax`, clamped to
/// 0…1. Frames centred before time 0 are left out. Quiet frames (no centroid) map as 0 Hz does.
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
enum FrequencyAnalyzer {
    /// One point per frame centred at or after time 0.
    static func points(_ frames: SpectralFrames, sampleRate: Double, settings: AnalysisSettings) -> [Breakpoint] {
        let nyquist = sampleRate / 2
        let inMin = settings.frequencyMin / nyquist
        let inSpan = (settings.frequencyMax - settings.frequencyMin) / nyquist
        let outSpan = settings.frequencyOutputMax - settings.frequencyOutputMin
        var points: [Breakpoint] = []
        points.reserveCapacity(frames.times.count)
        for (time, centroid) in zip(frames.times, frames.centroid) where time >= 0 {
            let u = (Double(centroid) - inMin) / inSpan
            points.append(Breakpoint(time: time, value: Float(min(max(u * outSpan + settings.frequencyOutputMin, 0), 1))))
        }
        return points
    }
}
