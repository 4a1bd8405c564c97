import AHAPCodec
import FoundationEssentials
import ThrumModel

/// What reading an HJIF or `.hmpg` file produced: the document (nil when there is an error), every diagnostic,
/// and where each JSON value is (empty for `.hmpg`). A value type; thread-safe.
package struct HJIFDecodeResult: Sendable {
    package var document: HJIFDocument?
    /// Errors and warnings in source order (byte order for `.hmpg`).
    package var diagnostics: [Diagnostic]
    package var sourceMap: SourceMap

    /// Whether any diagnostic is an error.
    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Reads HJIF text (ISO/IEC 23090-31's JSON form, `.hjif`) into `HJIFDocument`, reporting every problem at
/// its line and column with its JSON path, in the AHAP decoder's style. Errors are what MPEG's reference
/// software refuses (a required key missing, a wrong type, an unknown name); warnings are what it reads but
/// finds not conformant, or plays in its own way (`HJIFChecks`). Pure and thread-safe.
package enum HJIFDecoder {
    /// Decodes UTF-8 `data`; `file` is only used in diagnostics.
    package static func decode(data: Data, file: String? = nil) -> HJIFDecodeResult {
        let parsed = JSONReader.parse(data)
        var context = HapticReadContext(file: file)
        for notice in parsed.trailingCommas {
            context.report(
                .warning, nil, "trailing comma (strict JSON and MPEG's reference software do not accept it)",
                suggestion: "remove the comma", path: notice.path, at: notice.position)
        }
        for notice in parsed.duplicateKeys {
            context.report(
                .warning, nil, "duplicate key \"\(notice.key ?? "")\"; the last one wins", path: notice.path,
                at: notice.position)
        }
        var document: HJIFDocument?
        if let root = parsed.root {
            context.positions = SourcePositions(root)
            document = context.decodeHJIF(root)
            if let found = document {
                for issue in HJIFChecks.issues(in: found) { context.report(issue) }
            }
        } else if let error = parsed.error {
            context.report(.error, nil, "invalid JSON: \(error.message)", path: "", at: error.position)
        }
        let diagnostics = Diagnostic.inSourceOrder(context.diagnostics)
        let failed = diagnostics.contains { $0.severity == .error }
        return HJIFDecodeResult(
            document: failed ? nil : document, diagnostics: diagnostics,
            sourceMap: SourceMap(file: file, positions: context.positions))
    }

    /// Reads and decodes the file at `path`; an unreadable file is a `fileNotFound` error diagnostic.
    package static func decode(contentsOfFile path: String) -> HJIFDecodeResult {
        guard let data = AHAPDecoder.readPatternFile(path) else {
            return HJIFDecodeResult(document: nil, diagnostics: [AHAPDecoder.unreadableFile(path)], sourceMap: SourceMap(file: path))
        }
        return decode(data: data, file: path)
    }
}

/// Known keys at each level of an HJIF document.
enum HJIFKeys {
    static let top = ["version", "profile", "level", "date", "description", "timescale", "avatars", "perceptions", "syncs"]
    static let avatar = ["id", "lod", "type", "mesh"]
    static let sync = ["timestamp", "timescale"]
    static let perception = [
        "id", "avatar_id", "description", "perception_modality", "priority", "unit_exponent", "perception_unit_exponent",
        "effect_semantic_scheme", "reference_devices", "effect_library", "channels",
    ]
    static let device = ["id", "name", "body_part_mask", "type"] + HJIFReferenceDevice.numberKeys
    static let channel = [
        "id", "description", "gain", "mixing_coefficient", "body_part_mask", "priority", "reference_device_id",
        "frequency_sampling", "sample_count", "direction", "actuator_resolution", "body_part_target", "actuator_target",
        "vertices", "bands",
    ]
    static let vector = ["X", "Y", "Z"]
    static let band = ["band_type", "curve_type", "block_length", "lower_frequency_limit", "upper_frequency_limit", "priority", "effects"]
    static let effect = [
        "effect_type", "id", "position", "phase", "base_signal", "semantic_keywords", "keyframes", "timeline", "wavelet_stream",
    ]
    static let keyframe = ["relative_position", "amplitude_modulation", "frequency_modulation"]
}

/// The range of HJIF's integers (the reference software reads them as 32-bit `int`).
let hjifIntegers = Int(Int32.min)...Int(Int32.max)

extension HapticReadContext {
    /// The document; nil when something required is missing or mistyped (reported).
    mutating func decodeHJIF(_ root: JSONNode) -> HJIFDocument? {
        guard case .object = root.value else {
            report(.error, .invalidPatternDictionary, "the top level must be an object, found \(root.typeDescription)", path: "", at: root.position)
            return nil
        }
        var ok = true
        let top = members(of: root, path: "", known: HJIFKeys.top)
        func text(_ key: String, _ example: String) -> String? {
            guard let member = required(key, in: top, of: root, path: "", example: example) else {
                ok = false
                return nil
            }
            let value = string(member, path: key)
            if value == nil { ok = false }
            return value
        }
        let version = text("version", "\"version\": \"2023\"")
        let profile = text("profile", "\"profile\": \"Main\"")
        let date = text("date", "\"date\": \"2024-01-31\"")
        let description = text("description", "\"description\": \"\"")
        let level = requiredInt("level", top, root, "", 0...255)
        let timescale = requiredInt("timescale", top, root, "", 1...Int(UInt32.max))
        let avatars = list("avatars", top, root, "") { context, node, path in context.decodeAvatar(node, path) }
        let perceptions = list("perceptions", top, root, "") { context, node, path in context.decodePerception(node, path) }
        let syncs = list("syncs", top, root, "") { context, node, path in context.decodeSync(node, path) }
        guard ok, let version, let profile, let date, let description, let level, let timescale, let avatars,
            let perceptions, let syncs
        else { return nil }
        return HJIFDocument(
            version: version, profile: profile, level: level, date: date, description: description, timescale: timescale,
            avatars: avatars, perceptions: perceptions, syncs: syncs)
    }

    mutating func decodeAvatar(_ node: JSONNode, _ path: String) -> HJIFAvatar? {
        guard let fields = objectFields(node, path, "an avatar", HJIFKeys.avatar) else { return nil }
        let id = requiredInt("id", fields, node, path, hjifIntegers)
        let lod = requiredInt("lod", fields, node, path, hjifIntegers)
        let type = requiredName("type", fields, node, path, HJIFAvatar.types)
        let mesh = optionalString("mesh", fields, path)
        guard let id, let lod, let type, let mesh else { return nil }
        return HJIFAvatar(id: id, lod: lod, type: type, mesh: mesh)
    }

    mutating func decodeSync(_ node: JSONNode, _ path: String) -> HJIFSync? {
        guard let fields = objectFields(node, path, "a sync", HJIFKeys.sync) else { return nil }
        let timestamp = requiredInt("timestamp", fields, node, path, hjifIntegers)
        let timescale = optionalInt("timescale", fields, path, 0...Int(UInt32.max))
        guard let timestamp, let timescale else { return nil }
        return HJIFSync(timestamp: timestamp, timescale: timescale)
    }

    mutating func decodePerception(_ node: JSONNode, _ path: String) -> HJIFPerception? {
        guard let fields = objectFields(node, path, "a perception", HJIFKeys.perception) else { return nil }
        let id = requiredInt("id", fields, node, path, hjifIntegers)
        let avatarID = requiredInt("avatar_id", fields, node, path, hjifIntegers)
        let description = requiredString("description", fields, node, path)
        let modality = requiredName(
            "perception_modality", fields, node, path, HJIFPerception.modalities, aliases: HJIFPerception.modalityAliases)
        let priority = optionalInt("priority", fields, path, hjifIntegers)
        let unitExponent = optionalInt("unit_exponent", fields, path, -128...127)
        let perceptionUnitExponent = optionalInt("perception_unit_exponent", fields, path, -128...127)
        let scheme = optionalString("effect_semantic_scheme", fields, path)
        let devices: [HJIFReferenceDevice]? =
            fields["reference_devices"] == nil
            ? [] : list("reference_devices", fields, node, path) { context, node, path in context.decodeDevice(node, path) }
        let library = list("effect_library", fields, node, path) { context, node, path in
            context.decodeEffect(node, path, band: nil)
        }
        let channels = list("channels", fields, node, path) { context, node, path in context.decodeChannel(node, path) }
        guard let id, let avatarID, let description, let modality, let priority, let unitExponent,
            let perceptionUnitExponent, let scheme, let devices, let library, let channels
        else { return nil }
        return HJIFPerception(
            id: id, avatarID: avatarID, description: description, modality: modality, priority: priority,
            unitExponent: unitExponent, perceptionUnitExponent: perceptionUnitExponent,
            effectSemanticScheme: scheme, referenceDevices: devices, library: library, channels: channels)
    }

    mutating func decodeDevice(_ node: JSONNode, _ path: String) -> HJIFReferenceDevice? {
        guard let fields = objectFields(node, path, "a reference device", HJIFKeys.device) else { return nil }
        let id = requiredInt("id", fields, node, path, hjifIntegers)
        let deviceName = requiredString("name", fields, node, path)
        let mask = optionalInt("body_part_mask", fields, path, 0...Int(UInt32.max))
        var numbers: [String: Float] = [:]
        var ok = true
        for key in HJIFReferenceDevice.numberKeys {
            guard let member = fields[key] else { continue }
            if let value = number(member, path: Self.join(path, key)) { numbers[key] = Float(value) } else { ok = false }
        }
        var type: String?
        if let member = fields["type"] {
            type = name(member, Self.join(path, "type"), HJIFReferenceDevice.types)
            if type == nil { ok = false }
        }
        guard ok, let id, let deviceName, let mask else { return nil }
        return HJIFReferenceDevice(id: id, name: deviceName, bodyPartMask: mask, numbers: numbers, type: type)
    }

    mutating func decodeChannel(_ node: JSONNode, _ path: String) -> HJIFChannel? {
        guard let fields = objectFields(node, path, "a channel", HJIFKeys.channel) else { return nil }
        let id = requiredInt("id", fields, node, path, hjifIntegers)
        let description = requiredString("description", fields, node, path)
        let gain = requiredNumber("gain", fields, node, path)
        let mixing = requiredNumber("mixing_coefficient", fields, node, path)
        let mask = requiredInt("body_part_mask", fields, node, path, 0...Int(UInt32.max))
        let priority = optionalInt("priority", fields, path, hjifIntegers)
        let device = optionalInt("reference_device_id", fields, path, hjifIntegers)
        let sampling = optionalInt("frequency_sampling", fields, path, 0...Int(UInt32.max))
        let count = optionalInt("sample_count", fields, path, 0...Int(UInt32.max))
        let direction = optionalVector("direction", fields, path)
        let resolution = optionalVector("actuator_resolution", fields, path)
        var ok = true
        var targets: [String]?
        if fields["body_part_target"] != nil {
            targets = list("body_part_target", fields, node, path) { context, node, path in
                context.name(JSONMember(key: "a body part target", value: node), path, HJIFChannel.bodyParts.map(\.name))
            }
            if targets == nil { ok = false }
        }
        var actuators: [HJIFVector]?
        if fields["actuator_target"] != nil {
            actuators = list("actuator_target", fields, node, path) { context, node, path in context.vector(node, path) }
            if actuators == nil { ok = false }
        }
        var vertices: [Int] = []
        if fields["vertices"] != nil {
            let read = list("vertices", fields, node, path) { context, node, path in
                context.integer(JSONMember(key: "a vertex", value: node), path, hjifIntegers)
            }
            if let read { vertices = read } else { ok = false }
        }
        let bands = list("bands", fields, node, path) { context, node, path in context.decodeBand(node, path) }
        guard ok, let id, let description, let gain, let mixing, let mask, let priority, let device, let sampling,
            let count, let direction, let resolution, let bands
        else { return nil }
        return HJIFChannel(
            id: id, description: description, gain: Float(gain), mixingCoefficient: Float(mixing), bodyPartMask: mask,
            priority: priority, referenceDeviceID: device, frequencySampling: sampling,
            sampleCount: count, direction: direction, actuatorResolution: resolution,
            bodyPartTargets: targets, actuatorTargets: actuators, vertices: vertices, bands: bands)
    }
}
