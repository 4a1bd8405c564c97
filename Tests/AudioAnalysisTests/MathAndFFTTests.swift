import Foundation
import ThrumTestSupport
import XCTest

@testable import AudioAnalysis

final class MathAndFFTTests: XCTestCase {
    func testElementaryFunctionsMatchTheLibrary() {
        for x in stride(from: -3.0, through: 3.0, by: 0.0137) {
            let (s, c) = AnalysisMath.sinCos(cycles: x)
            XCTAssertEqual(s, sin(2 * .pi * x), accuracy: 1e-12, "sin at \(x)")
            XCTAssertEqual(c, cos(2 * .pi * x), accuracy: 1e-12, "cos at \(x)")
        }
        for x in stride(from: -60.0, through: 60.0, by: 0.731) {
            XCTAssertEqual(AnalysisMath.exp(x) / Foundation.exp(x), 1, accuracy: 1e-12, "exp at \(x)")
        }
        XCTAssertEqual(AnalysisMath.exp(-800), 0)
        XCTAssertEqual(AnalysisMath.amplitude(decibels: -20), 0.1, accuracy: 1e-14)
        var x: Float = 1e-9
        while x < 1e9 {
            XCTAssertEqual(AnalysisMath.log2Fast(x), log2(x), accuracy: 1e-4, "log2 at \(x)")
            x *= 1.37
        }
        XCTAssertEqual(AnalysisMath.log2Fast(0), -126)
    }

    /// The power spectrum equals |DFT|² computed from the definition.
    func testPowerSpectrumMatchesTheDefinition() {
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
                XCTAssertEqual(Double(power[k]), expected[k], accuracy: 1e-4 * largest, "size \(size) bin \(k)")
            }
        }
    }

    func testFiltersHaveTheirDesignedGains() {
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
        XCTAssertEqual(gain(lp, at: 100), 1, accuracy: 0.01)
        XCTAssertEqual(gain(lp, at: 1000), 1 / sqrt(2), accuracy: 0.01)
        XCTAssertLessThan(gain(lp, at: 10_000), 0.012)  // 2nd order: −40 dB a decade
        let hp = Biquad.highPass(corner: 50, sampleRate: 48_000)
        XCTAssertEqual(gain(hp, at: 50), 1 / sqrt(2), accuracy: 0.01)
        XCTAssertEqual(gain(hp, at: 2000), 1, accuracy: 0.01)
        XCTAssertEqual(gain(.lowPass(corner: 30_000, sampleRate: 48_000), at: 5000), 1, accuracy: 1e-9)
    }
}
