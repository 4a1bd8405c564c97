import Foundation
import Testing
import ThrumTestSupport
import Thrum

/// Issue 13 in the library. Problem 1: huge or non-finite times and durations, from a pattern or an API
/// call, are errors the caller can catch (or values clamped into range), never a trap. Problem 6: a
/// profile whose band the engine cannot render is refused when the engine is made.
@Suite struct HostileInputTests {
    func expectCode(_ code: CHHapticError.Code, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as CHHapticError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func hugeTimesInAPatternAreErrorsWhenThePlayerIsMade() throws {
        let engine = try offlineEngine()
        let cases: [(CHHapticError.Code, PatternData)] = [
            (.invalidEventTime, PatternData(events: [EventData(type: .hapticTransient, time: 2e14)])),
            (.invalidEventDuration, PatternData(events: [EventData(type: .audioContinuous, time: 0, duration: 1e15)])),
            (.invalidTime, PatternData(parameters: [DynamicParameterData(id: .hapticIntensityControl, value: 1, time: 2e14)])),
            (
                .invalidTime,
                PatternData(curves: [
                    ParameterCurveData(id: .hapticIntensityControl, time: 0, points: [.init(time: 2e14, value: 1)])
                ])
            ),
        ]
        for (code, data) in cases {
            expectCode(code) { _ = try engine.makePlayer(with: CHHapticPattern(data: data)) }
        }
        let event = CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: .nan)
        expectCode(.invalidEventTime) { _ = try engine.makePlayer(with: CHHapticPattern(events: [event], parameters: [])) }
    }

    @Test func hugeEngineTimesAreInvalidTime() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        expectCode(.invalidTime) { try player.start(atTime: 1e300) }
        expectCode(.invalidTime) { try player.start(atTime: engine.currentTime + 86_401) }
        expectCode(.invalidTime) { try player.start(atTime: .infinity) }
        try player.start(atTime: 0)
        expectCode(.invalidTime) { try player.stop(atTime: 1e300) }
        expectCode(.invalidTime) { try player.pause(atTime: .nan) }
        expectCode(.invalidTime) { try player.resume(atTime: 1e20) }
        expectCode(.invalidTime) {
            try player.sendParameters(
                [CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 1, relativeTime: 1e300)], atTime: 0)
        }
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl, controlPoints: [.init(relativeTime: 1e300, value: 1)], relativeTime: 0)
        expectCode(.invalidTime) { try player.scheduleParameterCurve(curve, atTime: 0) }
        expectCode(.invalidTime) { try player.seek(toOffset: 1e300) }
        expectCode(.invalidTime) { try player.seek(toOffset: .nan) }
        _ = try render(engine, frames: 800)
    }

    @Test func extremeLoopEndAndRateAreClampedAndPlay() throws {
        let engine = try offlineEngine()
        let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(events: [transient(at: 0)], parameters: []))
        player.loopEnabled = true
        player.loopEnd = 1e300
        #expect(player.loopEnd == 86_400)
        player.playbackRate = 1e-30
        #expect(player.playbackRate == 0.001)
        player.playbackRate = 1e30
        #expect(player.playbackRate == 1000)
        player.playbackRate = 1e-30
        try player.start(atTime: 0)
        let samples = try render(engine, frames: 1600)
        #expect(peak(channel(samples, 2, of: 3), 0..<1600) > 0, "the transient at 0 plays")
    }

    @Test func aProfileBandAboveAQuarterOfTheRateIsRefused() throws {
        for high in [1e7, 12_000, 1e300] {
            var profile = ActuatorProfile.default
            profile.highFrequency = high
            expectCode(.invalidEngineParameter) { _ = try offlineEngine(rate: 48_000) { $0.actuatorProfile = profile } }
        }
        var fine = ActuatorProfile.default
        fine.highFrequency = 11_999
        _ = try offlineEngine(rate: 48_000) { $0.actuatorProfile = fine }
        var low = ActuatorProfile.default
        low.lowFrequency = .nan
        expectCode(.invalidEngineParameter) { _ = try offlineEngine(rate: 48_000) { $0.actuatorProfile = low } }
    }

    static func json(high: String, gain: String = "0.8") -> Data {
        Data(#"{"name": "x", "lowFrequency": 80, "highFrequency": \#(high), "gain": \#(gain)}"#.utf8)
    }

    @Test func aProfileFileWithABandPastAQuarterOfTheHighestRateIsRefused() {
        #expect(throws: ActuatorProfileError.invalidField("highFrequency", "must be below 192000 Hz (a quarter of the highest engine rate, 768000 Hz), got 1e+300")) {
            try ActuatorProfile.decode(from: Self.json(high: "1e300"))
        }
        #expect(throws: ActuatorProfileError.self) { try ActuatorProfile.decode(from: Self.json(high: "1e7")) }
        #expect(throws: ActuatorProfileError.self) { try ActuatorProfile.decode(from: Self.json(high: "200", gain: "1e300")) }
        #expect((try? ActuatorProfile.decode(from: Self.json(high: "230"))) != nil)
    }
}
