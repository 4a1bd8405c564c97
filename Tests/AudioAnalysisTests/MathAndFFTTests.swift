import Foundation
import ThrumTestSupport
import Testing

@testable import AudioAnalysis

@Suite struct MathAndFFTTests {
    @Test func elementaryFunctionsMatchTheLibrary() {
        for x in stride(from: -3.0, through: 3.0, by: 0.0137) {
            let (s, c) = AnalysisMath.sinCos(cycles: x)
            #expect(abs(s - (sin(2 * .pi * x))) <= 1e-12, "sin at \(x)")
            #expect(abs(c - (cos(2 * .pi * x))) <= 1e-12, "cos at \(x)")
        }
        for x in stride(from: -60.0, through: 60.0, by: 0.731) {
            #expect(abs(AnalysisMath.exp(x) / Foundation.exp(x) - 1) <= 1e-12, "exp at \(x)")
        }
        #expect(AnalysisMath.exp(-800) == 0)
        #expect(abs(AnalysisMath.amplitude(decibels: -20) - 0.1) <= 1e-14)
        var x: Float = 1e-9
        while x < 1e9 {
            #expect(abs(AnalysisMath.log2Fast(x) - (log2(x))) <= 1e-4, "log2 at \(x)")
            x *= 1.37
        }
        #expect(AnalysisMath.log2Fast(0) == -126)
    }

    /// The power spectrum equals |DFT|² computed from the definition.
    @Test func powerSpectrumMatchesTheDefinition() {
        var rng = SplitMix64(seed: 9)
        for size in [4, 8, 16, 64, 1024] {
            let input = (0..<size).map { _ in Float(rng.noise()) }
            let fft = RealFFT(size: size)
            defer { fft.deallocate() }
            var power = [Float](repeating: -1, count: fft.binCount)
            input.withUnsafeBufferPointer { i in
                power.withUnsafeMutableBufferPointer { fft.powerSpectrum(of: i.baseAddress!, into: $0.baseAddress!) }
            }
            var largest = 0.0
            var expected: [Double] = []
            for k in 0...(size / 2) {
                var re = 0.0
                var im = 0.0
                for n in 0..<size {
                    re += Double(input[n]) * cos(2 * .pi * Double(k * n) / Double(size))
                    im -= Double(input[n]) * sin(2 * .pi * Double(k * n) / Double(size))
                }
                expected.append(re * re + im * im)
                largest = max(largest, re * re + im * im)
            }
            for k in expected.indices {
                #expect(abs(Double(power[k]) - (expected[k])) <= 1e-4 * largest, "size \(size) bin \(k)")
            }
        }
    }

    @Test func filtersHaveTheirDesignedGains() {
        // Steady-state gain of each design at a few frequencies, measured on a sine.
        func gain(_ filter: Biquad, at frequency: Double, rate: Double = 48_000) -> Double {
            var f = filter
            var peak = 0.0
            for i in 0..<Int(rate) {
                let y = f.process(sin(2 * .pi * frequency * Double(i) / rate))
                if i > Int(rate) / 2 { peak = max(peak, abs(y)) }
            }
            return peak
        }
        let lp = Biquad.lowPass(corner: 1000, sampleRate: 48_000)
        #expect(abs(gain(lp, at: 100) - 1) <= 0.01)
        #expect(abs(gain(lp, at: 1000) - (1 / sqrt(2))) <= 0.01)
        #expect(gain(lp, at: 10_000) < 0.012)  // 2nd order: −40 dB a decade
        let hp = Biquad.highPass(corner: 50, sampleRate: 48_000)
        #expect(abs(gain(hp, at: 50) - (1 / sqrt(2))) <= 0.01)
        #expect(abs(gain(hp, at: 2000) - 1) <= 0.01)
        #expect(abs(gain(.lowPass(corner: 30_000, sampleRate: 48_000), at: 5000) - 1) <= 1e-9)
    }
}
