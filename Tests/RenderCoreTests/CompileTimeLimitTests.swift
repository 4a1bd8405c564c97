import RenderCore
import Testing
import ThrumModel

/// Issue 13, problem 1, at the render core: a pattern compiled without validation never traps on a
/// time that does not fit a frame count; it is a `CompileError`.
@Suite struct CompileTimeLimitTests {
    @Test(arguments: [
        PatternData(events: [EventData(type: .hapticTransient, time: 2e14)]),
        PatternData(events: [EventData(type: .audioContinuous, time: 0, duration: 1e15)]),
        PatternData(events: [EventData(type: .hapticTransient, time: .nan)]),
        PatternData(parameters: [DynamicParameterData(id: .hapticIntensityControl, value: 1, time: .infinity)]),
        PatternData(curves: [ParameterCurveData(id: .hapticIntensityControl, time: 86_000, points: [.init(time: 1000, value: 1)])]),
    ])
    func timesThatDoNotFitAreErrors(pattern: PatternData) {
        #expect(throws: CompileError.self) { try CompiledPattern(compiling: pattern, sampleRate: 48_000) }
    }

    @Test func theWholeRangeCompiles() throws {
        let pattern = PatternData(events: [EventData(type: .audioContinuous, time: 86_000, duration: 400)])
        let compiled = try CompiledPattern(compiling: pattern, sampleRate: 768_000)
        #expect(compiled.duration == 86_400)
        #expect(compiled.tailFrames > 86_400 * 768_000)
    }
}
