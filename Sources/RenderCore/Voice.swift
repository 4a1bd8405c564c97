// Voices: the per-event synthesis state and the per-kind inner loops.
// Render thread only. No allocation, no locks, no libm in the loops (sinCycles / fastExp2 instead).

/// The current value of one control lane: `value + slope × (frame − anchor)`.
/// Evaluated from the absolute frame, so the result does not depend on how blocks are split.
struct Lane: BitwiseCopyable {
    var value: Float
    var slope: Float
    var anchor: Int

    @inline(__always)
    func at(_ frame: Int) -> Float { value + slope * Float(frame - anchor) }
}

/// One sounding event. A plain struct in a fixed pool; `kind` is switched in the render loop.
struct Voice: BitwiseCopyable {
    var kind: VoiceKind = .transient
    /// Player slot the voice belongs to (its control lanes and mute flag).
    var player: Int = 0
    /// Frames rendered so far; the voice is done when `age == end`.
    var age: Int = 0
    var end: Int = 0
    /// Engine frame of the onset.
    var onset: Int = 0

    // Envelope: ramp 0→peak over [0, b1), hold peak over [b1, b2), fall to 0 over [b2, end).
    var b1: Int = 0
    var b2: Int = 0
    var peak: Float = 0
    var attackSlope: Float = 0
    var fallSlope: Float = 0
    // Stop fade: gain 1 − (age − fadeStart) × fadeSlope; fadeSlope 0 while not stopping.
    var fadeStart: Int = 0
    var fadeSlope: Float = 0
    // Resume fade-in: gain min(fadeInBias + (age − fadeInStart) × fadeInSlope, 1); exactly 1 when unused
    // (bias 1, slope 0), so a voice that never resumed renders exactly as if the fade-in did not exist.
    var fadeInStart: Int = 0
    var fadeInSlope: Float = 0
    var fadeInBias: Float = 1

    // Oscillator.
    var phase: Float = 0
    var increment: Float = 0  // transient: cycles per frame
    var incrementLow: Float = 0  // continuous: fLow / rate
    var incrementSpan: Float = 0  // continuous: (fHigh − fLow) / rate
    var windowScale: Float = 0  // transient: 0.5 / length
    var intensity: Float = 0
    /// Transient only: the player's intensity control does not scale it (a `.haptic` emphasis).
    var ignoresIntensityControl = false
    var sharpness: Float = 0
    var gain: Float = 0
    var square: Float = 1  // intensity law: 1 = square (A = g × I²), 0 = linear (A = g × I); see `amplitude`

    // Audio.
    var volume: Float = 1
    var pan: Float = 0
    var pitch: Float = 0
    var brightness: Float = 1
    var lowpass: Float = 0
    var lowpassBase: Float = 0  // one-pole coefficient at ≈500 Hz
    var inverseRate: Float = 0
    var harmonicLimit: Float = 0.45  // highest allowed cycles per frame for a partial
    var samples: UnsafePointer<Float>? = nil
    var channels: Int = 1
    var fileFrames: Int = 0
    var position: Int = 0
    var loop: Bool = false
    var useEnvelope: Bool = true
    var inverseFade: Float = 0
    var playFrames: Int = 0

    @inline(__always)
    func envelope(_ a: Int) -> Float {
        if a < b1 { return Float(a) * attackSlope }
        if a < b2 { return peak }
        return peak - Float(a - b2) * fallSlope
    }

    /// The intensity law (DECISIONS: A = gain × I² by default, or gain × I): the drive amplitude for
    /// effective intensity `ie` (0…1) and gain `g` (0…1, the mute scale included), as
    /// g × ie × (square × ie + 1 − square), exact for `square` 1 (g × ie²) and 0 (g × ie).
    @inline(__always)
    func amplitude(_ ie: Float, gain g: Float) -> Float { g * ie * (square * ie + (1 - square)) }

    @inline(__always)
    func fade(_ a: Int) -> Float {
        (1 - Float(a - fadeStart) * fadeSlope) * min(fadeInBias + Float(a - fadeInStart) * fadeInSlope, 1)
    }

    /// Sets the envelope breakpoints. `duration` in frames (0 = none), `sustained` picks AR or AD.
    mutating func setEnvelope(attack: Int, decay: Int, release: Int, duration: Int, sustained: Bool) {
        attackSlope = 1 / Float(attack)
        if sustained {
            b1 = min(attack, duration)
            b2 = duration
            end = duration + release
        } else {
            let natural = attack + decay
            let stop = duration > 0 ? min(natural, duration) : natural
            b1 = min(attack, stop)
            b2 = b1
            end = stop
        }
        peak = b1 >= attack ? 1 : Float(b1) * attackSlope
        fallSlope = end > b2 ? peak / Float(end - b2) : 0
    }

    /// Starts a stop fade of `frames` at the current age (no-op if already fading).
    mutating func beginFade(frames: Int) {
        guard fadeSlope == 0, age < end else { return }
        fadeStart = age
        fadeSlope = 1 / Float(frames)
        end = min(end, age + frames)
    }

    /// Starts a linear fade-in of `frames` at the current age (used when a paused voice resumes):
    /// gain 0 at the first resumed frame, 1 after `frames`.
    mutating func beginFadeIn(frames: Int) {
        fadeInStart = age
        fadeInSlope = 1 / Float(frames)
        fadeInBias = 0
    }
}

/// Harmonic weights of the tone (1/k: a band-limited sawtooth), normalised to a peak below 1.
private let toneWeight2: Float = 0.5
private let toneWeight3: Float = 1.0 / 3
private let toneWeight4: Float = 0.25
private let toneNormalisation: Float = 1 / 1.85

extension Voice {
    /// HapticTransient: windowed sine burst; peak = A(I × intensity control), or A(I) when it ignores the control.
    @inline(__always)
    mutating func renderTransient(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, out: UnsafeMutablePointer<Float>, gainScale: Float
    ) {
        let ic =
            ignoresIntensityControl ? Lane(value: 1, slope: 0, anchor: 0) : lanes[ControlLane.hapticIntensity.rawValue]
        var ph = phase
        let g = gain * gainScale
        for i in 0..<count {
            let a = age + i
            let ie = min(max(intensity * ic.at(frame + i), 0), 1)
            let amp = amplitude(ie, gain: g)
            let w = sinCycles(Float(a) * windowScale)
            out[i] += amp * (w * w) * fade(a) * sinCycles(ph)
            ph += increment
            if ph >= 1 { ph -= 1 }
        }
        phase = ph
        age += count
    }

    /// HapticContinuous: oscillator at f(S + sharpness control), amplitude A(I × intensity control) × envelope.
    @inline(__always)
    mutating func renderContinuous(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, out: UnsafeMutablePointer<Float>, gainScale: Float
    ) {
        let ic = lanes[ControlLane.hapticIntensity.rawValue]
        let sc = lanes[ControlLane.hapticSharpness.rawValue]
        var ph = phase
        let g = gain * gainScale
        let constant = ic.slope == 0 && sc.slope == 0  // then evaluated once, bit-identically
        var amp: Float = 0
        var inc: Float = 0
        for i in 0..<count {
            let a = age + i
            if i == 0 || !constant {
                let f = frame + i
                let ie = min(max(intensity * ic.at(f), 0), 1)
                amp = amplitude(ie, gain: g)
                let s = min(max(sharpness + sc.at(f), 0), 1)
                inc = incrementLow + s * incrementSpan
            }
            out[i] += amp * envelope(a) * fade(a) * sinCycles(ph)
            ph += inc
            if ph >= 1 { ph -= 1 }
        }
        phase = ph
        age += count
    }

    /// AudioContinuous: 440 Hz × 2^pitch band-limited tone, one-pole low-pass, constant-power pan.
    @inline(__always)
    mutating func renderTone(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, gainScale: Float
    ) {
        let vc = lanes[ControlLane.audioVolume.rawValue]
        let pc = lanes[ControlLane.audioPitch.rawValue]
        let bc = lanes[ControlLane.audioBrightness.rawValue]
        let panc = lanes[ControlLane.audioPan.rawValue]
        var ph = phase
        var y = lowpass
        let baseIncrement = 440 * inverseRate
        // Controls that do not ramp in this stretch are evaluated once (the same arithmetic, so the
        // output is bit-identical to evaluating them every frame).
        let constant = vc.slope == 0 && pc.slope == 0 && bc.slope == 0 && panc.slope == 0
        var vol: Float = 0
        var inc: Float = 0
        var coefficient: Float = 0
        var gl: Float = 0
        var gr: Float = 0
        for i in 0..<count {
            let a = age + i
            if i == 0 || !constant {
                let f = frame + i
                vol = min(max(volume * vc.at(f), 0), 1)
                let p = min(max(pitch + pc.at(f), -1), 1)
                inc = baseIncrement * fastExp2(p)
                let b = min(max(brightness + bc.at(f), 0), 1)
                coefficient = lowpassBase + (1 - lowpassBase) * (b * b)
                let q = (min(max(pan + panc.at(f), -1), 1) + 1) * 0.125
                gl = sinCycles(q + 0.25)
                gr = sinCycles(q)
            }
            // Partials k = 1…4 with weight 1/k, each only while below the harmonic limit.
            let p2 = ph * 2 - Float(Int(ph * 2))
            let p3 = ph * 3 - Float(Int(ph * 3))
            let p4 = ph * 4 - Float(Int(ph * 4))
            var x = sinCycles(ph)
            x += (2 * inc < harmonicLimit ? toneWeight2 : 0) * sinCycles(p2)
            x += (3 * inc < harmonicLimit ? toneWeight3 : 0) * sinCycles(p3)
            x += (4 * inc < harmonicLimit ? toneWeight4 : 0) * sinCycles(p4)
            x *= toneNormalisation
            y += coefficient * (x - y)
            let s = y * vol * envelope(a) * fade(a) * gainScale
            left[i] += s * gl
            right[i] += s * gr
            ph += inc
            if ph >= 1 { ph -= 1 }
        }
        phase = ph
        lowpass = y
        age += count
    }

    /// AudioCustom: plays the buffer at natural speed (looping if asked), with optional short fades.
    @inline(__always)
    mutating func renderCustom(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, gainScale: Float
    ) {
        guard let data = samples else {
            age += count
            return
        }
        let vc = lanes[ControlLane.audioVolume.rawValue]
        let panc = lanes[ControlLane.audioPan.rawValue]
        var pos = position
        let fadeScale = inverseFade
        let enveloped = useEnvelope
        let playEnd = playFrames
        for i in 0..<count {
            let a = age + i
            let f = frame + i
            let vol = min(max(volume * vc.at(f), 0), 1)
            let pn = min(max(pan + panc.at(f), -1), 1)
            let envelopeGain = enveloped ? min(min(Float(a) * fadeScale, Float(playEnd - a) * fadeScale), 1) : 1
            let g = vol * envelopeGain * fade(a) * gainScale
            if channels == 1 {
                let q = (pn + 1) * 0.125
                let s = data[pos] * g
                left[i] += s * sinCycles(q + 0.25)
                right[i] += s * sinCycles(q)
            } else {
                // Stereo files: balance (centre leaves both channels untouched).
                left[i] += data[2 &* pos] * g * min(1 - pn, 1)
                right[i] += data[2 &* pos &+ 1] * g * min(1 + pn, 1)
            }
            pos += 1
            if pos >= fileFrames { pos = loop ? 0 : fileFrames - 1 }
        }
        position = pos
        age += count
    }
}
