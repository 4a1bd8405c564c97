/// Where an actuator sits, for spatial panning: a point in the square −1…1 × −1…1 (x left → right,
/// y bottom → top). Actuators on a line use x alone; a grid uses both.
/// - Important: Thread safety: any thread (a value). Real-time safe: yes.
public struct ActuatorPosition: Sendable, Equatable, BitwiseCopyable {
    /// Left (−1) to right (1).
    public var x: Double
    /// Bottom (−1) to top (1).
    public var y: Double

    /// A position; values are checked by `Actuator.validate` (each within −1…1).
    public init(x: Double, y: Double = 0) {
        self.x = x
        self.y = y
    }
}

/// One actuator a renderer drives: its name (the channel map's `H:NAME`, Apple's locality names for a game
/// controller), its profile (band, law, gain, limiter, transient length) and its position for panning.
/// Each actuator has its own haptic bus.
/// - Important: Thread safety: any thread (a value). Real-time safe: reading yes; `validate` no.
public struct Actuator: Sendable, Equatable {
    /// The actuator's name, as the channel map spells it.
    public var name: String
    /// Its profile.
    public var profile: ActuatorProfile
    /// Its place for spatial panning; nil: the default place (`defaultPositions(for:)`).
    public var position: ActuatorPosition?

    /// An actuator; values are checked by `validate(sampleRate:)`.
    public init(name: String, profile: ActuatorProfile = .default, position: ActuatorPosition? = nil) {
        self.name = name
        self.profile = profile
        self.position = position
    }

    /// Checks the profile (see `ActuatorProfile.validate(sampleRate:)`) and that the position lies in −1…1 × −1…1.
    /// - Throws: `ActuatorProfileError.invalidField` naming the actuator and the first bad field.
    public func validate(sampleRate: Double?) throws(ActuatorProfileError) {
        do {
            try profile.validate(sampleRate: sampleRate)
        } catch .invalidField(let field, let reason) {
            throw .invalidField("\(name).\(field)", reason)
        } catch {
            throw error
        }
        guard let position else { return }
        for (axis, value) in [("x", position.x), ("y", position.y)] where !(value >= -1 && value <= 1) {
            throw .invalidField(
                "\(name).position.\(axis)", "must be within −1…1, got \(ActuatorProfile.number(value))")
        }
    }

    /// The positions of `actuators`: each one's own, else its default place among them.
    public static func positions(of actuators: [Actuator]) -> [ActuatorPosition] {
        zip(actuators, defaultPositions(for: actuators.map(\.name))).map { $0.position ?? $1 }
    }

    /// The places actuators take when none is given: Apple's controller actuators on a 2 × 2 grid (handles
    /// at the bottom, triggers at the top, left at −1, right at 1) when every name is one of them, else a
    /// line from x = −1 to 1 in the order given (a lone actuator at 0).
    public static func defaultPositions(for names: [String]) -> [ActuatorPosition] {
        let places: [String: ActuatorPosition] = [
            "leftHandle": ActuatorPosition(x: -1, y: -1), "rightHandle": ActuatorPosition(x: 1, y: -1),
            "leftTrigger": ActuatorPosition(x: -1, y: 1), "rightTrigger": ActuatorPosition(x: 1, y: 1),
        ]
        let known = names.compactMap { places[$0] }
        if !names.isEmpty, known.count == names.count { return known }
        guard names.count > 1 else { return names.map { _ in ActuatorPosition(x: 0) } }
        return names.indices.map { ActuatorPosition(x: -1 + 2 * Double($0) / Double(names.count - 1)) }
    }
}
