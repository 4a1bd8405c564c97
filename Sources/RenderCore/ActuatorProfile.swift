import Foundation

/// How haptic intensity becomes drive amplitude.
public enum IntensityLaw: String, Sendable, Codable, Equatable {
    /// A = gain × I² (Lofelt/Meta, Apple's controller renderer). The default.
    case square
    /// A = gain × I.
    case linear
}

/// The description of one actuator (or audition target): band, intensity law, gain, limiter, transient length.
///
/// Loaded from small JSON files (`Resources/Actuators/*.json`), e.g.
/// `{"name": "default", "lowFrequency": 80, "highFrequency": 230, "law": "square", "gain": 1,
///   "limiterThreshold": 0.8, "transientDuration": 0.02}`.
/// - Important: Thread safety: any thread (a value). Real-time safe: the stored values yes; `decode` no.
public struct ActuatorProfile: Sendable, Codable, Equatable {
    /// A short name ("default", "lra", "speaker").
    public var name: String
    /// Drive frequency at sharpness 0, in Hz (> 0).
    public var lowFrequency: Double
    /// Drive frequency at sharpness 1, in Hz (≥ `lowFrequency`); f = fLow + S × (fHigh − fLow).
    public var highFrequency: Double
    /// Intensity → amplitude law.
    public var law: IntensityLaw
    /// Amplitude at intensity 1, 0 < gain ≤ 1.
    public var gain: Double
    /// Soft-limiter knee on the haptic bus, 0 < threshold < 1; the bus never leaves ±1.
    public var limiterThreshold: Double
    /// Length of a HapticTransient burst in seconds, 0.010…0.030 (default 0.020).
    public var transientDuration: Double

    /// Creates a profile (values are not validated; `validate()` does that).
    public init(
        name: String, lowFrequency: Double, highFrequency: Double, law: IntensityLaw = .square, gain: Double = 1,
        limiterThreshold: Double = 0.8, transientDuration: Double = 0.02
    ) {
        self.name = name
        self.lowFrequency = lowFrequency
        self.highFrequency = highFrequency
        self.law = law
        self.gain = gain
        self.limiterThreshold = limiterThreshold
        self.transientDuration = transientDuration
    }

    enum CodingKeys: String, CodingKey {
        case name, lowFrequency, highFrequency, law, gain, limiterThreshold, transientDuration
    }

    /// Decodes a profile; `law`, `gain`, `limiterThreshold` and `transientDuration` are optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        lowFrequency = try c.decode(Double.self, forKey: .lowFrequency)
        highFrequency = try c.decode(Double.self, forKey: .highFrequency)
        law = try c.decodeIfPresent(IntensityLaw.self, forKey: .law) ?? .square
        gain = try c.decodeIfPresent(Double.self, forKey: .gain) ?? 1
        limiterThreshold = try c.decodeIfPresent(Double.self, forKey: .limiterThreshold) ?? 0.8
        transientDuration = try c.decodeIfPresent(Double.self, forKey: .transientDuration) ?? 0.02
    }

    /// Drive frequency in Hz for sharpness `s` (clamped to 0…1).
    public func frequency(sharpness s: Double) -> Double {
        lowFrequency + min(max(s, 0), 1) * (highFrequency - lowFrequency)
    }

    /// Drive amplitude for intensity `i` (clamped to 0…1).
    public func amplitude(intensity i: Double) -> Double {
        let c = min(max(i, 0), 1)
        return law == .square ? gain * c * c : gain * c
    }

    /// Checks the ranges documented on each field.
    /// - Throws: `ActuatorProfileError.invalidField` naming the first bad field.
    public func validate() throws(ActuatorProfileError) {
        if name.isEmpty { throw .invalidField("name", "must not be empty") }
        if !(lowFrequency > 0 && lowFrequency.isFinite) {
            throw .invalidField("lowFrequency", "must be a positive number of Hz, got \(lowFrequency)")
        }
        if !(highFrequency >= lowFrequency && highFrequency.isFinite) {
            throw .invalidField("highFrequency", "must be ≥ lowFrequency (\(lowFrequency) Hz), got \(highFrequency)")
        }
        if !(gain > 0 && gain <= 1) { throw .invalidField("gain", "must be in 0 < gain ≤ 1, got \(gain)") }
        if !(limiterThreshold > 0 && limiterThreshold < 1) {
            throw .invalidField("limiterThreshold", "must be in 0 < threshold < 1, got \(limiterThreshold)")
        }
        if !(transientDuration >= 0.010 && transientDuration <= 0.030) {
            throw .invalidField("transientDuration", "must be 0.010…0.030 s, got \(transientDuration)")
        }
    }

    /// Decodes and validates a profile from JSON.
    /// - Throws: `ActuatorProfileError` naming the missing, mistyped or out-of-range field.
    /// - Important: Thread safety: any thread. Real-time safe: no.
    public static func decode(from data: Data) throws(ActuatorProfileError) -> ActuatorProfile {
        let profile: ActuatorProfile
        do {
            profile = try JSONDecoder().decode(ActuatorProfile.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidField(key.stringValue, "is missing")
        } catch let DecodingError.typeMismatch(type, context) {
            throw .invalidField(context.codingPath.last?.stringValue ?? "?", "must be of type \(type)")
        } catch let DecodingError.valueNotFound(type, context) {
            throw .invalidField(context.codingPath.last?.stringValue ?? "?", "must be a \(type), not null")
        } catch let DecodingError.dataCorrupted(context) {
            let field = context.codingPath.last?.stringValue
            if field == CodingKeys.law.rawValue {
                throw .invalidField("law", "must be \"square\" or \"linear\"")
            }
            throw .invalidJSON((field.map { "\($0): " } ?? "") + context.debugDescription)
        } catch {
            throw .invalidJSON("\(error)")
        }
        try profile.validate()
        return profile
    }

    /// The generic wideband voice coil: 80–230 Hz, square law (matches `Resources/Actuators/default.json`).
    public static let `default` = ActuatorProfile(
        name: "default", lowFrequency: 80, highFrequency: 230, law: .square, gain: 1, limiterThreshold: 0.8,
        transientDuration: 0.02)
    /// A linear resonant actuator: narrow band around 170 Hz (matches `lra.json`).
    public static let lra = ActuatorProfile(
        name: "lra", lowFrequency: 160, highFrequency: 180, law: .square, gain: 1, limiterThreshold: 0.8,
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
