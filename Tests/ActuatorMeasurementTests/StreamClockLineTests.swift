import ALSAOutput
import Foundation
import Testing
import ThrumTestSupport

@testable import ActuatorMeasurement

/// The clock line that lines the input up with the output: readings made late by a stepping pointer, a
/// timestamp taken after the position, and bursts of preemption (the way a loaded machine reads a card), on a
/// clock whose true start and rate the test chose.
@Suite("Stream clock line")
struct StreamClockLineTests {
    @Test("late readings and a late burst at the start leave the line within 3 µs of the true clock")
    func lowerEnvelope() throws {
        var random = SplitMix64(seed: 0x5c1_0c4)
        let rate = 48_000 * (1 + 180e-6)
        let start = 5_123.25
        var readings: [StreamClockReading] = []
        for index in 0..<1_500 {
            let pointerTime = start + (Double(index) * 480 + random.range(0, 480)) / rate
            let frame = ((pointerTime - start) * rate).rounded(.down)
            var late = random.range(0.5e-6, 2e-6)
            if random.range(0, 1) < 0.3 { late += random.range(0, 400e-6) }
            if index < 60 { late += random.range(2e-3, 6e-3) }
            readings.append(StreamClockReading(frame: 1_000 + UInt64(frame), seconds: pointerTime + late))
        }
        let line = try #require(StreamClockLine(readings, frameBase: 1_000, nominalRate: 48_000))
        for frame in [0.0, 360_000, 719_000] {
            let error = line.time(ofFrame: frame) - (start + frame / rate)
            #expect(abs(error) <= 3e-6, "frame \(frame): \(error * 1e6) µs off the true clock")
        }
    }
}
