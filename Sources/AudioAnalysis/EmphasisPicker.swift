/// Chooses where a sound gets transients (`.haptic` emphasis): the peaks a designer keeps.
///
/// Works on the drive amplitude at every control tick (0…1 of the loudest) and the onset detector's
/// detection function (spectral flux on five bands, dB):
/// 1. A candidate is a moment where the amplitude has risen by more than `minimumRise` within the
///    `riseSeconds` before it (a slow swell does not) and will rise no further than `plateau` × that rise
///    within `riseSeconds` after it (a sound still rising has not peaked yet: as in Meta's design, the
///    peak is where the rise has mostly ended, whether or not the level falls after it); at least
///    `minimumOnsetInterval` after the previous candidate.
/// 2. Each candidate's score is the largest flux during its rise; it must reach the live detector's
///    onset threshold for the sensitivity (3.5 dB at 0.5; see `AnalysisSettings.onsetSensitivity`), so
///    the random swells of a noise, or the ripple of a low tone, are not hits.
/// 3. `onsetSensitivity` s keeps the candidates scoring at least (1 − s) × the highest score in the
///    sound (0: none, 1: all), scores counted up to `clearOnset` dB. Meta's threshold runs from the
///    highest score down to the lowest candidate's instead, which drops half of a clip of equally
///    strong hits at s = 0.5; Thrum's runs down to no flux, so equal hits are kept or dropped
///    together, and the cap keeps a hit out of silence (a rise of 60 dB from the floor) from raising
///    the bar above hits out of a quieter sound.
/// A transient sits where its rise reached half its height (for a hit, within a few ms of its start),
/// with the peak's amplitude.
///
/// The design follows Meta Haptics Studio's emphasis detection (meta-haptics-sdk,
/// `audio_analysis/src/emphasis_detection.rs`, MIT), which picks peaks among the reduced amplitude
/// breakpoints; Thrum picks them on the unreduced envelope with a fixed rise window, so how many
/// breakpoints the envelope keeps does not change which peaks are found. The code is Thrum's.
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
enum EmphasisPicker {
    /// How far back a rise is measured, and how far ahead a plateau is checked, in seconds.
    static let riseSeconds = 0.03
    /// Flux in dB that counts as a clear onset: higher scores count as this much.
    static let clearOnset: Float = 12

    /// A chosen peak.
    struct Pick: Equatable {
        /// The control tick where the transient sits (half the rise).
        var tick: Int
        /// The control tick of the peak.
        var peakTick: Int
        /// The drive amplitude at the peak (the highest within `riseSeconds` of the candidate), 0…1.
        var amplitude: Float
        /// The largest flux during the rise, in dB.
        var score: Float
    }

    /// The picks for `amplitude` and `flux` (one value per control tick, `tickSeconds` apart).
    static func pick(amplitude: [Float], flux: [Float], tickSeconds: Double, settings: AnalysisSettings) -> [Pick] {
        guard settings.emphasis, settings.onsetSensitivity > 0, amplitude.count > 2 else { return [] }
        let window = max(1, Int((riseSeconds / tickSeconds).rounded()))
        let interval = Int((settings.minimumOnsetInterval / tickSeconds).rounded())
        let minimumRise = Float(settings.minimumRise)
        let plateau = Float(settings.plateau)
        let gate = Float(settings.onsetThreshold ?? .infinity)
        var candidates: [Pick] = []
        var lastPeak = Int.min / 2
        for i in 1..<amplitude.count where amplitude[i] > amplitude[i - 1] && i - lastPeak >= interval {
            let from = max(0, i - window)
            var low = amplitude[i]
            var lowTick = i
            for j in from..<i where amplitude[j] < low {
                low = amplitude[j]
                lowTick = j
            }
            let rise = amplitude[i] - low
            guard rise > minimumRise else { continue }
            let ahead = amplitude[i...min(i + window, amplitude.count - 1)].max() ?? amplitude[i]
            guard ahead < amplitude[i] + plateau * rise || (plateau == 0 && ahead == amplitude[i]) else { continue }
            var half = lowTick
            while half < i && amplitude[half] < low + rise / 2 { half += 1 }
            let score = min(flux[lowTick...i].max() ?? 0, clearOnset)
            guard score >= gate else { continue }
            candidates.append(Pick(tick: half, peakTick: i, amplitude: ahead, score: score))
            lastPeak = i
        }
        guard let highest = candidates.map(\.score).max() else { return [] }
        // Sensitivity 1 keeps every candidate, near 0 only the highest-scoring ones.
        let s = Float(min(settings.onsetSensitivity, 1))
        let threshold = s >= 1 ? -Float.infinity : highest * (1 - s)
        return candidates.filter { $0.score >= threshold }
    }
}
