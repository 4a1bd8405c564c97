import AHAPCodec
import FoundationEssentials
import ThrumModel

/// How strictly `.haptic` files are checked (the two modes of Meta's reference reader).
package enum HapticValidationMode: Sendable, Equatable {
    /// Every rule of the spec is an error.
    case strict
    /// As `strict`, except that frequency breakpoints outside the amplitude envelope (written by earlier
    /// versions of Haptics Studio) are accepted with a warning. What playback uses.
    case legacyCompatibility
}

/// JSON paths of the parts of a `.haptic` file, for diagnostics.
package enum HapticPaths {
    package static let envelopes = "signals.continuous.envelopes"
    package static let amplitude = envelopes + ".amplitude"
    package static let frequency = envelopes + ".frequency"

    /// The path of amplitude breakpoint `index`, or of its `key` (`time`, `amplitude`, `emphasis.frequency`).
    package static func amplitude(_ index: Int, _ key: String? = nil) -> String {
        "\(amplitude)[\(index)]" + (key.map { "." + $0 } ?? "")
    }

    /// The path of frequency breakpoint `index`, or of its `key`.
    package static func frequency(_ index: Int, _ key: String? = nil) -> String {
        "\(frequency)[\(index)]" + (key.map { "." + $0 } ?? "")
    }
}

/// Checks a `HapticFile` against the `.haptic` v1 rules (spec "Validation Rules"; messages name the rule
/// and the values, as Meta's reader does). Pure and thread-safe.
package enum HapticFileValidator {
    /// The longest effect Thrum reads, in seconds (a resource limit: playback and exports scale with it).
    package static let maxDuration: Double = 3600

    /// Every problem in `file`, in file order; per breakpoint at most one problem of each kind.
    package static func issues(in file: HapticFile, mode: HapticValidationMode) -> [HapticIssue] {
        var issues: [HapticIssue] = []
        func error(_ message: String, suggestion: String? = nil, at path: String) {
            issues.append(HapticIssue(.error, .invalidPatternData, message, suggestion: suggestion, path: path))
        }
        if file.version.major != 1 {
            issues.append(
                HapticIssue(
                    .error, .notSupported, "version \(file.version.major).\(file.version.minor) is not supported",
                    suggestion: "Thrum reads .haptic version 1", path: "version.major"))
        }

        var previous: Double?
        var ordered = true
        for (index, point) in file.amplitude.enumerated() {
            if !(point.time >= 0) {
                error("time \(point.time) is negative", at: HapticPaths.amplitude(index, "time"))
            } else if let previous, point.time < previous {
                ordered = false
                error(
                    "amplitude breakpoints out of order: time \(point.time) after \(previous)",
                    suggestion: "sort the breakpoints by time", at: HapticPaths.amplitude(index, "time"))
            }
            previous = max(previous ?? point.time, point.time)
            if !(0...1).contains(point.amplitude) {
                error(
                    "amplitude out of range: time \(point.time), amplitude \(point.amplitude) (allowed 0–1)",
                    at: HapticPaths.amplitude(index, "amplitude"))
            }
            guard let emphasis = point.emphasis else { continue }
            if !(0...1).contains(emphasis.amplitude) {
                error(
                    "emphasis amplitude out of range: time \(point.time), amplitude \(emphasis.amplitude) (allowed 0–1)",
                    at: HapticPaths.amplitude(index, "emphasis.amplitude"))
            } else if emphasis.amplitude < point.amplitude {
                error(
                    "emphasis amplitude \(emphasis.amplitude) lower than envelope amplitude \(point.amplitude) at time \(point.time)",
                    suggestion: "an emphasis must be at least as strong as the envelope under it",
                    at: HapticPaths.amplitude(index, "emphasis.amplitude"))
            }
            if !(0...1).contains(emphasis.frequency) {
                error(
                    "emphasis frequency out of range: time \(point.time), frequency \(emphasis.frequency) (allowed 0–1)",
                    at: HapticPaths.amplitude(index, "emphasis.frequency"))
            }
        }
        let first = file.amplitude.first?.time ?? 0
        let last = file.amplitude.last?.time ?? 0
        if file.amplitude.count < 2 {
            error(
                "insufficient amplitude breakpoints: \(file.amplitude.count) given, at least 2 needed (start and end)",
                suggestion: "add breakpoints for the start and the end of the effect", at: HapticPaths.amplitude)
        } else if ordered && !(last > first) {
            error(
                "amplitude envelope has zero duration: every breakpoint is at time \(first)",
                suggestion: "give the last breakpoint a later time", at: HapticPaths.amplitude)
        } else if last > maxDuration {
            error(
                "the amplitude envelope ends at \(last) s; Thrum reads effects of at most \(Int(maxDuration)) s",
                at: HapticPaths.amplitude(file.amplitude.count - 1, "time"))
        }

        previous = nil
        for (index, point) in file.frequencyBreakpoints.enumerated() {
            if !(point.time >= 0) {
                error("time \(point.time) is negative", at: HapticPaths.frequency(index, "time"))
            } else if let previous, point.time < previous {
                error(
                    "frequency breakpoints out of order: time \(point.time) after \(previous)",
                    suggestion: "sort the breakpoints by time", at: HapticPaths.frequency(index, "time"))
            } else if point.time > maxDuration {
                error(
                    "frequency breakpoint at \(point.time) s; Thrum reads effects of at most \(Int(maxDuration)) s",
                    suggestion: "remove it or move it into the envelope", at: HapticPaths.frequency(index, "time"))
            } else if file.amplitude.count >= 2 && (point.time > last || point.time < first) {
                let place = point.time > last ? "envelope ends \(last)" : "envelope starts \(first)"
                let message = "frequency breakpoint outside the amplitude envelope: time \(point.time), \(place)"
                if mode == .strict {
                    error(message, suggestion: "remove it or move it into the envelope", at: HapticPaths.frequency(index, "time"))
                } else {
                    issues.append(
                        HapticIssue(
                            .warning, nil, message + " (accepted in legacy-compatibility mode; strict mode rejects it)",
                            suggestion: "remove it or move it into the envelope", path: HapticPaths.frequency(index, "time")))
                }
            }
            previous = max(previous ?? point.time, point.time)
            if !(0...1).contains(point.frequency) {
                error(
                    "frequency out of range: time \(point.time), frequency \(point.frequency) (allowed 0–1)",
                    at: HapticPaths.frequency(index, "frequency"))
            }
        }
        return issues
    }
}
