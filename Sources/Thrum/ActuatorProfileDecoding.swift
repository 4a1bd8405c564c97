import FoundationEssentials
internal import RenderCore
internal import AHAPCodec

/// The JSON form of an actuator profile (`Resources/Actuators/*.json`), e.g.
/// `{"name": "default", "lowFrequency": 80, "highFrequency": 230, "law": "square", "gain": 0.8,
///   "limiterThreshold": 0.8, "transientDuration": 0.02}`; `law`, `gain`, `limiterThreshold` and
/// `transientDuration` are optional (square, 0.8, the gain, 0.02). What `thrum measure --write-profile`
/// adds is optional too (files without it read as before): `"equalization": [{"hz": 80, "gainDB": -3.2}, …]`
/// and `"latency": {"loopSeconds": …, "deviceSeconds": …, "actuatorSeconds": …}` (docs/measure.md).
/// Fields are decoded in the order written here, so the first bad field is the one reported.
private struct ActuatorProfileFile: Decodable {
    var profile: ActuatorProfile

    enum CodingKeys: String, CodingKey {
        case name, lowFrequency, highFrequency, law, gain, limiterThreshold, transientDuration, equalization, latency
    }

    struct Point: Decodable {
        var hz: Double
        var gainDB: Double
    }

    struct Latency: Decodable {
        var loopSeconds: Double
        var deviceSeconds: Double
        var actuatorSeconds: Double
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .name)
        let lowFrequency = try c.decode(Double.self, forKey: .lowFrequency)
        let highFrequency = try c.decode(Double.self, forKey: .highFrequency)
        var law = IntensityLaw.square
        if let text = try c.decodeIfPresent(String.self, forKey: .law) {
            guard let named = IntensityLaw(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .law, in: c, debugDescription: "unknown law \(text)")
            }
            law = named
        }
        let gain = try c.decodeIfPresent(Double.self, forKey: .gain) ?? 0.8
        profile = ActuatorProfile(
            name: name, lowFrequency: lowFrequency, highFrequency: highFrequency, law: law,
            gain: gain, limiterThreshold: try c.decodeIfPresent(Double.self, forKey: .limiterThreshold) ?? gain,
            transientDuration: try c.decodeIfPresent(Double.self, forKey: .transientDuration) ?? 0.02,
            equalization: (try c.decodeIfPresent([Point].self, forKey: .equalization) ?? []).map {
                EqualizationPoint(hz: $0.hz, gainDB: $0.gainDB)
            },
            latency: try c.decodeIfPresent(Latency.self, forKey: .latency).map {
                ActuatorLatency(loopSeconds: $0.loopSeconds, deviceSeconds: $0.deviceSeconds, actuatorSeconds: $0.actuatorSeconds)
            })
    }
}

extension ActuatorProfile {
    /// Decodes and validates a profile from JSON (the format of `ActuatorProfileFile`).
    /// - Throws: `ActuatorProfileError` naming the missing, mistyped or out-of-range field.
    /// - Important: Thread safety: any thread. Real-time safe: no.
    public static func decode(from data: Data) throws(ActuatorProfileError) -> ActuatorProfile {
        let profile: ActuatorProfile
        do {
            profile = try JSONDecoder().decode(ActuatorProfileFile.self, from: data).profile
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidField(key.stringValue, "is missing")
        } catch let DecodingError.typeMismatch(type, context) {
            throw .invalidField(context.codingPath.last?.stringValue ?? "?", "must be of type \(type)")
        } catch let DecodingError.valueNotFound(type, context) {
            throw .invalidField(context.codingPath.last?.stringValue ?? "?", "must be a \(type), not null")
        } catch let DecodingError.dataCorrupted(context) {
            let field = context.codingPath.last?.stringValue
            if field == ActuatorProfileFile.CodingKeys.law.rawValue {
                throw .invalidField("law", "must be \"square\" or \"linear\"")
            }
            throw .invalidJSON((field.map { "\($0): " } ?? "") + context.debugDescription)
        } catch {
            throw .invalidJSON("\(error)")
        }
        try profile.validate()
        return profile
    }
}

extension ActuatorProfile {
    /// The profile as the JSON `decode(from:)` reads (keys in the order written there, one per line), so
    /// that a written profile reads back equal.
    /// - Important: Thread safety: any thread. Real-time safe: no.
    package var encodedJSON: String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }
        var lines = [
            "  \"name\": \(AHAPEncoder.quoted(name))", "  \"lowFrequency\": \(number(lowFrequency))",
            "  \"highFrequency\": \(number(highFrequency))", "  \"law\": \"\(law.rawValue)\"", "  \"gain\": \(number(gain))",
            "  \"limiterThreshold\": \(number(limiterThreshold))", "  \"transientDuration\": \(number(transientDuration))",
        ]
        if !equalization.isEmpty {
            let points = equalization.map { "    {\"hz\": \(number($0.hz)), \"gainDB\": \(number($0.gainDB))}" }
            lines.append("  \"equalization\": [\n" + points.joined(separator: ",\n") + "\n  ]")
        }
        if let latency {
            lines.append(
                "  \"latency\": {\"loopSeconds\": \(number(latency.loopSeconds)), \"deviceSeconds\": "
                    + "\(number(latency.deviceSeconds)), \"actuatorSeconds\": \(number(latency.actuatorSeconds))}")
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}
