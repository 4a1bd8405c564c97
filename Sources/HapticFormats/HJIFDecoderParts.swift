import AHAPCodec
import FoundationEssentials
import ThrumModel

extension HapticReadContext {
    mutating func decodeBand(_ node: JSONNode, _ path: String) -> HJIFBand? {
        guard let fields = objectFields(node, path, "a band", HJIFKeys.band) else { return nil }
        let typeName = requiredName("band_type", fields, node, path, HJIFBandType.allCases.map(\.name))
        let type = typeName.flatMap { name in HJIFBandType.allCases.first { $0.name == name } }
        var ok = true
        var curve: HJIFCurveType?
        if let member = fields["curve_type"] {
            let name = name(member, Self.join(path, "curve_type"), HJIFCurveType.allCases.map(\.name))
            curve = name.flatMap { name in HJIFCurveType.allCases.first { $0.name == name } }
            if curve == nil { ok = false }
        }
        var blockLength: Int?
        if type == .waveletWave {
            blockLength = requiredInt("block_length", fields, node, path, 1...255)
            if blockLength == nil { ok = false }
        } else if fields["block_length"] != nil {
            report(
                .warning, nil, "block_length applies to WaveletWave bands only and is ignored",
                path: Self.join(path, "block_length"), at: fields["block_length"]?.value.position)
        }
        let lower = requiredInt("lower_frequency_limit", fields, node, path, hjifIntegers)
        let upper = requiredInt("upper_frequency_limit", fields, node, path, hjifIntegers)
        let priority = optionalInt("priority", fields, path, hjifIntegers)
        let effects = list("effects", fields, node, path) { context, node, path in
            context.decodeEffect(node, path, band: type)
        }
        guard ok, let type, let lower, let upper, let priority, let effects else { return nil }
        return HJIFBand(
            type: type, curveType: curve, blockLength: blockLength, lowerFrequencyLimit: lower, upperFrequencyLimit: upper,
            priority: priority, effects: effects)
    }

    /// An effect of a band of type `band`, or of the library (`band` nil; then `id` is required).
    mutating func decodeEffect(_ node: JSONNode, _ path: String, band: HJIFBandType?) -> HJIFEffect? {
        guard let fields = objectFields(node, path, "an effect", HJIFKeys.effect) else { return nil }
        let typeName = requiredName("effect_type", fields, node, path, HJIFEffectType.allCases.map(\.name))
        let type = typeName.flatMap { name in HJIFEffectType.allCases.first { $0.name == name } }
        var ok = true
        var id: Int?
        if type == .reference || path.contains("effect_library") {
            id = requiredInt("id", fields, node, path, hjifIntegers)
            if id == nil { ok = false }
        } else if let member = fields["id"] {
            id = integer(member, Self.join(path, "id"), hjifIntegers)
            if id == nil { ok = false }
        }
        let position = requiredInt("position", fields, node, path, hjifIntegers)
        var phase: Float?
        if let member = fields["phase"] {
            let value = number(member, path: Self.join(path, "phase"))
            if let value { phase = Float(value) } else { ok = false }
        }
        var signal: HJIFBaseSignal?
        if let member = fields["base_signal"] {
            let name = name(member, Self.join(path, "base_signal"), HJIFBaseSignal.allCases.map(\.name))
            signal = name.flatMap { name in HJIFBaseSignal.allCases.first { $0.name == name } }
            if signal == nil { ok = false }
        }
        let semantic = optionalString("semantic_keywords", fields, path)
        var keyframes: [HJIFKeyframe] = []
        if fields["keyframes"] != nil {
            let read = list("keyframes", fields, node, path) { context, node, path in context.decodeKeyframe(node, path) }
            if let read { keyframes = read } else { ok = false }
        }
        var timeline: [HJIFEffect] = []
        if fields["timeline"] != nil {
            let read = list("timeline", fields, node, path) { context, node, path in context.decodeEffect(node, path, band: band) }
            if let read { timeline = read } else { ok = false }
        }
        var stream: [UInt8]?
        if let member = fields["wavelet_stream"] {
            stream = waveletStream(member, Self.join(path, "wavelet_stream"))
            if stream == nil { ok = false }
        } else if band == .waveletWave && type == .basis {
            report(
                .error, .invalidPatternDictionary, "missing \"wavelet_stream\" (a Basis effect of a WaveletWave band holds its coded block)",
                path: path, at: node.position)
            ok = false
        }
        guard ok, let type, let position, let semantic else { return nil }
        return HJIFEffect(
            type: type, id: id, position: position, phase: phase, baseSignal: signal, semantic: semantic,
            keyframes: keyframes, timeline: timeline, waveletStream: stream)
    }

    mutating func decodeKeyframe(_ node: JSONNode, _ path: String) -> HJIFKeyframe? {
        guard let fields = objectFields(node, path, "a keyframe", HJIFKeys.keyframe) else { return nil }
        let position = optionalInt("relative_position", fields, path, hjifIntegers)
        let frequency = optionalInt("frequency_modulation", fields, path, hjifIntegers)
        var amplitude: Float?
        var ok = true
        if let member = fields["amplitude_modulation"] {
            let value = number(member, path: Self.join(path, "amplitude_modulation"))
            if let value { amplitude = Float(value) } else { ok = false }
        }
        guard ok, let position, let frequency else { return nil }
        return HJIFKeyframe(position: position, amplitude: amplitude, frequency: frequency)
    }

    /// The bytes of a `wavelet_stream` string (`HJIFWaveletText`), or nil after reporting it.
    mutating func waveletStream(_ member: JSONMember, _ path: String) -> [UInt8]? {
        string(member, path: path).map(HJIFWaveletText.bytes(of:))
    }

    // MARK: - Typed members

    /// The members of `node`, which must be an object (`what` names it in the error).
    mutating func objectFields(_ node: JSONNode, _ path: String, _ what: String, _ known: [String]) -> [String: JSONMember]? {
        guard case .object = node.value else {
            report(.error, .invalidPatternDictionary, "\(what) must be an object, found \(node.typeDescription)", path: path, at: node.position)
            return nil
        }
        return members(of: node, path: path, known: known)
    }

    /// The elements of the required array `key`, each read by `element`; nil when it is missing, not an
    /// array, or an element could not be read (all reported).
    mutating func list<Element>(
        _ key: String, _ fields: [String: JSONMember], _ node: JSONNode, _ path: String,
        _ element: (inout HapticReadContext, JSONNode, String) -> Element?
    ) -> [Element]? {
        let listPath = Self.join(path, key)
        guard let member = required(key, in: fields, of: node, path: path, example: "\"\(key)\": []"),
            let nodes = array(member, path: listPath)
        else { return nil }
        var result: [Element] = []
        var ok = true
        for (index, child) in nodes.enumerated() {
            if let value = element(&self, child, "\(listPath)[\(index)]") { result.append(value) } else { ok = false }
        }
        return ok ? result : nil
    }

    /// A whole number within `range` in `member`, or nil after reporting it.
    mutating func integer(_ member: JSONMember, _ path: String, _ range: ClosedRange<Int>) -> Int? {
        guard let value = number(member, path: path) else { return nil }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            report(
                .error, .invalidPatternDictionary,
                "\(member.key) must be a whole number in \(range.lowerBound)…\(range.upperBound), found \(value)",
                path: path, at: member.value.position)
            return nil
        }
        return Int(value)
    }

    mutating func requiredInt(
        _ key: String, _ fields: [String: JSONMember], _ node: JSONNode, _ path: String, _ range: ClosedRange<Int>
    ) -> Int? {
        guard let member = required(key, in: fields, of: node, path: path, example: "\"\(key)\": a whole number") else { return nil }
        return integer(member, Self.join(path, key), range)
    }

    mutating func requiredString(_ key: String, _ fields: [String: JSONMember], _ node: JSONNode, _ path: String) -> String? {
        guard let member = required(key, in: fields, of: node, path: path, example: "\"\(key)\": \"\"") else { return nil }
        return string(member, path: Self.join(path, key))
    }

    /// An optional whole number: `.some(nil)` when absent, nil when present but wrong (reported).
    mutating func optionalInt(_ key: String, _ fields: [String: JSONMember], _ path: String, _ range: ClosedRange<Int>) -> Int?? {
        guard let member = fields[key] else { return .some(nil) }
        return integer(member, Self.join(path, key), range).map { .some($0) }
    }

    /// An optional string: `.some(nil)` when absent, nil when present but not a string (reported).
    mutating func optionalString(_ key: String, _ fields: [String: JSONMember], _ path: String) -> String?? {
        guard let member = fields[key] else { return .some(nil) }
        return string(member, path: Self.join(path, key)).map { .some($0) }
    }

    /// One of `names` (or an alias, read as the name it stands for) in `member`, or nil after reporting it
    /// with the closest name.
    mutating func name(
        _ member: JSONMember, _ path: String, _ names: [String], aliases: [String: String] = [:]
    ) -> String? {
        guard let text = string(member, path: path) else { return nil }
        if names.contains(text) { return text }
        if let name = aliases[text] { return name }
        let guess = Suggestions.closest(to: text, in: names + aliases.keys.sorted())
        report(
            .error, .invalidPatternDictionary, "\(member.key) \"\(text)\" is not one of \(names.joined(separator: ", "))",
            suggestion: guess.map { "did you mean \"\($0)\"?" }, path: path, at: member.value.position)
        return nil
    }

    mutating func requiredName(
        _ key: String, _ fields: [String: JSONMember], _ node: JSONNode, _ path: String, _ names: [String],
        aliases: [String: String] = [:]
    ) -> String? {
        guard let member = required(key, in: fields, of: node, path: path, example: "\"\(key)\": \"\(names[0])\"") else {
            return nil
        }
        return name(member, Self.join(path, key), names, aliases: aliases)
    }

    /// An `{X, Y, Z}` vector of signed bytes in `node`, or nil after reporting it.
    mutating func vector(_ node: JSONNode, _ path: String) -> HJIFVector? {
        guard let fields = objectFields(node, path, "a vector", HJIFKeys.vector) else { return nil }
        let x = requiredInt("X", fields, node, path, -128...127)
        let y = requiredInt("Y", fields, node, path, -128...127)
        let z = requiredInt("Z", fields, node, path, -128...127)
        guard let x, let y, let z else { return nil }
        return HJIFVector(x: x, y: y, z: z)
    }

    mutating func optionalVector(_ key: String, _ fields: [String: JSONMember], _ path: String) -> HJIFVector?? {
        guard let member = fields[key] else { return .some(nil) }
        return vector(member.value, Self.join(path, key)).map { .some($0) }
    }
}
