import Foundation
import Testing
import Thrum
import ThrumTestSupport

@Suite struct PatternCodingTests {
    @Test func dictionaryWithAppleKeys() throws {
        let dictionary: [CHHapticPattern.Key: Any] = [
            .version: 1.0,
            .pattern: [
                [
                    CHHapticPattern.Key.event: [
                        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticContinuous,
                        CHHapticPattern.Key.time: 0.25, CHHapticPattern.Key.eventDuration: 1.0,
                        CHHapticPattern.Key.eventParameters: [
                            [
                                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity,
                                CHHapticPattern.Key.parameterValue: 0.6,
                            ]
                        ],
                    ]
                ],
                [
                    CHHapticPattern.Key.parameterCurve: [
                        CHHapticPattern.Key.parameterID: CHHapticDynamicParameter.ID.hapticIntensityControl.rawValue,
                        CHHapticPattern.Key.time: 0.25,
                        CHHapticPattern.Key.parameterCurveControlPoints: [
                            [CHHapticPattern.Key.time: 0, CHHapticPattern.Key.parameterValue: 0.2],
                            [CHHapticPattern.Key.time: 1, CHHapticPattern.Key.parameterValue: 1],
                        ],
                    ]
                ],
            ],
        ]
        let pattern = try CHHapticPattern(dictionary: dictionary)
        #expect(pattern.duration == 1.25)
        #expect(pattern.data.events.first?.value(of: .hapticIntensity) == 0.6)
        #expect(pattern.data.curves.first?.points.count == 2)

        let exported = try pattern.exportDictionary()
        let again = try CHHapticPattern(dictionary: exported)
        #expect(again.data == pattern.data)
    }

    @Test func dictionaryErrorsThrowTheirCode() {
        let bad: [CHHapticPattern.Key: Any] = [
            .pattern: [[CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: "Bogus", CHHapticPattern.Key.time: 0]]]
        ]
        #expect(throws: CHHapticError(.invalidEventType, "<pattern>: Pattern[0].Event.EventType: unknown EventType \"Bogus\"; use one of HapticTransient, HapticContinuous, AudioContinuous, AudioCustom")) {
            try CHHapticPattern(dictionary: bad)
        }
        #expect(throws: CHHapticError.self) { try CHHapticPattern(dictionary: [.version: 1.0]) }
    }

    @Test func contentsOfFile() throws {
        let url = packageRoot.appendingPathComponent("Resources/Patterns/heartbeat.ahap")
        let pattern = try CHHapticPattern(contentsOf: url)
        #expect(pattern.duration == 1.0)
        do {
            _ = try CHHapticPattern(contentsOf: URL(fileURLWithPath: "/nonexistent/x.ahap"))
            Issue.record("expected fileNotFound")
        } catch CHHapticError.fileNotFound {
        } catch { Issue.record("unexpected \(error)") }
        do {
            _ = try CHHapticPattern(contentsOf: packageRoot.appendingPathComponent("Package.swift"))
            Issue.record("expected notSupported")
        } catch CHHapticError.notSupported {
        } catch { Issue.record("unexpected \(error)") }
        do {
            _ = try CHHapticPattern(contentsOf: URL(string: "https://example.com/a.ahap")!)
            Issue.record("expected fileNotFound")
        } catch CHHapticError.fileNotFound {
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func exportRefusesResourceIDEvents() throws {
        let event = CHHapticEvent(audioResourceID: 3, parameters: [], relativeTime: 0)
        let pattern = try CHHapticPattern(events: [event], parameters: [])
        do {
            _ = try pattern.exportDictionary()
            Issue.record("expected operationNotPermitted")
        } catch CHHapticError.operationNotPermitted {
        } catch { Issue.record("unexpected \(error)") }
    }
}
