import FoundationEssentials

/// A `.haptic` file, version 1 (Meta Haptics Studio, Lofelt/Nice Vibrations): a continuous vibration
/// described by an amplitude envelope and a frequency envelope, with optional emphasis points
/// (transients) on amplitude breakpoints. Times in seconds, values normalized 0…1 (spec:
/// `haptic-file-spec.md`, version 1.0). A value type; thread-safe.
///
/// Meaning, as Thrum reads it (the spec's words where it has them):
/// - amplitude: linear between breakpoints, 0 before the first and after the last (the effect lasts from
///   the first to the last amplitude breakpoint);
/// - frequency: linear between breakpoints, the first value before the first breakpoint and the last
///   after the last; 0.5 when the envelope is empty or omitted;
/// - an emphasis is a transient at its breakpoint's time, independent of the continuous envelopes.
package struct HapticFile: Sendable, Equatable {
    /// The schema version (`version`). Thrum reads major version 1.
    package struct Version: Sendable, Equatable {
        package var major: Int
        package var minor: Int
        package var patch: Int
        /// Creates a version.
        package init(major: Int, minor: Int = 0, patch: Int = 0) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }
    }

    /// The optional `metadata` object; absent fields are nil.
    package struct Metadata: Sendable, Equatable {
        package var author: String?
        package var editor: String?
        package var source: String?
        package var project: String?
        package var tags: [String]?
        package var description: String?
        /// Creates metadata.
        package init(
            author: String? = nil, editor: String? = nil, source: String? = nil, project: String? = nil,
            tags: [String]? = nil, description: String? = nil
        ) {
            self.author = author
            self.editor = editor
            self.source = source
            self.project = project
            self.tags = tags
            self.description = description
        }
    }

    /// A transient on an amplitude breakpoint: `amplitude` (intensity) and `frequency` (sharpness), 0…1.
    package struct Emphasis: Sendable, Equatable {
        package var amplitude: Double
        package var frequency: Double
        /// Creates an emphasis.
        package init(amplitude: Double, frequency: Double) {
            self.amplitude = amplitude
            self.frequency = frequency
        }
    }

    /// One amplitude breakpoint: `time` in seconds (≥ 0), `amplitude` 0…1, an optional emphasis.
    package struct AmplitudeBreakpoint: Sendable, Equatable {
        package var time: Double
        package var amplitude: Double
        package var emphasis: Emphasis?
        /// Creates a breakpoint.
        package init(time: Double, amplitude: Double, emphasis: Emphasis? = nil) {
            self.time = time
            self.amplitude = amplitude
            self.emphasis = emphasis
        }
    }

    /// One frequency breakpoint: `time` in seconds (≥ 0), `frequency` 0…1.
    package struct FrequencyBreakpoint: Sendable, Equatable {
        package var time: Double
        package var frequency: Double
        /// Creates a breakpoint.
        package init(time: Double, frequency: Double) {
            self.time = time
            self.frequency = frequency
        }
    }

    /// The frequency used when the frequency envelope is empty or omitted (the spec's "typically 0.5").
    package static let defaultFrequency = 0.5

    package var version: Version
    /// `metadata`; nil when the file has none.
    package var metadata: Metadata?
    /// `signals.continuous.envelopes.amplitude`.
    package var amplitude: [AmplitudeBreakpoint]
    /// `signals.continuous.envelopes.frequency`; nil when omitted (which means the same as empty).
    package var frequency: [FrequencyBreakpoint]?

    /// Creates a file.
    package init(
        version: Version = Version(major: 1), metadata: Metadata? = nil, amplitude: [AmplitudeBreakpoint],
        frequency: [FrequencyBreakpoint]? = nil
    ) {
        self.version = version
        self.metadata = metadata
        self.amplitude = amplitude
        self.frequency = frequency
    }

    /// The time of the first amplitude breakpoint (0 when there is none), in seconds.
    package var start: Double { amplitude.first?.time ?? 0 }
    /// The time of the last amplitude breakpoint, in seconds: where the effect ends (the spec's duration).
    package var duration: Double { amplitude.last?.time ?? 0 }
    /// The frequency breakpoints (empty when omitted).
    package var frequencyBreakpoints: [FrequencyBreakpoint] { frequency ?? [] }

    /// The amplitude breakpoints that carry an emphasis, with their index, in file order.
    package var emphases: [(index: Int, time: Double, emphasis: Emphasis)] {
        amplitude.enumerated().compactMap { index, point in point.emphasis.map { (index, point.time, $0) } }
    }

    /// The amplitude at `time` (seconds): linear between breakpoints, 0 outside the envelope. Where several
    /// breakpoints share a time, the last of them holds from that time on. Expects sorted times.
    package func amplitude(at time: Double) -> Double {
        guard let first = amplitude.first, let last = amplitude.last, time >= first.time, time <= last.time else {
            return 0
        }
        let points = amplitude.map { (time: $0.time, value: $0.amplitude) }
        return Self.interpolate(points, at: time)
    }

    /// The frequency at `time` (seconds): linear between breakpoints, the first value before the first and
    /// the last after the last; `defaultFrequency` when there are none. Expects sorted times.
    package func frequency(at time: Double) -> Double {
        let points = frequencyBreakpoints.map { (time: $0.time, value: $0.frequency) }
        guard !points.isEmpty else { return Self.defaultFrequency }
        return Self.interpolate(points, at: time)
    }

    /// Linear interpolation through sorted `points`, holding the end values outside them; at a time shared
    /// by several points the last one wins. `points` must not be empty.
    static func interpolate(_ points: [(time: Double, value: Double)], at time: Double) -> Double {
        // The last point at or before `time`.
        var low = 0
        var high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return points[0].value }
        let k = low - 1
        guard k + 1 < points.count else { return points[k].value }
        let a = points[k]
        let b = points[k + 1]
        let span = b.time - a.time
        guard span > 0 else { return b.value }
        return a.value + (b.value - a.value) * (time - a.time) / span
    }
}
