import AHAPCodec
import FoundationEssentials

/// Writes `HapticFile` as `.haptic` JSON. Pure and thread-safe.
///
/// Output is deterministic: 2-space indent, keys in the spec's order (`version`, `metadata`, `signals`),
/// one breakpoint per line, numbers in Swift's shortest round-trip form, a trailing newline. Absent
/// metadata fields and an omitted frequency envelope stay absent, so decoding gives back an equal file.
package enum HapticFileEncoder {
    /// The file as `.haptic` JSON text.
    package static func encode(_ file: HapticFile) -> String {
        let version = file.version
        var top = [
            "  \"version\": {\"major\": \(version.major), \"minor\": \(version.minor), \"patch\": \(version.patch)}"
        ]
        if let metadata = file.metadata {
            var fields: [String] = []
            func add(_ key: String, _ value: String?) {
                if let value { fields.append("    \"\(key)\": \(AHAPEncoder.quoted(value))") }
            }
            add("author", metadata.author)
            add("editor", metadata.editor)
            add("source", metadata.source)
            add("project", metadata.project)
            if let tags = metadata.tags {
                fields.append("    \"tags\": [" + tags.map(AHAPEncoder.quoted).joined(separator: ", ") + "]")
            }
            add("description", metadata.description)
            top.append(fields.isEmpty ? "  \"metadata\": {}" : "  \"metadata\": {\n" + fields.joined(separator: ",\n") + "\n  }")
        }
        let amplitude = file.amplitude.map { point in
            var text = "{\"time\": \(number(point.time)), \"amplitude\": \(number(point.amplitude))"
            if let emphasis = point.emphasis {
                text += ", \"emphasis\": {\"amplitude\": \(number(emphasis.amplitude)), "
                    + "\"frequency\": \(number(emphasis.frequency))}"
            }
            return text + "}"
        }
        var envelopes = ["        \"amplitude\": " + list(amplitude)]
        if let frequency = file.frequency {
            let points = frequency.map { "{\"time\": \(number($0.time)), \"frequency\": \(number($0.frequency))}" }
            envelopes.append("        \"frequency\": " + list(points))
        }
        top.append(
            "  \"signals\": {\n    \"continuous\": {\n      \"envelopes\": {\n" + envelopes.joined(separator: ",\n")
                + "\n      }\n    }\n  }")
        return "{\n" + top.joined(separator: ",\n") + "\n}\n"
    }

    /// A JSON array of pre-formatted items, one per line, at the envelopes' indentation.
    static func list(_ items: [String]) -> String {
        items.isEmpty ? "[]" : "[\n" + items.map { "          " + $0 }.joined(separator: ",\n") + "\n        ]"
    }

    /// A number in JSON: Swift's shortest round-trip text; 0 when not finite (JSON cannot hold it).
    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0"
    }
}
