import FoundationEssentials
import Glibc

extension HJIFSynthesis {
    /// A Transient effect's value at ticks from its start: the sum of sin(4π (r − t) / d) × amplitude over the
    /// keyframes whose burst holds r, found as the reference synthesizer finds them (from the last keyframe
    /// back, while the keyframes hold r). Ask for increasing r: sorted keyframes are then found by a sliding
    /// window. Not thread-safe (a cursor); create one per use.
    struct TransientBurst {
        let keyframes: [HJIFKeyframe]
        let burst: Double
        /// Whether every keyframe has a position and they never go back in time (then `low … high` is the
        /// window of keyframes whose burst holds the last r asked).
        let sorted: Bool
        var low = 0
        var high = 0

        init(_ effect: HJIFEffect, _ timescale: Int) {
            keyframes = effect.keyframes
            burst = HJIFSynthesis.transientTicks(timescale)
            let positions = keyframes.map(\.position)
            sorted = !positions.contains(nil) && zip(positions, positions.dropFirst()).allSatisfy { $0! <= $1! }
        }

        func holds(_ keyframe: HJIFKeyframe, _ r: Double) -> Bool {
            guard let t = keyframe.position else { return false }
            return Double(t) <= r && r <= Double(t) + burst
        }

        func tone(_ keyframe: HJIFKeyframe, _ r: Double) -> Double {
            guard let amplitude = keyframe.amplitude, let t = keyframe.position else { return 0 }
            return sin(4 * Double.pi * (r - Double(t)) / burst) * Double(amplitude)
        }

        mutating func value(at r: Double) -> Double {
            var total = 0.0
            if sorted {
                while high < keyframes.count && Double(keyframes[high].position!) <= r { high += 1 }
                while low < high && Double(keyframes[low].position!) + burst < r { low += 1 }
                for k in low..<high { total += tone(keyframes[k], r) }
                return total
            }
            var k = keyframes.count - 1
            while k >= 0 && !holds(keyframes[k], r) { k -= 1 }
            while k >= 0 && holds(keyframes[k], r) {
                total += tone(keyframes[k], r)
                k -= 1
            }
            return total
        }
    }

    /// A VectorialWave effect's value at ticks from its start, as the reference synthesizer computes it:
    /// - amplitude: linear from the amplitude keyframe before to the first one at or after r (file order;
    ///   the first one's value before it, the last one's after the last, 1 without any);
    /// - frequency: the chirp (linear frequency) from the frequency keyframe before to the first one at or
    ///   after r, clamped to the band's limits, timed from the one before; the first one's frequency
    ///   before it and the last one's after the last (then timed from the effect's start);
    /// - phase: the effect's phase plus, for each frequency keyframe passed, π × Δt × (f₀ + f₁) / 1000 since
    ///   the one before (2π × t × f / 1000 for the first), with Δt in ticks (the reference counts ticks as
    ///   milliseconds here, whatever the timescale).
    /// Ask for increasing r. Not thread-safe (cursors); create one per use.
    struct VectorialWave {
        let amplitudes: [(position: Int?, value: Double)]
        let frequencies: [(position: Int, value: Double)]
        /// The phase (radians) reached at each frequency keyframe: `phases[k]` sums the steps before k.
        let phases: [Double]
        let signal: HJIFBaseSignal
        let lower: Double
        let upper: Double
        let timescale: Double
        var amplitudeCursor = 0
        var frequencyCursor = 0

        init(_ effect: HJIFEffect, lower: Int, upper: Int, timescale: Int) {
            amplitudes = effect.keyframes.compactMap { k in k.amplitude.map { (k.position, Double($0)) } }
            frequencies = effect.keyframes.compactMap { k in k.frequency.map { (k.position ?? 0, Double($0)) } }
            var phase = Double(effect.phase ?? 0)
            var phases: [Double] = []
            for (k, keyframe) in frequencies.enumerated() {
                phases.append(phase)
                if k > 0 {
                    let previous = frequencies[k - 1]
                    phase += Double.pi * Double(keyframe.position - previous.position) * 0.001 * (previous.value + keyframe.value)
                } else if keyframe.position > 0 {
                    phase += 2 * Double.pi * Double(keyframe.position) * 0.001 * keyframe.value
                }
            }
            phases.append(phase)
            self.phases = phases
            signal = effect.baseSignal ?? .sine
            self.lower = Double(lower)
            self.upper = Double(upper)
            self.timescale = Double(timescale)
        }

        mutating func value(at r: Double) -> Double {
            let state = state(at: r)
            return state.amplitude * Self.wave(signal, state.time / timescale, state.frequency, state.phase0)
        }

        /// What plays at r: the amplitude, the frequency (Hz), the time its wave is timed from (ticks), the
        /// phase added to it (radians), and the whole phase angle there (radians).
        mutating func state(at r: Double) -> (amplitude: Double, frequency: Double, time: Double, phase0: Double, phase: Double) {
            while amplitudeCursor < amplitudes.count
                && !(amplitudes[amplitudeCursor].position.map { Double($0) >= r } ?? false)
            {
                amplitudeCursor += 1
            }
            var amplitude = 1.0
            if amplitudeCursor < amplitudes.count {
                let after = amplitudes[amplitudeCursor]
                if amplitudeCursor == 0 {
                    amplitude = after.value
                } else {
                    let before = amplitudes[amplitudeCursor - 1]
                    amplitude = Self.line(Double(before.position ?? 0), before.value, Double(after.position ?? 0), after.value, r)
                }
            } else if let last = amplitudes.last {
                amplitude = last.value
            }
            while frequencyCursor < frequencies.count && Double(frequencies[frequencyCursor].position) < r { frequencyCursor += 1 }
            var frequency = frequencies.last?.value ?? 0
            var time = r
            if frequencyCursor < frequencies.count {
                let after = frequencies[frequencyCursor]
                if frequencyCursor == 0 {
                    frequency = after.value
                } else {
                    let before = frequencies[frequencyCursor - 1]
                    frequency = min(max(Self.chirp(before.position, after.position, before.value, after.value, r), lower), upper)
                    time = r - Double(before.position)
                }
            }
            let phase0 = phases[frequencyCursor]
            return (amplitude, frequency, time, phase0, 2 * Double.pi * frequency * time / timescale + phase0)
        }

        /// Linear interpolation from (t0, a0) to (t1, a1) at x, holding the end values outside.
        static func line(_ t0: Double, _ a0: Double, _ t1: Double, _ a1: Double, _ x: Double) -> Double {
            if x < t0 { return a0 }
            if x > t1 { return a1 }
            var (start, end, startValue, endValue) = (t0, t1, a0, a1)
            if start >= end { swap(&start, &end); swap(&startValue, &endValue) }
            guard end > start else { return a1 }
            return (startValue * (end - x) + endValue * (x - start)) / (end - start)
        }

        /// The frequency at x of the linear chirp from f0 at t0 to f1 at t1, as the reference writes it:
        /// half the slope times the time since t0 (so that the phase sin(2π f (x − t0)) follows the
        /// ramp), plus f0.
        static func chirp(_ t0: Int, _ t1: Int, _ f0: Double, _ f1: Double, _ x: Double) -> Double {
            var (start, end, startFrequency, endFrequency) = (t0, t1, f0, f1)
            if end < start { swap(&start, &end); swap(&startFrequency, &endFrequency) }
            if start == end { return endFrequency }
            return (endFrequency - startFrequency) / Double(end - start) / 2 * (x - Double(start)) + startFrequency
        }

        /// The base signal at `time` seconds, `frequency` Hz, `phase` radians (a time shift of
        /// phase / (2π f); none at 0 Hz).
        static func wave(_ signal: HJIFBaseSignal, _ time: Double, _ frequency: Double, _ phase: Double) -> Double {
            var t = time
            if frequency != 0 { t += phase / (2 * Double.pi * frequency) }
            let cycles = t * frequency
            switch signal {
            case .sine: return sin(2 * Double.pi * cycles)
            case .square: return 1 - 2 * (cycles - cycles.rounded(.down)).rounded()
            case .triangle: return 1 - 4 * abs((cycles - 0.25).rounded() - (cycles - 0.25))
            case .sawToothUp: return 2 * (cycles - (cycles + 0.5).rounded(.down))
            case .sawToothDown: return 2 * ((cycles + 0.5).rounded(.down) - cycles)
            }
        }
    }
}
