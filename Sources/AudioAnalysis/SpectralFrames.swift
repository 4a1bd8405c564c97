/// The spectral features of a whole sound, frame by frame, as Meta Haptics Studio takes them
/// (meta-haptics-sdk, `audio_analysis/src/spectrum_analysis.rs`, MIT; the code is Thrum's), with the
/// two Thrum adds for emphases.
///
/// A frame is analysed every `fftSize / overlap` samples: the last `fftSize` samples (zeros before the
/// start and for half a window after the end) under a Hann window (the periodic-style "Hanning-Z",
/// 0.5 − 0.5 cos(2πi / (n − 1))), transformed without scaling. Its time is the window's centre. Per frame:
/// - `flux`: the spectral flux, Σ (|X_k| − |X_k| of the previous frame) over the bins below Nyquist,
///   or 0 when negative;
/// - `centroid`: the magnitude-weighted mean frequency (÷ Nyquist, 0…1) of the bins from 0 Hz to
///   Nyquist with those at and above `centroidLowpass` zeroed, 0 when the bins below the low-pass sum
///   to less than 0.3 per bin (Haptics Studio's floor against the centroid of near-silence);
/// - `bright` and `total`: the magnitudes summed above 4 kHz and over all bins below Nyquist (how bright
///   the sound is: textures such as rain and gravel are), and `brightRise`, the flux above 4 kHz (how
///   much bright sound is new: each drop of rain brings some);
/// - `riseHz`: the mean frequency of what rose since the previous frame (the bins' magnitude gains).
/// - Important: Thread safety: any thread (pure). Real-time safe: no (allocates).
struct SpectralFrames {
    /// Where brightness starts, in Hz.
    static let brightFrequency = 4000.0

    /// Half the window's length in seconds.
    let halfWindow: Double
    var times: [Double] = []
    var flux: [Float] = []
    var centroid: [Float] = []
    var bright: [Float] = []
    var brightRise: [Float] = []
    var total: [Float] = []
    var riseHz: [Float] = []

    /// Analyses the mono sound `mono` at `sampleRate` Hz.
    init(mono: [Float], sampleRate: Double, settings: AnalysisSettings) {
        let size = settings.fftSize
        let half = size / 2
        halfWindow = Double(half) / sampleRate
        let hop = max(1, size / settings.overlap)
        let fft = RealFFT(size: size)
        let work = UnsafeMutablePointer<Float>.allocate(capacity: size)
        let power = UnsafeMutablePointer<Float>.allocate(capacity: fft.binCount)
        let magnitude = UnsafeMutablePointer<Float>.allocate(capacity: half)
        let previous = UnsafeMutablePointer<Float>.allocate(capacity: half)
        previous.initialize(repeating: 0, count: half)
        defer {
            fft.deallocate()
            work.deallocate()
            power.deallocate()
            magnitude.deallocate()
            previous.deallocate()
        }
        var window = [Float](repeating: 0, count: size)
        let denominator = Double(max(size - 1, 1))
        for i in 0..<size { window[i] = Float(0.5 - 0.5 * AnalysisMath.sinCos(cycles: Double(i) / denominator).cos) }
        let binHz = sampleRate / Double(size)
        let filterStart = min(half, Int((Double(half) * settings.centroidLowpass / (sampleRate / 2)).rounded(.up)))
        let minimumEnergy = Float(max(filterStart - 1, 0)) * 0.3
        let brightStart = min(half, Int((Self.brightFrequency / binHz).rounded(.up)))
        let frameCount = (mono.count + half) / hop
        times.reserveCapacity(frameCount)
        flux.reserveCapacity(frameCount)
        centroid.reserveCapacity(frameCount)
        bright.reserveCapacity(frameCount)
        brightRise.reserveCapacity(frameCount)
        total.reserveCapacity(frameCount)
        riseHz.reserveCapacity(frameCount)
        mono.withUnsafeBufferPointer { sound in
            window.withUnsafeBufferPointer { window in
                for frame in stride(from: 1, through: frameCount, by: 1) {
                    let end = frame * hop  // samples consumed
                    let first = end - size
                    // Zeros before the start and after the end of the sound.
                    let from = max(0, -first)
                    let to = min(size, sound.count - first)
                    if to <= from {
                        work.update(repeating: 0, count: size)
                    } else {
                        for i in 0..<from { work[i] = 0 }
                        for i in from..<to { work[i] = sound[first &+ i] * window[i] }
                        for i in to..<size { work[i] = 0 }
                    }
                    fft.powerSpectrum(of: work, into: power)
                    analyse(end: end)
                }
            }
        }
        func analyse(end: Int) {
            var rise: Float = 0
            var sum: Float = 0
            var gain: Float = 0
            var gainMoment: Float = 0
            var brightSum: Float = 0
            var brightChange: Float = 0
            // Magnitudes, the flux and the gains' moment; the bins from `brightStart` up also count as bright.
            for k in 0..<half {
                let m = power[k].squareRoot()
                magnitude[k] = m
                let change = m - previous[k]
                previous[k] = m
                rise += change
                sum += m
                let gained = max(change, 0)
                gain += gained
                gainMoment += gained * Float(k)
                if k == brightStart &- 1 {
                    brightSum = -sum
                    brightChange = -rise
                }
            }
            brightSum += sum
            brightChange += rise
            var below: Float = 0
            var moment: Float = 0
            for k in 0..<filterStart {
                below += magnitude[k]
                moment += magnitude[k] * Float(k)
            }
            var value: Float = 0
            if below >= minimumEnergy {
                let nyquist = power[half].squareRoot()
                let weight = below + nyquist
                value = weight > 0 ? (moment + nyquist * Float(half)) / weight / Float(half) : 0
            }
            times.append(Double(end) / sampleRate - Double(half) / sampleRate)
            flux.append(max(rise, 0))
            centroid.append(value)
            bright.append(brightSum)
            brightRise.append(max(brightChange, 0))
            total.append(sum)
            riseHz.append(gain > 0 ? gainMoment / gain * Float(binHz) : 0)
        }
    }

    /// The flux at `time`, interpolated linearly between frames (the end frames' values outside them).
    func flux(at time: Double) -> Float {
        guard !times.isEmpty else { return 0 }
        var lo = 0
        var hi = times.count
        while lo < hi {  // the first frame later than `time`
            let mid = (lo + hi) / 2
            if times[mid] <= time { lo = mid + 1 } else { hi = mid }
        }
        if lo == 0 { return flux[0] }
        if lo == times.count { return flux[times.count - 1] }
        let u = Float((time - times[lo - 1]) / (times[lo] - times[lo - 1]))
        return flux[lo - 1] + u * (flux[lo] - flux[lo - 1])
    }

    /// How much of the spectrum around `time` is new: the flux summed over the frames centred from one
    /// window before `time` to half a window after it (so over the same time at any sample rate and
    /// overlap), ÷ the largest frame magnitude among them, at most 1. About 1 for a hit out of quiet,
    /// small for a swell or a steady sound; 0 when there are no frames.
    func newShare(around time: Double) -> Float {
        guard var i = nearest(time) else { return 0 }
        while i > 0 && times[i - 1] > time - 2 * halfWindow { i -= 1 }
        var gained: Float = 0
        var largest: Float = 0
        while i < times.count && times[i] <= time + halfWindow {
            if times[i] > time - 2 * halfWindow {
                gained += flux[i]
                largest = max(largest, total[i])
            }
            i += 1
        }
        return largest > 0 ? min(gained / largest, 1) : 0
    }

    /// The index of the frame nearest `time` (nil when there are no frames).
    func nearest(_ time: Double) -> Int? {
        guard !times.isEmpty else { return nil }
        var lo = 0
        var hi = times.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if times[mid] <= time { lo = mid } else { hi = mid }
        }
        return abs(times[hi] - time) < abs(times[lo] - time) ? hi : lo
    }
}
