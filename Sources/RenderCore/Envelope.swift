// The gain envelope of a voice, evaluated stage by stage while it plays, so that the time controls act on
// events already sounding (docs/decisions.md: "Attack/Decay/Release time controls act on events already playing").
// Render thread only: plain arithmetic on a value, no allocation.

/// A piecewise-linear envelope: attack 0 → 1, then hold (sustained) or decay (not sustained), and a fall to 0.
///
/// Each stage is one segment, `level(a) = level0 + slope × (a − age0)` for voice ages `a` (frames from the
/// onset) up to `stageEnd`, where the next stage begins. Rates, not end points, come from the envelope times:
/// an attack rises by 1 / t(x) per frame, a decay or release falls by (its start level) / t(x) per frame, with
/// t(x) in frames. When a time control changes t(x) while its stage runs (`follow`), the segment restarts at the
/// current level with the new rate, so the level never jumps.
///
/// Sustained: attack, hold until `holdEnd` (EventDuration), release. An attack still running at `holdEnd` is
/// released from the level it reached. Not sustained: attack, then decay to 0; with an EventDuration
/// (`holdEnd` > 0) a decay still running `cutFrames` before it is cut by a linear ramp that reaches 0 at
/// `holdEnd` (the decay keeps its t(x) slope up to there: docs/decisions.md).
/// - Important: Thread safety: a value, owned by the render thread. Real-time safe: yes.
struct Envelope: BitwiseCopyable {
    enum Stage: UInt8, BitwiseCopyable {
        case attack, hold, decay, release, cut, done
    }

    var stage: Stage = .hold
    /// The running segment: level `level0` at age `age0`, `slope` per frame; it reaches its target (1 for an
    /// attack, 0 for a fall) at age `targetEnd`, and the next stage begins at `stageEnd` (≤ `targetEnd`).
    var level0: Float = 1
    var age0: Int = 0
    var slope: Float = 0
    var targetEnd: Int = .max
    var stageEnd: Int = .max
    /// The envelope time (frames) the running attack, decay or release was timed with.
    var stageFrames: Int = 0
    /// The level the running decay or release fell from (its rate is fallFrom / stageFrames per frame).
    var fallFrom: Float = 1
    /// Attack-hold-release (true) or attack-decay (false).
    var sustained: Bool = true
    /// Sustained: the age at which the release begins (`.max` = none). Not sustained: the age at which
    /// the event ends (EventDuration; `.max` = none).
    var holdEnd: Int = .max
    /// Not sustained: the length of the cut that ends a decay at `holdEnd`.
    var cutFrames: Int = 1

    /// The level at age `a` (within the running stage).
    @inline(__always)
    func level(_ a: Int) -> Float { level0 + slope * Float(a - age0) }

    /// A flat envelope at 1 (no ramps): the envelope of a voice without one.
    init() {}

    /// An envelope starting at age 0.
    /// - Parameters:
    ///   - attack: attack length in frames (0 = start at full level).
    ///   - sustained: attack-hold-release or attack-decay.
    ///   - duration: EventDuration in frames (0 = none; a sustained event then releases at once).
    ///   - cutFrames: the ramp that ends a non-sustained event at `duration` (at most half of it is used).
    init(attack: Int, sustained: Bool, duration: Int, cutFrames: Int) {
        self.sustained = sustained
        if sustained {
            holdEnd = duration
        } else {
            holdEnd = duration > 0 ? duration : .max
            self.cutFrames = max(1, min(cutFrames, duration / 2))
        }
        if attack > 0 {
            stage = .attack
            level0 = 0
            stageFrames = attack
            slope = 1 / Float(attack)
            targetEnd = attack
            stageEnd = min(attack, boundary)
        } else {
            stageEnd = sustained ? holdEnd : .max
        }
    }

    /// The age at which an attack or decay gives way to the release (sustained) or the cut.
    private var boundary: Int {
        if sustained { return holdEnd }
        return holdEnd == .max ? .max : holdEnd - cutFrames
    }

    /// Starts a fall to 0 at age `a` from `level`, over `frames` frames (≥ 1); done at once from level 0.
    mutating func fall(_ next: Stage, at a: Int, from level: Float, frames: Int) {
        guard level > 0 else {
            stage = .done
            stageEnd = a
            return
        }
        stage = next
        stageFrames = frames
        fallFrom = level
        level0 = level
        age0 = a
        targetEnd = a + max(frames, 1)
        stageEnd = targetEnd
        slope = -level / Float(targetEnd - a)
    }

    /// Moves to the next stage at age `a` (= `stageEnd`); `times` are the envelope times in force there.
    mutating func advance(at a: Int, times: EnvelopeFrames) {
        let target: Float = stage == .attack ? 1 : 0
        let now = a >= targetEnd ? target : level(a)
        switch stage {
        case .attack, .hold:
            if sustained && a >= holdEnd {
                fall(.release, at: a, from: now, frames: times.release)
            } else if sustained {
                stage = .hold
                level0 = 1
                slope = 0
                targetEnd = .max
                stageEnd = holdEnd
            } else if a >= boundary {
                fall(.cut, at: a, from: now, frames: holdEnd - a)
            } else {
                fall(.decay, at: a, from: now, frames: times.decay)
                stageEnd = min(targetEnd, boundary)
            }
        case .decay where a < targetEnd:
            fall(.cut, at: a, from: now, frames: holdEnd - a)
        case .decay, .release, .cut, .done:
            stage = .done
            stageEnd = a
        }
    }

    /// Follows a change of the envelope times at age `a`: a running attack, decay or release whose time
    /// changed continues from its current level at the new rate.
    mutating func follow(_ times: EnvelopeFrames, at a: Int) {
        let frames: Int
        switch stage {
        case .attack: frames = times.attack
        case .decay: frames = times.decay
        case .release: frames = times.release
        case .hold, .cut, .done: return
        }
        guard frames != stageFrames, a < stageEnd else { return }
        let now = level(a)
        // The frames left at the new rate: an attack rises 1 per `frames`, a fall drops fallFrom per `frames`.
        let left = stage == .attack ? (1 - now) * Float(frames) : now / fallFrom * Float(frames)
        let target: Float = stage == .attack ? 1 : 0
        stageFrames = frames
        level0 = now
        age0 = a
        targetEnd = a + max(1, Int(left.rounded()))
        slope = (target - now) / Float(targetEnd - a)
        stageEnd = stage == .release ? targetEnd : min(targetEnd, boundary)
    }
}
