/// Maps a frequency to sharpness 0…1 on a logarithmic scale: `low` Hz → 0, `high` Hz → 1, clamped.
/// - Important: Thread safety: any thread (a value). Real-time safe: yes.
struct SharpnessScale {
    private let logLow: Float
    private let inverseSpan: Float

    init(low: Double, high: Double) {
        logLow = AnalysisMath.log2Fast(Float(low))
        inverseSpan = 1 / (AnalysisMath.log2Fast(Float(high)) - logLow)
    }

    @inline(__always)
    func sharpness(frequency: Float) -> Float {
        min(max((AnalysisMath.log2Fast(frequency) - logLow) * inverseSpan, 0), 1)
    }
}

/// Sharpness from the spectrum: every hop (half a window), the magnitude-weighted spectral centroid of
/// the last window of sound (Hann, the power of two nearest above 20 ms) between 20 Hz and 16 kHz, on
/// the settings' sharpness scale. Windows quieter than −70 dBFS keep the previous value. Between hops
/// the value glides towards the latest one with a 20 ms time constant (one step per control tick); the
/// first window with sound sets it at once.
///
/// A plain struct of pointers so the render thread holds it without reference counting: the owner
/// calls `deallocate()` once.
/// - Important: Thread safety: one owner. Real-time safe: `push`/`tick` yes (the FFT runs inside `push`
///   once per hop); `init`/`deallocate` no.
struct SpectrumTracker {
    /// Sharpness before the first window with sound.
    static let initialSharpness: Float = 0.5

    let size: Int
    let hop: Int
    private let fft: RealFFT
    private let ring: UnsafeMutablePointer<Float>
    private let window: UnsafeMutablePointer<Float>
    private let work: UnsafeMutablePointer<Float>
    private let power: UnsafeMutablePointer<Float>
    private let binLow: Int
    private let binHigh: Int
    private let binHz: Float
    private let scale: SharpnessScale
    private let silentEnergy: Float
    private let glideK: Float
    private var write = 0
    private var sinceHop = 0
    private var target = SpectrumTracker.initialSharpness
    private var heard = false
    private(set) var sharpness = SpectrumTracker.initialSharpness

    /// - Parameters:
    ///   - tickRate: control ticks per second (the glide's update rate).
    init(settings: AnalysisSettings, sampleRate: Double, tickRate: Double) {
        var n = 4
        while Double(n) < 0.02 * sampleRate { n *= 2 }
        size = n
        hop = n / 2
        fft = RealFFT(size: n)
        ring = .allocate(capacity: n)
        ring.initialize(repeating: 0, count: n)
        work = .allocate(capacity: n)
        work.initialize(repeating: 0, count: n)
        window = .allocate(capacity: n)
        for i in 0..<n {
            let c = AnalysisMath.sinCos(cycles: Double(i) / Double(n)).cos
            (window + i).initialize(to: Float(0.5 - 0.5 * c))
        }
        power = .allocate(capacity: fft.binCount)
        power.initialize(repeating: 0, count: fft.binCount)
        binHz = Float(sampleRate / Double(n))
        binLow = max(1, Int((20 / Double(binHz)).rounded(.up)))
        binHigh = max(binLow, min(n / 2, Int((16_000 / Double(binHz)).rounded(.down))))
        scale = SharpnessScale(low: settings.sharpnessLow, high: settings.sharpnessHigh)
        // Σ|X|² over the bins of a Hann-windowed signal of mean square m is about m × n² × 3/16.
        silentEnergy = Float(OnsetDetector.floorEnergy) * Float(n) * Float(n) * 3 / 16
        glideK = Float(AnalysisMath.smoothing(seconds: 0.02, rate: tickRate))
    }

    /// Frees the buffers and tables (call once, from the owner).
    func deallocate() {
        fft.deallocate()
        ring.deallocate()
        window.deallocate()
        work.deallocate()
        power.deallocate()
    }

    /// Clears the window's samples (used with a fresh copy of the tracker's values to start over).
    func clearHistory() { ring.update(repeating: 0, count: size) }

    /// Takes one mono sample; analyses the window when a hop is complete.
    @inline(__always)
    mutating func push(_ x: Float) {
        ring[write] = x
        write &+= 1
        if write == size { write = 0 }
        sinceHop &+= 1
        if sinceHop == hop {
            sinceHop = 0
            analyse()
        }
    }

    /// One glide step at a control tick; returns the sharpness now.
    @inline(__always)
    mutating func tick() -> Float {
        sharpness += glideK * (target - sharpness)
        return sharpness
    }

    private mutating func analyse() {
        // Oldest sample first.
        let tail = size - write
        for i in 0..<tail { work[i] = ring[write + i] * window[i] }
        for i in 0..<write { work[tail + i] = ring[i] * window[tail + i] }
        fft.powerSpectrum(of: work, into: power)
        var total: Float = 0
        var moment: Float = 0
        var energy: Float = 0
        for k in binLow...binHigh {
            let p = power[k]
            let magnitude = p.squareRoot()
            energy += p
            total += magnitude
            moment += magnitude * Float(k)
        }
        guard energy > silentEnergy, total > 0 else { return }
        target = scale.sharpness(frequency: moment / total * binHz)
        if !heard {
            heard = true
            sharpness = target
        }
    }
}
