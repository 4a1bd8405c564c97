import ThrumModel
import ThrumServices

/// Re-rendering only the span an edit touches (issue 39, "edits felt at once"). The render is deterministic and
/// a render started by a seek at a *quiet point* (a time no event, release tail, parameter or curve of the
/// pattern spans) continues sample for sample as the whole render does from there. So after an edit that changes
/// events only, the render of the new pattern is the previous render with the samples between the quiet point
/// before the first changed event and the quiet point after the last one's tail replaced by a render of that
/// window alone. Each splice is checked: the window's first frames before the change, and frames rendered past
/// its end, must equal the previous render's there; anything else renders whole. A value; thread-safe.
struct RenderSpan: Equatable, Sendable {
    /// Pattern seconds of the window: a quiet point at or before the first change, and one at or after the
    /// last change's tail.
    var start: Double
    var end: Double
    /// Where the first changed entry starts (≥ `start`): the window's frames before it must equal the old render's.
    var changeStart: Double

    /// Seconds an event keeps sounding after its end (and release), for the actuator's burst (≤ 30 ms) and the
    /// output filters; found by rendering from seeks at and after event ends (docs/studio.md, issue 39).
    static let tail = 0.05
    /// Frames rendered past the window's end and compared with the old render (10 ms at 48 kHz).
    static let checkFrames = 480

    /// The window to re-render after `old` became `new`, or nil when the whole pattern must be rendered again:
    /// a parameter, curve, version or AudioCustom event changed (their effect is not bounded here), or no quiet
    /// point lies before the pattern's end.
    static func window(from old: PatternData, to new: PatternData) -> RenderSpan? {
        guard old.version == new.version, old.parameters == new.parameters, old.curves == new.curves,
            old.duration == new.duration
        else { return nil }
        var changed: (start: Double, end: Double)?
        for change in new.events.difference(from: old.events) {
            let event: EventData
            switch change {
            case .insert(_, let element, _), .remove(_, let element, _): event = element
            }
            guard let span = interval(of: event) else { return nil }
            changed = (min(changed?.start ?? span.start, span.start), max(changed?.end ?? span.end, span.end))
        }
        guard let changed else { return nil }
        let segments = merged(intervals(of: old) + intervals(of: new))
        guard let start = quietPoint(at: changed.start, in: segments, before: true),
            let end = quietPoint(at: changed.end, in: segments, before: false), end < old.duration
        else { return nil }
        return RenderSpan(start: start, end: end, changeStart: changed.start)
    }

    /// Pattern seconds `event` acts on the render: its time to its end plus its release and ``tail``; nil for
    /// an AudioCustom event (its file's length is not known here).
    static func interval(of event: EventData) -> (start: Double, end: Double)? {
        guard event.type != .audioCustom else { return nil }
        return (event.time, event.time + event.playedDuration + Double(event.value(of: .releaseTime)) + tail)
    }

    /// Every span of `pattern` that is not quiet (an AudioCustom event: to the end of time).
    static func intervals(of pattern: PatternData) -> [(start: Double, end: Double)] {
        var spans = pattern.events.map { interval(of: $0) ?? ($0.time, .infinity) }
        spans += pattern.parameters.map { ($0.time, $0.time) }
        spans += pattern.curves.map { ($0.time, $0.time + ($0.points.map(\.time).max() ?? 0)) }
        return spans
    }

    /// `spans` sorted and joined where they overlap (ones that only touch stay apart: the point between is quiet).
    static func merged(_ spans: [(start: Double, end: Double)]) -> [(start: Double, end: Double)] {
        var joined: [(start: Double, end: Double)] = []
        for span in spans.sorted(by: { $0.start < $1.start }) {
            if let last = joined.last, span.start < last.end {
                joined[joined.count - 1].end = max(last.end, span.end)
            } else {
                joined.append(span)
            }
        }
        return joined
    }

    /// `time` when no segment spans it, else the start (`before`) or end of the segment that does; nil for an
    /// end that never comes.
    static func quietPoint(at time: Double, in segments: [(start: Double, end: Double)], before: Bool) -> Double? {
        guard let inside = segments.first(where: { $0.start < time && time < $0.end }) else { return time }
        let point = before ? inside.start : inside.end
        return point.isFinite ? point : nil
    }
}
