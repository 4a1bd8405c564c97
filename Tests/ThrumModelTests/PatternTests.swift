import Testing
import ThrumModel

@Suite struct PatternTests {
    @Test func initialisersCopyEventsAndComputeDuration() throws {
        let tap = CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0.5)
        let buzz = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.8)], relativeTime: 1,
            duration: 2)
        let step = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: 3.5)
        let pattern = try CHHapticPattern(events: [tap, buzz], parameters: [step])
        #expect(pattern.duration == 3.5)
        tap.relativeTime = 9
        #expect(pattern.data.events[0].time == 0.5)
        #expect(pattern.data.events[1].value(of: .hapticIntensity) == 0.8)
        #expect(pattern.data.parameters == [DynamicParameterData(id: .hapticIntensityControl, value: 0.5, time: 3.5)])
    }

    @Test func curveDurationCountsItsLastPoint() throws {
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl,
            controlPoints: [.init(relativeTime: 0, value: 0), .init(relativeTime: 1.5, value: 1)], relativeTime: 2)
        let event = CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: 0, duration: 1)
        let pattern = try CHHapticPattern(events: [event], parameterCurves: [curve])
        #expect(pattern.duration == 3.5)
    }

    @Test func continuousDurationIsCappedAtThirtySeconds() {
        let pattern = PatternData(events: [EventData(type: .hapticContinuous, time: 1, duration: 45)])
        #expect(pattern.duration == 31)
        #expect(PatternData(events: [EventData(type: .audioContinuous, time: 0, duration: 45)]).duration == 45)
    }

    @Test func audioResourceEventsAreAudioCustom() {
        let event = CHHapticEvent(audioResourceID: 7, parameters: [], relativeTime: 0.25)
        #expect(event.type == .audioCustom)
        #expect(event.duration == 0)
        #expect(event.data.audioResourceID == 7)
    }
}

@Suite struct ValidationTests {
    func messages(_ pattern: PatternData) -> [String] {
        PatternValidator.issues(in: pattern).map { issue in
            "\(issue.severity.rawValue) \(issue.code?.name ?? "-") \(issue.subpath ?? "."): \(issue.message)"
                + (issue.suggestion.map { " | \($0)" } ?? "")
        }
    }

    @Test func emptyPatternIsInvalidPatternDictionary() {
        #expect(
            messages(PatternData()) == [
                "error invalidPatternDictionary .: the pattern has no events, parameters or curves | add at least one Event to \"Pattern\""
            ])
    }

    @Test func unknownEventTypeSuggestsTheRightCase() {
        let pattern = PatternData(events: [EventData(type: .init(rawValue: "hapticTransient"), time: 0)])
        #expect(
            messages(pattern) == [
                "error invalidEventType EventType: unknown EventType \"hapticTransient\" | did you mean \"HapticTransient\"?"
            ])
    }

    @Test func negativeTimesAndDurations() {
        let pattern = PatternData(events: [
            EventData(type: .hapticTransient, time: -1),
            EventData(type: .hapticContinuous, time: 0, duration: -2),
        ])
        #expect(
            messages(pattern) == [
                "error invalidEventTime Time: event Time -1 is negative",
                "error invalidEventDuration EventDuration: EventDuration -2 is negative",
            ])
    }

    @Test func sustainedContinuousNeedsADuration() {
        let missing = PatternData(events: [EventData(type: .hapticContinuous, time: 0)])
        #expect(
            messages(missing) == [
                "error invalidEventDuration .: a sustained HapticContinuous event needs an EventDuration greater than 0 | add \"EventDuration\", or set Sustained to 0"
            ])
        let decaying = PatternData(events: [
            EventData(type: .hapticContinuous, time: 0, parameters: [.init(id: .sustained, value: 0)])
        ])
        #expect(messages(decaying).isEmpty)
    }

    @Test func thirtySecondCapIsAWarning() {
        let pattern = PatternData(events: [EventData(type: .hapticContinuous, time: 0, duration: 31)])
        #expect(
            messages(pattern) == [
                "warning invalidEventDuration EventDuration: EventDuration 31 s is capped at 30 s (the Core Haptics limit for HapticContinuous) | split it into events of at most 30 s"
            ])
    }

    @Test func parametersOnTheWrongEventTypeAndClamping() {
        let pattern = PatternData(events: [
            EventData(
                type: .hapticTransient, time: 0,
                parameters: [
                    .init(id: .audioPan, value: 0), .init(id: .hapticIntensity, value: 2),
                    .init(id: .init(rawValue: "HapticSharpnes"), value: 0.5), .init(id: .hapticIntensity, value: 1),
                ])
        ])
        #expect(
            messages(pattern) == [
                "error invalidParameterType EventParameters[0]: AudioPan is not a parameter of HapticTransient events | haptic events take HapticIntensity, HapticSharpness and envelope parameters",
                "warning - EventParameters[1]: HapticIntensity 2 is outside 0…1; clamped to 1",
                "error invalidParameterType EventParameters[2]: unknown ParameterID \"HapticSharpnes\" | did you mean \"HapticSharpness\"?",
                "warning - EventParameters[3]: HapticIntensity is given twice in one event; the last one wins",
            ])
    }

    @Test func curveRules() {
        let attack = PatternData(curves: [
            ParameterCurveData(id: .hapticAttackTimeControl, time: 0, points: [.init(time: 0, value: 0)])
        ])
        #expect(messages(attack).first?.hasPrefix("error invalidParameterType ParameterID: HapticAttackTimeControl cannot be a ParameterCurve") == true)
        let long = PatternData(curves: [
            ParameterCurveData(
                id: .hapticIntensityControl, time: 2, points: (0..<17).map { .init(time: 2 + Double($0) * 0.1, value: 0.5) })
        ])
        #expect(
            messages(long) == [
                "warning - ParameterCurveControlPoints: the curve has 17 control points; Core Haptics limits curves to 16 (Thrum plays all of them) | split it into curves of at most 16 points",
                "warning - ParameterCurveControlPoints[0]: the first control point's Time equals the curve's Time (2): the file looks exported with absolute times, but point times are relative to the curve | subtract the curve's Time from each point's Time",
            ])
    }

    @Test func unknownDynamicIDSuggestsTheControlName() {
        let pattern = PatternData(parameters: [DynamicParameterData(id: .init(rawValue: "HapticIntensity"), value: 1, time: 0)])
        #expect(
            messages(pattern) == [
                "error invalidParameterType ParameterID: unknown dynamic ParameterID \"HapticIntensity\" | did you mean \"HapticIntensityControl\"?"
            ])
    }

    @Test func versionOutsideTheSupportedRangeWarns() {
        var pattern = PatternData(version: 2, events: [EventData(type: .hapticTransient, time: 0)])
        #expect(
            messages(pattern) == [
                "warning notSupported .: Version 2 is outside 1.0–1.1: Core Haptics refuses to load it (Thrum plays it) | set \"Version\": 1.0"
            ])
        pattern.version = 1.1
        #expect(messages(pattern).isEmpty)
    }

    @Test func audioCustomRules() {
        let pattern = PatternData(events: [
            EventData(type: .audioCustom, time: 0),
            EventData(type: .audioCustom, time: 0, waveformPath: "a.wav", loopEnabled: true),
        ])
        #expect(
            messages(pattern) == [
                "error badEventEntry .: AudioCustom event has no EventWaveformPath | add \"EventWaveformPath\" naming an audio file next to the AHAP file",
                "error invalidEventDuration .: looping is enabled but the AudioCustom event has no EventDuration | add \"EventDuration\" or remove \"EventWaveformLoopEnabled\"",
            ])
        #expect(PatternValidator.firstError(in: pattern)?.code == .badEventEntry)
    }

    @Test func suggestions() {
        #expect(Suggestions.closest(to: "ParameterCurves", in: ["ParameterCurve", "Parameter", "Event"]) == "ParameterCurve")
        #expect(Suggestions.closest(to: "Zebra", in: ["ParameterCurve", "Event"]) == nil)
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
    }
}
