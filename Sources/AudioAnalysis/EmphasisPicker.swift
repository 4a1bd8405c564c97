/// Chooses the amplitude breakpoints that carry an emphasis (`.haptic` emphasis, AHAP transients).
///
/// Peaks, as Meta Haptics Studio picks them (meta-haptics-sdk, `audio_analysis/src/
/// emphasis_detection.rs`, MIT; the code is Thrum's), among the reduced breakpoints in time order:
/// 1. A breakpoint is a candidate when it rose by more than `minimumRise` from the breakpoint before it,
///    the next one is below it or rises by less than `plateau` × that rise, and it is at least
///    `minimumOnsetInterval` after the previous candidate. (Thrum's `riseWindow`, 0 in Haptics Studio's
///    settings, measures the rise from the lowest breakpoint within that many seconds instead, so a hit
///    whose rise the reduction split over several breakpoints a millisecond apart still counts.)
/// 2. With sensitivity s (`onsetSensitivity`), Haptics Studio's way (`relativeSensitivity`): each
///    candidate's score is the spectral flux at its time (``SpectralFrames``), and the candidates scoring
///    at least max − s × (max − min) of the candidates' scores are kept (s = 1: all; Haptics Studio
///    also keeps the best one at s = 0, Thrum none). So at 50 % a clip of equally strong hits loses
///    about half of them, and a kick among snares (less flux in a low sound) goes.
///    Thrum's way (the default): a candidate is kept when at least 1 − s of the spectrum around it is
///    new (``SpectralFrames/newShare(around:)``) — about 1 for a hit out of quiet, small where noise
///    swells or a low tone's cycles ripple the envelope. A candidate that fails this does not start a
///    peak window.
///
/// Textures, Thrum's own (`textureEmphasis`): designers give rain, gravel and crackle an emphasis on
/// every breakpoint. Where, over the half second around a breakpoint, the sound is bright (at least
/// `textureBrightness` of its spectral magnitude above 4 kHz) and busy — at least `textureDensity` peaks
/// a second (breakpoints 3 dB above the one before and not below the one after) and at least 8 bright
/// onsets a second (spectral frames where the sound above 4 kHz grows by 10 % or more, the most in their
/// neighbourhood: each drop of rain is one; the beating of a chord, which also makes envelope peaks, is
/// not) — every breakpoint with sound is an emphasis too. Only sound within 30 dB of the loudest
/// breakpoint counts (a noise floor under clicks is not a texture). Both thresholds are fitted to designers' clips (`Tools/dev/fit-analysis.py`).
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
    /// Texture ignores breakpoints more than 30 dB under the loudest.
    static let textureFloor: Float = 0.031_622_78
    /// A peak for texture density rises by this factor (3 dB) over the breakpoint before it.
    static let textureRise: Float = 1.412_537_5
    /// Bright onsets a second a texture has at least.
    static let textureOnsets = 8.0
    /// A bright onset's growth of the sound above 4 kHz, as a share of it.
    static let brightOnsetShare: Float = 0.1

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
        let newShareNeeded = Float(1 - min(settings.onsetSensitivity, 1))
        var candidates: [(index: Int, score: Float)] = []
        var lastPeak: Double? = nil
        var windowStart = 0
        for i in 0..<(points.count - 1) {
            let value = points[i].value
            // The breakpoint before (0 before the first), or the lowest within the rise window.
            var before: Float = i == 0 ? 0 : points[i - 1].value
            while windowStart < i - 1 && points[windowStart].time < points[i].time - settings.riseWindow { windowStart += 1 }
            if settings.riseWindow > 0 { for j in windowStart..<i { before = min(before, points[j].value) } }
            let rise = value - before
            let next = points[i + 1].value
            guard rise > minimumRise, value > next || next < value + rise * plateau else { continue }
            if let lastPeak, points[i].time - lastPeak < settings.minimumOnsetInterval { continue }
            if !settings.relativeSensitivity && frames.newShare(around: points[i].time) < newShareNeeded { continue }
            candidates.append((i, frames.flux(at: points[i].time)))
            lastPeak = points[i].time
        }
        guard settings.relativeSensitivity else { return candidates.map(\.index) }
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
        let floor = (points.map(\.value).max() ?? 0) * textureFloor
        var peakTimes: [Double] = []
        for j in 1..<(points.count - 1) {
            let v = points[j].value
            if v > floor, v >= points[j - 1].value * textureRise, v >= points[j + 1].value { peakTimes.append(points[j].time) }
        }
        // Bright onsets: frames whose bright growth share is a local maximum of at least `brightOnsetShare`.
        let audible = (frames.total.max() ?? 0) * 1e-3
        func share(_ j: Int) -> Float { frames.bright[j] > audible ? frames.brightRise[j] / frames.bright[j] : 0 }
        var onsetTimes: [Double] = []
        if frames.times.count > 2 {
            for j in 1..<(frames.times.count - 1) {
                let r = share(j)
                if r >= brightOnsetShare && r > share(j - 1) && r >= share(j + 1) { onsetTimes.append(frames.times[j]) }
            }
        }
        var picks: [Int] = []
        var frameLow = 0, frameHigh = 0
        var peaks = (low: 0, high: 0), onsets = (low: 0, high: 0)
        func count(_ times: [Double], _ range: inout (low: Int, high: Int), around time: Double) -> Double {
            while range.low < times.count && times[range.low] < time - half { range.low += 1 }
            while range.high < times.count && times[range.high] <= time + half { range.high += 1 }
            return Double(range.high - range.low) / textureSpan
        }
        for i in 0..<(points.count - 1) where points[i].value > floor {
            let time = points[i].time
            while frameLow < frames.times.count && frames.times[frameLow] < time - half { frameLow += 1 }
            while frameHigh < frames.times.count && frames.times[frameHigh] <= time + half { frameHigh += 1 }
            let peakRate = count(peakTimes, &peaks, around: time)
            let onsetRate = count(onsetTimes, &onsets, around: time)
            let total = totalSums[frameHigh] - totalSums[frameLow]
            guard total > 0 else { continue }
            let brightness = (brightSums[frameHigh] - brightSums[frameLow]) / total
            if brightness >= settings.textureBrightness && peakRate >= settings.textureDensity && onsetRate >= textureOnsets {
                picks.append(i)
            }
        }
        return picks
    }
}
