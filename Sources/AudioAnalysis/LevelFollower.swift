/// The live detector's level of the haptic-relevant band: band-pass (high-pass at `bandLow`, low-pass at
/// `bandHigh`), RMS with a time constant of `rmsWindow` but at least 5 ms (a drive signal must not
/// follow the sound's own cycles), then an attack / hold / release envelope whose stages reach 99 % of
/// a step in `attack` and `release` seconds, as the offline envelope's do.
///
/// The level is on a peak scale: a steady full-scale sine in the band reads 1.
/// - Important: Thread safety: a value; one owner. Real-time safe: yes.
struct LevelFollower {
    private var highPass: Biquad
    private var lowPass: Biquad
    private var meanSquare = 0.0
    private var holdLeft = 0
    private let rmsK: Double
    private let attackK: Double
    private let releaseK: Double
    private let holdFrames: Int
    /// The shortest RMS time constant, in seconds.
    static let shortestRMS = 0.005
    /// The envelope after the last sample.
    private(set) var envelope = 0.0

    init(settings: AnalysisSettings, sampleRate: Double) {
        highPass = .highPass(corner: settings.bandLow, sampleRate: sampleRate)
        lowPass = .lowPass(corner: settings.bandHigh, sampleRate: sampleRate)
        rmsK = AnalysisMath.smoothing(seconds: max(settings.rmsWindow, Self.shortestRMS), rate: sampleRate)
        attackK = AnalysisMath.smoothing(seconds: settings.attack / AnalysisMath.ln100, rate: sampleRate)
        releaseK = AnalysisMath.smoothing(seconds: settings.release / AnalysisMath.ln100, rate: sampleRate)
        holdFrames = Int((settings.hold * sampleRate).rounded())
    }

    /// Takes one mono sample.
    @inline(__always)
    mutating func process(_ x: Double) {
        let y = lowPass.process(highPass.process(x))
        meanSquare += rmsK * (y * y - meanSquare)
        let r = (2 * meanSquare).squareRoot()
        if r > envelope {
            envelope += attackK * (r - envelope)
            holdLeft = holdFrames
        } else if holdLeft > 0 {
            holdLeft -= 1
        } else {
            envelope += releaseK * (r - envelope)
        }
    }

    /// Sets state that has decayed below 1e-30 to exactly 0, so silence never reaches subnormal numbers.
    mutating func flushTinyState() {
        highPass.flushTinyState()
        lowPass.flushTinyState()
        if meanSquare < 1e-30 { meanSquare = 0 }
        if envelope < 1e-30 { envelope = 0 }
    }
}
