import FoundationEssentials
import FoundationStandIns
import RenderCore
import Thrum
import ThrumServices

/// A `PATTERN[@LOCALITY]` argument of `play`, `render` and `plot` (docs/decisions.md "Output"): the pattern plays on
/// the actuators of LOCALITY, or on every actuator of the channel map without one.
struct PatternTarget: Equatable {
    /// The argument as given.
    let argument: String
    /// The pattern part: an AHAP or `.haptic` file, a bundled pattern's name or a sound file.
    let pattern: String
    /// Where it plays; nil: every actuator (`all`).
    let locality: GCHapticsLocality?

    /// Splits at the last `@` when what follows is an actuator or group name; an existing file whose name
    /// has an `@` is taken whole.
    init(_ argument: String) {
        self.argument = argument
        guard !FileSystem.exists(argument), let at = argument.lastIndex(of: "@"),
            at != argument.startIndex, let name = ActuatorNames.canonical(String(argument[argument.index(after: at)...]))
        else {
            pattern = argument
            locality = nil
            return
        }
        pattern = String(argument[..<at])
        locality = GCHapticsLocality(name)
    }

    /// A pattern part and a locality given apart (libthrum's players).
    init(pattern: String, locality: GCHapticsLocality?) {
        argument = pattern + (locality.map { "@\($0.rawValue)" } ?? "")
        self.pattern = pattern
        self.locality = locality
    }

    /// The locality the pattern plays on.
    var playsOn: GCHapticsLocality { locality ?? .all }
}

/// The options that choose the actuators: `--layout`, and `--profile` for all of them or one
/// (`--profile leftHandle=lra`); `--channels` is `EngineArguments.channels`.
enum ActuatorArguments {
    static let layout = OptionSpec.value(
        .layout, placeholder: "NAME", values: .layout,
        help: "the channels of a known device instead of --channels: dualsense (= L,R,H:leftHandle,H:rightHandle)")
    static let profile = OptionSpec.value(
        .profile, placeholder: "[NAME=]PROFILE", values: .profile,
        help: "actuator profile (default, lra, speaker, a JSON file or Meta's .acf); NAME=PROFILE for one actuator (repeatable)")

    static let help = """
        Several actuators: H:NAME carries the actuator NAME (leftHandle, rightHandle, leftTrigger, rightTrigger,
        or a name of your own); H alone is the actuator 'default'. PATTERN@NAME plays a pattern on one actuator,
        or on each actuator of a group (handles, triggers, all); a pattern without @ plays on every actuator.
        Several patterns play together, on one clock.
        """

    /// The channel map of `--layout` or `--channels`, else `fallback`.
    /// - Throws: `UsageError` for both options at once, an unknown layout or a wrong map.
    static func channelMap(_ arguments: ParsedArguments, default fallback: ChannelMap) throws -> ChannelMap {
        let text = arguments.value(.channels)
        guard let name = arguments.value(.layout) else {
            guard let text else { return fallback }
            do {
                return try ChannelMap(parsing: text)
            } catch {
                throw UsageError(message: "--channels: \(error)")
            }
        }
        if text != nil { throw UsageError(message: "use either --layout or --channels, not both") }
        guard let layout = ChannelMap.layouts.first(where: { $0.name == name.lowercased() }) else {
            throw UsageError(
                message: "--layout \(name): unknown layout; known layouts: "
                    + ChannelMap.layouts.map(\.name).joined(separator: ", ") + " (or give --channels MAP)")
        }
        return layout.map
    }

    /// Applies `--profile` values in order: a plain profile to every actuator not named, `NAME=PROFILE` to
    /// the actuator NAME of the map (or each actuator of a group).
    /// - Throws: `UsageError` for a name the map does not carry; `ServiceError` for a profile that cannot
    ///   be read (66) or is wrong (65).
    static func applyProfiles(_ arguments: ParsedArguments, to options: inout CHHapticEngine.Options) throws {
        let names = options.channelMap.actuators
        let rate = options.sampleRate
        func load(_ text: String) throws -> ActuatorProfile {
            let profile = try EngineArguments.loadProfile(text)
            do {
                try profile.validate(sampleRate: rate)
            } catch {
                throw ServiceError(.dataError, "actuator profile \(text): \(error)")
            }
            return profile
        }
        var chosen: [(name: String, profile: ActuatorProfile)] = []
        for value in arguments.allValues(.profile) {
            guard let equals = value.firstIndex(of: "="),
                let name = ActuatorNames.canonical(String(value[..<equals]))
            else {
                options.actuatorProfile = try load(value)
                continue
            }
            let members: [String]
            if name == GCHapticsLocality.all.rawValue {
                members = names
            } else if let group = ActuatorNames.members(ofGroup: name) {
                members = group.filter(names.contains)
            } else {
                members = names.contains(name) ? [name] : []
            }
            guard !members.isEmpty else {
                throw UsageError(
                    message: "--profile \(value): the channel map \(options.channelMap) has no actuator '\(name)' "
                        + "(its actuators: \(names.joined(separator: ", ")))")
            }
            let profile = try load(String(value[value.index(after: equals)...]))
            for member in members {
                chosen.removeAll { $0.name == member }
                chosen.append((member, profile))
            }
        }
        options.actuators = chosen.map { Actuator(name: $0.name, profile: $0.profile) }
    }

    /// One engine per target, for its locality, all on `device`.
    /// - Throws: `UsageError` naming a locality the device does not have, and the ones it has.
    static func engines(on device: GCDeviceHaptics, for targets: [PatternTarget]) throws -> [CHHapticEngine] {
        try targets.map { target in
            guard let engine = device.createEngine(withLocality: target.playsOn) else {
                let known = device.supportedLocalities.map(\.rawValue).sorted().joined(separator: ", ")
                throw UsageError(
                    message: "\(target.argument): the channel map \(device.options.channelMap) has no actuator "
                        + "'\(target.playsOn)'; its localities: \(known)")
            }
            return engine
        }
    }
}
