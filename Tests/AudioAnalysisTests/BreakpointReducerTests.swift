import Foundation
import ThrumTestSupport
import Testing

@testable import AudioAnalysis

/// Visvalingam–Whyatt reduction in one-second regions, worked out by hand from the method's definition
/// (a point's score is twice the area of its triangle with its neighbours; the smallest goes first).
@Suite struct BreakpointReducerTests {
    func points(_ values: [(Double, Float)]) -> [Breakpoint] { values.map { Breakpoint(time: $0.0, value: $0.1) } }

    func reduce(_ points: [Breakpoint], perRegion: Int, minimumScore: Float = 0, tolerance: Float = 0, region: Double = 1)
        -> [Int]
    {
        BreakpointReducer.reduce(points, perRegion: perRegion, minimumScore: minimumScore, tolerance: tolerance, regionSeconds: region)
    }

    /// (0,0) (1,1) (2,0) (3,0.1) (4,0) in one region: scores 2, 1.1, 0.2, so the small bump at 3 goes first;
    /// then (1,1) and (2,0) both score 2 and the leftmost triangle goes.
    @Test func theSmallestTriangleGoesFirst() {
        let bumps = points([(0, 0), (1, 1), (2, 0), (3, 0.1), (4, 0)])
        #expect(reduce(bumps, perRegion: 5, region: 10) == [0, 1, 2, 3, 4])
        #expect(reduce(bumps, perRegion: 4, region: 10) == [0, 1, 2, 4])
        #expect(reduce(bumps, perRegion: 3, region: 10) == [0, 2, 4])
        #expect(reduce(bumps, perRegion: 1, region: 10) == [0, 4])
    }

    /// Each second keeps at most its budget, and its first and last points.
    @Test func eachSecondKeepsItsBudgetAndItsEnds() {
        var rng = SplitMix64(seed: 5)
        let noisy = (0..<5000).map { Breakpoint(time: Double($0) * 0.001, value: Float(rng.unit())) }
        let kept = reduce(noisy, perRegion: 40)
        for second in 0..<5 {
            let inRegion = kept.filter { Int(noisy[$0].time + 1e-9) == second }
            #expect(inRegion.count == 40, "second \(second)")
            #expect(inRegion.first == second * 1000 && inRegion.last == second * 1000 + 999, "second \(second)")
        }
    }

    /// Points on a straight line score 0: a minimum score drops them all but the region's ends, as in
    /// Haptics Studio (silence and steady levels cost no breakpoints).
    @Test func theMinimumScoreClearsStraightRuns() {
        let ramp = (0...100).map { Breakpoint(time: Double($0) * 0.005, value: Float($0) / 100) }
        #expect(reduce(ramp, perRegion: 1000) == Array(0...100))
        #expect(reduce(ramp, perRegion: 1000, minimumScore: 1e-8) == [0, 100])
    }

    /// Tolerance drops the points within that distance of the line between their neighbours: an
    /// exponential decay keeps fewer points the larger it is, and stays near the kept lines.
    @Test func toleranceThinsWhatIsNearlyStraight() {
        let decay = (0..<1000).map { Breakpoint(time: Double($0) * 0.001, value: Float(exp(-Double($0) / 200))) }
        var counts: [Int] = []
        for tolerance: Float in [0, 0.001, 0.01, 0.05] {
            let kept = reduce(decay, perRegion: 1000, tolerance: tolerance).map { decay[$0] }
            counts.append(kept.count)
            for point in decay {
                #expect(abs(HapticAnalysis.value(of: kept, at: point.time) - point.value) <= 4 * tolerance + 1e-6, "at \(point.time)")
            }
        }
        #expect(counts[0] == 1000)
        #expect(counts == counts.sorted(by: >) && counts[3] < counts[2] && counts[2] < counts[1])
    }

    @Test func emptyAndSinglePoints() {
        #expect(reduce([], perRegion: 10) == [])
        #expect(reduce(points([(1, 0.4)]), perRegion: 10) == [0])
        #expect(reduce(points([(0, 0.4), (0.5, 0.1)]), perRegion: 1) == [0, 1])
    }
}
