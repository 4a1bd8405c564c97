import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// Writes `PatternData` as AHAP text or as a pattern dictionary. Pure and thread-safe.
///
/// Output is deterministic: top-level keys `Version`, `Metadata`, `Pattern`; events first, then
/// `Parameter` steps, then `ParameterCurve`s, each in their array order. Absent optional values
/// (nil duration, nil flags, empty metadata or parameters) are left out, so decoding the output
/// gives back an equal `PatternData`.
package enum AHAPEncoder {
    /// The pattern as pretty-printed AHAP JSON (2-space indent, trailing newline).
    ///
    /// Numbers use Swift's shortest round-trip form; non-finite numbers, which JSON cannot hold,
    /// are written as 0. An event's `audioResourceID` and `ignoresIntensityControl` have no AHAP form and
    /// are left out.
    package static func encode(_ pattern: PatternData) -> String {
        var out = "{\n"
        var top: [String] = []
        if let version = pattern.version { top.append("  \"Version\": \(number(version))") }
        if !pattern.metadata.isEmpty {
            let entries = pattern.metadata.map { "    \(quoted($0.key)): \(quoted($0.value))" }
            top.append("  \"Metadata\": {\n" + entries.joined(separator: ",\n") + "\n  }")
        }
        var entries: [String] = []
        for event in pattern.events { entries.append(encodeEvent(event)) }
        for parameter in pattern.parameters {
            entries.append(
                """
                    {
                      "Parameter": {
                        "Time": \(number(parameter.time)),
                        "ParameterID": \(quoted(parameter.id.rawValue)),
                        "ParameterValue": \(number(parameter.value))
                      }
                    }
                """)
        }
        for curve in pattern.curves {
            let points = curve.points.map {
                "          { \"Time\": \(number($0.time)), \"ParameterValue\": \(number($0.value)) }"
            }
            let pointText = points.isEmpty ? "[]" : "[\n" + points.joined(separator: ",\n") + "\n        ]"
            entries.append(
                """
                    {
                      "ParameterCurve": {
                        "Time": \(number(curve.time)),
                        "ParameterID": \(quoted(curve.id.rawValue)),
                        "ParameterCurveControlPoints": \(pointText)
                      }
                    }
                """)
        }
        top.append(entries.isEmpty ? "  \"Pattern\": []" : "  \"Pattern\": [\n" + entries.joined(separator: ",\n") + "\n  ]")
        out += top.joined(separator: ",\n")
        out += "\n}\n"
        return out
    }

    static func encodeEvent(_ event: EventData) -> String {
        var lines: [String] = []
        lines.append("\"Time\": \(number(event.time))")
        lines.append("\"EventType\": \(quoted(event.type.rawValue))")
        if let duration = event.duration { lines.append("\"EventDuration\": \(number(duration))") }
        if let path = event.waveformPath { lines.append("\"EventWaveformPath\": \(quoted(path))") }
        if let flag = event.useVolumeEnvelope { lines.append("\"EventWaveformUseVolumeEnvelope\": \(flag)") }
        if let flag = event.loopEnabled { lines.append("\"EventWaveformLoopEnabled\": \(flag)") }
        if !event.parameters.isEmpty {
            let parameters = event.parameters.map {
                "          { \"ParameterID\": \(quoted($0.id.rawValue)), \"ParameterValue\": \(number($0.value)) }"
            }
            lines.append("\"EventParameters\": [\n" + parameters.joined(separator: ",\n") + "\n        ]")
        }
        return "    {\n      \"Event\": {\n" + lines.map { "        " + $0 }.joined(separator: ",\n") + "\n      }\n    }"
    }

    /// The pattern as a dictionary with AHAP keys (for `exportDictionary()`): numbers as `Double`,
    /// flags as `Bool`, strings as `String`. Key order is not defined; values are those `encode` writes.
    ///
    /// - Throws: `CHHapticError(.operationNotPermitted)` when an event plays a registered audio
    ///   resource (`audioResourceID`) or ignores the intensity control (a `.haptic` emphasis), which have
    ///   no dictionary form.
    package static func dictionary(_ pattern: PatternData) throws(CHHapticError) -> [String: Any] {
        var result: [String: Any] = [:]
        if let version = pattern.version { result["Version"] = finite(version) }
        if !pattern.metadata.isEmpty {
            var metadata: [String: Any] = [:]
            for entry in pattern.metadata { metadata[entry.key] = entry.value }
            result["Metadata"] = metadata
        }
        var entries: [[String: Any]] = []
        for (index, event) in pattern.events.enumerated() {
            if let resource = event.audioResourceID {
                throw CHHapticError(
                    .operationNotPermitted,
                    "event \(index) plays registered audio resource \(resource), which cannot be exported to a dictionary")
            }
            if event.ignoresIntensityControl {
                throw CHHapticError(
                    .operationNotPermitted,
                    "event \(index) is a .haptic emphasis that the intensity control does not scale, which AHAP cannot say (thrum convert writes AHAP from .haptic)")
            }
            var entry: [String: Any] = ["Time": finite(event.time), "EventType": event.type.rawValue]
            if let duration = event.duration { entry["EventDuration"] = finite(duration) }
            if let path = event.waveformPath { entry["EventWaveformPath"] = path }
            if let flag = event.useVolumeEnvelope { entry["EventWaveformUseVolumeEnvelope"] = flag }
            if let flag = event.loopEnabled { entry["EventWaveformLoopEnabled"] = flag }
            if !event.parameters.isEmpty {
                entry["EventParameters"] = event.parameters.map {
                    ["ParameterID": $0.id.rawValue, "ParameterValue": finite(Double($0.value))] as [String: Any]
                }
            }
            entries.append(["Event": entry])
        }
        for parameter in pattern.parameters {
            entries.append([
                "Parameter": [
                    "Time": finite(parameter.time), "ParameterID": parameter.id.rawValue,
                    "ParameterValue": finite(Double(parameter.value)),
                ] as [String: Any]
            ])
        }
        for curve in pattern.curves {
            entries.append([
                "ParameterCurve": [
                    "Time": finite(curve.time), "ParameterID": curve.id.rawValue,
                    "ParameterCurveControlPoints": curve.points.map {
                        ["Time": finite($0.time), "ParameterValue": finite(Double($0.value))] as [String: Any]
                    },
                ] as [String: Any]
            ])
        }
        result["Pattern"] = entries
        return result
    }

    static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

    /// A `Double` in JSON: Swift's shortest round-trip text; 0 when not finite.
    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0"
    }

    /// A `Float` in JSON: Swift's shortest round-trip text for `Float`; 0 when not finite.
    static func number(_ value: Float) -> String {
        value.isFinite ? "\(value)" : "0"
    }

    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    out += String(cFormat: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
