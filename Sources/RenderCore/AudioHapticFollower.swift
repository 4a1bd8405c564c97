import AudioAnalysis

/// Haptics derived from the audio buses on the render thread ("haptics from audio"): the streaming
/// detector of `AudioAnalysis` follows the mixed audio, and its level, sharpness and onsets drive a
/// continuous oscillator and transient bursts in each actuator's band, added to its haptic bus (one
/// detector; one synthesis per actuator, `FollowerSynth`).
///
/// - Continuous: a sine at f = fLow + sharpness × (fHigh − fLow) of the profile, amplitude
///   gain × law(intensity), intensity = √(level relative to full scale, with the settings' gain and floor)
///   — the offline analysis's mapping with full scale as the reference (live audio has no known peak).
///   Amplitude and frequency glide linearly over each 0.5 ms control tick to the tick's values.
/// - Each onset starts a burst at the frequency of the onset's sharpness under the renderer's transient
///   window (sin², the profile's transient length), whose peak follows the sound's peak magnitude since
///   the onset through the same mapping (a click is short: its RMS level barely moves, its peak does).
/// A tick's values apply from the frame after the tick ends, so the output at a frame depends only on the
/// audio before it: blocks of any size give the same samples. The follower sleeps while the audio is
/// exactly silent and starts afresh (detector reset, frame 0) at its first non-zero sample; it falls
/// asleep again after a second of silence, when its output has long been exactly 0. So its output depends
/// only on the sound since it last began, not on when the engine started: `play`, whose pattern starts
/// some periods after the engine, equals `render` bit for bit.
/// - Important: Thread safety: one thread at a time (the render thread). Real-time safe: `process` yes
///   (fixed buffers, no allocation, locks or libm); `init`/`deinit` no.
final class AudioHapticFollower {
    private let detector: AudioFeatureDetector
    private let map: LevelMap
    /// Ticks completed in the current block (at most maxBlockFrames / tickFrames + 1).
    private let ticks: UnsafeMutablePointer<DetectorTick>
    private let tickCapacity: Int
    private let tickFrames: Int
    /// One synthesis per haptic bus, in bus order.
    private let synths: UnsafeMutablePointer<FollowerSynth>
    private let busCount: Int
    private var awake = false
    /// Consecutive silent input frames while awake, and how many put the follower to sleep (1 s).
    private var silentRun = 0
    private let sleepFrames: Int

    /// - Parameters:
    ///   - settings: the analysis settings (band, envelope times, onset sensitivity, gain, floor).
    ///   - profiles: the actuators (band, law, gain, transient length), one per haptic bus.
    ///   - sampleRate: the engine rate in Hz.
    ///   - maxBlockFrames: the largest block `process` is given.
    init(settings: AnalysisSettings, profiles: [ActuatorProfile], sampleRate: Double, maxBlockFrames: Int) {
        detector = AudioFeatureDetector(sampleRate: sampleRate, settings: settings)
        map = LevelMap(settings: settings, reference: 1)
        tickFrames = detector.tickFrames
        tickCapacity = maxBlockFrames / tickFrames + 2
        ticks = .allocate(capacity: tickCapacity)
        ticks.initialize(
            repeating: DetectorTick(frame: 0, level: 0, peak: 0, sharpness: 0, onset: nil, settledSharpness: nil),
            count: tickCapacity)
        busCount = profiles.count
        synths = .allocate(capacity: busCount)
        synths.initialize(from: profiles.map { FollowerSynth(profile: $0, sampleRate: sampleRate) }, count: busCount)
        sleepFrames = Int(sampleRate.rounded())
    }

    deinit {
        ticks.deinitialize(count: tickCapacity)
        ticks.deallocate()
        synths.deinitialize(count: busCount)
        synths.deallocate()
    }

    /// Adds `frameCount` frames derived from the audio buses to each haptic bus (before its limiter), bus b
    /// at `haptics + b × hapticStride`; when `muted`, follows the audio without adding anything (a muted
    /// output picks up where it would be when it is unmuted).
    func process(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>, haptics: UnsafeMutablePointer<Float>,
        hapticStride: Int, frameCount: Int, muted: Bool
    ) {
        var first = 0
        if !awake {
            while first < frameCount && left[first] == 0 && right[first] == 0 { first += 1 }
            guard first < frameCount else { return }
            wake()
        }
        var silent = 0
        while silent < frameCount && left[frameCount - 1 - silent] == 0 && right[frameCount - 1 - silent] == 0 {
            silent += 1
        }
        silentRun = silent == frameCount ? silentRun + silent : silent
        follow(
            left: left + first, right: right + first, haptics: haptics + first, hapticStride: hapticStride,
            frameCount: frameCount - first, muted: muted)
        if silentRun >= sleepFrames { awake = false }
    }

    /// Starts over: a fresh detector and silent oscillators.
    private func wake() {
        detector.reset()
        awake = true
        silentRun = 0
        for bus in 0..<busCount { synths[bus].reset() }
    }

    /// The detector and the synthesis over frames the follower is awake for.
    private func follow(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>, haptics: UnsafeMutablePointer<Float>,
        hapticStride: Int, frameCount: Int, muted: Bool
    ) {
        let start = detector.frame
        var count = 0
        detector.process(left: left, right: right, frameCount: frameCount) { tick in
            guard count < tickCapacity else { return }  // cannot happen for blocks up to maxBlockFrames
            ticks[count] = tick
            count += 1
        }
        var next = 0
        for i in 0..<frameCount {
            // A tick that ended at this frame applies from it on.
            while next < count && ticks[next].frame - start <= i {
                apply(ticks[next])
                next += 1
            }
            for bus in 0..<busCount {
                let y = synths[bus].next()
                if !muted { haptics[bus * hapticStride + i] += y }
            }
        }
        // Ticks that ended with the block apply from the next block's first frame.
        while next < count {
            apply(ticks[next])
            next += 1
        }
    }

    /// Starts each synthesis's glide to a tick's level and sharpness, and a burst at its onset.
    private func apply(_ tick: DetectorTick) {
        let intensity = map.intensity(tick.level)
        let peakIntensity = map.intensity(tick.peak)
        for bus in 0..<busCount {
            synths[bus].apply(tick, intensity: intensity, peakIntensity: peakIntensity, tickFrames: tickFrames)
        }
    }
}

/// The follower's oscillator and burst for one actuator: a sine whose amplitude and frequency glide to each
/// tick's values, and a windowed burst at each onset, in the actuator's band and law.
/// - Important: Thread safety: a value, owned by the follower. Real-time safe: yes.
struct FollowerSynth: BitwiseCopyable {
    private let lowIncrement: Float
    private let spanIncrement: Float
    private let gain: Float
    private let squareLaw: Bool
    private let burstFrames: Int
    private let windowScale: Float

    private var amplitude: Float = 0
    private var amplitudeTarget: Float = 0
    private var amplitudeStep: Float = 0
    private var increment: Float
    private var incrementTarget: Float
    private var incrementStep: Float = 0
    private var glideLeft = 0
    private var phase: Float = 0
    private var burstAge = Int.max
    private var burstPeak: Float = 0
    private var burstIncrement: Float = 0
    private var burstPhase: Float = 0

    init(profile: ActuatorProfile, sampleRate: Double) {
        lowIncrement = Float(profile.lowFrequency / sampleRate)
        spanIncrement = Float((profile.highFrequency - profile.lowFrequency) / sampleRate)
        gain = Float(profile.gain)
        squareLaw = profile.law == .square
        burstFrames = max(1, Int((profile.transientDuration * sampleRate).rounded()))
        windowScale = 0.5 / Float(burstFrames)
        increment = lowIncrement + 0.5 * spanIncrement
        incrementTarget = increment
    }

    /// A silent oscillator at mid-band, no burst.
    mutating func reset() {
        amplitude = 0
        amplitudeTarget = 0
        increment = lowIncrement + 0.5 * spanIncrement
        incrementTarget = increment
        glideLeft = 0
        phase = 0
        burstAge = Int.max
    }

    /// The next output sample.
    @inline(__always)
    mutating func next() -> Float {
        if glideLeft > 0 {
            glideLeft -= 1
            amplitude = glideLeft == 0 ? amplitudeTarget : amplitude + amplitudeStep
            increment = glideLeft == 0 ? incrementTarget : increment + incrementStep
        }
        var y = amplitude * sinCycles(phase)
        phase += increment
        if phase >= 1 { phase -= 1 }
        if burstAge < burstFrames {
            let w = sinCycles(Float(burstAge) * windowScale)
            y += burstPeak * w * w * sinCycles(burstPhase)
            burstPhase += burstIncrement
            if burstPhase >= 1 { burstPhase -= 1 }
            burstAge += 1
        }
        return y
    }

    /// Starts the glide to a tick's level (`intensity`) and sharpness over `tickFrames`, and a burst at its
    /// onset (peak from `peakIntensity`).
    mutating func apply(_ tick: DetectorTick, intensity: Float, peakIntensity: Float, tickFrames: Int) {
        amplitudeTarget = gain * (squareLaw ? intensity * intensity : intensity)
        amplitudeStep = (amplitudeTarget - amplitude) / Float(tickFrames)
        incrementTarget = lowIncrement + min(max(tick.sharpness, 0), 1) * spanIncrement
        incrementStep = (incrementTarget - increment) / Float(tickFrames)
        glideLeft = tickFrames
        let peakAmplitude = gain * (squareLaw ? peakIntensity * peakIntensity : peakIntensity)
        if let onset = tick.onset {
            burstAge = 0
            burstPhase = 0
            burstPeak = peakAmplitude
            burstIncrement = lowIncrement + min(max(onset.sharpness, 0), 1) * spanIncrement
        } else if burstAge < burstFrames {
            burstPeak = max(burstPeak, peakAmplitude)
        }
    }
}
