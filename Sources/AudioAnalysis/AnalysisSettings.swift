/// How sound becomes haptics: `thrum analyze`'s model (Meta Haptics Studio's, with its settings) and the
/// live detector's band, times and onset sensitivity.
///
/// A superset of Meta Haptics Studio's `OfflineAnalysisSettings` and `PreprocessingSettings`
/// (meta-haptics-sdk, `interfaces/studio/audio_analysis`, MIT): each of its settings has a field here that
/// means what it means there, named in the field's documentation ("Meta: …"); docs/analysis.md maps
/// them one by one. Fields marked "live" are read by the live haptics-from-audio detector only; fields
/// marked "offline" by `thrum analyze` only; the rest by both.
///
/// The defaults (``general``) are fitted to designers' clips (`Tools/dev/fit-analysis.py`); ``ui``,
/// ``impacts``, ``footsteps`` and ``music`` are presets for those materials. Every field has a
/// documented range that ``validate()`` checks.
/// - Important: Thread safety: any thread (a value). Real-time safe: reading fields yes.
public struct AnalysisSettings: Sendable, Equatable {
    /// Live: lower edge of the band the live detector's level follows, in Hz (20…1000).
    public var bandLow: Double
    /// Live: upper edge of that band in Hz (≥ bandLow + 10, ≤ 20 000; corners at or above 0.45 × the
    /// sample rate do not filter). `thrum analyze` follows the whole band, as Haptics Studio does.
    public var bandHigh: Double
    /// Length of the moving window the level's RMS is taken over, in seconds (0…0.1; 0: the magnitude
    /// of each sample). Meta: `amplitude.rms_windowing_time`. The live detector smooths over at least 5 ms.
    public var rmsWindow: Double
    /// Time the level envelope takes to rise 99 % of the way to a louder level, in seconds (0…1;
    /// 0 = at once). Meta: `amplitude.envelope_attack_time`.
    public var attack: Double
    /// How long the level envelope holds a peak before releasing, in seconds (0…1).
    /// Meta: `amplitude.envelope_hold_time`.
    public var hold: Double
    /// Time the level envelope takes to fall 99 % of the way to a quieter level, in seconds (0…5).
    /// Meta: `amplitude.envelope_release_time`.
    public var release: Double
    /// Offline: seconds between two points of the level envelope before reduction (0.0001…0.1).
    /// Meta: `amplitude.time_between_updates`.
    public var timeBetweenUpdates: Double
    /// Emphasis sensitivity s, 0…1 (0: none, 1: every candidate peak, see ``minimumRise``). Thrum's
    /// way: the candidates at least 1 − s of whose spectrum is new (a hit out of quiet: about 1); with
    /// ``relativeSensitivity``, Haptics Studio's: those whose spectral flux is at least the highest
    /// candidate's − s × the span down to the lowest's. Meta: `emphasis.sensitivity_percent` ÷ 100.
    /// Live: the onset threshold, from 12 dB (near 0) to 1 dB (at 1) of mean rise across the
    /// detector's five bands.
    public var onsetSensitivity: Double
    /// Offline: whether the sensitivity spans the candidates' spectral flux as in Haptics Studio (true),
    /// or asks for a share of new spectrum (false, Thrum's: equally strong hits are kept or dropped
    /// together). True in Haptics Studio's settings.
    public var relativeSensitivity: Bool
    /// Shortest time between two emphasis peaks in seconds (0…2). Meta: `emphasis.peak_window_ms` ÷ 1000.
    /// Live: the shortest time between two onsets.
    public var minimumOnsetInterval: Double
    /// Offline: whether emphases are found at all. Meta: `emphasis_enabled`.
    public var emphasis: Bool
    /// Offline: least rise of the amplitude from the previous breakpoint for a breakpoint to be a
    /// candidate emphasis peak (0…1). Meta: `emphasis.minimum_rise`.
    public var minimumRise: Double
    /// Offline: how far the amplitude may go on rising at the next breakpoint, as a fraction of the
    /// rise into the candidate (0…10), for it still to be a peak. Meta: `emphasis.plateau_factor_percent` ÷ 100.
    public var plateau: Double
    /// Offline: seconds before a breakpoint within which its rise is measured from the lowest breakpoint
    /// (0…0.5; 0: from the breakpoint before, as Haptics Studio does). Thrum's own.
    public var riseWindow: Double
    /// Offline: fraction by which the envelope is lowered at each emphasis, to leave room for it (0…1).
    /// Meta: `emphasis.ducking_percent` ÷ 100.
    public var ducking: Double
    /// Offline: an emphasis's sharpness is `emphasisSharpnessMin` + s × (`emphasisSharpnessMax` −
    /// `emphasisSharpnessMin`), s the sharpness of what rose there (0…1 each). Meta: `emphasis.sharpness_min`.
    public var emphasisSharpnessMin: Double
    /// See ``emphasisSharpnessMin``. Meta: `emphasis.sharpness_max`.
    public var emphasisSharpnessMax: Double
    /// Offline: whether textures (rain, gravel, crackle: bright sound with many small peaks) get an
    /// emphasis on every breakpoint, as designers give them. Thrum's own; off for a Haptics Studio clip.
    public var textureEmphasis: Bool
    /// Offline: the share of the spectrum's magnitude above 4 kHz, over half a second, from which sound
    /// counts as a texture (0…1).
    public var textureBrightness: Double
    /// Offline: the peaks per second (breakpoints 3 dB above the one before), over half a second, from
    /// which sound counts as a texture (0…1000).
    public var textureDensity: Double
    /// Offline: most breakpoints in each second of the amplitude envelope (1…1000).
    /// Meta: `amplitude_breakpoints_per_second`.
    public var breakpointsPerSecond: Double
    /// Offline: most breakpoints in each second of the frequency (sharpness) envelope (1…1000).
    /// Meta: `frequency_breakpoints_per_second`.
    public var frequencyBreakpointsPerSecond: Double
    /// Offline: breakpoints whose triangle with their neighbours has a (doubled) area in seconds × value
    /// below this are dropped (0…1). Meta: `minimum_breakpoint_score`.
    public var minimumBreakpointScore: Double
    /// Offline: after the per-second limit, breakpoints that lie within this distance of the straight
    /// line between their neighbours are dropped too, on the envelope's 0…1 scale (0…0.5; 0: none).
    public var tolerance: Double
    /// Gain in dB (−40…40): on the sound before analysis (offline), on the level (live).
    /// Meta: `preprocessing.gain_db` (Haptics Studio ignores it when normalising).
    public var gain: Double
    /// Offline: whether the sound is first scaled so its highest sample is at ``normalizeLevel`` dBFS.
    /// Meta: `preprocessing.normalize_audio`.
    public var normalize: Bool
    /// Offline: the level of the highest sample after normalising, in dBFS (−60…0).
    /// Meta: `preprocessing.normalize_level_db`.
    public var normalizeLevel: Double
    /// Live: level below full scale, in dB (−120…−10), under which the band counts as silent.
    public var floor: Double
    /// The centroid in Hz that maps to sharpness 0 on a logarithmic scale (20…2000): the live
    /// detector's sharpness, and what rose under an emphasis (offline).
    public var sharpnessLow: Double
    /// The centroid in Hz that maps to sharpness 1 on that scale (≥ 2 × sharpnessLow, ≤ 20 000).
    public var sharpnessHigh: Double
    /// Offline: spectral centroid in Hz (below ``centroidLowpass``) that maps to ``frequencyOutputMin``
    /// in the frequency (sharpness) envelope (0…5000). Meta: `frequency.frequency_min`.
    public var frequencyMin: Double
    /// Offline: centroid in Hz that maps to ``frequencyOutputMax`` (> frequencyMin, ≤ 20 000); between
    /// the two the map is linear, and clamped to 0…1. Meta: `frequency.frequency_max`.
    public var frequencyMax: Double
    /// Offline: sharpness at ``frequencyMin`` (0…1). Meta: `frequency.output_min`.
    public var frequencyOutputMin: Double
    /// Offline: sharpness at ``frequencyMax`` (0…1). Meta: `frequency.output_max`.
    public var frequencyOutputMax: Double
    /// Offline: the spectrum above this frequency in Hz is left out of the centroid (a brick-wall
    /// low-pass, 20…20 000). Meta: `spectrum.centroid_lowpass_hz`.
    public var centroidLowpass: Double
    /// Offline: samples per spectrum window (a power of two, 64…16 384). Meta: `spectrum.fft_size`.
    public var fftSize: Int
    /// Offline: windows per window length (1…64): the hop is `fftSize / overlap`.
    /// Meta: `spectrum.overlap_factor`.
    public var overlap: Int

    /// Creates settings; omitted values are the ``general`` preset's.
    public init(
        bandLow: Double = 20, bandHigh: Double = 2000, rmsWindow: Double = 0.0001, attack: Double = 0.0001,
        hold: Double = 0.0015, release: Double = 0.1, timeBetweenUpdates: Double = 0.001,
        onsetSensitivity: Double = 0.5, relativeSensitivity: Bool = false, minimumOnsetInterval: Double = 0.05,
        emphasis: Bool = true, minimumRise: Double = 0.2, plateau: Double = 0.25, riseWindow: Double = 0.03,
        ducking: Double = 0.2,
        emphasisSharpnessMin: Double = 0, emphasisSharpnessMax: Double = 1, textureEmphasis: Bool = true,
        textureBrightness: Double = 0.3, textureDensity: Double = 10,
        breakpointsPerSecond: Double = 40, frequencyBreakpointsPerSecond: Double = 30,
        minimumBreakpointScore: Double = 1e-8, tolerance: Double = 0, gain: Double = 0, normalize: Bool = true,
        normalizeLevel: Double = 0, floor: Double = -50, sharpnessLow: Double = 60, sharpnessHigh: Double = 6000,
        frequencyMin: Double = 30, frequencyMax: Double = 600, frequencyOutputMin: Double = 0,
        frequencyOutputMax: Double = 1, centroidLowpass: Double = 1000, fftSize: Int = 1024, overlap: Int = 4
    ) {
        self.bandLow = bandLow
        self.bandHigh = bandHigh
        self.rmsWindow = rmsWindow
        self.attack = attack
        self.hold = hold
        self.release = release
        self.timeBetweenUpdates = timeBetweenUpdates
        self.onsetSensitivity = onsetSensitivity
        self.minimumOnsetInterval = minimumOnsetInterval
        self.emphasis = emphasis
        self.minimumRise = minimumRise
        self.plateau = plateau
        self.riseWindow = riseWindow
        self.relativeSensitivity = relativeSensitivity
        self.ducking = ducking
        self.emphasisSharpnessMin = emphasisSharpnessMin
        self.emphasisSharpnessMax = emphasisSharpnessMax
        self.textureEmphasis = textureEmphasis
        self.textureBrightness = textureBrightness
        self.textureDensity = textureDensity
        self.breakpointsPerSecond = breakpointsPerSecond
        self.frequencyBreakpointsPerSecond = frequencyBreakpointsPerSecond
        self.minimumBreakpointScore = minimumBreakpointScore
        self.tolerance = tolerance
        self.gain = gain
        self.normalize = normalize
        self.normalizeLevel = normalizeLevel
        self.floor = floor
        self.sharpnessLow = sharpnessLow
        self.sharpnessHigh = sharpnessHigh
        self.frequencyMin = frequencyMin
        self.frequencyMax = frequencyMax
        self.frequencyOutputMin = frequencyOutputMin
        self.frequencyOutputMax = frequencyOutputMax
        self.centroidLowpass = centroidLowpass
        self.fftSize = fftSize
        self.overlap = overlap
    }

    /// Haptics Studio's envelope and emphasis model with what designers use: 0.1 ms RMS and attack,
    /// 1.5 ms hold, 100 ms release, 40 amplitude and 30 frequency breakpoints a second, 20 % ducking,
    /// emphases on peaks and on textures; a spectrum every 1/4 window (Haptics Studio: 1/8), which
    /// halves its cost and changes no designer's clip's score.
    public static let general = AnalysisSettings()
    /// Haptics Studio's own defaults (meta-haptics-sdk's `OfflineAnalysisSettings::default()` and
    /// `PreprocessingSettings::default()`): 60 breakpoints a second in both envelopes, 50 % ducking, the
    /// sound as it is (no normalising), a spectrum every 1/8 window, no texture emphasis.
    public static let studio = AnalysisSettings(
        relativeSensitivity: true, minimumOnsetInterval: 0.1, minimumRise: 0.1, riseWindow: 0, ducking: 0.5,
        textureEmphasis: false, breakpointsPerSecond: 60, frequencyBreakpointsPerSecond: 60,
        normalize: false, overlap: 8)
    /// UI sounds (ticks, taps, confirmations): a 50 ms release, 60 breakpoints a second, no texture
    /// emphasis (fitted to designers' UI clips); live, the whole band and sensitive onsets.
    public static let ui = AnalysisSettings(
        bandHigh: 8000, release: 0.05, onsetSensitivity: 0.7, textureEmphasis: false, breakpointsPerSecond: 60)
    /// Impacts and hits: no texture emphasis; live, a wide band.
    public static let impacts = AnalysisSettings(bandHigh: 4000, textureEmphasis: false)
    /// Footsteps: the defaults (gravel and snow are textures; fitted to designers' footsteps); live, the
    /// thud band and somewhat sensitive onsets.
    public static let footsteps = AnalysisSettings(bandHigh: 1500, onsetSensitivity: 0.6)
    /// Music: no texture emphasis (hi-hats are not rain), 60 breakpoints a second (fitted to designers'
    /// drums); live, the bass band.
    public static let music = AnalysisSettings(bandHigh: 250, textureEmphasis: false, breakpointsPerSecond: 60)

    /// The presets by name, in the order help lists them.
    public static let presets: [(name: String, settings: AnalysisSettings)] = [
        ("general", .general), ("studio", .studio), ("ui", .ui), ("impacts", .impacts), ("footsteps", .footsteps),
        ("music", .music),
    ]

    /// The live detection threshold in dB of mean rise for ``onsetSensitivity`` (nil when it is 0: no onsets).
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
        try check("rmsWindow", rmsWindow, 0...0.1)
        try check("attack", attack, 0...1)
        try check("hold", hold, 0...1)
        try check("release", release, 0...5)
        try check("timeBetweenUpdates", timeBetweenUpdates, 0.0001...0.1)
        try check("onsetSensitivity", onsetSensitivity, 0...1)
        try check("minimumOnsetInterval", minimumOnsetInterval, 0...2)
        try check("minimumRise", minimumRise, 0...1)
        try check("plateau", plateau, 0...10)
        try check("riseWindow", riseWindow, 0...0.5)
        try check("ducking", ducking, 0...1)
        try check("emphasisSharpnessMin", emphasisSharpnessMin, 0...1)
        try check("emphasisSharpnessMax", emphasisSharpnessMax, 0...1)
        try check("textureBrightness", textureBrightness, 0...1)
        try check("textureDensity", textureDensity, 0...1000)
        try check("breakpointsPerSecond", breakpointsPerSecond, 1...1000)
        try check("frequencyBreakpointsPerSecond", frequencyBreakpointsPerSecond, 1...1000)
        try check("minimumBreakpointScore", minimumBreakpointScore, 0...1)
        try check("tolerance", tolerance, 0...0.5)
        try check("gain", gain, -40...40)
        try check("normalizeLevel", normalizeLevel, -60...0)
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
        if overlap > fftSize {
            throw AnalysisSettingsError(field: "overlap", value: Double(overlap), range: 1...Double(fftSize))
        }
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
