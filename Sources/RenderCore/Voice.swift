// Voices: the per-event synthesis state and the per-kind inner loops.
// Render thread only. No allocation, no locks, no libm in the loops (sinCycles / fastExp2 instead).

import ThrumModel

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
    /// Haptic voices: the bus (actuator) the voice plays on, and its place among its player's actuators.
    var bus: Int = 0
    var place = PanPlace()
    /// Frames rendered so far; the voice is done when `age == end`. `end` is `.max` while it is not known
    /// yet (an envelope or a file decides it as the voice plays).
    var age: Int = 0
    var end: Int = .max
    /// Engine frame of the onset.
    var onset: Int = 0

    /// The gain envelope (continuous voices) or the start and end ramps (AudioCustom).
    var envelope = Envelope()
    /// The event's AttackTime, DecayTime and ReleaseTime x (0…1); the control lanes `timeLane`,
    /// `timeLane + 1` and `timeLane + 2` add to them (attack, decay, release).
    var attackX: Float = 0
    var decayX: Float = 0
    var releaseX: Float = 0
    var timeLane: Int = ControlLane.hapticAttack.rawValue
    /// Engine sample rate in Hz (envelope times in frames).
    var sampleRate: Double = 48_000
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
    /// Continuous haptic voices: the profile's equaliser by sharpness (`VoiceProfile.equalizer`), or nil.
    /// (A transient's equalisation is in its `gain`: its frequency is fixed at its start.)
    var equalizer: UnsafePointer<Float>? = nil

    // Audio.
    var volume: Float = 1
    var pan: Float = 0
    var pitch: Float = 0
    var brightness: Float = 1
    var lowpass: Float = 0  // one-pole state (left channel of a stereo file)
    var lowpassRight: Float = 0  // one-pole state of a stereo file's right channel
    var lowpassBase: Float = 0  // one-pole coefficient at ≈500 Hz
    var inverseRate: Float = 0
    var harmonicLimit: Float = 0.45  // highest allowed cycles per frame for a partial

    /// Signal voices: the channel's weight on this bus (`HapticSignal.weight(onPlace:of:)`).
    var signalWeight: Float = 1

    // AudioCustom and signal voices (see CustomVoice.swift, SignalVoice.swift).
    var samples: UnsafePointer<Float>? = nil
    var channels: Int = 1
    var fileFrames: Int = 0
    /// Read position in the file: frame `position` plus `fraction` (0 ..< 1) of the next.
    var position: Int = 0
    var fraction: Double = 0
    var loop: Bool = false
    var useEnvelope: Bool = true
    /// EventDuration in frames at the player's rate (0 = none): the voice ends there.
    var durationFrames: Int = 0
    /// Whether the event gives AttackTime / ReleaseTime (its ramps then follow t(x) and the time controls).
    var attackGiven = false
    var releaseGiven = false
    /// The de-click ramp before the file's natural end, in file frames (0 = none).
    var endRamp: Int = 0
    /// The de-click ramp before an end the file does not reach by itself (EventDuration), in frames.
    var cutRamp: Int = 1
    /// The longest ramp at either end: half the frames the voice plays (at its starting speed).
    var rampLimit: Int = .max

    /// The envelope times in frames at engine frame `frame`: the event's x plus the time lanes, as t(x).
    @inline(__always)
    func times(_ lanes: UnsafePointer<Lane>, at frame: Int) -> EnvelopeFrames {
        EnvelopeFrames(
            attack: EnvelopeFrames.frames(attackX + lanes[timeLane].at(frame), sampleRate: sampleRate),
            decay: EnvelopeFrames.frames(decayX + lanes[timeLane + 1].at(frame), sampleRate: sampleRate),
            release: EnvelopeFrames.frames(releaseX + lanes[timeLane + 2].at(frame), sampleRate: sampleRate))
    }

    /// Whether a time lane ramps (then the times are read at every frame, not once per stretch).
    @inline(__always)
    func timesRamp(_ lanes: UnsafePointer<Lane>) -> Bool {
        lanes[timeLane].slope != 0 || lanes[timeLane + 1].slope != 0 || lanes[timeLane + 2].slope != 0
    }

    /// The intensity law (docs/decisions.md: A = gain × I² by default, or gain × I): the drive amplitude for
    /// effective intensity `ie` (0…1) and gain `g` (0…1, the mute scale included), as
    /// g × ie × (square × ie + 1 − square), exact for `square` 1 (g × ie²) and 0 (g × ie).
    @inline(__always)
    static func amplitude(_ ie: Float, gain g: Float, square: Float) -> Float { g * ie * (square * ie + (1 - square)) }

    @inline(__always)
    func fade(_ a: Int) -> Float {
        (1 - Float(a - fadeStart) * fadeSlope) * min(fadeInBias + Float(a - fadeInStart) * fadeInSlope, 1)
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
    // Each kind renders in passes over the stretch (see VoiceLoops.swift): the serial ones (the oscillator's
    // phase, the tone's low-pass) hold a few operations a frame, the rest runs several frames at a time.

    /// The panning weight of this haptic voice's bus at engine frame `frame` for the player's panned axes
    /// `axes` (1 without panning).
    @inline(__always)
    func panWeight(_ lanes: UnsafePointer<Lane>, axes: UInt8, at frame: Int) -> Float {
        guard axes != 0 else { return 1 }
        return place.weight(
            x: lanes[ControlLane.hapticPanX.rawValue].at(frame), y: lanes[ControlLane.hapticPanY.rawValue].at(frame),
            axes: axes)
    }

    /// Whether a panned axis ramps in this stretch (then the weight is evaluated at every frame).
    @inline(__always)
    static func panRamps(_ lanes: UnsafePointer<Lane>, axes: UInt8) -> Bool {
        (axes & 1 != 0 && lanes[ControlLane.hapticPanX.rawValue].slope != 0)
            || (axes & 2 != 0 && lanes[ControlLane.hapticPanY.rawValue].slope != 0)
    }

    /// Multiplies the drive amplitudes of the `count` frames from engine frame `frame` by the panning weight
    /// of this voice's bus; without panning (`axes` 0) leaves them untouched, so an unpanned voice renders
    /// bit-identically.
    @inline(__always)
    func applyPan(
        _ lanes: UnsafePointer<Lane>, axes: UInt8, frame: Int, count: Int, to amplitudes: UnsafeMutablePointer<Float>
    ) {
        guard axes != 0 else { return }
        if Self.panRamps(lanes, axes: axes) {
            for i in 0..<count { amplitudes[i] *= panWeight(lanes, axes: axes, at: frame + i) }
        } else {
            let w = panWeight(lanes, axes: axes, at: frame)
            for i in 0..<count { amplitudes[i] *= w }
        }
    }

    /// HapticTransient: windowed sine burst; peak = A(I × intensity control), or A(I) when it ignores the control,
    /// × the panning weight.
    @inline(__always)
    mutating func renderTransient(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, out: UnsafeMutablePointer<Float>, gainScale: Float,
        panAxes: UInt8, scratch: VoiceScratch
    ) {
        let ic =
            ignoresIntensityControl ? Lane(value: 1, slope: 0, anchor: 0) : lanes[ControlLane.hapticIntensity.rawValue]
        let (phases, amplitudes, fades) = (scratch.phases, scratch.amplitudes, scratch.fades)
        writeAmplitudes(ic, frame: frame, count: count, gain: gain * gainScale, into: amplitudes)
        applyPan(lanes, axes: panAxes, frame: frame, count: count, to: amplitudes)
        writeFades(count: count, into: fades)
        phases.update(repeating: increment, count: count)
        phase = accumulatePhases(phases, count: count, from: phase)
        let ageBase = Double(age)
        let windowScale = windowScale
        for i in 0..<count {
            let w = sinCycles(exactFloat(ageBase, i) * windowScale)
            out[i] += amplitudes[i] * (w * w) * fades[i] * sinCycles(phases[i])
        }
        age += count
    }

    /// HapticContinuous: oscillator at f(S + sharpness control), amplitude A(I × intensity control) × envelope
    /// × the panning weight. Stops early (sets `end`) when the envelope is done.
    @inline(__always)
    mutating func renderContinuous(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, out: UnsafeMutablePointer<Float>, gainScale: Float,
        panAxes: UInt8, scratch: VoiceScratch
    ) {
        let (levels, phases, amplitudes, fades) = (scratch.levels, scratch.phases, scratch.amplitudes, scratch.fades)
        let rendered = envelopeLevels(frame: frame, count: count, lanes: lanes, into: levels)
        let ic = lanes[ControlLane.hapticIntensity.rawValue]
        let sc = lanes[ControlLane.hapticSharpness.rawValue]
        writeAmplitudes(ic, frame: frame, count: rendered, gain: gain * gainScale, into: amplitudes)
        applyPan(lanes, axes: panAxes, frame: frame, count: rendered, to: amplitudes)
        writeFades(count: rendered, into: fades)
        // The frequency f(S + sharpness control) as an increment a frame, then the phases.
        let scBase = Double(frame - sc.anchor)
        let (s0, low, span) = (sharpness, incrementLow, incrementSpan)
        perFrame(phases, count: rendered, varies: sc.slope != 0) { i in
            low + min(max(s0 + sc.at(base: scBase, i), 0), 1) * span
        }
        phase = accumulatePhases(phases, count: rendered, from: phase)
        if let equalizer {
            // The drive's gain at each frame's frequency (the profile's equalisation).
            let gains = scratch.increments
            perFrame(gains, count: rendered, varies: sc.slope != 0) { i in
                equalizerGain(equalizer, sharpness: s0 + sc.at(base: scBase, i))
            }
            for i in 0..<rendered { amplitudes[i] *= gains[i] }
        }
        for i in 0..<rendered {
            out[i] += amplitudes[i] * levels[i] * fades[i] * sinCycles(phases[i])
        }
        age += rendered
    }

    /// AudioContinuous: 440 Hz × 2^pitch band-limited tone, one-pole low-pass, constant-power pan, envelope.
    /// Stops early (sets `end`) when the envelope is done.
    @inline(__always)
    mutating func renderTone(
        frame: Int, count: Int, lanes: UnsafePointer<Lane>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, gainScale: Float, scratch: VoiceScratch
    ) {
        let vc = lanes[ControlLane.audioVolume.rawValue]
        let pc = lanes[ControlLane.audioPitch.rawValue]
        let bc = lanes[ControlLane.audioBrightness.rawValue]
        let panc = lanes[ControlLane.audioPan.rawValue]
        let levels = scratch.levels
        let rendered = envelopeLevels(frame: frame, count: count, lanes: lanes, into: levels)
        let voice = self
        // The frequency 440 Hz × 2^(pitch + control) as an increment a frame, then the phases.
        let (increments, phases) = (scratch.increments, scratch.phases)
        let baseIncrement = 440 * inverseRate
        perFrame(increments, count: rendered, varies: pc.slope != 0) { i in
            baseIncrement * fastExp2(min(max(voice.pitch + pc.at(frame + i), -1), 1))
        }
        phases.update(from: increments, count: rendered)
        phase = accumulatePhases(phases, count: rendered, from: phase)
        // Partials k = 1…4 with weight 1/k, each only while below the harmonic limit: sin kθ from sin θ and
        // cos θ by the multiple-angle identities (within 4e-7 of a sinCycles per partial, at half the cost).
        let waveform = scratch.waveform
        let limit = harmonicLimit
        for i in 0..<rendered {
            let ph = phases[i]
            let inc = increments[i]
            let s1 = sinCycles(ph)
            let c1 = sinCycles(ph + 0.25)
            let s2 = 2 * s1 * c1
            let c2 = 1 - 2 * s1 * s1
            let s3 = s1 * (2 * c2 + 1)
            let s4 = 2 * s2 * c2
            var x = s1
            x += (2 * inc < limit ? toneWeight2 : 0) * s2
            x += (3 * inc < limit ? toneWeight3 : 0) * s3
            x += (4 * inc < limit ? toneWeight4 : 0) * s4
            waveform[i] = x * toneNormalisation
        }
        let fades = scratch.fades
        writeFades(count: rendered, into: fades)
        // The low-pass (serial), volume, brightness and pan; controls that do not ramp in this stretch are
        // evaluated once.
        let constant = vc.slope == 0 && bc.slope == 0 && panc.slope == 0
        var y = lowpass
        var vol: Float = 0
        var coefficient: Float = 0
        var gains = (left: Float(0), right: Float(0))
        for i in 0..<rendered {
            if i == 0 || !constant {
                let f = frame + i
                vol = min(max(voice.volume * vc.at(f), 0), 1)
                let b = min(max(voice.brightness + bc.at(f), 0), 1)
                coefficient = voice.lowpassBase + (1 - voice.lowpassBase) * (b * b)
                gains = panGains(min(max(voice.pan + panc.at(f), -1), 1))
            }
            y += coefficient * (waveform[i] - y)
            let s = y * vol * levels[i] * fades[i] * gainScale
            left[i] += s * gains.left
            right[i] += s * gains.right
        }
        lowpass = y
        age += rendered
    }
}

/// Constant-power gains (left, right) for a pan position −1…1: cos and sin of (position + 1) × π/4, exactly
/// (1, 0) at −1 and (0, 1) at +1.
@inline(__always)
func panGains(_ position: Float) -> (left: Float, right: Float) {
    if position <= -1 { return (1, 0) }
    if position >= 1 { return (0, 1) }
    let q = (position + 1) * 0.125
    return (sinCycles(q + 0.25), sinCycles(q))
}
