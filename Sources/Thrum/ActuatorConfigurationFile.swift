import FoundationEssentials
import FoundationStandIns
internal import AHAPCodec
internal import RenderCore

/// Meta's actuator configuration files (`.acf`, JSON5; meta-haptics-sdk `resources/acf`, MIT) as Thrum's
/// actuator profile. Field by field (docs/analysis.md has the reasons):
///
/// | ACF | ActuatorProfile |
/// |---|---|
/// | `metadata.device` | `name` (else the file's name) |
/// | `continuous.frequency_min`, `frequency_max` (Hz) | `lowFrequency`, `highFrequency`: the band sharpness 0…1 spans, linearly, as Meta's continuous oscillator |
/// | `continuous.gain` (0…1, 1 = full strength) | `gain` = 0.8 × it (Thrum's full strength keeps 0.8 of full scale, the limiter's headroom) |
/// | `emphasis.gain` (0…1) | `limiterThreshold` = max(gain, min(0.8 × it, 0.99)): overlapping events are bent only above the emphasis strength |
/// | `emphasis.frequency_min.duration_ms`, `frequency_max.duration_ms` | `transientDuration`: their mean, clamped to 10…30 ms |
/// | (the `.haptic` amplitude is drive amplitude) | `law` = square (amplitude = gain × intensity², intensity = √amplitude) |
///
/// Read and not modelled (Thrum's transients play in the continuous band, at full length, in a sine):
/// `continuous.emphasis_ducking`, `emphasis.fade_out_percent`, the emphasis `output_frequency`s (set around
/// the actuator's resonance f0) and `shape`s. Keys outside the ACF spec in `continuous` and `emphasis` are
/// errors (a misspelt key would silently change the feel); `metadata` may hold anything.
extension ActuatorProfile {
    /// Whether `path` names an actuator configuration file (`.acf`).
    public static func isActuatorConfiguration(_ path: String) -> Bool { path.lowercased().hasSuffix(".acf") }

    /// Decodes and validates an ACF.
    /// - Parameter file: the file's name, for `name` when the ACF has no `metadata.device`.
    /// - Throws: `ActuatorProfileError` naming the field and its line:column.
    public static func decode(actuatorConfiguration data: Data, file: String) throws(ActuatorProfileError) -> ActuatorProfile {
        let parsed = JSON5Reader.parse(data)
        if let error = parsed.error { throw .invalidJSON("\(error.position): \(error.message) (JSON5)") }
        guard let root = parsed.root, case .object(let top) = root.value else {
            throw .invalidJSON("1:1: an actuator configuration file is an object with continuous and emphasis")
        }
        func object(_ members: [JSONMember], _ key: String, path: String, required: Bool) throws(ActuatorProfileError) -> [JSONMember]? {
            guard let member = members.last(where: { $0.key == key }) else {
                if required { throw .invalidField(path + key, "is missing") }
                return nil
            }
            guard case .object(let inner) = member.value.value else {
                throw .invalidField(path + key, "(at \(place(member))) must be an object")
            }
            return inner
        }
        func place(_ member: JSONMember) -> String { (member.keyPosition ?? member.value.position).map { "\($0)" } ?? "?" }
        func number(_ members: [JSONMember], _ key: String, path: String, required: Bool) throws(ActuatorProfileError) -> Double? {
            guard let member = members.last(where: { $0.key == key }) else {
                if required { throw .invalidField(path + key, "is missing") }
                return nil
            }
            guard case .number(let value, _) = member.value.value, value.isFinite else {
                throw .invalidField(path + key, "(at \(place(member))) must be a number, not \(member.value.typeDescription)")
            }
            return value
        }
        func onlyKnown(_ members: [JSONMember], _ known: [String], path: String) throws(ActuatorProfileError) {
            if let unknown = members.first(where: { !known.contains($0.key) }) {
                throw .invalidField(
                    path + unknown.key,
                    "(at \(place(unknown))) is not an ACF field; the fields of \(path.dropLast()) are \(known.joined(separator: ", "))")
            }
        }
        guard let continuous = try object(top, "continuous", path: "", required: true) else { throw .invalidField("continuous", "is missing") }
        try onlyKnown(continuous, ["gain", "emphasis_ducking", "frequency_min", "frequency_max"], path: "continuous.")
        let gain = try number(continuous, "gain", path: "continuous.", required: true) ?? 1
        let low = try number(continuous, "frequency_min", path: "continuous.", required: true) ?? 0
        let high = try number(continuous, "frequency_max", path: "continuous.", required: true) ?? 0
        _ = try number(continuous, "emphasis_ducking", path: "continuous.", required: false)
        guard gain > 0 && gain <= 1 else {
            throw .invalidField("continuous.gain", "must be in 0 < gain ≤ 1, got \(gain)")
        }
        var emphasisGain = 1.0
        var durations: [Double] = []
        if let emphasis = try object(top, "emphasis", path: "", required: false) {
            try onlyKnown(emphasis, ["gain", "fade_out_percent", "frequency_min", "frequency_max"], path: "emphasis.")
            emphasisGain = try number(emphasis, "gain", path: "emphasis.", required: false) ?? 1
            _ = try number(emphasis, "fade_out_percent", path: "emphasis.", required: false)
            for end in ["frequency_min", "frequency_max"] {
                guard let settings = try object(emphasis, end, path: "emphasis.", required: false) else { continue }
                let path = "emphasis.\(end)."
                try onlyKnown(settings, ["output_frequency", "duration_ms", "shape"], path: path)
                _ = try number(settings, "output_frequency", path: path, required: false)
                if let duration = try number(settings, "duration_ms", path: path, required: false) { durations.append(duration) }
                if let shape = settings.last(where: { $0.key == "shape" }) {
                    guard case .string(let name) = shape.value.value, ["saw", "sine", "square", "triangle"].contains(name) else {
                        throw .invalidField(path + "shape", "(at \(place(shape))) must be 'saw', 'sine', 'square' or 'triangle'")
                    }
                }
            }
        }
        let device = top.last { $0.key == "metadata" }.flatMap { metadata -> String? in
            guard case .object(let members) = metadata.value.value,
                case .string(let name)? = members.last(where: { $0.key == "device" })?.value.value
            else { return nil }
            return name
        }
        let name = device.flatMap { $0.isEmpty ? nil : $0 } ?? PathName.removingExtension(PathName.lastComponent(file))
        let thrumGain = ActuatorProfile.default.gain * gain
        let meanDuration = durations.isEmpty ? 20 : durations.reduce(0, +) / Double(durations.count)
        let profile = ActuatorProfile(
            name: name, lowFrequency: low, highFrequency: high, law: .square, gain: thrumGain,
            limiterThreshold: max(thrumGain, min(ActuatorProfile.default.gain * emphasisGain, 0.99)),
            transientDuration: min(max(meanDuration / 1000, 0.010), 0.030))
        do {
            try profile.validate()
        } catch .invalidField(let field, let reason) {
            let names = ["lowFrequency": "continuous.frequency_min", "highFrequency": "continuous.frequency_max"]
            throw .invalidField(names[field] ?? field, reason)
        } catch {
            throw error
        }
        return profile
    }
}
