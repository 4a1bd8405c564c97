// Spatial panning of haptics between actuators (Thrum's ThrumHapticPanX/Y parameters): equal power between
// the two actuators nearest the pan position along each axis, so a sweep moves smoothly from one to the
// next. Render thread; no allocation.

/// A point of an actuator in the renderer's single-precision arithmetic.
struct ActuatorPlace: BitwiseCopyable {
    var x: Float
    var y: Float
}

/// Where a voice's actuator sits among the actuators its player plays on, along each axis: its own
/// coordinate and its nearest neighbours' below and above (±infinity when there is none) — all a voice
/// needs for equal-power panning.
///
/// Along one axis, for a pan position p between neighbours a < b, the actuator at a takes cos(t × π/2) and
/// the one at b sin(t × π/2), t = (p − a) / (b − a): their squares sum to 1. An actuator with no neighbour
/// on p's side takes 1 (the line's end keeps everything beyond it); actuators further away take 0. On a
/// grid the weights along x and y multiply (equal power over every complete grid).
/// - Important: Thread safety: a value. Real-time safe: yes.
struct PanPlace: BitwiseCopyable {
    var x: Float = 0
    var belowX: Float = -.infinity
    var aboveX: Float = .infinity
    var y: Float = 0
    var belowY: Float = -.infinity
    var aboveY: Float = .infinity

    /// The place of no particular actuator (weight 1 at its own point).
    init() {}

    /// The place of bus `bus` among the buses of `buses` (bit b = bus b) at `places`.
    init(bus: Int, among buses: UInt64, places: UnsafePointer<ActuatorPlace>) {
        let own = places[bus]
        x = own.x
        y = own.y
        var rest = buses
        while rest != 0 {
            let other = places[rest.trailingZeroBitCount]
            rest &= rest &- 1
            if other.x < x { belowX = max(belowX, other.x) }
            if other.x > x { aboveX = min(aboveX, other.x) }
            if other.y < y { belowY = max(belowY, other.y) }
            if other.y > y { aboveY = min(aboveY, other.y) }
        }
    }

    /// The gain at pan position (`px`, `py`) for the axes set in `axes` (bit 0 x, bit 1 y); 1 for none.
    @inline(__always)
    func weight(x px: Float, y py: Float, axes: UInt8) -> Float {
        var w: Float = 1
        if axes & 1 != 0 { w = Self.axisWeight(px, below: belowX, own: x, above: aboveX) }
        if axes & 2 != 0 { w *= Self.axisWeight(py, below: belowY, own: y, above: aboveY) }
        return w
    }

    /// The equal-power weight along one axis (see the type's description).
    @inline(__always)
    static func axisWeight(_ p: Float, below: Float, own: Float, above: Float) -> Float {
        if p < own {
            if below == -.infinity { return 1 }
            if p <= below { return 0 }
            return sinCycles((p - below) / (own - below) * 0.25)
        }
        if p > own {
            if above == .infinity { return 1 }
            if p >= above { return 0 }
            return sinCycles(0.25 + (p - own) / (above - own) * 0.25)
        }
        return 1
    }
}
