internal import RenderCore

/// A place of haptic actuators on a device, as GameController names it (`GCHapticsLocality`): one actuator
/// (`leftHandle`, `rightHandle`, `leftTrigger`, `rightTrigger`, or a custom name from the channel map's
/// `H:NAME`) or a group (`handles`, `triggers`, `all`, `default`). An engine made for a group plays each
/// pattern on every actuator of the group.
///
/// `default` is the actuator of a plain `H` channel when the map has one, else every actuator.
/// - Important: Thread safety: any thread (a value).
public struct GCHapticsLocality: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The locality's name (`leftHandle`, `handles`, a custom actuator's name).
    public let rawValue: String
    /// A locality by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A locality by name (GameController's unlabelled initialiser).
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The actuator of a plain `H` channel, or every actuator when the map has none.
    public static let `default` = GCHapticsLocality(ActuatorNames.defaultActuator)
    /// Every actuator of the device.
    public static let all = GCHapticsLocality("all")
    /// The left and right handles.
    public static let handles = GCHapticsLocality("handles")
    /// The left handle's actuator.
    public static let leftHandle = GCHapticsLocality("leftHandle")
    /// The right handle's actuator.
    public static let rightHandle = GCHapticsLocality("rightHandle")
    /// The left and right triggers.
    public static let triggers = GCHapticsLocality("triggers")
    /// The left trigger's actuator.
    public static let leftTrigger = GCHapticsLocality("leftTrigger")
    /// The right trigger's actuator.
    public static let rightTrigger = GCHapticsLocality("rightTrigger")
}

/// The actuators of one device in bus order (the channel map's `actuators`), with their profiles and
/// positions, and the actuators each locality covers.
struct ActuatorLayout: Sendable {
    /// One per haptic bus, in the channel map's order; positions resolved.
    let actuators: [Actuator]

    /// Resolves `options`: each actuator of the channel map with its entry in `options.actuators`, else
    /// `options.actuatorProfile`; positions given or defaulted (`Actuator.defaultPositions(for:)`).
    /// - Throws: `invalidEngineParameter` for an actuator the map does not carry, one listed twice, a profile
    ///   or position out of range, or two actuators at one position.
    init(options: CHHapticEngine.Options) throws {
        func fail(_ message: String) -> CHHapticError { CHHapticError(.invalidEngineParameter, message) }
        let names = options.channelMap.actuators
        var listed: [String: Actuator] = [:]
        for actuator in options.actuators {
            guard names.contains(actuator.name) else {
                throw fail(
                    "actuator '\(actuator.name)' is not in the channel map \(options.channelMap) (its actuators: "
                        + "\(names.joined(separator: ", "))); add H:\(actuator.name) to the map")
            }
            guard listed[actuator.name] == nil else { throw fail("actuator '\(actuator.name)' is listed twice") }
            listed[actuator.name] = actuator
        }
        let resolved = names.map { listed[$0] ?? Actuator(name: $0, profile: options.actuatorProfile) }
        for actuator in resolved where listed[actuator.name] != nil {
            do {
                try actuator.validate(sampleRate: options.sampleRate)
            } catch {
                throw fail("\(error)")
            }
        }
        let positions = Actuator.positions(of: resolved)
        for (i, position) in positions.enumerated() {
            if let j = positions[..<i].firstIndex(of: position) {
                throw fail(
                    "actuators '\(resolved[j].name)' and '\(resolved[i].name)' are both at (\(position.x), \(position.y)); "
                        + "give each its own position")
            }
        }
        actuators = zip(resolved, positions).map { Actuator(name: $0.name, profile: $0.profile, position: $1) }
    }

    /// The buses `locality` covers as a bit mask (bit b = bus b), or nil when the device has none of them.
    func buses(of locality: GCHapticsLocality) -> UInt64? {
        let names = actuators.map(\.name)
        let every: UInt64 = names.count == 64 ? .max : (1 << UInt64(names.count)) - 1
        func mask(_ members: [String]) -> UInt64 {
            names.enumerated().reduce(0) { members.contains($1.element) ? $0 | 1 << UInt64($1.offset) : $0 }
        }
        if locality == .all { return every }
        if locality == .default { return names.contains(ActuatorNames.defaultActuator) ? mask([ActuatorNames.defaultActuator]) : every }
        if let members = ActuatorNames.members(ofGroup: locality.rawValue) {
            let found = mask(members)
            return found == 0 ? nil : found
        }
        return names.contains(locality.rawValue) ? mask([locality.rawValue]) : nil
    }

    /// Every locality with at least one actuator: `default`, `all`, each actuator and each group of Apple's
    /// with a member present.
    var supportedLocalities: Set<GCHapticsLocality> {
        var localities: Set<GCHapticsLocality> = [.default, .all]
        for actuator in actuators { localities.insert(GCHapticsLocality(actuator.name)) }
        for group in ActuatorNames.groups where buses(of: GCHapticsLocality(group.name)) != nil {
            localities.insert(GCHapticsLocality(group.name))
        }
        return localities
    }
}
