import FoundationEssentials
import ThrumModel

/// The value over time of one dynamic parameter of a pattern, as Thrum's renderer plays it: the renderer's
/// own control changes (`PatternData.controlChanges`), evaluated in seconds; the default before the
/// first one, the latest one started governing after. A value type; thread-safe.
struct LaneTimeline {
    /// The lane's changes, sorted by start time.
    let pieces: [ControlChange]
    let defaultValue: Double

    init(_ pattern: PatternData, _ id: CHHapticDynamicParameter.ID) {
        let lane = ControlLane(id)
        pieces = lane.map { lane in pattern.controlChanges().filter { $0.lane == lane } } ?? []
        defaultValue = Double(lane?.defaultValue ?? 0)
    }

    /// Every time at which the value starts or stops changing.
    var knots: [Double] { pieces.flatMap { [$0.time, $0.endTime] } }

    /// The times at which a ramp of the lane crosses one of `levels` (where a value it is added to reaches a
    /// limit, so that what follows it bends).
    func crossings(of levels: [Double]) -> [Double] {
        var times: [Double] = []
        for piece in pieces where piece.isRamp {
            let (from, to) = (Double(piece.value), Double(piece.endValue))
            for level in levels where (from - level) * (to - level) < 0 {
                times.append(piece.time + (piece.endTime - piece.time) * (level - from) / (to - from))
            }
        }
        return times
    }

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
        guard piece.isRamp, time < piece.endTime else { return Double(piece.endValue) }
        let fraction = (time - piece.time) / (piece.endTime - piece.time)
        return Double(piece.value) + Double(piece.endValue - piece.value) * fraction
    }
}
