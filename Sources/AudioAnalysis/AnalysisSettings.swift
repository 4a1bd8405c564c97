/// How sound becomes haptics: the detector's time constants and bands, the onset sensitivity, the
/// level mapping and how finely the envelopes are reduced to breakpoints.
///
/// The defaults (``general``) suit mixed material; ``ui``, ``impacts``, ``footsteps`` and ``music``
/// are tuned presets. Every field has a documented range that ``validate()`` checks.
/// - Important: Thread safety: any thread (a value). Real-time safe: reading fields yes.
public struct AnalysisSettings: Sendable, Equatable {
    /// Lower edge of the haptic-relevant band in Hz (20…1000): the level follows the sound above it.
    public var bandLow: Double
    /// Upper edge of the haptic-relevant band in Hz (≥ bandLow + 10, ≤ 20 000; corners at or above
    /// 0.45 × the sample rate do not filter).
    public var bandHigh: Double
    /// Attack time constant of the level envelope in seconds (0…0.1; 0 = follows rises at once).
    public var attack: Double
    /// How long the level envelope holds a peak before releasing, in seconds (0…0.2).
    public var hold: Double
    /// Release time constant of the level envelope in seconds (0.001…2).
    public var release: Double
    /// Onset sensitivity, 0…1: 0 finds no transients, 1 the faintest; the detection threshold falls
    /// from 12 dB (near 0) to 1 dB (at 1) of mean rise across the detector's five bands.
    public var onsetSensitivity: Double
    /// Shortest time between two onsets in seconds (0.01…2).
    public var minimumOnsetInterval: Double
    /// Most breakpoints per second of sound in each envelope (1…500); every envelope may have 16.
    public var breakpointsPerSecond: Double
    /// Largest difference, on the 0…1 intensity and sharpness scales, between an envelope and its
    /// breakpoints (0.001…0.5);
    /// raised where needed to stay within ``breakpointsPerSecond``.
    public var tolerance: Double
    /// Gain applied to the drive amplitude after normalising, in dB (−40…40); clipped at 1.
    public var gain: Double
    /// Whether the loudest moment of the band maps to intensity 1 (true), or a full-scale sine does (false).
    public var normalize: Bool
    /// Level below the reference, in dB (−120…−10), under which the band counts as silent (intensity 0).
    public var floor: Double
    /// Spectral centroid in Hz that maps to sharpness 0 (20…2000).
    public var sharpnessLow: Double
    /// Spectral centroid in Hz that maps to sharpness 1 (≥ 2 × sharpnessLow, ≤ 20 000).
    public var sharpnessHigh: Double

    /// Creates settings; omitted values are the ``general`` preset's.
    public init(
        bandLow: Double = 20, bandHigh: Double = 2000, attack: Double = 0.001, hold: Double = 0.01,
        release: Double = 0.02, onsetSensitivity: Double = 0.5, minimumOnsetInterval: Double = 0.05,
        breakpointsPerSecond: Double = 30, tolerance: Double = 0.03, gain: Double = 0, normalize: Bool = true,
        floor: Double = -50, sharpnessLow: Double = 60, sharpnessHigh: Double = 6000
    ) {
        self.bandLow = bandLow
        self.bandHigh = bandHigh
        self.attack = attack
        self.hold = hold
        self.release = release
        self.onsetSensitivity = onsetSensitivity
        self.minimumOnsetInterval = minimumOnsetInterval
        self.breakpointsPerSecond = breakpointsPerSecond
        self.tolerance = tolerance
        self.gain = gain
        self.normalize = normalize
        self.floor = floor
        self.sharpnessLow = sharpnessLow
        self.sharpnessHigh = sharpnessHigh
    }

    /// Mixed material: a band up to 2 kHz, 1 ms attack, 10 ms hold, 20 ms release, medium sensitivity.
    public static let general = AnalysisSettings()
    /// UI sounds (ticks, taps, confirmations): the whole band, fast envelope, sensitive, dense breakpoints.
    public static let ui = AnalysisSettings(
        bandHigh: 8000, attack: 0.0005, hold: 0.005, release: 0.015, onsetSensitivity: 0.7,
        minimumOnsetInterval: 0.03, breakpointsPerSecond: 60, tolerance: 0.02)
    /// Impacts and hits: wide band, short hold, moderately sensitive.
    public static let impacts = AnalysisSettings(
        bandHigh: 4000, attack: 0.001, hold: 0.01, release: 0.04, onsetSensitivity: 0.5, minimumOnsetInterval: 0.05)
    /// Footsteps: the thud band, one onset per step.
    public static let footsteps = AnalysisSettings(
        bandHigh: 1500, attack: 0.001, hold: 0.01, release: 0.03, onsetSensitivity: 0.6, minimumOnsetInterval: 0.12)
    /// Music: the bass band drives the envelope, only strong onsets become transients, fewer breakpoints.
    public static let music = AnalysisSettings(
        bandHigh: 250, attack: 0.005, hold: 0.02, release: 0.08, onsetSensitivity: 0.35, minimumOnsetInterval: 0.1,
        breakpointsPerSecond: 20, tolerance: 0.04)

    /// The presets by name, in the order help lists them.
    public static let presets: [(name: String, settings: AnalysisSettings)] = [
        ("general", .general), ("ui", .ui), ("impacts", .impacts), ("footsteps", .footsteps), ("music", .music),
    ]

    /// The detection threshold in dB of mean rise for ``onsetSensitivity`` (nil when it is 0: no onsets).
    var onsetThreshold: Double? {
        onsetSensitivity <= 0 ? nil : 12 * AnalysisMath.exp(-onsetSensitivity * 2.484_906_649_788_000_3)  // 12 × (1/12)^s
    }

    /// Checks every field against its documented range.
    /// - Throws: `AnalysisSettingsError` naming the first field out of range, its value and the range.
    public func validate() throws(AnalysisSettingsError) {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(AnalysisSettingsError) {
            guard value.isFinite, range.contains(value) else {
                throw AnalysisSettingsError(field: name, value: value, range: range)
            }
        }
        try check("bandLow", bandLow, 20...1000)
        try check("bandHigh", bandHigh, (bandLow + 10)...20_000)
        try check("attack", attack, 0...0.1)
        try check("hold", hold, 0...0.2)
        try check("release", release, 0.001...2)
        try check("onsetSensitivity", onsetSensitivity, 0...1)
        try check("minimumOnsetInterval", minimumOnsetInterval, 0.01...2)
        try check("breakpointsPerSecond", breakpointsPerSecond, 1...500)
        try check("tolerance", tolerance, 0.001...0.5)
        try check("gain", gain, -40...40)
        try check("floor", floor, -120...(-10))
        try check("sharpnessLow", sharpnessLow, 20...2000)
        try check("sharpnessHigh", sharpnessHigh, (2 * sharpnessLow)...20_000)
    }
}

/// A setting outside its documented range.
public struct AnalysisSettingsError: Error, Equatable, CustomStringConvertible {
    /// The field's name as in the settings file (e.g. `release`).
    public var field: String
    /// The value given.
    public var value: Double
    /// The accepted range.
    public var range: ClosedRange<Double>

    /// "release must be 0.001…2, got 5".
    public var description: String {
        "\(field) must be \(Self.text(range.lowerBound))…\(Self.text(range.upperBound)), got \(Self.text(value))"
    }

    /// Shortest text for a number: whole numbers without ".0".
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
