/// What the detector reports at the end of each control tick.
package struct DetectorTick: Sendable, Equatable {
    /// Frames processed so far (the tick ends just before this frame).
    package var frame: Int
    /// Level of the haptic-relevant band, linear; a steady full-scale sine in the band reads 1.
    package var level: Float
    /// The largest magnitude of the mono sound in this tick (a full-scale sine reads 1, like `level`;
    /// a click that the 5 ms RMS of `level` hardly registers shows here).
    package var peak: Float
    /// Sharpness 0…1 from the spectral centroid (see the settings' sharpness scale).
    package var sharpness: Float
    /// An onset detected in this tick, if any.
    package var onset: DetectedOnset?
    /// The last onset's settled sharpness, on the tick it becomes known: 15 ms after its detection (or at
    /// the next detection, if sooner), from how much energy each band gained over its reference at the
    /// detection, summed over those 15 ms.
    /// More faithful than the onset's own sharpness for low sounds, whose first milliseconds are broadband.
    package var settledSharpness: Float?
    /// The onset detector's detection function at this tick: the energy-weighted rise across its bands,
    /// in dB (≥ 0), whether or not an onset was found. The offline analysis scores transients by it.
    package var flux: Float

    /// Creates a tick (for buffers that hold ticks).
    package init(
        frame: Int, level: Float, peak: Float, sharpness: Float, onset: DetectedOnset?, settledSharpness: Float?,
        flux: Float = 0
    ) {
        self.flux = flux
        self.frame = frame
        self.level = level
        self.peak = peak
        self.sharpness = sharpness
        self.onset = onset
        self.settledSharpness = settledSharpness
    }
}

/// The detector's state as one plain value: level follower, onset detector and spectrum tracker, stepped
/// one mono sample at a time. The streaming form of the analysis: the offline analyser and the live
/// haptics-from-audio path both run it, so they see the same envelope and onsets frame for frame.
///
/// Results depend only on the samples, never on how they are split into blocks. It holds raw pointers
/// (owned by ``AudioFeatureDetector`` or another owner that calls `deallocate()` once), so copying it
/// costs no reference counting.
/// - Important: Thread safety: one owner. Real-time safe: `step` yes; `init`/`deallocate` no.
struct DetectorCore {
    /// Frames per control tick: the sample rate ÷ 2000, rounded (0.5 ms), at least 1.
    let tickFrames: Int
    /// Frames between sharpness measurements (the first is made after this many frames).
    var spectrumHop: Int { spectrum.hop }
    private var level: LevelFollower
    private var onsets: OnsetDetector
    private var spectrum: SpectrumTracker
    private var untilTick: Int
    private var peak: Float = 0
    private(set) var frame = 0
    /// The last completed tick (valid after `step` returned true).
    private(set) var tick = DetectorTick(
        frame: 0, level: 0, peak: 0, sharpness: SpectrumTracker.initialSharpness, onset: nil, settledSharpness: nil)

    init(settings: AnalysisSettings, sampleRate: Double) {
        tickFrames = max(1, Int((sampleRate / 2000).rounded()))
        untilTick = tickFrames
        level = LevelFollower(settings: settings, sampleRate: sampleRate)
        let scale = SharpnessScale(low: settings.sharpnessLow, high: settings.sharpnessHigh)
        onsets = OnsetDetector(settings: settings, sampleRate: sampleRate, scale: scale, tickFrames: tickFrames)
        spectrum = SpectrumTracker(settings: settings, sampleRate: sampleRate, tickRate: sampleRate / Double(tickFrames))
    }

    /// Frees the spectrum buffers (call once, from the owner).
    func deallocate() { spectrum.deallocate() }

    /// Clears the spectrum window's samples (with a copy of the initial core, this starts over).
    func clearSpectrumHistory() { spectrum.clearHistory() }

    /// Takes one mono sample. Returns true when it completed a control tick (then read `tick`).
    @inline(__always)
    mutating func step(_ x: Float) -> Bool {
        let d = Double(x)
        level.process(d)
        onsets.process(d)
        spectrum.push(x)
        peak = max(peak, abs(x))
        frame &+= 1
        untilTick &-= 1
        guard untilTick == 0 else { return false }
        untilTick = tickFrames
        let onset = onsets.tick(frame: frame)
        tick = DetectorTick(
            frame: frame, level: Float(level.envelope), peak: peak, sharpness: spectrum.tick(), onset: onset,
            settledSharpness: onsets.settled, flux: onsets.flux)
        peak = 0
        level.flushTinyState()
        onsets.flushTinyState()
        return true
    }
}

/// The streaming detector for callers outside this module: feed it blocks of audio, get a
/// ``DetectorTick`` every 0.5 ms of sound.
///
/// All memory is allocated in `init`; `process` allocates nothing, takes no locks and calls no libm,
/// so it may run on a real-time thread. Output is deterministic and independent of block sizes.
/// - Important: Thread safety: one thread at a time. Real-time safe: `process` yes; `init`/`deinit` no.
package final class AudioFeatureDetector {
    /// The sample rate it was built for, in Hz.
    package let sampleRate: Double
    /// Frames per control tick.
    package var tickFrames: Int { core.tickFrames }
    /// Frames between sharpness measurements (half the spectrum window); the first comes after this many.
    package var spectrumHop: Int { core.spectrumHop }
    /// Frames processed so far.
    package var frame: Int { core.frame }
    private var core: DetectorCore
    /// The core as built (its buffers are the same): `reset` copies it back.
    private let initial: DetectorCore

    /// Builds a detector for `sampleRate` Hz (> 0) with `settings` (validated by the caller).
    package init(sampleRate: Double, settings: AnalysisSettings) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "AudioFeatureDetector: sample rate must be positive")
        self.sampleRate = sampleRate
        core = DetectorCore(settings: settings, sampleRate: sampleRate)
        initial = core
    }

    /// Starts over as if just built (frame 0, no history), without allocating. Real-time safe.
    package func reset() {
        core = initial
        core.clearSpectrumHistory()
    }

    deinit { core.deallocate() }

    /// Feeds `frameCount` interleaved frames of `channels` channels (averaged to mono) and calls `body`
    /// for each tick completed.
    package func process(
        interleaved samples: UnsafePointer<Float>, channels: Int, frameCount: Int, _ body: (DetectorTick) -> Void
    ) {
        precondition(channels >= 1, "AudioFeatureDetector: channels must be at least 1")
        var c = core
        let scale = 1 / Float(channels)
        for i in 0..<frameCount {
            let base = i &* channels
            var sum: Float = 0
            for ch in 0..<channels { sum += samples[base &+ ch] }
            if c.step(sum * scale) { body(c.tick) }
        }
        core = c
    }

    /// Feeds `frameCount` frames given as separate left and right buffers (averaged to mono) and calls
    /// `body` for each tick completed.
    package func process(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>, frameCount: Int, _ body: (DetectorTick) -> Void
    ) {
        var c = core
        for i in 0..<frameCount where c.step((left[i] + right[i]) * 0.5) {
            body(c.tick)
        }
        core = c
    }
}
