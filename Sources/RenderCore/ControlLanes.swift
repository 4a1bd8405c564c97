// The per-player control lanes of `Renderer` (`ControlLane.count` per slot): pattern steps and curve
// pieces, external parameter changes, and how pause, seek and rate changes move them.
// Render thread only; no allocation, locks or I/O.

import ThrumModel

// The render thread walks the lanes by index, never through `ControlLane.allCases`: that array is built in
// ThrumModel, out of reach of this module's optimiser, and the render thread would release it.
extension ControlLane {
    /// The panning axis the lane sets, as a bit of `PlayerInstance.pannedAxes` (1 = x, 2 = y), or 0.
    var panAxis: UInt8 { self == .hapticPanX ? 1 : self == .hapticPanY ? 2 : 0 }
}

/// Which lane writes came from the pattern's own ramps (so rate changes can re-slope them and
/// pause/resume can freeze them; external `setParameter` lanes run on the engine clock).
struct LaneSource: BitwiseCopyable {
    /// Written by a pattern control (a step or a curve piece), not by `setParameter`.
    var fromPattern: Bool = false
    /// A curve piece: the lane ramps to `endValue` at pattern time `endTime` (seconds).
    var isRamp: Bool = false
    var endTime: Double = 0
    var endValue: Float = 0
}

/// A parameter change from outside the pattern, waiting for its frame (for the slot's current instance:
/// `finish` removes the entries of an instance that ends).
struct PendingParameter: DueEntry, BitwiseCopyable {
    /// Player slot, 0 ..< maxPlayers.
    var slot: Int
    /// The instance's generation (checked when queued).
    var generation: UInt32
    var lane: ControlLane
    /// The lane's value at `frame` (clamped to its range).
    var value: Float
    /// Engine frame at which it takes effect.
    var frame: Int
    /// Change per frame after `frame` (0 for a step; a ramp of an external curve otherwise).
    var slope: Float = 0
    var sequence: Int = 0
}

extension Renderer {
    /// Sets every lane of `slot` to its default from engine frame `frame` (external, not ramping); the
    /// player is not panned.
    func resetLanes(_ slot: Int, at frame: Int) {
        let base = lanes + slot * ControlLane.count
        for index in 0..<ControlLane.count {
            guard let lane = ControlLane(rawValue: index) else { continue }
            base[index] = Lane(value: lane.defaultValue, slope: 0, anchor: frame)
            laneSources[slot * ControlLane.count + index] = LaneSource()
        }
        players[slot].pannedAxes = 0
    }

    /// The value of `lane` of `slot` at engine frame `frame`.
    @inline(__always)
    func laneValue(_ slot: Int, _ lane: ControlLane, _ frame: Int) -> Float {
        lanes[slot * ControlLane.count + lane.rawValue].at(frame)
    }

    /// Applies the slot's next pattern control (a step or a curve piece) and moves past it.
    func applyNextControl(_ slot: Int) {
        guard let (change, lane) = players[slot].takeNextControl() else { return }
        let index = slot * ControlLane.count + change.lane.rawValue
        lanes[index] = lane
        laneSources[index] = LaneSource(
            fromPattern: true, isRamp: change.isRamp, endTime: change.endTime, endValue: change.endValue)
        players[slot].pannedAxes |= change.lane.panAxis
    }

    /// Applies external parameter changes due at or before `now`, in (frame, sequence) order, to instances
    /// that are playing, paused or stopping (a scheduled one drops them).
    func applyDueParameters(_ now: Int) {
        while let p = pending.takeEarliest(dueBy: now) {
            let phase = players[p.slot].phase
            if phase == .playing || phase == .stopping || phase == .paused {
                let index = p.slot * ControlLane.count + p.lane.rawValue
                lanes[index] = Lane(value: p.value, slope: p.slope, anchor: p.frame)
                laneSources[index] = LaneSource()
                players[p.slot].pannedAxes |= p.lane.panAxis
            }
        }
    }

    /// Resume after a pause of `delta` frames: the lanes the pattern wrote continue where they froze.
    func shiftPatternLanes(_ slot: Int, by delta: Int) {
        for lane in 0..<ControlLane.count where laneSources[slot * ControlLane.count + lane].fromPattern {
            lanes[slot * ControlLane.count + lane].anchor += delta
        }
    }

    /// Seek: resets the lanes the slot's pattern uses to their defaults at `now` (its controls are then
    /// replayed up to the offset); lanes the pattern never touches keep their external value.
    func resetPatternLanes(_ slot: Int, pattern: PatternView, at now: Int) {
        for laneIndex in 0..<ControlLane.count where pattern.lanesUsed & (1 << laneIndex) != 0 {
            guard let lane = ControlLane(rawValue: laneIndex) else { continue }
            let index = slot * ControlLane.count + laneIndex
            lanes[index] = Lane(value: lane.defaultValue, slope: 0, anchor: now)
            laneSources[index] = LaneSource()
            players[slot].pannedAxes &= ~lane.panAxis
        }
    }

    /// Rate change at `frame` (the instance already re-anchored): each pattern ramp in progress keeps its
    /// value at `frame` and now reaches its end value at the end's new frame.
    func reslopePatternRamps(_ slot: Int, at frame: Int) {
        for lane in 0..<ControlLane.count {
            let index = slot * ControlLane.count + lane
            let source = laneSources[index]
            guard source.fromPattern, source.isRamp else { continue }
            let value = lanes[index].at(frame)
            let end = players[slot].frame(at: source.endTime)
            let slope = end > frame ? (source.endValue - value) / Float(end - frame) : 0
            lanes[index] = Lane(value: value, slope: slope, anchor: frame)
        }
    }
}
