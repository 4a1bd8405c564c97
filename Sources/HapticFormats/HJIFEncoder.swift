import AHAPCodec
import FoundationEssentials

/// Writes `HJIFDocument` as HJIF text: the keys MPEG's reference software writes, in its order, indented by
/// two spaces, absent optional values left out; floats in Swift's shortest exact `Float` form. Decoding the
/// output gives back an equal document. Pure and thread-safe.
package enum HJIFEncoder {
    /// The document as HJIF JSON (trailing newline).
    package static func encode(_ document: HJIFDocument) -> String {
        var members: [(String, JSONText)] = [
            ("version", .string(document.version)), ("profile", .string(document.profile)), ("level", .int(document.level)),
            ("date", .string(document.date)), ("description", .string(document.description)),
            ("timescale", .int(document.timescale)),
        ]
        members.append(("avatars", .array(document.avatars.map(avatar))))
        members.append(("perceptions", .array(document.perceptions.map(perception))))
        members.append(
            (
                "syncs",
                .array(
                    document.syncs.map { sync in
                        .object([("timestamp", .int(sync.timestamp))] + (sync.timescale.map { [("timescale", .int($0))] } ?? []))
                    })
            ))
        var out = ""
        JSONText.object(members).write(to: &out, indent: "")
        return out + "\n"
    }

    static func avatar(_ avatar: HJIFAvatar) -> JSONText {
        var members: [(String, JSONText)] = [("id", .int(avatar.id)), ("lod", .int(avatar.lod)), ("type", .string(avatar.type))]
        if let mesh = avatar.mesh { members.append(("mesh", .string(mesh))) }
        return .object(members)
    }

    static func perception(_ perception: HJIFPerception) -> JSONText {
        var members: [(String, JSONText)] = [
            ("id", .int(perception.id)), ("avatar_id", .int(perception.avatarID)), ("description", .string(perception.description)),
            ("perception_modality", .string(perception.modality)),
        ]
        if let priority = perception.priority { members.append(("priority", .int(priority))) }
        if let exponent = perception.unitExponent { members.append(("unit_exponent", .int(exponent))) }
        if let exponent = perception.perceptionUnitExponent { members.append(("perception_unit_exponent", .int(exponent))) }
        members.append(("reference_devices", .array(perception.referenceDevices.map(device))))
        members.append(("effect_library", .array(perception.library.map { effect($0, band: nil) })))
        if let scheme = perception.effectSemanticScheme { members.append(("effect_semantic_scheme", .string(scheme))) }
        members.append(("channels", .array(perception.channels.map(channel))))
        return .object(members)
    }

    static func device(_ device: HJIFReferenceDevice) -> JSONText {
        var members: [(String, JSONText)] = [("id", .int(device.id)), ("name", .string(device.name))]
        if let mask = device.bodyPartMask { members.append(("body_part_mask", .int(mask))) }
        for key in HJIFReferenceDevice.numberKeys { if let value = device.numbers[key] { members.append((key, .float(value))) } }
        if let type = device.type { members.append(("type", .string(type))) }
        return .object(members)
    }

    static func vector(_ vector: HJIFVector) -> JSONText {
        .object([("X", .int(vector.x)), ("Y", .int(vector.y)), ("Z", .int(vector.z))])
    }

    static func channel(_ channel: HJIFChannel) -> JSONText {
        var members: [(String, JSONText)] = [
            ("id", .int(channel.id)), ("description", .string(channel.description)), ("gain", .float(channel.gain)),
            ("mixing_coefficient", .float(channel.mixingCoefficient)), ("body_part_mask", .int(channel.bodyPartMask)),
        ]
        if let priority = channel.priority { members.append(("priority", .int(priority))) }
        if let device = channel.referenceDeviceID { members.append(("reference_device_id", .int(device))) }
        if let sampling = channel.frequencySampling { members.append(("frequency_sampling", .int(sampling))) }
        if let count = channel.sampleCount { members.append(("sample_count", .int(count))) }
        if let direction = channel.direction { members.append(("direction", vector(direction))) }
        if let resolution = channel.actuatorResolution { members.append(("actuator_resolution", vector(resolution))) }
        if let targets = channel.bodyPartTargets { members.append(("body_part_target", .array(targets.map { .string($0) }))) }
        if let targets = channel.actuatorTargets { members.append(("actuator_target", .array(targets.map(vector)))) }
        if !channel.vertices.isEmpty { members.append(("vertices", .array(channel.vertices.map { .int($0) }))) }
        members.append(("bands", .array(channel.bands.map(band))))
        return .object(members)
    }

    static func band(_ band: HJIFBand) -> JSONText {
        var members: [(String, JSONText)] = [("band_type", .string(band.type.name))]
        if let priority = band.priority { members.append(("priority", .int(priority))) }
        if band.type == .curve, let curve = band.curveType { members.append(("curve_type", .string(curve.name))) }
        if band.type == .waveletWave { members.append(("block_length", .int(band.blockLength ?? 0))) }
        members.append(("lower_frequency_limit", .int(band.lowerFrequencyLimit)))
        members.append(("upper_frequency_limit", .int(band.upperFrequencyLimit)))
        members.append(("effects", .array(band.effects.map { effect($0, band: band.type) })))
        return .object(members)
    }

    /// An effect of a band of type `band`, or of the library (`band` nil).
    static func effect(_ effect: HJIFEffect, band: HJIFBandType?) -> JSONText {
        var members: [(String, JSONText)] = [("effect_type", .string(effect.type.name))]
        if let id = effect.id, band == nil || effect.type == .reference { members.append(("id", .int(id))) }
        members.append(("position", .int(effect.position)))
        if let semantic = effect.semantic { members.append(("semantic_keywords", .string(semantic))) }
        if effect.type == .basis {
            if let phase = effect.phase { members.append(("phase", .float(phase))) }
            if let signal = effect.baseSignal { members.append(("base_signal", .string(signal.name))) }
            if let stream = effect.waveletStream {
                members.append(("wavelet_stream", .string(HJIFWaveletText.text(of: stream))))
            } else {
                members.append(("keyframes", .array(effect.keyframes.map(keyframe))))
            }
        } else if effect.type == .composite {
            members.append(("timeline", .array(effect.timeline.map { self.effect($0, band: band) })))
        }
        return .object(members)
    }

    static func keyframe(_ keyframe: HJIFKeyframe) -> JSONText {
        var members: [(String, JSONText)] = []
        if let position = keyframe.position { members.append(("relative_position", .int(position))) }
        if let amplitude = keyframe.amplitude { members.append(("amplitude_modulation", .float(amplitude))) }
        if let frequency = keyframe.frequency { members.append(("frequency_modulation", .int(frequency))) }
        return .object(members)
    }
}

/// JSON values with their members in a given order, written indented.
indirect enum JSONText {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case int(Int)
    case float(Float)

    func write(to out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += inner + AHAPEncoder.quoted(key) + ": "
                value.write(to: &out, indent: inner)
                out += index + 1 < members.count ? ",\n" : "\n"
            }
            out += indent + "}"
        case .array(let elements):
            guard !elements.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += inner
                element.write(to: &out, indent: inner)
                out += index + 1 < elements.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .string(let text): out += AHAPEncoder.quoted(text)
        case .int(let value): out += String(value)
        case .float(let value): out += value.isFinite ? "\(value)" : "0"
        }
    }
}

/// The text of a `wavelet_stream`, as the reference software writes and reads it: the bytes' bits, least
/// significant first, without the trailing zero bits, six at a time as base64 digits (no padding).
enum HJIFWaveletText {
    static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// The text of `bytes`.
    static func text(of bytes: [UInt8]) -> String {
        var bits: [Bool] = bytes.flatMap { byte in (0..<8).map { byte >> UInt8($0) & 1 == 1 } }
        while bits.last == false { bits.removeLast() }
        var text = ""
        var index = 0
        while index < bits.count {
            var value = 0
            for k in 0..<6 { value = value << 1 | (index + k < bits.count && bits[index + k] ? 1 : 0) }
            text.append(digits[value])
            index += 6
        }
        return text
    }

    /// The bytes of `text` (a character outside the digits counts as `/`, as the reference reads it).
    static func bytes(of text: String) -> [UInt8] {
        var bits: [Bool] = []
        for character in text {
            let value = digits.firstIndex(of: character) ?? 63
            for k in stride(from: 5, through: 0, by: -1) { bits.append(value >> k & 1 == 1) }
        }
        while bits.last == false { bits.removeLast() }
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 1 << UInt8(index % 8) }
        return bytes
    }
}
