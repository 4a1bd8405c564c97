import Foundation

// Measurements of rendered or decoded samples, computed independently of the code under test.

/// One channel of interleaved samples (`index` from 0).
public func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
    stride(from: index, to: samples.count, by: channels).map { samples[$0] }
}

/// The largest magnitude in `range` (which must lie inside `samples`); 0 for an empty range.
public func peak(_ samples: [Float], _ range: Range<Int>) -> Float {
    samples[range].reduce(0) { max($0, abs($1)) }
}

/// The index of the first sample whose magnitude exceeds `threshold`, at or after `from`.
public func firstSound(_ samples: [Float], from: Int = 0, threshold: Float = 0) -> Int? {
    guard from < samples.count else { return nil }
    return samples[from...].firstIndex { abs($0) > threshold }
}

/// The index of the last sample whose magnitude exceeds `threshold`.
public func lastSound(_ samples: [Float], threshold: Float = 0) -> Int? {
    samples.lastIndex { abs($0) > threshold }
}

/// The component at `frequency` Hz over `from..<to` (a single-bin DFT) as the amplitudes of its cosine and
/// sine parts: the samples' best fit there is `cosine × cos(w i) + sine × sin(w i)`, w = 2π frequency / rate,
/// when the range holds whole cycles.
public func toneComponent(
    _ samples: [Float], rate: Double, frequency: Double, from: Int, to: Int
) -> (cosine: Double, sine: Double) {
    var re = 0.0
    var im = 0.0
    for i in from..<to {
        let w = 2 * Double.pi * frequency * Double(i) / rate
        re += Double(samples[i]) * cos(w)
        im += Double(samples[i]) * sin(w)
    }
    return (2 * re / Double(to - from), 2 * im / Double(to - from))
}

/// The amplitude of the component at `frequency` Hz over `from..<to` (a single-bin DFT): 1 for a full-scale
/// sine at that frequency when the range holds whole cycles.
public func toneAmplitude(_ samples: [Float], rate: Double, frequency: Double, from: Int, to: Int) -> Double {
    let component = toneComponent(samples, rate: rate, frequency: frequency, from: from, to: to)
    return (component.cosine * component.cosine + component.sine * component.sine).squareRoot()
}

/// The frequency in Hz, from the upward zero crossings in `from..<to`; 0 with fewer than two.
public func zeroCrossingFrequency(_ samples: [Float], rate: Double, from: Int, to: Int) -> Double {
    var crossings: [Int] = []
    for i in max(from, 1)..<to where samples[i - 1] < 0 && samples[i] >= 0 { crossings.append(i) }
    guard crossings.count >= 2, let first = crossings.first, let last = crossings.last else { return 0 }
    return Double(crossings.count - 1) * rate / Double(last - first)
}

/// An interleaved sine tone of `frames` frames at `rate`; channel c has amplitude `amplitude / (c + 1)`.
public func sine(frequency: Double, rate: Double, frames: Int, channels: Int = 1, amplitude: Double = 0.5) -> [Float] {
    var out = [Float](repeating: 0, count: frames * channels)
    for n in 0..<frames {
        let v = sin(2 * Double.pi * frequency * Double(n) / rate)
        for c in 0..<channels { out[n * channels + c] = Float(amplitude / Double(c + 1) * v) }
    }
    return out
}

/// Renders `frames` frames of `channels` interleaved channels in blocks of at most `block` frames: `render`
/// fills the buffer it is given with the count it is given. Returns every frame, interleaved.
public func renderInBlocks(
    frames: Int, channels: Int, block: Int, _ render: (_ count: Int, _ into: UnsafeMutablePointer<Float>) throws -> Void
) rethrows -> [Float] {
    var output: [Float] = []
    output.reserveCapacity(frames * channels)
    var buffer = [Float](repeating: 0, count: block * channels)
    var done = 0
    while done < frames {
        let count = min(block, frames - done)
        try buffer.withUnsafeMutableBufferPointer { try render(count, $0.baseAddress!) }
        output += buffer[0..<(count * channels)]
        done += count
    }
    return output
}
