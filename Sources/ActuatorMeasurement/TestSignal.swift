// The signal a measurement plays on the haptic channel: silence for the noise floor, a logarithmic sweep
// (Farina) for the response, a gap, a click train for the latency, and silence for the tails.
import Glibc

/// An exponential (logarithmic) sine sweep from `lowFrequency` to `highFrequency` over `seconds`:
/// x(t) = sin(2π f1 L (e^(t/L) − 1)), L = T / ln(f2 / f1), whose instantaneous frequency is f1 e^(t/L).
/// Each octave takes the same time, so its harmonics fall at fixed times before the linear response once
/// deconvolved (−L ln k for the k-th): the linear response and the distortion come apart.
struct LogSweep: Equatable {
    let lowFrequency: Double
    let highFrequency: Double
    let seconds: Double
    /// L = T / ln(f2 / f1), in seconds.
    var rateConstant: Double { seconds / log(highFrequency / lowFrequency) }

    /// The instantaneous frequency in Hz at `t` seconds from the sweep's start.
    func frequency(at t: Double) -> Double { lowFrequency * exp(t / rateConstant) }

    /// The sweep at `rate` Hz, amplitude 1, with `fade` seconds of raised-cosine fade at each end, each sample
    /// times `gain(f)` at its instantaneous frequency f (an equaliser applied as the drive is).
    func samples(rate: Double, fade: Double, gain: (Double) -> Double = { _ in 1 }) -> [Double] {
        let count = Int((seconds * rate).rounded())
        let fadeFrames = max(1, Int(fade * rate))
        let l = rateConstant
        return (0..<count).map { n in
            let t = Double(n) / rate
            var value = sin(2 * Double.pi * lowFrequency * l * (exp(t / l) - 1)) * gain(frequency(at: t))
            let edge = min(n, count - 1 - n)
            if edge < fadeFrames { value *= 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(fadeFrames)) }
            return value
        }
    }
}

/// The layout of one measurement run (frames at the engine rate): what plays when.
struct TestSignal {
    /// Seconds of silence before the sweep (the noise floor is measured in it).
    static let leadSeconds = 0.6
    /// Seconds between the sweep's end and the first click (longer than the response's tail the
    /// deconvolution takes, `ImpulseResponse.tailSeconds`), and after the last click.
    static let gapSeconds = 0.8
    /// Clicks in the train and the time between them, in seconds.
    static let clickCount = 24
    static let clickSpacing = 0.12
    /// A click: a Hann-windowed pulse of 2 ms (its spectrum reaches past 1 kHz).
    static let clickSeconds = 0.002

    let rate: Double
    let sweep: LogSweep
    /// The drive, amplitude included: what the haptic channel plays.
    let drive: [Float]
    /// The sweep as played, at amplitude 1 and without the equaliser: the reference it is deconvolved with.
    let reference: [Double]
    /// The frame the sweep starts at.
    let sweepStart: Int
    /// Frames of silence for the noise floor (the capture is lined up with the playback first).
    let noise: Range<Int>
    /// The frame each click starts at.
    let clickStarts: [Int]
    /// One click at amplitude 1.
    let click: [Double]
    /// The drive's peak amplitude (full scale 1).
    let amplitude: Double

    /// - Parameters:
    ///   - sweep: the sweep; its duration sets the run's length.
    ///   - amplitude: the drive's peak, 0 < amplitude < 1.
    ///   - clicks: whether the run has the click train (the level probe does not).
    ///   - equalizer: the drive's gain at a frequency (a profile's equalisation), 1 without.
    init(rate: Double, sweep: LogSweep, amplitude: Double, clicks: Bool, equalizer: (Double) -> Double = { _ in 1 }) {
        self.rate = rate
        self.sweep = sweep
        self.amplitude = amplitude
        let frames = { (seconds: Double) in Int((seconds * rate).rounded()) }
        sweepStart = frames(Self.leadSeconds)
        noise = frames(0.1)..<(sweepStart - frames(0.05))
        reference = sweep.samples(rate: rate, fade: 0.02)
        let driven = sweep.samples(rate: rate, fade: 0.02, gain: equalizer)
        let clickLength = max(2, frames(Self.clickSeconds))
        click = (0..<clickLength).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(clickLength)) }
        let firstClick = sweepStart + driven.count + frames(Self.gapSeconds)
        clickStarts = clicks ? (0..<Self.clickCount).map { firstClick + $0 * frames(Self.clickSpacing) } : []
        let end = (clickStarts.last.map { $0 + frames(Self.clickSpacing) } ?? sweepStart + driven.count) + frames(Self.gapSeconds)
        var drive = [Float](repeating: 0, count: end)
        for (n, x) in driven.enumerated() { drive[sweepStart + n] = Float(x * amplitude) }
        for start in clickStarts {
            for (n, x) in click.enumerated() { drive[start + n] = Float(x * amplitude) }
        }
        self.drive = drive
    }
}
