import Foundation
import ThrumTestSupport
import Testing

@testable import AudioAnalysis

@Suite struct BreakpointReducerTests {
    /// Largest distance between `values` (sample i at i × step) and the lines through `points`.
    func largestError(_ values: [Float], _ points: [Breakpoint], step: Double) -> Float {
        var worst: Float = 0
        for (i, v) in values.enumerated() {
            worst = max(worst, abs(HapticAnalysis.value(of: points, at: Double(i) * step) - v))
        }
        return worst
    }

    @Test func everySampleStaysWithinTheTolerance() {
        var rng = SplitMix64(seed: 5)
        var v: Float = 0.5
        let values = (0..<20_000).map { _ -> Float in
            v = min(max(v + Float(rng.range(-0.003, 0.003)), 0), 1)
            return v
        }
        for tolerance: Float in [0.005, 0.02, 0.1] {
            let points = BreakpointReducer.reduce(values, start: 0, step: 0.001, tolerance: tolerance)
            #expect(largestError(values, points, step: 0.001) <= tolerance * 1.0001)
            #expect(points.first?.time == 0)
            #expect(abs(points.last!.time - 19.999) <= 1e-9)
            #expect(points.allSatisfy { (0...1).contains($0.value) })
            #expect(points.count < values.count / 4, "tolerance \(tolerance)")
        }
    }

    @Test func aStraightLineNeedsItsTwoEnds() {
        let values = (0...1000).map { Float($0) / 1000 }
        let points = BreakpointReducer.reduce(values, start: 2, step: 0.01, tolerance: 0.001)
        #expect(points.count == 2)
        #expect(points[0] == Breakpoint(time: 2, value: 0))
        #expect(abs(points[1].time - 12) <= 1e-9)
        #expect(abs(points[1].value - 1) <= 1e-6)
    }

    @Test func cornersAreKept() {
        // A triangle: up for 100 samples, down for 100; the apex must survive a tight tolerance.
        let values = (0...200).map { Float($0 <= 100 ? $0 : 200 - $0) / 100 }
        let points = BreakpointReducer.reduce(values, start: 0, step: 1, tolerance: 0.001)
        #expect(points.count == 3)
        #expect(points[1].time == 100)
        #expect(abs(points[1].value - 1) <= 0.001)
    }

    @Test func theDensityLimitRaisesTheTolerance() {
        var rng = SplitMix64(seed: 6)
        let values = (0..<5000).map { _ in Float(rng.unit()) }
        let (points, used) = BreakpointReducer.reduce(values, start: 0, step: 0.001, tolerance: 0.01, maxPoints: 50)
        #expect(points.count <= 50)
        #expect(used > 0.01)
        #expect(largestError(values, points, step: 0.001) <= used * 1.0001)
    }

    @Test func edgeCases() {
        #expect(BreakpointReducer.reduce([], start: 0, step: 1, tolerance: 0.1) == [])
        #expect(BreakpointReducer.reduce([0.4], start: 1, step: 1, tolerance: 0.1) == [Breakpoint(time: 1, value: 0.4)])
    }
}

extension BreakpointReducerTests {
    @Test func silenceIsKeptExactlyAndRisesStartFromIt() {
        // Silence, a bump, silence: the zeros around the bump are breakpoints at exactly 0.
        var values = [Float](repeating: 0, count: 300)
        for i in 100..<200 { values[i] = 0.5 + 0.3 * sin(Float(i) / 10) }
        let points = BreakpointReducer.reduce(values, start: 0, step: 0.001, tolerance: 0.05)
        for i in [0, 99, 200, 299] {
            #expect(points.contains(Breakpoint(time: Double(i) * 0.001, value: 0)), "sample \(i) kept as 0")
        }
        #expect(HapticAnalysis.value(of: points, at: 0.05) == 0)
        #expect(HapticAnalysis.value(of: points, at: 0.25) == 0)
        #expect(largestError(values, points, step: 0.001) <= 0.05 * 1.0001)
        #expect(points.last == Breakpoint(time: 0.299, value: 0))
    }
}
