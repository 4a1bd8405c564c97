import Foundation
import ThrumModel

/// The value over time of one dynamic parameter of a pattern, as Thrum plays it (DECISIONS.md,
/// `core-haptics-behaviour.md` §1.6–1.8): the default until the first change; a `Parameter` step holds its
/// value; a curve holds its first point's value from its own `Time`, ramps linearly through its points
/// (times relative to the curve) and holds the last value; the latest change started wins. Values are
/// clamped to the parameter's range. A value type; thread-safe.
struct LaneTimeline {
    /// A step (`endTime == time`) or one linear piece of a curve.
    struct Piece {
        var time: Double
        var value: Double
        var endTime: Double
        var endValue: Double
    }

    /// Pieces sorted by start time; equal times keep steps before curves, each in pattern order.
    let pieces: [Piece]
    let defaultValue: Double

    init(_ pattern: PatternData, _ id: CHHapticDynamicParameter.ID) {
        let attributes = ParameterTable.attributes(for: id) ?? ParameterAttributes(min: -1, max: 1, default: 0)
        func clamp(_ value: Float) -> Double { Double(attributes.clamp(value)) }
        defaultValue = Double(attributes.defaultValue)
        var pieces: [Piece] = []
        for step in pattern.parameters where step.id == id {
            let time = max(step.time, 0)
            pieces.append(Piece(time: time, value: clamp(step.value), endTime: time, endValue: clamp(step.value)))
        }
        for curve in pattern.curves where curve.id == id && !curve.points.isEmpty {
            let points = curve.points.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
            let start = max(curve.time, 0)
            let first = clamp(points[0].value)
            pieces.append(Piece(time: start, value: first, endTime: start, endValue: first))
            for (k, point) in points.enumerated() {
                let t0 = start + max(point.time, 0)
                let next = k + 1 < points.count ? points[k + 1] : point
                pieces.append(
                    Piece(time: t0, value: clamp(point.value), endTime: start + max(next.time, 0), endValue: clamp(next.value)))
            }
        }
        self.pieces = pieces.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
    }

    /// Whether the pattern changes this parameter at all.
    var isConstant: Bool { pieces.isEmpty }

    /// Every time at which the value starts or stops changing.
    var knots: [Double] { pieces.flatMap { [$0.time, $0.endTime] } }

    /// The value at `time`; with `before`, the value just before it (the limit from the left).
    func value(at time: Double, before: Bool = false) -> Double {
        // The last piece started at (or, with `before`, strictly before) `time`.
        var low = 0
        var high = pieces.count
        while low < high {
            let middle = (low + high) / 2
            let started = before ? pieces[middle].time < time : pieces[middle].time <= time
            if started { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return defaultValue }
        let piece = pieces[low - 1]
        guard piece.endTime > piece.time, time < piece.endTime else { return piece.endValue }
        return piece.value + (piece.endValue - piece.value) * (time - piece.time) / (piece.endTime - piece.time)
    }
}
