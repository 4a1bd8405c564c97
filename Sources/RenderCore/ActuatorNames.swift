/// Names of actuators in channel maps and on the command line (docs/decisions.md "Output"): Apple's
/// `GCHapticsLocality` names for a game controller's actuators and groups, and custom identifiers for
/// any other actuator (a tactor of an array, a wearable's motor).
/// - Important: Thread safety: any thread (constants and pure functions). Real-time safe: no (strings).
package enum ActuatorNames {
    /// The actuator a plain `H` channel carries, and Apple's `default` locality.
    package static let defaultActuator = "default"
    /// Apple's single-actuator localities.
    package static let controllerActuators = ["leftHandle", "rightHandle", "leftTrigger", "rightTrigger"]
    /// Apple's group localities and the actuators each covers; `all` covers every actuator of a device.
    package static let groups: [(name: String, members: [String])] = [
        ("handles", ["leftHandle", "rightHandle"]), ("triggers", ["leftTrigger", "rightTrigger"]), ("all", []),
    ]
    /// Longest actuator name, in characters.
    package static let maxLength = 64

    /// The canonical spelling of an actuator or group name: Apple's names match case-insensitively
    /// (`LEFTHANDLE` → `leftHandle`), other names are kept as given. Nil when `text` is not a name: it must
    /// start with an ASCII letter and hold only ASCII letters, digits, `_` and `-`, at most `maxLength` long.
    package static func canonical(_ text: String) -> String? {
        guard let first = text.unicodeScalars.first, first.isASCIILetter, text.unicodeScalars.count <= maxLength,
            text.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" })
        else { return nil }
        let known = [defaultActuator] + controllerActuators + groups.map(\.name)
        return known.first { $0.lowercased() == text.lowercased() } ?? text
    }

    /// The members of group `name` (canonical), or nil when it is not a group. `all` has none listed: it
    /// covers every actuator of the device.
    package static func members(ofGroup name: String) -> [String]? {
        groups.first { $0.name == name }?.members
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
