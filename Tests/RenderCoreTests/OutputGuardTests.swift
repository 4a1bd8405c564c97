import RenderCore
import Testing
import ThrumModel

/// Issue 13, problem 6: nothing non-finite leaves the renderer. A profile that was never validated (here
/// an infinite band) would put NaN on the actuator channel; the last guard zeroes and counts it. Valid
/// input never triggers it.
@Suite struct OutputGuardTests {
    @Test func nonFiniteSamplesAreZeroedAndCounted() throws {
        var broken = ActuatorProfile.default
        broken.highFrequency = .infinity
        let pattern = try compile(
            PatternData(events: [event(.hapticContinuous, 0, duration: 0.1, [(.hapticSharpness, 1)])]), profile: broken)
        let (buses, renderer) = render(rate: 8000, frames: 1600) { $0.startPlayer(0, pattern: pattern, atFrame: 0) }
        #expect(buses.haptic.allSatisfy { $0.isFinite })
        #expect(buses.left.allSatisfy { $0.isFinite } && buses.right.allSatisfy { $0.isFinite })
        #expect(renderer.statistics.nonFiniteSampleCount > 0)
    }

    @Test func validInputNeverTriggersTheGuard() throws {
        let pattern = try compile(
            PatternData(events: [
                event(.hapticContinuous, 0, duration: 0.1, [(.hapticSharpness, 1)]), event(.hapticTransient, 0.05),
                event(.audioContinuous, 0, duration: 0.2, [(.audioPitch, 1), (.audioBrightness, 1)]),
            ]))
        let (buses, renderer) = render(rate: 8000, frames: 4000) { $0.startPlayer(0, pattern: pattern, atFrame: 0) }
        #expect(buses.haptic.contains { $0 != 0 })
        #expect(renderer.statistics.nonFiniteSampleCount == 0)
    }
}
