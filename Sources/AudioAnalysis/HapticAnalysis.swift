/// The scale of an analysed envelope's values: the one the output format interpolates linearly.
package enum EnvelopeScale: Sendable, Equatable {
    /// Core Haptics' intensity I (AHAP curves): the drive amplitude A is I² under the default square law,
    /// so I = √A; equal steps feel about equal.
    case intensity
    /// The drive amplitude A itself (`.haptic` amplitude envelopes).
    case amplitude
}

/// Sound analysed into haptics: a level envelope, a sharpness envelope and transients, ready to be
/// written as AHAP or `.haptic`. The drive amplitude follows the sound's RMS level.
/// - Important: Thread safety: any thread (a value).
package struct HapticAnalysis: Sendable, Equatable {
    /// A short, strong event at an onset.
    package struct Transient: Sendable, Equatable {
        /// Seconds from the start of the sound.
        package var time: Double
        /// Intensity 0…1: √ of the amplitude of the breakpoint it marks (before ducking).
        package var intensity: Float
        /// Sharpness 0…1: the frequencies that rose there, scaled into the settings' emphasis sharpness range.
        package var sharpness: Float

        /// Creates a transient.
        package init(time: Double, intensity: Float, sharpness: Float) {
            self.time = time
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// Length in seconds: the sound's, or the envelopes' last point if later (by at most one update).
    package var duration: Double
    /// The scale of `envelope`'s values.
    package var scale: EnvelopeScale
    /// Intensity or drive amplitude (see `scale`), 0…1 over time. Starts at time 0 and ends at `duration`.
    package var envelope: [Breakpoint]
    /// Sharpness 0…1 over time (the spectral centroid below the settings' `centroidLowpass`, mapped
    /// linearly from `frequencyMin`…`frequencyMax`). Starts at time 0 and ends at `duration`.
    package var sharpness: [Breakpoint]
    /// Transients (emphases), in time order; each sits on a breakpoint of `envelope`.
    package var transients: [Transient]
    /// The sound's highest sample magnitude (full scale is 1).
    package var peakLevel: Float

    /// Creates an analysis.
    package init(
        duration: Double, scale: EnvelopeScale, envelope: [Breakpoint], sharpness: [Breakpoint],
        transients: [Transient], peakLevel: Float
    ) {
        self.duration = duration
        self.scale = scale
        self.envelope = envelope
        self.sharpness = sharpness
        self.transients = transients
        self.peakLevel = peakLevel
    }

    /// The intensity at `time`: the envelope (linear between breakpoints in its scale, held outside
    /// them), as intensity.
    package func intensity(at time: Double) -> Float {
        let value = Self.value(of: envelope, at: time)
        return scale == .intensity ? value : value.squareRoot()
    }

    /// The drive amplitude at `time` (intensity², or the amplitude envelope itself).
    package func amplitude(at time: Double) -> Float {
        let value = Self.value(of: envelope, at: time)
        return scale == .amplitude ? value : value * value
    }

    /// The sharpness envelope's value at `time` (linear between breakpoints, held outside them).
    package func sharpness(at time: Double) -> Float { Self.value(of: sharpness, at: time) }

    /// Linear interpolation through `points` (sorted by time); the end values hold outside them, 0 when empty.
    package static func value(of points: [Breakpoint], at time: Double) -> Float {
        guard let first = points.first, let last = points.last else { return 0 }
        if time <= first.time { return first.value }
        if time >= last.time { return last.value }
        var lo = 0
        var hi = points.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if points[mid].time <= time { lo = mid } else { hi = mid }
        }
        let a = points[lo]
        let b = points[hi]
        let span = b.time - a.time
        guard span > 0 else { return b.value }
        return a.value + Float((time - a.time) / span) * (b.value - a.value)
    }
}

/// Maps the live detector's level to drive amplitude and intensity: u = level ÷ reference; amplitude 0 at or
/// below the floor f (`floor` dB under the reference), else (u − f)/(1 − f) × gain, clipped to 1;
/// intensity = √amplitude.
/// - Important: Thread safety: any thread (a value). Real-time safe: yes.
package struct LevelMap: Sendable {
    let reference: Float
    let floor: Float
    let gain: Float

    /// - Parameters:
    ///   - reference: the level that maps to 1 before the gain (the peak when normalising, else 1).
    package init(settings: AnalysisSettings, reference: Float) {
        self.reference = reference > 0 ? reference : 1
        floor = Float(AnalysisMath.amplitude(decibels: settings.floor))
        gain = Float(AnalysisMath.amplitude(decibels: settings.gain))
    }

    /// The drive amplitude 0…1 for a detector level.
    @inline(__always)
    package func amplitude(_ level: Float) -> Float {
        let u = level / reference
        guard u > floor else { return 0 }
        return min((u - floor) / (1 - floor) * gain, 1)
    }

    /// The intensity 0…1 for a detector level: √amplitude.
    @inline(__always)
    package func intensity(_ level: Float) -> Float { amplitude(level).squareRoot() }
}
