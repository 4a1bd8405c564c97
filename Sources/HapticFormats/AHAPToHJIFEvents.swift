import FoundationEssentials
import Glibc
import ThrumModel

/// The haptic control lanes of one AHAP pattern over time, as Thrum's renderer plays them.
struct AHAPLanes {
    let intensity: LaneTimeline
    let sharpness: LaneTimeline
    let attack: LaneTimeline
    let decay: LaneTimeline
    let release: LaneTimeline

    init(_ pattern: PatternData) {
        intensity = LaneTimeline(pattern, .hapticIntensityControl)
        sharpness = LaneTimeline(pattern, .hapticSharpnessControl)
        attack = LaneTimeline(pattern, .hapticAttackTimeControl)
        decay = LaneTimeline(pattern, .hapticDecayTimeControl)
        release = LaneTimeline(pattern, .hapticReleaseTimeControl)
    }

    /// Whether an envelope-time control changes while `event` plays.
    func timesChange(during event: EventData) -> Bool {
        let end = event.time + event.playedDuration
        return [attack, decay, release].contains { lane in lane.knots.contains { $0 > event.time && $0 < end } }
    }
}

extension AHAPToHJIF {
    /// Core Haptics' envelope time for parameter x (docs/decisions.md): 0.001 × 5120^x seconds.
    static func envelopeSeconds(_ x: Double) -> Double { 0.001 * pow(5120, min(max(x, 0), 1)) }

    /// The gain envelope Thrum plays a HapticContinuous event with, as (seconds from its onset, level)
    /// points joined by straight lines: attack from 0, then hold to EventDuration and release
    /// (sustained), or decay to 0 cut by a 1 ms ramp at EventDuration (not sustained).
    static func envelope(_ event: EventData, lanes: AHAPLanes) -> [(time: Double, level: Double)] {
        let t = event.time
        let attack = envelopeSeconds(Double(event.value(of: .attackTime)) + lanes.attack.value(at: t))
        let decay = envelopeSeconds(Double(event.value(of: .decayTime)) + lanes.decay.value(at: t))
        let release = envelopeSeconds(Double(event.value(of: .releaseTime)) + lanes.release.value(at: t))
        let duration = event.playedDuration
        if event.isSustained {
            guard duration > 0 else { return [] }
            if attack <= duration { return [(0, 0), (attack, 1), (duration, 1), (duration + release, 0)] }
            let reached = duration / attack
            return [(0, 0), (duration, reached), (duration + release * reached, 0)]
        }
        guard duration > 0 else { return [(0, 0), (attack, 1), (attack + decay, 0)] }
        let boundary = duration - min(0.001, duration / 2)
        if attack >= boundary { return [(0, 0), (boundary, boundary / attack), (duration, 0)] }
        if attack + decay <= boundary { return [(0, 0), (attack, 1), (attack + decay, 0)] }
        return [(0, 0), (attack, 1), (boundary, 1 - (boundary - attack) / decay), (duration, 0)]
    }

    /// The level of `points` at `time` (0 outside them).
    static func level(_ points: [(time: Double, level: Double)], at time: Double) -> Double {
        guard let first = points.first, let last = points.last, time >= first.time, time <= last.time else { return 0 }
        for k in 1..<points.count where time <= points[k].time {
            let (a, b) = (points[k - 1], points[k])
            return b.time > a.time ? a.level + (b.level - a.level) * (time - a.time) / (b.time - a.time) : b.level
        }
        return last.level
    }

    /// The VectorialWave effect of a HapticContinuous event; nil when it never sounds.
    static func continuous(_ event: EventData, lanes: AHAPLanes, target: HJIFTarget) -> HJIFEffect? {
        let envelope = envelope(event, lanes: lanes)
        guard let end = envelope.last?.time, end > 0 else { return nil }
        let start = event.time
        let intensity = Double(event.value(of: .hapticIntensity))
        let sharpness = Double(event.value(of: .hapticSharpness))
        var knots = Set(envelope.map(\.time))
        let clampKnots = lanes.sharpness.crossings(of: [-sharpness, 1 - sharpness])
        for knot in lanes.intensity.knots + lanes.sharpness.knots + clampKnots where knot > start && knot < start + end {
            knots.insert(knot - start)
        }
        func amplitude(_ t: Double, before: Bool) -> Double {
            target.amplitude(intensity * lanes.intensity.value(at: start + t, before: before)) * level(envelope, at: t)
        }
        func frequency(_ t: Double, before: Bool) -> Double {
            target.frequency(sharpness + lanes.sharpness.value(at: start + t, before: before))
        }
        let origin = tick(start)
        func point(_ t: Double, before: Bool) -> Point {
            Point(tick: tick(start + t) - origin, amplitude: amplitude(t, before: before), frequency: frequency(t, before: before))
        }
        var points: [Point] = []
        var previous: Double?
        for t in knots.sorted() {
            if let from = previous {
                // Inside an intensity ramp the amplitude curves (intensity²): straight pieces of equal intensity steps.
                let pieces = IntensityRamps.pieces(
                    from: intensity * lanes.intensity.value(at: start + from), to: intensity * lanes.intensity.value(at: start + t, before: true))
                for k in 1..<max(pieces, 1) {
                    points.append(point(from + (t - from) * Double(k) / Double(pieces), before: false))
                }
            }
            let left = point(t, before: true)
            let right = point(t, before: false)
            if t > 0 && (left.amplitude != right.amplitude || left.frequency != right.frequency) { points.append(left) }
            points.append(t == end ? left : right)
            previous = t
        }
        return HJIFEffect(position: origin, phase: 0, baseSignal: .sine, keyframes: wholeHertz(points))
    }

    /// A keyframe before its frequency is made a whole number of Hz.
    struct Point {
        var tick: Int
        var amplitude: Double
        var frequency: Double
    }

    /// The most ticks between keyframes whose frequencies are dithered.
    static let ditherTicks = 10

    /// Keyframes for `points` with whole-Hz frequencies (HJIF's) that keep the phase: between points at
    /// most `ditherTicks` apart (more are put in where a frequency is not whole), each frequency is the whole
    /// number below or above the exact one that keeps the phase the reference synthesizer accumulates
    /// (π × Δt × (f₀ + f₁)) closest to the exact one, so that overlapping events beat as they do in Thrum.
    static func wholeHertz(_ points: [Point]) -> [HJIFKeyframe] {
        var dense: [Point] = []
        let fractional = points.contains { $0.frequency != $0.frequency.rounded() }
        for (k, point) in points.enumerated() {
            if fractional, k > 0, point.tick - points[k - 1].tick > ditherTicks {
                let from = points[k - 1]
                let steps = (point.tick - from.tick + ditherTicks - 1) / ditherTicks
                for s in 1..<steps {
                    let fraction = Double(s) / Double(steps)
                    dense.append(
                        Point(
                            tick: from.tick + (point.tick - from.tick) * s / steps,
                            amplitude: from.amplitude + (point.amplitude - from.amplitude) * fraction,
                            frequency: from.frequency + (point.frequency - from.frequency) * fraction))
                }
            }
            dense.append(point)
        }
        var keyframes: [HJIFKeyframe] = []
        var exact = 0.0
        var whole = 0.0
        for (k, point) in dense.enumerated() {
            var chosen = Int(point.frequency.rounded())
            if k > 0 {
                let span = Double(point.tick - dense[k - 1].tick) / Double(timescale)
                let before = dense[k - 1]
                exact += span * (before.frequency + point.frequency) / 2
                let last = Double(keyframes[k - 1].frequency ?? 0)
                let down = point.frequency.rounded(.down)
                let up = point.frequency.rounded(.up)
                let phaseDown = whole + span * (last + down) / 2
                let phaseUp = whole + span * (last + up) / 2
                chosen = Int(span > 0 && abs(phaseUp - exact) < abs(phaseDown - exact) ? up : span > 0 ? down : point.frequency.rounded())
                whole += span * (last + Double(chosen)) / 2
            }
            keyframes.append(HJIFKeyframe(position: point.tick, amplitude: Float(point.amplitude), frequency: max(chosen, 0)))
        }
        return keyframes
    }

    /// The VectorialWave effect of a HapticTransient: Thrum's burst, sin² window over the target's transient
    /// length at the frequency of its sharpness, peak (intensity × intensity control)² (the control not
    /// applied to a `.haptic` emphasis), with a keyframe every tick.
    static func transient(_ event: EventData, lanes: AHAPLanes, target: HJIFTarget) -> HJIFEffect {
        let start = event.time
        let origin = tick(start)
        let length = max(tick(start + target.transientDuration) - origin, 2)
        let intensity = Double(event.value(of: .hapticIntensity))
        let frequency = Int(target.frequency(Double(event.value(of: .hapticSharpness))).rounded())
        var keyframes: [HJIFKeyframe] = []
        for k in 0...length {
            let t = Double(k) / Double(length)
            let control = event.ignoresIntensityControl ? 1 : lanes.intensity.value(at: start + t * target.transientDuration)
            let window = sin(Double.pi * t) * sin(Double.pi * t)
            let amplitude = target.amplitude(intensity * control) * window
            keyframes.append(
                HJIFKeyframe(position: k, amplitude: Float(amplitude), frequency: k == 0 || k == length ? frequency : nil))
        }
        return HJIFEffect(position: origin, phase: 0, baseSignal: .sine, keyframes: keyframes)
    }

    /// The tick of `seconds` from the pattern's start.
    static func tick(_ seconds: Double) -> Int { Int((max(seconds, 0) * Double(timescale)).rounded()) }
}
