import Foundation

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
public struct HapticFile: Sendable, Equatable {
    /// The schema version (`version`). Thrum reads major version 1.
    public struct Version: Sendable, Equatable {
        public var major: Int
        public var minor: Int
        public var patch: Int
        /// Creates a version.
        public init(major: Int, minor: Int = 0, patch: Int = 0) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }
    }

    /// The optional `metadata` object; absent fields are nil.
    public struct Metadata: Sendable, Equatable {
        public var author: String?
        public var editor: String?
        public var source: String?
        public var project: String?
        public var tags: [String]?
        public var description: String?
        /// Creates metadata.
        public init(
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
    public struct Emphasis: Sendable, Equatable {
        public var amplitude: Double
        public var frequency: Double
        /// Creates an emphasis.
        public init(amplitude: Double, frequency: Double) {
            self.amplitude = amplitude
            self.frequency = frequency
        }
    }

    /// One amplitude breakpoint: `time` in seconds (≥ 0), `amplitude` 0…1, an optional emphasis.
    public struct AmplitudeBreakpoint: Sendable, Equatable {
        public var time: Double
        public var amplitude: Double
        public var emphasis: Emphasis?
        /// Creates a breakpoint.
        public init(time: Double, amplitude: Double, emphasis: Emphasis? = nil) {
            self.time = time
            self.amplitude = amplitude
            self.emphasis = emphasis
        }
    }

    /// One frequency breakpoint: `time` in seconds (≥ 0), `frequency` 0…1.
    public struct FrequencyBreakpoint: Sendable, Equatable {
        public var time: Double
        public var frequency: Double
        /// Creates a breakpoint.
        public init(time: Double, frequency: Double) {
            self.time = time
            self.frequency = frequency
        }
    }

    /// The frequency used when the frequency envelope is empty or omitted (the spec's "typically 0.5").
    public static let defaultFrequency = 0.5

    public var version: Version
    /// `metadata`; nil when the file has none.
    public var metadata: Metadata?
    /// `signals.continuous.envelopes.amplitude`.
    public var amplitude: [AmplitudeBreakpoint]
    /// `signals.continuous.envelopes.frequency`; nil when omitted (which means the same as empty).
    public var frequency: [FrequencyBreakpoint]?

    /// Creates a file.
    public init(
        version: Version = Version(major: 1), metadata: Metadata? = nil, amplitude: [AmplitudeBreakpoint],
        frequency: [FrequencyBreakpoint]? = nil
    ) {
        self.version = version
        self.metadata = metadata
        self.amplitude = amplitude
        self.frequency = frequency
    }

    /// The time of the first amplitude breakpoint (0 when there is none), in seconds.
    public var start: Double { amplitude.first?.time ?? 0 }
    /// The time of the last amplitude breakpoint, in seconds: where the effect ends (the spec's duration).
    public var duration: Double { amplitude.last?.time ?? 0 }
    /// The frequency breakpoints (empty when omitted).
    public var frequencyBreakpoints: [FrequencyBreakpoint] { frequency ?? [] }

    /// The amplitude breakpoints that carry an emphasis, with their index, in file order.
    public var emphases: [(index: Int, time: Double, emphasis: Emphasis)] {
        amplitude.enumerated().compactMap { index, point in point.emphasis.map { (index, point.time, $0) } }
    }

    /// The amplitude at `time` (seconds): linear between breakpoints, 0 outside the envelope. Where several
    /// breakpoints share a time, the last of them holds from that time on. Expects sorted times.
    public func amplitude(at time: Double) -> Double {
        guard let first = amplitude.first, let last = amplitude.last, time >= first.time, time <= last.time else {
            return 0
        }
        let points = amplitude.map { (time: $0.time, value: $0.amplitude) }
        return Self.interpolate(points, at: time)
    }

    /// The frequency at `time` (seconds): linear between breakpoints, the first value before the first and
    /// the last after the last; `defaultFrequency` when there are none. Expects sorted times.
    public func frequency(at time: Double) -> Double {
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
