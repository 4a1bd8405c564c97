import ThrumModel

/// How much one pattern may cost to read, check, render and draw, so that a small hostile file cannot
/// make a call work or allocate without bound. Each limit is raised by the option its message names
/// (libthrum and Python: the field of that name). A value; thread-safe.
package struct PatternLimits: Sendable, Equatable {
    /// Largest pattern file in bytes (`--max-pattern-bytes`); the largest file in the corpus is 0.2 MB.
    package private(set) var maxBytes = 4_000_000
    /// Most events and parameter steps together (`--max-events`).
    package private(set) var maxEvents = 100_000
    /// Most curve control points, all curves together (`--max-curve-points`).
    package private(set) var maxCurvePoints = 100_000

    /// What each limit may be set to.
    package static let byteRange = 1...Int(Int32.max)
    package static let countRange = 1...100_000_000

    /// The defaults.
    package init() {}

    /// The limits given (nil: the default).
    /// - Throws: 64 for a value outside its range.
    package init(maxBytes: Int?, maxEvents: Int?, maxCurvePoints: Int?) throws(ServiceError) {
        self.maxBytes = try Checked.whole(maxBytes, "max-pattern-bytes", in: Self.byteRange) ?? self.maxBytes
        self.maxEvents = try Checked.whole(maxEvents, "max-events", in: Self.countRange) ?? self.maxEvents
        self.maxCurvePoints = try Checked.whole(maxCurvePoints, "max-curve-points", in: Self.countRange) ?? self.maxCurvePoints
    }

    /// The count limits `pattern` passes, each as one message naming the figure, the limit and its option.
    package func problems(in pattern: PatternData) -> [String] {
        var problems: [String] = []
        let events = pattern.events.count + pattern.parameters.count
        if events > maxEvents {
            problems.append(
                "the pattern has \(events) events and parameter steps; the limit is \(maxEvents) (raise it with --max-events N)")
        }
        let points = pattern.curves.reduce(0) { $0 + $1.points.count }
        if points > maxCurvePoints {
            problems.append(
                "the pattern has \(points) curve control points; the limit is \(maxCurvePoints) (raise it with --max-curve-points N)")
        }
        return problems
    }
}
