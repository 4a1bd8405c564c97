import FoundationEssentials
import FoundationStandIns
import RenderCore
import Thrum
import ThrumModel
import ThrumServices

/// What `thrum info` says about the actuators of a channel map: each actuator's channels, profile and
/// position, and the patterns that play on it (`FILE@ACTUATOR`, or every actuator without @).
struct ActuatorSummary {
    let map: ChannelMap
    let lanes: [PatternInfo.Actuators.Lane]

    init(_ actuators: PatternInfo.Actuators) {
        map = actuators.map
        lanes = actuators.lanes
    }

    var text: String {
        var lines = ["actuators of \(map):"]
        for lane in lanes {
            let actuator = lane.actuator
            let profile = actuator.profile
            let channels =
                lane.channels.isEmpty
                ? "no channel" : (lane.channels.count == 1 ? "channel " : "channels ") + lane.channels.map(String.init).joined(separator: ", ")
            let position = actuator.position.map { "position \(Self.number($0.x)), \(Self.number($0.y))" } ?? ""
            lines.append(
                "  \(actuator.name) (\(channels)): profile \(profile.name), \(Self.number(profile.lowFrequency))–"
                    + "\(Self.number(profile.highFrequency)) Hz, \(profile.law.rawValue) law, gain \(Self.number(profile.gain)); \(position)")
            if lane.patterns.isEmpty { lines.append("    nothing plays here") }
            for (file, pattern) in lane.patterns {
                let haptic = pattern.events.filter(\.type.isHaptic)
                let peak = haptic.map { $0.value(of: .hapticIntensity) }.max() ?? 0
                lines.append(
                    "    \(file): \(haptic.count) haptic event\(haptic.count == 1 ? "" : "s"), "
                        + String(cFormat: "%.3f s, peak intensity %.2f", pattern.duration, peak))
            }
        }
        return lines.joined(separator: "\n")
    }

    var jsonObject: [String: Any] {
        [
            "channelMap": map.description,
            "actuators": lanes.map { lane -> [String: Any] in
                let profile = lane.actuator.profile
                return [
                    "name": lane.actuator.name, "channels": lane.channels,
                    "profile": [
                        "name": profile.name, "lowFrequency": profile.lowFrequency, "highFrequency": profile.highFrequency,
                        "law": profile.law.rawValue, "gain": profile.gain,
                    ],
                    "position": lane.actuator.position.map { ["x": $0.x, "y": $0.y] } ?? [:],
                    "patterns": lane.patterns.map { file, pattern -> [String: Any] in
                        let haptic = pattern.events.filter(\.type.isHaptic)
                        return [
                            "file": file, "hapticEvents": haptic.count, "duration": pattern.duration,
                            "peakIntensity": Double(haptic.map { $0.value(of: .hapticIntensity) }.max() ?? 0),
                        ]
                    },
                ]
            },
        ]
    }

    /// A number for the summary: `230`, `0.8`, `-1`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(cFormat: "%g", value)
    }
}
