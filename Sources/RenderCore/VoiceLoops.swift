// The pieces the voices' inner loops are built from, shaped so the compiler runs them several frames at a time
// (SIMD): per-stretch state hoisted into plain values, frame offsets as 32-bit loop indices, no per-frame
// branches but selects. Every value equals the one a frame-by-frame loop computes, bit for bit.
// Render thread only: no allocation, no locks, no libm.

/// `Float(base + i)` for a loop index `i` (0 ≤ i < 2^31, a frame within a block), exactly: a Double holds every
/// integer below 2^53, so the one rounding is the conversion to Float, the same as `Float(Int)`'s. Int64 → Float
/// has no SIMD instruction before AVX-512; Int32 → Double and Double → Float have, so a loop built on this
/// vectorises. (The loops count in Int: a Range<Int32> loop is generic code in a debug build, which allocates.)
@inline(__always)
func exactFloat(_ base: Double, _ i: Int) -> Float { Float(base + Double(Int32(truncatingIfNeeded: i))) }

extension Lane {
    /// `at(frame + i)` for a loop index `i`, with `base = Double(frame − anchor)` (see `exactFloat`).
    @inline(__always)
    func at(base: Double, _ i: Int) -> Float { value + slope * exactFloat(base, i) }
}

/// Working buffers of the voices' per-frame passes, `capacity` floats each (the renderer's `maxBlockFrames`).
/// Allocated once with the renderer. Render thread only.
struct VoiceScratch {
    /// Envelope levels of the frames of a stretch.
    let levels: UnsafeMutablePointer<Float>
    /// Oscillator phases (cycles, 0 ..< 1), or the increments they are accumulated from.
    let phases: UnsafeMutablePointer<Float>
    /// Oscillator increments (cycles per frame), where a pass needs them beside the phases.
    let increments: UnsafeMutablePointer<Float>
    /// Drive amplitudes (the intensity law applied to the intensity control).
    let amplitudes: UnsafeMutablePointer<Float>
    /// The tone's waveform before its low-pass.
    let waveform: UnsafeMutablePointer<Float>
    /// Stop and resume fade gains.
    let fades: UnsafeMutablePointer<Float>
    private static let count = 6

    init(capacity: Int) {
        let all = UnsafeMutablePointer<Float>.allocate(capacity: Self.count * capacity)
        all.initialize(repeating: 0, count: Self.count * capacity)
        levels = all
        phases = all + capacity
        increments = all + 2 * capacity
        amplitudes = all + 3 * capacity
        waveform = all + 4 * capacity
        fades = all + 5 * capacity
    }

    /// Frees the buffers (one allocation, starting at `levels`); the renderer's deinit.
    func deallocate() { levels.deallocate() }
}

/// Writes `value(i)` for the frames `i` in `0 ..< count` of a stretch into `out`: frame by frame when the value
/// `varies`, else once and copied (a control that does not ramp gives every frame the same value, bit for bit).
@inline(__always)
func perFrame(_ out: UnsafeMutablePointer<Float>, count: Int, varies: Bool, _ value: (Int) -> Float) {
    if varies {
        for i in 0..<count { out[i] = value(i) }
    } else if count > 0 {
        out.update(repeating: value(0), count: count)
    }
}

/// Turns `count` oscillator increments (cycles per frame) into the phases of those frames, in place, starting
/// at `phase` and wrapping at 1; returns the phase after them. The one serial pass of an oscillator (each phase
/// depends on the last), kept to an add and a select so the passes that read the phases can be wide.
@inline(__always)
func accumulatePhases(_ steps: UnsafeMutablePointer<Float>, count: Int, from phase: Float) -> Float {
    var ph = phase
    for i in 0..<count {
        let step = steps[i]
        steps[i] = ph
        ph += step
        if ph >= 1 { ph -= 1 }
    }
    return ph
}

extension Voice {
    /// Writes `fade(age + i)` for the frames of a stretch into `out` (1 while neither fade runs).
    @inline(__always)
    func writeFades(count: Int, into out: UnsafeMutablePointer<Float>) {
        let stopBase = Double(age - fadeStart)
        let inBase = Double(age - fadeInStart)
        let (stopSlope, inSlope, inBias) = (fadeSlope, fadeInSlope, fadeInBias)
        perFrame(out, count: count, varies: stopSlope != 0 || inSlope != 0 || inBias != 1) { i in
            (1 - exactFloat(stopBase, i) * stopSlope) * min(inBias + exactFloat(inBase, i) * inSlope, 1)
        }
    }

    /// Writes the drive amplitude A(I × intensity control) (gain `g`) for the frames of a stretch into `out`.
    @inline(__always)
    func writeAmplitudes(
        _ ic: Lane, frame: Int, count: Int, gain g: Float, into out: UnsafeMutablePointer<Float>
    ) {
        let base = Double(frame - ic.anchor)
        let (level, law) = (intensity, square)
        perFrame(out, count: count, varies: ic.slope != 0) { i in
            let ie = min(max(level * ic.at(base: base, i), 0), 1)
            return Voice.amplitude(ie, gain: g, square: law)
        }
    }

    /// Writes the envelope's level at ages `age ..< age + count` into `levels`, a stage at a time (the time
    /// controls move it as in `Envelope.follow`; while they ramp, a frame at a time). Returns how many frames
    /// sound: fewer than `count` when the envelope ends in the stretch (then `end` is set there).
    @inline(__always)
    mutating func envelopeLevels(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, into levels: UnsafeMutablePointer<Float>
    ) -> Int {
        let ramping = timesRamp(lanes)
        var t = times(lanes, at: frame)
        envelope.follow(t, at: age)
        var i = 0
        while i < count {
            let a = age + i
            if ramping {
                t = times(lanes, at: frame + i)
                envelope.follow(t, at: a)
            }
            while a >= envelope.stageEnd && envelope.stage != .done { envelope.advance(at: a, times: t) }
            if envelope.stage == .done {
                end = a
                return i
            }
            // Within a stage the level is one line, `level0 + slope × (a − age0)`.
            let run = ramping ? 1 : min(count - i, envelope.stageEnd - a)
            let level0 = envelope.level0
            let slope = envelope.slope
            let base = Double(a - envelope.age0)
            let out = levels + i
            for j in 0..<run { out[j] = level0 + slope * exactFloat(base, j) }
            i += run
        }
        return count
    }
}
