/// What one output channel carries.
public enum ChannelSource: String, Sendable, CaseIterable, Equatable {
    /// Audio left.
    case left = "L"
    /// Audio right.
    case right = "R"
    /// Audio mono: 0.5 × (L + R) (the average, so a centred constant-power source comes out at −3 dB).
    case mono = "M"
    /// A haptic bus (an actuator's drive signal).
    case haptic = "H"
    /// Audio left plus a haptic bus (hear the haptics on speakers).
    case leftHaptic = "L+H"
    /// Audio right plus a haptic bus.
    case rightHaptic = "R+H"
    /// Audio mono plus a haptic bus.
    case monoHaptic = "M+H"
    /// Silence.
    case silence = "0"
    /// The trigger: 1.0 (full scale) for 1 ms from every event onset's frame, else 0, for a DAQ or an
    /// oscilloscope on a spare output (`Renderer.render(…trigger:)`).
    case trigger = "T"

    /// Whether the channel carries a haptic bus.
    public var carriesHaptics: Bool { self == .haptic || self == .leftHaptic || self == .rightHaptic || self == .monoHaptic }
    /// Whether the channel carries audio.
    public var carriesAudio: Bool { self != .haptic && self != .silence && self != .trigger }
}

/// A problem with channel-map text.
public enum ChannelMapError: Error, Equatable, CustomStringConvertible {
    /// Entry number `index` (1-based) is `entry`, which is not valid.
    case invalidEntry(index: Int, entry: String)
    /// Entry number `index` names an actuator wrongly; `reason` says how.
    case invalidActuator(index: Int, entry: String, reason: String)
    /// The map names more actuators than the renderer drives (`ChannelMap.maxActuators`).
    case tooManyActuators(Int)
    /// The text has no entries.
    case empty

    /// A message naming the wrong entry and listing the valid ones.
    public var description: String {
        let valid = ChannelSource.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .invalidEntry(let index, let entry):
            return "channel map: entry \(index) '\(entry)' is not valid; valid entries are \(valid), "
                + "and H:NAME, L+H:NAME, R+H:NAME, M+H:NAME for the actuator NAME"
        case .invalidActuator(let index, let entry, let reason):
            return "channel map: entry \(index) '\(entry)': \(reason)"
        case .tooManyActuators(let count):
            return "channel map: \(count) actuators; at most \(ChannelMap.maxActuators) are driven"
        case .empty:
            return "channel map is empty; give one entry per output channel, from \(valid) (e.g. L+H,R+H)"
        }
    }
}

/// The output channel layout: one `ChannelSource` per device channel, parsed from text like
/// `L+H,R+H`, `L,R,H`, `M,H`, `0,H`, `L,R,H,T` or `L,R,H:leftHandle,H:rightHandle` (case-insensitive, spaces
/// ignored).
///
/// Actuators (docs/decisions.md "Output"): an entry with haptics carries the haptic bus of one actuator, named
/// after a colon (`H:leftHandle`, `L+H:woofer`); `H` with no name is the `default` actuator. Each actuator
/// the map names is one haptic bus of the renderer, numbered in order of first appearance (`actuators`).
///
/// Every output sample is within ±1: audio-only channels and audio + haptic sums go through a soft
/// limiter (knee `limiter.knee`); a haptic bus is already limited by the renderer and passes unchanged.
/// - Important: Thread safety: any thread (a value). Real-time safe: `interleave` yes; `init(parsing:)` no.
public struct ChannelMap: Sendable, Equatable, CustomStringConvertible {
    /// One source per output channel, in device order.
    public let sources: [ChannelSource]
    /// The actuator whose haptic bus each channel carries, in device order (nil for a channel without haptics).
    public let channelActuators: [String?]
    /// The actuators the map carries, one haptic bus each, in order of first appearance (bus 0, 1, …);
    /// `["default"]` for a map without haptic channels (its bus is rendered and not output).
    public let actuators: [String]
    /// The haptic bus (index into `actuators`) of each channel; 0 for channels without haptics.
    let buses: [Int]
    /// The limiter applied to channels with audio.
    public let limiter: SoftLimiter

    /// The most actuators one map (one renderer) drives.
    public static let maxActuators = 64

    /// The default for `play`: everything on speakers.
    public static let speakers = ChannelMap(sources: [.leftHaptic, .rightHaptic])
    /// The default for `render`: separate audio L, R and haptic.
    public static let separate = ChannelMap(sources: [.left, .right, .haptic])
    /// A DualSense controller in USB audio mode (`--layout dualsense`): audio on channels 1–2, the left and
    /// right handles' voice coils on 3–4.
    public static let dualSense = ChannelMap(
        sources: [.left, .right, .haptic, .haptic], channelActuators: [nil, nil, "leftHandle", "rightHandle"])
    /// The layouts `--layout` names, by name.
    public static let layouts: [(name: String, map: ChannelMap)] = [("dualsense", .dualSense)]

    /// Creates a map from sources and, for channels with haptics, the actuator each carries (nil or
    /// missing: the default actuator). Names are used as given (`init(parsing:)` checks them).
    /// - Precondition: at most `maxActuators` distinct actuators.
    public init(sources: [ChannelSource], channelActuators: [String?] = [], limiterKnee: Float = 0.9) {
        self.sources = sources
        var names: [String?] = []
        var actuators: [String] = []
        var buses: [Int] = []
        for (channel, source) in sources.enumerated() {
            guard source.carriesHaptics else {
                names.append(nil)
                buses.append(0)
                continue
            }
            let given = channel < channelActuators.count ? channelActuators[channel] : nil
            let name = given.flatMap { $0.isEmpty ? nil : $0 } ?? ActuatorNames.defaultActuator
            names.append(name)
            if let bus = actuators.firstIndex(of: name) {
                buses.append(bus)
            } else {
                buses.append(actuators.count)
                actuators.append(name)
            }
        }
        precondition(actuators.count <= Self.maxActuators, "ChannelMap: more than \(Self.maxActuators) actuators")
        self.channelActuators = names
        self.actuators = actuators.isEmpty ? [ActuatorNames.defaultActuator] : actuators
        self.buses = buses
        limiter = SoftLimiter(knee: limiterKnee)
    }

    /// Parses `L+H,R+H`-style text; entries with haptics may name their actuator (`H:rightHandle`).
    /// Apple's locality names match case-insensitively; groups (`handles`, `triggers`, `all`) are refused,
    /// since one channel carries one actuator, and `H:default` is `H`.
    /// - Throws: `ChannelMapError` naming the first wrong entry, or `.empty`.
    public init(parsing text: String, limiterKnee: Float = 0.9) throws(ChannelMapError) {
        let raw = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if raw.count == 1 && raw[0].allSatisfy(\.isWhitespace) { throw .empty }
        var sources: [ChannelSource] = []
        var names: [String?] = []
        for (i, original) in raw.enumerated() {
            let entry = original.filter { !$0.isWhitespace }
            let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let kind = parts[0].uppercased()
            let normalised = kind == "H+L" ? "L+H" : kind == "H+R" ? "R+H" : kind == "H+M" ? "M+H" : kind
            guard let source = ChannelSource(rawValue: normalised) else {
                throw .invalidEntry(index: i + 1, entry: original.trimmingWhitespace)
            }
            sources.append(source)
            guard parts.count == 2 else {
                names.append(nil)
                continue
            }
            names.append(try Self.actuator(String(parts[1]), of: source, index: i + 1, entry: original.trimmingWhitespace))
        }
        let count = Set(zip(sources, names).filter { $0.0.carriesHaptics }.map { $0.1 ?? ActuatorNames.defaultActuator }).count
        if count > Self.maxActuators { throw .tooManyActuators(count) }
        self.init(sources: sources, channelActuators: names, limiterKnee: limiterKnee)
    }

    /// The canonical actuator name after the colon of entry `index`.
    private static func actuator(
        _ text: String, of source: ChannelSource, index: Int, entry: String
    ) throws(ChannelMapError) -> String {
        guard source.carriesHaptics else {
            throw .invalidActuator(
                index: index, entry: entry, reason: "only entries with H carry an actuator (e.g. H:\(text) or L+H:\(text))")
        }
        guard let name = ActuatorNames.canonical(text) else {
            throw .invalidActuator(
                index: index, entry: entry,
                reason: "'\(text)' is not an actuator name; use letters, digits, _ and -, starting with a letter "
                    + "(at most \(ActuatorNames.maxLength))")
        }
        if let members = ActuatorNames.members(ofGroup: name) {
            let example = members.isEmpty ? "one name per channel" : members.map { "H:\($0)" }.joined(separator: ", ")
            throw .invalidActuator(
                index: index, entry: entry,
                reason: "'\(name)' is a group of actuators; a channel carries one actuator (\(example))")
        }
        return name
    }

    /// Output channels.
    public var channelCount: Int { sources.count }

    /// Whether a channel carries the trigger (`T`).
    public var carriesTrigger: Bool { sources.contains(.trigger) }

    /// The text form, e.g. `L+H,R+H` or `L,R,H:leftHandle,H:rightHandle`.
    public var description: String {
        zip(sources, channelActuators).map { source, name in
            guard let name, name != ActuatorNames.defaultActuator else { return source.rawValue }
            return source.rawValue + ":" + name
        }.joined(separator: ",")
    }

    /// Writes `frameCount` interleaved frames of `channelCount` channels into `output`.
    /// - Parameters:
    ///   - haptics: the haptic buses, bus b (`actuators[b]`) at `haptics + b × hapticStride`.
    ///   - trigger: the trigger bus (`T` channels, unlimited), or nil: `T` channels are then silent.
    /// - Important: Thread safety: any thread. Real-time safe: yes (reads `sources` without copying).
    package func interleave(
        audioL: UnsafePointer<Float>, audioR: UnsafePointer<Float>, haptics: UnsafePointer<Float>, hapticStride: Int,
        trigger: UnsafePointer<Float>? = nil, frameCount: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let stride = sources.count
        sources.withUnsafeBufferPointer { map in
            buses.withUnsafeBufferPointer { buses in
                for (c, source) in map.enumerated() {
                    var out = output + c
                    let haptic = haptics + buses[c] * hapticStride
                    switch source {
                    case .left:
                        for i in 0..<frameCount { out.pointee = limiter.apply(audioL[i]); out += stride }
                    case .right:
                        for i in 0..<frameCount { out.pointee = limiter.apply(audioR[i]); out += stride }
                    case .mono:
                        for i in 0..<frameCount { out.pointee = limiter.apply(0.5 * (audioL[i] + audioR[i])); out += stride }
                    case .haptic:
                        for i in 0..<frameCount { out.pointee = haptic[i]; out += stride }
                    case .leftHaptic:
                        for i in 0..<frameCount { out.pointee = limiter.apply(audioL[i] + haptic[i]); out += stride }
                    case .rightHaptic:
                        for i in 0..<frameCount { out.pointee = limiter.apply(audioR[i] + haptic[i]); out += stride }
                    case .monoHaptic:
                        for i in 0..<frameCount {
                            out.pointee = limiter.apply(0.5 * (audioL[i] + audioR[i]) + haptic[i])
                            out += stride
                        }
                    case .silence:
                        for _ in 0..<frameCount { out.pointee = 0; out += stride }
                    case .trigger:
                        for i in 0..<frameCount { out.pointee = trigger?[i] ?? 0; out += stride }
                    }
                }
            }
        }
    }
}

extension String {
    /// The text without leading and trailing whitespace (RenderCore has no Foundation).
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
