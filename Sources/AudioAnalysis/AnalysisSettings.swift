/// How sound becomes haptics: the detector's time constants and bands, the onset sensitivity, the
/// level mapping and how finely the envelopes are reduced to breakpoints.
///
/// The defaults (``general``) suit mixed material; ``ui``, ``impacts``, ``footsteps`` and ``music``
/// are tuned presets. Every field has a documented range that ``validate()`` checks.
///
/// A superset of Meta Haptics Studio's `OfflineAnalysisSettings` (meta-haptics-sdk,
/// `interfaces/studio/audio_analysis`, MIT): each of its settings has a field here, named in the
/// field's documentation ("Meta: …"); docs/analysis.md maps them one by one.
/// - Important: Thread safety: any thread (a value). Real-time safe: reading fields yes.
public struct AnalysisSettings: Sendable, Equatable {
    /// Lower edge of the haptic-relevant band in Hz (20…1000): the level follows the sound above it.
    public var bandLow: Double
    /// Upper edge of the haptic-relevant band in Hz (≥ bandLow + 10, ≤ 20 000; corners at or above
    /// 0.45 × the sample rate do not filter).
    public var bandHigh: Double
    /// Time constant of the RMS integration under the level envelope, in seconds (0.00005…0.1).
    /// Meta: `amplitude.rms_windowing_time`.
    public var rmsWindow: Double
    /// Attack time constant of the level envelope in seconds (0…0.1; 0 = follows rises at once).
    /// Meta: `amplitude.envelope_attack_time`.
    public var attack: Double
    /// How long the level envelope holds a peak before releasing, in seconds (0…0.2).
    /// Meta: `amplitude.envelope_hold_time`.
    public var hold: Double
    /// Release time constant of the level envelope in seconds (0.001…2). Meta: `amplitude.envelope_release_time`.
    public var release: Double
    /// Emphasis sensitivity s, 0…1: of the candidate peaks (see ``minimumRise``), those whose spectral
    /// flux is at least (1 − s) × the sound's highest become transients (0: none, 1: all).
    /// Also the live detector's onset threshold, which falls from 12 dB (near 0) to 1 dB (at 1) of mean
    /// rise across its five bands. Meta: `emphasis.sensitivity_percent` ÷ 100.
    public var onsetSensitivity: Double
    /// Shortest time between two transients in seconds (0…2). Meta: `emphasis.peak_window_ms` ÷ 1000.
    public var minimumOnsetInterval: Double
    /// Whether transients (emphasis) are found at all. Meta: `emphasis_enabled`.
    public var emphasis: Bool
    /// Least rise of the drive amplitude (0…1 of the loudest) within 30 ms before a peak for it to be a
    /// candidate transient (0…1). Meta: `emphasis.minimum_rise`.
    public var minimumRise: Double
    /// How far the amplitude may go on rising in the 30 ms after a candidate peak, as a fraction of the
    /// rise before it (0…10): a sound that keeps rising has no transient yet. Meta:
    /// `emphasis.plateau_factor_percent` ÷ 100.
    public var plateau: Double
    /// Fraction by which the envelope is lowered at each transient, to leave room for it (0…1).
    /// Meta: `emphasis.ducking_percent` ÷ 100 (Meta's default 0.5; Thrum's 0: its renderer adds
    /// transients under a limiter).
    public var ducking: Double
    /// A transient's sharpness is `emphasisSharpnessMin` + s × (`emphasisSharpnessMax` −
    /// `emphasisSharpnessMin`), s the sharpness of what rose (0…1 each). Meta: `emphasis.sharpness_min`.
    public var emphasisSharpnessMin: Double
    /// See ``emphasisSharpnessMin``. Meta: `emphasis.sharpness_max`.
    public var emphasisSharpnessMax: Double
    /// Most breakpoints per second of sound in the intensity (amplitude) envelope (1…500); every
    /// envelope may have 16. Meta: `amplitude_breakpoints_per_second`.
    public var breakpointsPerSecond: Double
    /// Most breakpoints per second in the sharpness (frequency) envelope (1…500).
    /// Meta: `frequency_breakpoints_per_second`.
    public var frequencyBreakpointsPerSecond: Double
    /// Largest difference, on the 0…1 intensity and sharpness scales, between an envelope and its
    /// breakpoints (0.001…0.5);
    /// raised where needed to stay within ``breakpointsPerSecond``.
    public var tolerance: Double
    /// Gain applied to the drive amplitude after normalising, in dB (−40…40); clipped at 1.
    /// Meta: `preprocessing.gain_db` (+ `normalize_level_db` when normalising).
    public var gain: Double
    /// Whether the loudest moment of the band maps to intensity 1 (true), or a full-scale sine does (false).
    /// Meta: `preprocessing.normalize_audio`.
    public var normalize: Bool
    /// Level below the reference, in dB (−120…−10), under which the band counts as silent (intensity 0).
    public var floor: Double
    /// The live detector's sharpness scale and the bands' scale for a transient's sharpness: the
    /// centroid in Hz that maps to sharpness 0 (20…2000), logarithmically.
    public var sharpnessLow: Double
    /// The centroid in Hz that maps to sharpness 1 on that scale (≥ 2 × sharpnessLow, ≤ 20 000).
    public var sharpnessHigh: Double
    /// Spectral centroid in Hz (below ``centroidLowpass``) that maps to ``frequencyOutputMin`` in the
    /// analysed sharpness (frequency) envelope (0…5000). Meta: `frequency.frequency_min`.
    public var frequencyMin: Double
    /// Centroid in Hz that maps to ``frequencyOutputMax`` (> frequencyMin, ≤ 20 000); between the two
    /// the map is linear, and clamped to 0…1. Meta: `frequency.frequency_max`.
    public var frequencyMax: Double
    /// Sharpness at ``frequencyMin`` (0…1). Meta: `frequency.output_min`.
    public var frequencyOutputMin: Double
    /// Sharpness at ``frequencyMax`` (0…1). Meta: `frequency.output_max`.
    public var frequencyOutputMax: Double
    /// The spectrum above this frequency in Hz is left out of the centroid (a brick-wall low-pass,
    /// 20…20 000). Meta: `spectrum.centroid_lowpass_hz`.
    public var centroidLowpass: Double
    /// Samples per spectrum window (a power of two, 64…16 384). Meta: `spectrum.fft_size`.
    public var fftSize: Int
    /// Windows per window length (1…64): the hop is `fftSize / overlap`. Meta: `spectrum.overlap_factor`.
    public var overlap: Int

    /// Creates settings; omitted values are the ``general`` preset's.
    public init(
        bandLow: Double = 20, bandHigh: Double = 2000, rmsWindow: Double = 0.005, attack: Double = 0.001,
        hold: Double = 0.01, release: Double = 0.02, onsetSensitivity: Double = 0.5, minimumOnsetInterval: Double = 0.05,
        emphasis: Bool = true, minimumRise: Double = 0.1, plateau: Double = 0.25, ducking: Double = 0,
        emphasisSharpnessMin: Double = 0, emphasisSharpnessMax: Double = 1,
        breakpointsPerSecond: Double = 30, frequencyBreakpointsPerSecond: Double = 30, tolerance: Double = 0.03,
        gain: Double = 0, normalize: Bool = true, floor: Double = -50, sharpnessLow: Double = 60,
        sharpnessHigh: Double = 6000, frequencyMin: Double = 30, frequencyMax: Double = 600,
        frequencyOutputMin: Double = 0, frequencyOutputMax: Double = 1, centroidLowpass: Double = 1000,
        fftSize: Int = 1024, overlap: Int = 4
    ) {
        self.bandLow = bandLow
        self.rmsWindow = rmsWindow
        self.emphasis = emphasis
        self.minimumRise = minimumRise
        self.plateau = plateau
        self.ducking = ducking
        self.emphasisSharpnessMin = emphasisSharpnessMin
        self.emphasisSharpnessMax = emphasisSharpnessMax
        self.frequencyBreakpointsPerSecond = frequencyBreakpointsPerSecond
        self.frequencyMin = frequencyMin
        self.frequencyMax = frequencyMax
        self.frequencyOutputMin = frequencyOutputMin
        self.frequencyOutputMax = frequencyOutputMax
        self.centroidLowpass = centroidLowpass
        self.fftSize = fftSize
        self.overlap = overlap
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
        try check("rmsWindow", rmsWindow, 0.00005...0.1)
        try check("attack", attack, 0...0.1)
        try check("hold", hold, 0...0.2)
        try check("release", release, 0.001...2)
        try check("onsetSensitivity", onsetSensitivity, 0...1)
        try check("minimumOnsetInterval", minimumOnsetInterval, 0...2)
        try check("minimumRise", minimumRise, 0...1)
        try check("plateau", plateau, 0...10)
        try check("ducking", ducking, 0...1)
        try check("emphasisSharpnessMin", emphasisSharpnessMin, 0...1)
        try check("emphasisSharpnessMax", emphasisSharpnessMax, 0...1)
        try check("breakpointsPerSecond", breakpointsPerSecond, 1...500)
        try check("frequencyBreakpointsPerSecond", frequencyBreakpointsPerSecond, 1...500)
        try check("tolerance", tolerance, 0.001...0.5)
        try check("gain", gain, -40...40)
        try check("floor", floor, -120...(-10))
        try check("sharpnessLow", sharpnessLow, 20...2000)
        try check("sharpnessHigh", sharpnessHigh, (2 * sharpnessLow)...20_000)
        try check("frequencyMin", frequencyMin, 0...5000)
        try check("frequencyMax", frequencyMax, (frequencyMin + 1)...20_000)
        try check("frequencyOutputMin", frequencyOutputMin, 0...1)
        try check("frequencyOutputMax", frequencyOutputMax, 0...1)
        try check("centroidLowpass", centroidLowpass, 20...20_000)
        try check("fftSize", Double(fftSize), 64...16_384)
        if fftSize & (fftSize - 1) != 0 {
            throw AnalysisSettingsError(field: "fftSize", value: Double(fftSize), range: 64...16_384, powerOfTwo: true)
        }
        try check("overlap", Double(overlap), 1...64)
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
    /// Whether the value must also be a power of two (`fftSize`).
    public var powerOfTwo: Bool

    /// Creates an error.
    package init(field: String, value: Double, range: ClosedRange<Double>, powerOfTwo: Bool = false) {
        self.field = field
        self.value = value
        self.range = range
        self.powerOfTwo = powerOfTwo
    }

    /// "release must be 0.001…2, got 5".
    public var description: String {
        "\(field) must be \(powerOfTwo ? "a power of two in " : "")\(Self.text(range.lowerBound))…\(Self.text(range.upperBound)), got \(Self.text(value))"
    }

    /// Shortest text for a number: whole numbers without ".0".
    package static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
