/// An onset found by the detector.
package struct DetectedOnset: Sendable, Equatable {
    /// Where the rise began, in frames from the start of the stream: the end of the control tick where
    /// the detection function last stopped falling (looking back at most 15.5 ms from the detection).
    package var frame: Int
    /// The frame at which the rise crossed the threshold (the end of that control tick).
    package var detectionFrame: Int
    /// The detection function there: the energy-weighted rise across the bands, in dB.
    package var strength: Float
    /// Which bands grew by the detection, as sharpness 0…1: the bands' centre frequencies on the
    /// settings' sharpness scale, weighted by how much energy each gained over its reference. Known at
    /// once, so the live path can use it; a low sound's first milliseconds can make it too sharp (see
    /// `DetectorTick.settledSharpness`).
    package var sharpness: Float
}

/// Spectral flux on a five-band filter bank, evaluated at each control tick.
///
/// Bands: below 110 Hz (from 30 Hz), 110–360, 360–1170, 1170–3800 and above 3800 Hz, each cut by
/// second-order high- and low-pass filters. Each band's energy is smoothed over one period of its centre
/// (60, 200, 650, 2100, 6800 Hz), at least 2 ms. Each band's reference is the peak of its energy a lag
/// ago (twice its smoothing time, 10…31.5 ms), held with a 30 ms decay, so the beating of notes within
/// a band is not mistaken for onsets. The detection function is each band's rise over its reference, in
/// dB, positive part only, weighted by the band's share of the energy now; energies are floored at
/// −70 dBFS and at −30 dB under all bands together, so leakage and noise far below the sound do not
/// count. An onset is reported when the
/// function reaches the threshold set by the sensitivity plus its own recent mean (100 ms, capped at
/// the threshold: busy sound raises the bar), at least `minimumOnsetInterval` after the previous
/// onset; the detector re-arms when the function falls below half that bar.
/// - Important: Thread safety: a value; one owner. Real-time safe: yes.
struct OnsetDetector {
    static let centres: InlineArray<5, Double> = [60, 200, 650, 2100, 6800]
    /// Band edges (geometric means of neighbouring centres); the lowest band starts at 30 Hz, the
    /// highest is open.
    static let edges: InlineArray<4, Double> = [110, 360, 1170, 3800]
    /// Energy floor relative to all bands together: −30 dB.
    static let relativeFloor = 1e-3
    /// Absolute energy floor: −70 dBFS of power.
    static let floorEnergy = 1e-7
    /// dB per unit of log2 power: 10 × log10(2).
    static let decibelsPerOctave: Float = 3.010_299_96
    /// Ticks of energy history kept per band (the longest lag is one less).
    static let lagCapacity = 64
    /// How long after a detection the settled sharpness is taken, in seconds.
    static let settleSeconds = 0.015

    /// Bands 0–3: high-pass then low-pass, one band per lane; band 4: high-pass only.
    private var lowerHighPasses: Biquad4
    private var lowerLowPasses: Biquad4
    private var topHighPass: Biquad
    private var lowerEnergy = SIMD4<Double>()
    private var topEnergy = 0.0
    private let lowerEnergyK: SIMD4<Double>
    private let topEnergyK: Double
    /// Each band's lag in ticks.
    private let lag: InlineArray<5, Int>
    /// Band energies at past ticks: band k's ring is entries k × lagCapacity ..< (k + 1) × lagCapacity.
    private var past: InlineArray<320, Double> = .init(repeating: 0)
    private var pastNext = 0
    /// Each band's reference: the peak of its lagged energy, decaying with a 30 ms time constant.
    private var reference: InlineArray<5, Double> = .init(repeating: 0)
    private let referenceDecay: Double
    /// The bands' centres on the sharpness scale.
    private let centreSharpness: InlineArray<5, Float>
    private let threshold: Float
    private let enabled: Bool
    private let minimumInterval: Int
    private let tickFrames: Int
    private var armed = true
    private var lastOnset = Int.min / 2
    private var recentMean: Float = 0
    private let recentK: Float
    /// The detection function at the last 32 ticks (a ring), to find where a rise began.
    private var history: InlineArray<32, Float> = .init(repeating: 0)
    private var historyNext = 0
    /// The references at the last detection, each band's energy gain over them summed since (its area,
    /// which smoothing does not change), and the ticks until its settled sharpness is due.
    private var onsetBase: InlineArray<5, Double> = .init(repeating: 0)
    private var onsetGain: InlineArray<5, Double> = .init(repeating: 0)
    private var settleLeft = 0
    private let settleTicks: Int
    /// The settled sharpness of the last onset, on the tick it became known (else nil).
    private(set) var settled: Float? = nil
    /// The detection function at the last tick, in dB (computed even when onsets are disabled).
    private(set) var flux: Float = 0

    init(settings: AnalysisSettings, sampleRate: Double, scale: SharpnessScale, tickFrames: Int) {
        let tickRate = sampleRate / Double(tickFrames)
        var highPasses = InlineArray<4, Biquad>(repeating: .passThrough)
        var lowPasses = InlineArray<4, Biquad>(repeating: .passThrough)
        var energyK = InlineArray<5, Double>(repeating: 1)
        var lag = InlineArray<5, Int>(repeating: 1)
        var centreSharpness = InlineArray<5, Float>(repeating: 0)
        for k in 0..<5 {
            let centre = Self.centres[k]
            if k < 4 {
                highPasses[k] = .highPass(corner: k == 0 ? 30 : Self.edges[k - 1], sampleRate: sampleRate)
                lowPasses[k] = .lowPass(corner: Self.edges[k], sampleRate: sampleRate)
            }
            let smoothing = max(0.002, 1 / centre)
            energyK[k] = AnalysisMath.smoothing(seconds: smoothing, rate: sampleRate)
            lag[k] = min(Self.lagCapacity - 1, max(1, Int((max(0.01, 2 * smoothing) * tickRate).rounded())))
            centreSharpness[k] = scale.sharpness(frequency: Float(centre))
        }
        lowerHighPasses = Biquad4(highPasses)
        lowerLowPasses = Biquad4(lowPasses)
        topHighPass = .highPass(corner: Self.edges[3], sampleRate: sampleRate)
        lowerEnergyK = SIMD4(energyK[0], energyK[1], energyK[2], energyK[3])
        topEnergyK = energyK[4]
        self.lag = lag
        self.centreSharpness = centreSharpness
        enabled = settings.onsetThreshold != nil
        threshold = Float(settings.onsetThreshold ?? 0)
        minimumInterval = Int((settings.minimumOnsetInterval * sampleRate).rounded())
        self.tickFrames = tickFrames
        recentK = Float(AnalysisMath.smoothing(seconds: 0.1, rate: tickRate))
        settleTicks = max(1, Int((Self.settleSeconds * tickRate).rounded()))
        referenceDecay = 1 - AnalysisMath.smoothing(seconds: 0.03, rate: tickRate)
    }

    /// Takes one mono sample.
    @inline(__always)
    mutating func process(_ x: Double) {
        let y = lowerLowPasses.process(lowerHighPasses.process(SIMD4(repeating: x)))
        lowerEnergy += lowerEnergyK * (y * y - lowerEnergy)
        let top = topHighPass.process(x)
        topEnergy += topEnergyK * (top * top - topEnergy)
    }

    /// Evaluates the detection function at the end of a control tick (`frame` = frames processed).
    /// - Returns: the onset found at this tick, if any.
    mutating func tick(frame: Int) -> DetectedOnset? {
        let energy: InlineArray<5, Double> = [lowerEnergy[0], lowerEnergy[1], lowerEnergy[2], lowerEnergy[3], topEnergy]
        var total = 0.0
        for k in 0..<5 { total += energy[k] }
        let floor = max(Self.floorEnergy, Self.relativeFloor * total)
        let norm = 1 / (total + 5 * floor)
        var odf: Float = 0
        for k in 0..<5 {
            let ring = k &* Self.lagCapacity
            let lagged = past[ring &+ ((pastNext &- lag[k]) & (Self.lagCapacity - 1))]
            past[ring &+ pastNext] = energy[k]
            reference[k] = max(lagged, reference[k] * referenceDecay)
            let rise =
                AnalysisMath.log2Fast(Float(energy[k] + floor)) - AnalysisMath.log2Fast(Float(reference[k] + floor))
            if rise > 0 {
                odf += Float((energy[k] + floor) * norm) * rise
            }
        }
        pastNext = (pastNext &+ 1) & (Self.lagCapacity - 1)
        flux = odf * Self.decibelsPerOctave
        guard enabled else { return nil }
        settled = nil
        if settleLeft > 0 {
            for k in 0..<5 { onsetGain[k] += max(energy[k] - onsetBase[k], 0) }
            settleLeft -= 1
            if settleLeft == 0 { settled = Self.sharpness(of: onsetGain, centres: centreSharpness) }
        }
        odf *= Self.decibelsPerOctave
        let bar = threshold + recentMean
        recentMean += recentK * (min(odf, threshold) - recentMean)
        history[historyNext] = odf
        historyNext = (historyNext &+ 1) & 31
        var found: DetectedOnset? = nil
        if odf >= bar {
            if armed && frame - lastOnset >= minimumInterval {
                if settleLeft > 0 { settled = Self.sharpness(of: onsetGain, centres: centreSharpness) }  // cut short
                for k in 0..<5 { onsetGain[k] = max(energy[k] - reference[k], 0) }
                found = DetectedOnset(
                    frame: frame - riseTicks() * tickFrames, detectionFrame: frame, strength: odf,
                    sharpness: Self.sharpness(of: onsetGain, centres: centreSharpness))
                onsetBase = reference
                settleLeft = settleTicks
                lastOnset = frame
            }
            armed = false
        } else if odf < bar * 0.5 {
            armed = true
        }
        return found
    }

    /// The band centres' sharpness weighted by `gains`; the middle of the scale when all are 0.
    private static func sharpness(of gains: InlineArray<5, Double>, centres: InlineArray<5, Float>) -> Float {
        var total = 0.0
        var weighted = 0.0
        for k in 0..<5 {
            total += gains[k]
            weighted += gains[k] * Double(centres[k])
        }
        return total > 0 ? Float(weighted / total) : 0.5
    }

    /// Ticks back from the newest to where the detection function last stopped falling (looking
    /// backwards), at most 31.
    private func riseTicks() -> Int {
        var back = 0
        var current = history[(historyNext &+ 31) & 31]
        while back < 31 {
            let earlier = history[(historyNext &+ 30 &- back) & 31]
            if earlier >= current { break }
            current = earlier
            back += 1
        }
        return back
    }

    /// Sets state that has decayed below 1e-30 to exactly 0, so silence never reaches subnormal numbers.
    mutating func flushTinyState() {
        lowerHighPasses.flushTinyState()
        lowerLowPasses.flushTinyState()
        topHighPass.flushTinyState()
        lowerEnergy.replace(with: 0, where: lowerEnergy .< 1e-30)
        if topEnergy < 1e-30 { topEnergy = 0 }
        for k in 0..<5 where reference[k] < 1e-30 { reference[k] = 0 }
    }
}
