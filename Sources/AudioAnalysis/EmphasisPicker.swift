/// Chooses the amplitude breakpoints that carry an emphasis (`.haptic` emphasis, AHAP transients).
///
/// Peaks, as Meta Haptics Studio picks them (meta-haptics-sdk, `audio_analysis/src/
/// emphasis_detection.rs`, MIT; the code is Thrum's), among the reduced breakpoints in time order:
/// 1. A breakpoint is a candidate when it rose by more than `minimumRise` from the breakpoint before it,
///    the next one is below it or rises by less than `plateau` × that rise, and it is at least
///    `minimumOnsetInterval` after the previous candidate.
/// 2. Each candidate's score is the spectral flux at its time (``SpectralFrames``). With sensitivity s,
///    the candidates scoring at least max − s × (max − min) of the candidates' scores are kept (s = 1:
///    all; Haptics Studio also keeps the best one at s = 0, Thrum keeps none).
///
/// Textures, Thrum's own (`textureEmphasis`): designers give rain, gravel and crackle an emphasis on
/// every breakpoint. Where, over the half second around a breakpoint, the sound is bright (at least
/// `textureBrightness` of its spectral magnitude above 4 kHz) and busy (at least `textureDensity` peaks a
/// second: breakpoints 3 dB above the one before and not below the one after), every breakpoint with
/// sound is an emphasis too. Both thresholds are fitted to designers' clips (`Tools/fit-analysis.py`).
///
/// An emphasis has the breakpoint's amplitude (before ducking) and the sharpness of what rose there:
/// the mean frequency of the spectrum's gains in the nearest frame on the `sharpnessLow`…`sharpnessHigh`
/// logarithmic scale, scaled into `emphasisSharpnessMin`…`emphasisSharpnessMax`. (Haptics Studio uses
/// the candidate's flux relative to the others instead; Thrum says which frequencies rose: low for a
/// thump, high for a click.)
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
enum EmphasisPicker {
    /// Seconds around a breakpoint over which texture is judged.
    static let textureSpan = 0.5
    /// A peak for texture density rises by this factor (3 dB) over the breakpoint before it.
    static let textureRise: Float = 1.412_537_5

    /// A chosen breakpoint.
    struct Pick: Equatable {
        /// Index into the breakpoints.
        var index: Int
        /// The breakpoint's amplitude (before ducking), 0…1.
        var amplitude: Float
        /// Sharpness 0…1 in the settings' emphasis range.
        var sharpness: Float
    }

    /// The picks among `points` (amplitude, in time order), by index.
    static func pick(_ points: [Breakpoint], frames: SpectralFrames, settings: AnalysisSettings) -> [Pick] {
        guard settings.emphasis, settings.onsetSensitivity > 0, points.count > 1 else { return [] }
        var chosen = Set(peaks(points, frames: frames, settings: settings))
        if settings.textureEmphasis { chosen.formUnion(texture(points, frames: frames, settings: settings)) }
        let scale = SharpnessScale(low: settings.sharpnessLow, high: settings.sharpnessHigh)
        let low = Float(settings.emphasisSharpnessMin)
        let span = Float(settings.emphasisSharpnessMax - settings.emphasisSharpnessMin)
        return chosen.sorted().map { index in
            var rose: Float = 0.5
            if let frame = frames.nearest(points[index].time), frames.riseHz[frame] > 0 {
                rose = scale.sharpness(frequency: frames.riseHz[frame])
            }
            return Pick(index: index, amplitude: points[index].value, sharpness: low + rose * span)
        }
    }

    /// Haptics Studio's peaks (steps 1 and 2).
    static func peaks(_ points: [Breakpoint], frames: SpectralFrames, settings: AnalysisSettings) -> [Int] {
        let minimumRise = Float(settings.minimumRise)
        let plateau = Float(settings.plateau)
        var candidates: [(index: Int, score: Float)] = []
        var before: Float = 0
        var lastPeak: Double? = nil
        for i in 0..<(points.count - 1) {
            let value = points[i].value
            let rise = value - before
            before = value
            let next = points[i + 1].value
            guard rise > minimumRise, value > next || next < value + rise * plateau else { continue }
            if let lastPeak, points[i].time - lastPeak < settings.minimumOnsetInterval { continue }
            candidates.append((i, frames.flux(at: points[i].time)))
            lastPeak = points[i].time
        }
        guard let lowest = candidates.map(\.score).min(), let highest = candidates.map(\.score).max() else { return [] }
        let span = highest - lowest
        let top = highest + span * 1e-3
        let threshold = top + (lowest - top) * Float(min(settings.onsetSensitivity, 1))
        return candidates.filter { $0.score >= threshold }.map(\.index)
    }

    /// The breakpoints in textures (all but the last, with sound).
    static func texture(_ points: [Breakpoint], frames: SpectralFrames, settings: AnalysisSettings) -> [Int] {
        let half = textureSpan / 2
        // Running sums of the frames' magnitudes, for the brightness over any span.
        var brightSums = [Double](repeating: 0, count: frames.times.count + 1)
        var totalSums = brightSums
        for i in frames.times.indices {
            brightSums[i + 1] = brightSums[i] + Double(frames.bright[i])
            totalSums[i + 1] = totalSums[i] + Double(frames.total[i])
        }
        var peakTimes: [Double] = []
        for j in 1..<(points.count - 1) {
            let v = points[j].value
            if v > 0, v >= points[j - 1].value * textureRise, v >= points[j + 1].value { peakTimes.append(points[j].time) }
        }
        var picks: [Int] = []
        var frameLow = 0, frameHigh = 0, peakLow = 0, peakHigh = 0
        for i in 0..<(points.count - 1) where points[i].value > 0 {
            let time = points[i].time
            while frameLow < frames.times.count && frames.times[frameLow] < time - half { frameLow += 1 }
            while frameHigh < frames.times.count && frames.times[frameHigh] <= time + half { frameHigh += 1 }
            while peakLow < peakTimes.count && peakTimes[peakLow] < time - half { peakLow += 1 }
            while peakHigh < peakTimes.count && peakTimes[peakHigh] <= time + half { peakHigh += 1 }
            let total = totalSums[frameHigh] - totalSums[frameLow]
            guard total > 0 else { continue }
            let brightness = (brightSums[frameHigh] - brightSums[frameLow]) / total
            let density = Double(peakHigh - peakLow) / textureSpan
            if brightness >= settings.textureBrightness && density >= settings.textureDensity { picks.append(i) }
        }
        return picks
    }
}
