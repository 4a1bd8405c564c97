/// How haptic intensity becomes drive amplitude.
public enum IntensityLaw: String, Sendable, Equatable, BitwiseCopyable {
    /// A = gain × I² (Lofelt/Meta, Apple's controller renderer). The default.
    case square
    /// A = gain × I.
    case linear
}

/// One point of an actuator's equalisation: the drive's gain at a frequency.
public struct EqualizationPoint: Sendable, Equatable {
    /// Hz (> 0).
    public var hz: Double
    /// The drive's gain there in dB, −60…0 (a cut: the equalised drive never exceeds the profile's gain).
    public var gainDB: Double

    /// A point (checked by `ActuatorProfile.validate`).
    public init(hz: Double, gainDB: Double) {
        self.hz = hz
        self.gainDB = gainDB
    }
}

/// The latency a measurement found (`thrum measure`, docs/measure.md), in seconds.
public struct ActuatorLatency: Sendable, Equatable {
    /// DAC → ADC through the actuator and its sensor (the click train's median).
    public var loopSeconds: Double
    /// The device's part: the pure delay of the converters, buffers and cables.
    public var deviceSeconds: Double
    /// The actuator's part: its group delay where it is driven. A profile with a latency delays the audio
    /// by it, so that sound and vibration start together (docs/measure.md "Latency compensation").
    public var actuatorSeconds: Double

    /// A latency (checked by `ActuatorProfile.validate`).
    public init(loopSeconds: Double, deviceSeconds: Double, actuatorSeconds: Double) {
        self.loopSeconds = loopSeconds
        self.deviceSeconds = deviceSeconds
        self.actuatorSeconds = actuatorSeconds
    }
}

/// The description of one actuator (or audition target): band, intensity law, gain, limiter, transient length,
/// and what a measurement found: the drive's equalisation across the band and the latency.
///
/// A plain value: the JSON files that describe profiles (`Resources/Actuators/*.json`) are read by
/// `Thrum` (`ActuatorProfile.decode(from:)`), so the render core needs no Foundation.
/// - Important: Thread safety: any thread (a value). Real-time safe: reading yes; `validate` no (it
///   builds messages).
public struct ActuatorProfile: Sendable, Equatable {
    /// A short name ("default", "lra", "speaker").
    public var name: String
    /// Drive frequency at sharpness 0, in Hz (> 0).
    public var lowFrequency: Double
    /// Drive frequency at sharpness 1, in Hz (≥ `lowFrequency`); f = fLow + S × (fHigh − fLow).
    public var highFrequency: Double
    /// Intensity → amplitude law.
    public var law: IntensityLaw
    /// Amplitude at intensity 1 (the loudest single event), 0 < gain < 1: below full scale, so the limiter's
    /// soft range lies between it and ±1.
    public var gain: Double
    /// Soft-limiter knee on the haptic bus, gain ≤ threshold < 1: a lone event never reaches it (the limiter
    /// is transparent for it); only overlapping events summing above it are bent, and the bus never leaves ±1.
    public var limiterThreshold: Double
    /// Length of a HapticTransient burst in seconds, 0.010…0.030 (default 0.020).
    public var transientDuration: Double
    /// The drive's gain by drive frequency, points in ascending `hz` (empty: none, every frequency at 0 dB).
    /// Between points the gain in dB is linear in log frequency; beyond the first and last it holds theirs.
    /// Made by `thrum measure --write-profile` so the same intensity is felt the same across sharpness.
    public var equalization: [EqualizationPoint]
    /// What a measurement found of the latency, or nil.
    public var latency: ActuatorLatency?

    /// Creates a profile (values are not validated; `validate()` does that).
    public init(
        name: String, lowFrequency: Double, highFrequency: Double, law: IntensityLaw = .square, gain: Double = 0.8,
        limiterThreshold: Double = 0.8, transientDuration: Double = 0.02, equalization: [EqualizationPoint] = [],
        latency: ActuatorLatency? = nil
    ) {
        self.equalization = equalization
        self.latency = latency
        self.name = name
        self.lowFrequency = lowFrequency
        self.highFrequency = highFrequency
        self.law = law
        self.gain = gain
        self.limiterThreshold = limiterThreshold
        self.transientDuration = transientDuration
    }

    /// Drive frequency in Hz for sharpness `s` (clamped to 0…1): fLow + S × (fHigh − fLow).
    public func frequency(sharpness s: Double) -> Double {
        lowFrequency + min(max(s, 0), 1) * (highFrequency - lowFrequency)
    }

    /// The drive's linear gain at `frequency` Hz from `equalization` (1 without one).
    /// - Important: Real-time safe: no (it reads an array); the render core uses a table made from it.
    public func equalizationGain(atFrequency frequency: Double) -> Double {
        guard let first = equalization.first, let last = equalization.last else { return 1 }
        var decibels = first.gainDB
        if frequency >= last.hz {
            decibels = last.gainDB
        } else if frequency > first.hz {
            let upper = equalization.firstIndex { $0.hz >= frequency } ?? equalization.count - 1
            let a = equalization[upper - 1]
            let b = equalization[upper]
            let t = b.hz > a.hz ? (logarithm(frequency) - logarithm(a.hz)) / (logarithm(b.hz) - logarithm(a.hz)) : 0
            decibels = a.gainDB + t * (b.gainDB - a.gainDB)
        }
        return power10(decibels / 20)
    }

    /// The highest engine rate in Hz: without a rate, bands are checked against a quarter of it.
    public static let highestSampleRate = 768_000.0

    /// Checks the ranges documented on each field; the band must lie below a quarter of the highest
    /// engine rate (``highestSampleRate``).
    /// - Throws: `ActuatorProfileError.invalidField` naming the first bad field.
    public func validate() throws(ActuatorProfileError) {
        try validate(sampleRate: nil)
    }

    /// Checks the ranges documented on each field, and that the band lies below a quarter of
    /// `sampleRate` (half the Nyquist frequency, where a drive waveform is still drawn with at least
    /// four samples per cycle).
    /// - Throws: `ActuatorProfileError.invalidField` naming the first bad field.
    public func validate(sampleRate: Double?) throws(ActuatorProfileError) {
        if name.isEmpty { throw .invalidField("name", "must not be empty") }
        if !(lowFrequency > 0 && lowFrequency.isFinite) {
            throw .invalidField("lowFrequency", "must be a positive number of Hz, got \(Self.number(lowFrequency))")
        }
        if !(highFrequency >= lowFrequency && highFrequency.isFinite) {
            throw .invalidField(
                "highFrequency", "must be ≥ lowFrequency (\(Self.number(lowFrequency)) Hz), got \(Self.number(highFrequency))")
        }
        let rate = sampleRate ?? Self.highestSampleRate
        if !(highFrequency < rate / 4) {
            let whose = sampleRate == nil ? "the highest engine rate, \(Self.number(rate)) Hz" : "the \(Self.number(rate)) Hz engine rate"
            throw .invalidField(
                "highFrequency", "must be below \(Self.number(rate / 4)) Hz (a quarter of \(whose)), got \(Self.number(highFrequency))")
        }
        if !(gain > 0 && gain < 1) {
            throw .invalidField(
                "gain",
                "must be in 0 < gain < 1 (below full scale: the limiter's soft range lies between the gain and ±1), got \(Self.number(gain))")
        }
        if !(limiterThreshold >= gain && limiterThreshold < 1) {
            throw .invalidField(
                "limiterThreshold",
                "must be in gain (\(Self.number(gain))) ≤ threshold < 1 (a lone event must pass the limiter untouched), got \(Self.number(limiterThreshold))")
        }
        if !(transientDuration >= 0.010 && transientDuration <= 0.030) {
            throw .invalidField("transientDuration", "must be 0.010…0.030 s, got \(Self.number(transientDuration))")
        }
        var previous = 0.0
        for (index, point) in equalization.enumerated() {
            if !(point.hz > previous && point.hz.isFinite) {
                throw .invalidField("equalization[\(index)].hz", "must be a number of Hz above the previous point's, got \(Self.number(point.hz))")
            }
            if !(point.gainDB >= -60 && point.gainDB <= 0) {
                throw .invalidField("equalization[\(index)].gainDB", "must be −60…0 dB (a cut), got \(Self.number(point.gainDB))")
            }
            previous = point.hz
        }
        if let latency {
            for (field, value) in [("loopSeconds", latency.loopSeconds), ("deviceSeconds", latency.deviceSeconds),
                ("actuatorSeconds", latency.actuatorSeconds)] where !(value >= 0 && value <= 1)
            {
                throw .invalidField("latency.\(field)", "must be 0…1 s, got \(Self.number(value))")
            }
        }
    }

    /// A number for messages: `230`, `0.8`, `1e+300`.
    static func number(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 && value == value.rounded() ? String(Int64(value)) : "\(value)"
    }

    /// The generic wideband voice coil: 80–230 Hz, square law (matches `Resources/Actuators/default.json`).
    public static let `default` = ActuatorProfile(
        name: "default", lowFrequency: 80, highFrequency: 230, law: .square, gain: 0.8, limiterThreshold: 0.8,
        transientDuration: 0.02)
    /// A linear resonant actuator: narrow band around 170 Hz (matches `lra.json`).
    public static let lra = ActuatorProfile(
        name: "lra", lowFrequency: 160, highFrequency: 180, law: .square, gain: 0.8, limiterThreshold: 0.8,
        transientDuration: 0.025)
    /// "Speaker audition": a higher band that laptop speakers reproduce, linear law (matches `speaker.json`).
    public static let speaker = ActuatorProfile(
        name: "speaker", lowFrequency: 120, highFrequency: 400, law: .linear, gain: 0.8, limiterThreshold: 0.8,
        transientDuration: 0.015)
}

/// A problem with an actuator profile file.
public enum ActuatorProfileError: Error, Equatable, CustomStringConvertible {
    /// `field` is missing, has the wrong type or is out of range; `reason` says which.
    case invalidField(String, String)
    /// The data is not valid JSON.
    case invalidJSON(String)

    /// A one-line message naming the field.
    public var description: String {
        switch self {
        case .invalidField(let field, let reason): "actuator profile: field '\(field)' \(reason)"
        case .invalidJSON(let message): "actuator profile: invalid JSON: \(message)"
        }
    }
}

/// ln(x) for x > 0 without libm (the render core links none): the exponent, then artanh's series.
func logarithm(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    let exponent = Double(x.exponent)
    let mantissa = x.significand  // 1 ≤ m < 2
    let y = (mantissa - 1) / (mantissa + 1)
    let y2 = y * y
    var term = y
    var sum = 0.0
    var k = 1.0
    while abs(term) > 1e-17 {
        sum += term / k
        term *= y2
        k += 2
    }
    return 2 * sum + exponent * 0.693_147_180_559_945_3
}

/// 10^x without libm: 2^(x log2 10) through its integer and fractional parts.
func power10(_ x: Double) -> Double {
    let t = x * 3.321_928_094_887_362
    let whole = t.rounded(.down)
    let fraction = (t - whole) * 0.693_147_180_559_945_3
    var term = 1.0
    var sum = 1.0
    for k in 1...24 {
        term *= fraction / Double(k)
        sum += term
    }
    return sum * pow2(Int(whole))
}

private func pow2(_ n: Int) -> Double {
    Double(sign: .plus, exponent: max(min(n, 1023), -1022), significand: 1)
}
