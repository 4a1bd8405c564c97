import Foundation
import Testing
import ThrumModel

/// Issue 13, problem 1: every time and duration is checked before it becomes frames. Non-finite values
/// and values past the longest pattern (24 h) are located errors, never a trap further on.
@Suite struct TimeLimitTests {
    func messages(_ pattern: PatternData) -> [String] {
        PatternValidator.issues(in: pattern).map { issue in
            "\(issue.severity.rawValue) \(issue.code?.name ?? "-") \(issue.subpath ?? "."): \(issue.message)"
        }
    }

    @Test func theLongestPatternIs24Hours() {
        #expect(HapticLimits.maxPatternDuration == 86_400)
        #expect(HapticLimits.isPlayableTime(0))
        #expect(HapticLimits.isPlayableTime(86_400))
        #expect(!HapticLimits.isPlayableTime(86_400.5))
        #expect(!HapticLimits.isPlayableTime(-0.001))
        #expect(!HapticLimits.isPlayableTime(.nan))
        #expect(!HapticLimits.isPlayableTime(.infinity))
    }

    @Test func eventTimesPastTheLimitOrNotFinite() {
        let pattern = PatternData(events: [
            EventData(type: .hapticTransient, time: 2e14),
            EventData(type: .hapticTransient, time: .nan),
            EventData(type: .hapticTransient, time: .infinity),
        ])
        #expect(
            messages(pattern) == [
                "error invalidEventTime Time: event Time 2e+14 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidEventTime Time: event Time nan is not a finite number",
                "error invalidEventTime Time: event Time inf is not a finite number",
            ])
    }

    @Test func durationsPastTheLimit() {
        let pattern = PatternData(events: [
            EventData(type: .audioContinuous, time: 0, duration: 1e15),
            EventData(type: .audioCustom, time: 0, duration: 1e15, waveformPath: "a.wav", loopEnabled: true),
            EventData(type: .audioCustom, time: 0, duration: 1e15, waveformPath: "a.wav"),
            EventData(type: .audioContinuous, time: 86_000, duration: 1000),
            EventData(type: .audioContinuous, time: 0, duration: .nan),
        ])
        #expect(
            messages(pattern) == [
                "error invalidEventDuration EventDuration: EventDuration 1e+15 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidEventDuration EventDuration: EventDuration 1e+15 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidEventDuration EventDuration: EventDuration 1e+15 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidEventDuration EventDuration: the event ends at 87000 s, past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidEventDuration EventDuration: EventDuration nan is not a finite number",
            ])
    }

    @Test func aCappedHapticContinuousStaysAWarning() {
        let pattern = PatternData(events: [EventData(type: .hapticContinuous, time: 0, duration: 1e15)])
        #expect(
            messages(pattern) == [
                "warning invalidEventDuration EventDuration: EventDuration 1e+15 s is capped at 30 s (the Core Haptics limit for HapticContinuous)"
            ])
    }

    @Test func parameterAndCurveTimes() {
        let pattern = PatternData(
            parameters: [
                DynamicParameterData(id: .hapticIntensityControl, value: 1, time: 1e300),
                DynamicParameterData(id: .hapticIntensityControl, value: 1, time: .nan),
            ],
            curves: [
                ParameterCurveData(id: .hapticIntensityControl, time: 1e15, points: [.init(time: 0, value: 1)]),
                ParameterCurveData(
                    id: .hapticIntensityControl, time: 0,
                    points: [.init(time: 0, value: 1), .init(time: 2e14, value: 0), .init(time: .infinity, value: 0)]),
                ParameterCurveData(
                    id: .hapticIntensityControl, time: 86_000, points: [.init(time: 0, value: 1), .init(time: 500, value: 0)]),
            ])
        #expect(
            messages(pattern) == [
                "error invalidTime Time: parameter Time 1e+300 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidTime Time: parameter Time nan is not a finite number",
                "error invalidTime Time: curve Time 1e+15 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidTime ParameterCurveControlPoints[1]: control point Time 2e+14 s is past 86400 s, the longest pattern Thrum plays (24 h)",
                "error invalidTime ParameterCurveControlPoints[2]: control point Time inf is not a finite number",
                "error invalidTime ParameterCurveControlPoints[1]: the control point is at 86500 s, past 86400 s, the longest pattern Thrum plays (24 h)",
            ])
    }

    @Test func everythingWithinTheLimitIsFine() {
        let pattern = PatternData(
            events: [EventData(type: .audioContinuous, time: 86_300, duration: 100)],
            parameters: [DynamicParameterData(id: .hapticIntensityControl, value: 1, time: 86_400)],
            curves: [ParameterCurveData(id: .hapticIntensityControl, time: 400, points: [.init(time: 86_000, value: 1)])])
        #expect(messages(pattern).isEmpty)
        #expect(pattern.duration == 86_400)
    }
}
