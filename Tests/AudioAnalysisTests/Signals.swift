import Foundation
import ThrumTestSupport

extension SplitMix64 {
    /// Uniform white noise in −1…1.
    mutating func noise() -> Double { 2 * unit() - 1 }
}

/// A generated mono sound with what is known about it: where its onsets are and its amplitude envelope.
struct TestSound {
    var rate: Double
    var samples: [Float]
    /// Onset times in seconds (ground truth).
    var onsets: [Double]
    /// The amplitude envelope that shaped the sound (peak scale), per sample; nil when not defined.
    var envelope: [Double]?

    var duration: Double { Double(samples.count) / rate }

    /// The known envelope at `time` (nearest sample).
    func envelope(at time: Double) -> Double {
        guard let envelope else { return 0 }
        return envelope[min(max(Int((time * rate).rounded()), 0), envelope.count - 1)]
    }
}

enum Signals {
    /// Single-sample clicks of amplitude 0.3…0.9 at random gaps of 80…400 ms over noise at −60 dBFS.
    static func clicks(seconds: Double, rate: Double = 48_000, seed: UInt64 = 1) -> TestSound {
        var rng = SplitMix64(seed: seed)
        var samples = (0..<Int(seconds * rate)).map { _ in Float(0.001 * rng.noise()) }
        var onsets: [Double] = []
        var t = 0.1
        while t < seconds - 0.1 {
            samples[Int(t * rate)] = Float(rng.range(0.3, 0.9))
            onsets.append(Double(Int(t * rate)) / rate)
            t += rng.range(0.08, 0.4)
        }
        return TestSound(rate: rate, samples: samples, onsets: onsets, envelope: nil)
    }

    /// Sine bursts at `frequency` with linear attack and release of set lengths, random levels 0.2…0.9
    /// and gaps; the envelope is known exactly.
    static func toneBursts(
        seconds: Double, frequency: Double = 150, attack: Double = 0.02, sustain: ClosedRange<Double> = 0.1...0.4,
        release: Double = 0.15, rate: Double = 48_000, seed: UInt64 = 2
    ) -> TestSound {
        var rng = SplitMix64(seed: seed)
        let count = Int(seconds * rate)
        var envelope = [Double](repeating: 0, count: count)
        var onsets: [Double] = []
        var t = 0.1
        while true {
            let hold = rng.range(sustain.lowerBound, sustain.upperBound)
            let end = t + attack + hold + release
            guard end < seconds - 0.05 else { break }
            let level = rng.range(0.2, 0.9)
            onsets.append(t)
            for i in Int(t * rate)..<Int(end * rate) {
                let u = Double(i) / rate - t
                let shape = u < attack ? max(u, 0) / attack : (u < attack + hold ? 1 : max(0, (end - Double(i) / rate) / release))
                envelope[i] = level * shape
            }
            t = end + rng.range(0.1, 0.4)
        }
        let samples = (0..<count).map { Float(envelope[$0] * sin(2 * .pi * frequency * Double($0) / rate)) }
        return TestSound(rate: rate, samples: samples, onsets: onsets, envelope: envelope)
    }

    /// 0.2 s of silence, then white noise whose level steps every 0.3…0.7 s between −40 and −6 dBFS
    /// (steps of at least 12 dB); onsets where the noise starts and at the steps up. The envelope is the noise's RMS × √2 (the detector's peak scale).
    static func noiseSteps(seconds: Double, rate: Double = 48_000, seed: UInt64 = 3) -> TestSound {
        var rng = SplitMix64(seed: seed)
        let count = Int(seconds * rate)
        var envelope = [Double](repeating: 0, count: count)
        var onsets: [Double] = [0.2]
        var t = 0.2
        var level = -40.0
        while t < seconds {
            let next = min(t + rng.range(0.3, 0.7), seconds)
            for i in Int(t * rate)..<Int(next * rate) { envelope[i] = pow(10, level / 20) }
            t = next
            var newLevel = level
            while abs(newLevel - level) < 12 { newLevel = rng.range(-40, -6) }
            if newLevel > level && t < seconds - 0.05 { onsets.append(t) }
            level = newLevel
        }
        // Uniform noise in −1…1 has RMS 1/√3; scale so RMS × √2 equals the envelope.
        let scale = sqrt(3.0 / 2.0)
        let samples = (0..<count).map { Float(envelope[$0] * scale * rng.noise()) }
        return TestSound(rate: rate, samples: samples, onsets: onsets, envelope: envelope)
    }

    /// A music-like mixture at 120 bpm: kick on beats 1 and 3, snare on 2 and 4, hi-hats on the
    /// off-beat eighths, plucked bass notes on random eighths, and a sustained pad with slow tremolo.
    /// Onsets: every hit's start (hits within 30 ms of each other count once).
    static func music(seconds: Double, rate: Double = 48_000, seed: UInt64 = 4) -> TestSound {
        var rng = SplitMix64(seed: seed)
        let count = Int(seconds * rate)
        var mix = [Double](repeating: 0, count: count)
        var starts: [Double] = []
        func add(at start: Double, length: Double, _ voice: (Double) -> Double) {
            starts.append(start)
            let first = Int(start * rate)
            for i in first..<min(first + Int(length * rate), count) { mix[i] += voice(Double(i - first) / rate) }
        }
        let eighth = 0.25
        var step = 0
        while Double(step) * eighth < seconds - 0.5 {
            let t = Double(step) * eighth
            switch step % 8 {
            case 0, 4:  // kick: 120 → 50 Hz sweep, 1 ms attack, 80 ms decay
                add(at: t, length: 0.4) { u in
                    let phase = 2 * .pi * (50 * u + 70 * 0.03 * (1 - exp(-u / 0.03)))
                    return 0.6 * min(u / 0.001, 1) * exp(-u / 0.08) * sin(phase)
                }
            case 2, 6:  // snare: noise + 200 Hz body, 60 ms decay
                var noise = SplitMix64(seed: rng.next())
                add(at: t, length: 0.3) { u in
                    0.35 * min(u / 0.001, 1) * exp(-u / 0.06) * (noise.noise() + 0.5 * sin(2 * .pi * 200 * u))
                }
            default:  // hi-hat: differenced noise, 20 ms decay
                var noise = SplitMix64(seed: rng.next())
                var previous = 0.0
                add(at: t, length: 0.1) { u in
                    let n = noise.noise()
                    defer { previous = n }
                    return 0.15 * exp(-u / 0.02) * (n - previous)
                }
            }
            if step % 2 == 1 && rng.unit() < 0.5 {  // plucked bass on some off-beats
                let f = 55 * pow(2, Double(Int(rng.range(0, 12))) / 12)
                add(at: t + 0.125, length: 0.5) { u in 0.3 * min(u / 0.005, 1) * exp(-u / 0.3) * sin(2 * .pi * f * u) }
            }
            step += 1
        }
        // The pad starts with the first kick, so it adds no onset of its own.
        for i in 0..<count {
            let u = Double(i) / rate
            let tremolo = 1 + 0.2 * sin(2 * .pi * 0.2 * u)
            let chord = sin(2 * .pi * 220 * u) + sin(2 * .pi * 277.2 * u) + sin(2 * .pi * 329.6 * u)
            mix[i] += 0.03 * min(u / 0.2, 1) * tremolo * chord
        }
        var onsets: [Double] = []
        for start in starts.sorted() where onsets.last.map({ start - $0 > 0.03 }) ?? true { onsets.append(start) }
        return TestSound(rate: rate, samples: mix.map { Float($0) }, onsets: onsets, envelope: nil)
    }
}

enum Scores {
    /// F1 of `found` against `truth`, one-to-one matches within `tolerance` seconds (greedy by distance).
    static func f1(found: [Double], truth: [Double], tolerance: Double = 0.01) -> (f1: Double, matched: Int) {
        var pairs: [(distance: Double, found: Int, truth: Int)] = []
        for (i, f) in found.enumerated() {
            for (j, t) in truth.enumerated() where abs(f - t) <= tolerance { pairs.append((abs(f - t), i, j)) }
        }
        pairs.sort { $0.distance < $1.distance }
        var usedFound = Set<Int>()
        var usedTruth = Set<Int>()
        for pair in pairs where !usedFound.contains(pair.found) && !usedTruth.contains(pair.truth) {
            usedFound.insert(pair.found)
            usedTruth.insert(pair.truth)
        }
        let matched = usedFound.count
        guard !found.isEmpty, !truth.isEmpty else { return (found.isEmpty && truth.isEmpty ? 1 : 0, 0) }
        let precision = Double(matched) / Double(found.count)
        let recall = Double(matched) / Double(truth.count)
        return (precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall), matched)
    }

    /// Pearson correlation of two equally long series.
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        precondition(a.count == b.count && a.count > 1)
        let ma = a.reduce(0, +) / Double(a.count)
        let mb = b.reduce(0, +) / Double(b.count)
        var sab = 0.0
        var saa = 0.0
        var sbb = 0.0
        for i in a.indices {
            sab += (a[i] - ma) * (b[i] - mb)
            saa += (a[i] - ma) * (a[i] - ma)
            sbb += (b[i] - mb) * (b[i] - mb)
        }
        return sab / sqrt(saa * sbb)
    }
}
