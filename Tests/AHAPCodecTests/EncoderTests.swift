import AHAPCodec
import Foundation
import Testing
import ThrumModel

@Suite("AHAP encoder")
struct EncoderTests {
    static let sample = PatternData(
        version: 1,
        metadata: [MetadataEntry(key: "Project", value: "Tést \"q\"\n"), MetadataEntry(key: "A", value: "1")],
        events: [
            EventData(
                type: .hapticContinuous, time: 0.1, duration: 0.3,
                parameters: [EventParameterData(id: .hapticIntensity, value: 0.3), EventParameterData(id: .sustained, value: 0)]),
            EventData(type: .hapticTransient, time: 1e-5),
            EventData(
                type: .audioCustom, time: 2, waveformPath: "sounds/a b.wav", useVolumeEnvelope: false, loopEnabled: nil),
        ],
        parameters: [DynamicParameterData(id: .hapticSharpnessControl, value: -0.7, time: 0.2)],
        curves: [
            ParameterCurveData(id: .audioVolumeControl, time: 0.5, points: [ControlPointData(time: 0, value: 0.1)]),
            ParameterCurveData(id: .hapticIntensityControl, time: 0, points: []),
        ])

    @Test func exactText() {
        let pattern = PatternData(
            version: 1, metadata: [MetadataEntry(key: "Project", value: "P")],
            events: [
                EventData(
                    type: .hapticContinuous, time: 0, duration: 0.5, parameters: [EventParameterData(id: .hapticIntensity, value: 0.8)])
            ],
            parameters: [DynamicParameterData(id: .hapticIntensityControl, value: 0.5, time: 0.25)],
            curves: [ParameterCurveData(id: .hapticSharpnessControl, time: 0, points: [ControlPointData(time: 0, value: 0.1)])])
        #expect(
            AHAPEncoder.encode(pattern) == """
                {
                  "Version": 1.0,
                  "Metadata": {
                    "Project": "P"
                  },
                  "Pattern": [
                    {
                      "Event": {
                        "Time": 0.0,
                        "EventType": "HapticContinuous",
                        "EventDuration": 0.5,
                        "EventParameters": [
                          { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 }
                        ]
                      }
                    },
                    {
                      "Parameter": {
                        "Time": 0.25,
                        "ParameterID": "HapticIntensityControl",
                        "ParameterValue": 0.5
                      }
                    },
                    {
                      "ParameterCurve": {
                        "Time": 0.0,
                        "ParameterID": "HapticSharpnessControl",
                        "ParameterCurveControlPoints": [
                          { "Time": 0.0, "ParameterValue": 0.1 }
                        ]
                      }
                    }
                  ]
                }

                """)
    }

    @Test func roundTripsThroughText() {
        let text = AHAPEncoder.encode(Self.sample)
        let result = AHAPDecoder.decode(text: text, file: nil)
        #expect(result.pattern == Self.sample)
        // The event without duration keeps nil, the flags keep nil vs false.
        #expect(result.pattern?.events[1].duration == nil)
        #expect(result.pattern?.events[2].loopEnabled == nil)
        #expect(result.pattern?.events[2].useVolumeEnvelope == false)
        #expect(AHAPEncoder.encode(result.pattern!) == text)
    }

    @Test func missingVersionRoundTrips() {
        var pattern = Self.sample
        pattern.version = nil
        #expect(AHAPDecoder.decode(text: AHAPEncoder.encode(pattern), file: nil).pattern == pattern)
    }

    @Test func floatsRoundTripExactly() {
        var events: [EventData] = []
        for step in 0..<1000 {
            let value = Float(step) / 997 + Float(step % 7) * 1e-7
            events.append(
                EventData(type: .hapticTransient, time: Double(step) / 3, parameters: [EventParameterData(id: .hapticIntensity, value: value)]))
        }
        let pattern = PatternData(events: events)
        #expect(AHAPDecoder.decode(text: AHAPEncoder.encode(pattern), file: nil).pattern == pattern)
        let dictionary = try? AHAPEncoder.dictionary(pattern)
        #expect(AHAPDecoder.decode(dictionary: dictionary ?? [:]).pattern == pattern)
    }

    @Test func dictionaryForm() throws {
        let dictionary = try AHAPEncoder.dictionary(Self.sample)
        #expect(dictionary["Version"] as? Double == 1)
        let entries = try #require(dictionary["Pattern"] as? [[String: Any]])
        #expect(entries.count == 6)
        let first = try #require(entries[0]["Event"] as? [String: Any])
        #expect(first["EventType"] as? String == "HapticContinuous")
        #expect(first["EventDuration"] as? Double == 0.3)
        let decoded = AHAPDecoder.decode(dictionary: dictionary).pattern
        var expected = Self.sample
        expected.metadata.sort { $0.key < $1.key }
        #expect(decoded == expected)
    }

    @Test func audioResourceEventsCannotBeExported() {
        let pattern = PatternData(events: [EventData(type: .audioCustom, time: 0, audioResourceID: 7)])
        #expect(throws: CHHapticError.self) { try AHAPEncoder.dictionary(pattern) }
        do {
            _ = try AHAPEncoder.dictionary(pattern)
        } catch {
            #expect(error.code == .operationNotPermitted)
        }
    }

    @Test func nonFiniteNumbersAreWrittenAsZero() {
        let pattern = PatternData(events: [EventData(type: .hapticTransient, time: .nan)])
        let decoded = AHAPDecoder.decode(text: AHAPEncoder.encode(pattern), file: nil)
        #expect(decoded.pattern?.events.first?.time == 0)
    }

    @Test func quoting() {
        #expect(AHAPEncoder.quoted("a\"b\\c\n\u{01}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }
}

@Suite("Diagnostic")
struct DiagnosticTests {
    @Test func formattedLikeACompiler() {
        let full = Diagnostic(
            .error, file: "Boing.ahap", line: 12, column: 21, path: "Pattern[3].Event.EventType",
            message: "unknown EventType \"hapticTransient\"", suggestion: "did you mean \"HapticTransient\"?",
            code: .invalidEventType)
        #expect(
            full.formatted
                == "Boing.ahap:12:21: error: Pattern[3].Event.EventType: unknown EventType \"hapticTransient\"; did you mean \"HapticTransient\"? [CHHapticError.invalidEventType]")
        #expect(Diagnostic(.warning, path: "", message: "m").formatted == "<input>: warning: m")
        #expect(Diagnostic(.warning, file: "f", line: 3, path: "Version", message: "m").formatted == "f:3: warning: Version: m")
    }

    @Test func jsonForms() throws {
        let diagnostic = Diagnostic(
            .error, file: "f.ahap", line: 2, column: 5, path: "Pattern", message: "m \"x\"", suggestion: nil,
            code: .invalidPatternDictionary)
        let object = diagnostic.jsonObject
        #expect(object["line"] as? Int == 2)
        #expect(object["code"] as? String == "invalidPatternDictionary")
        #expect(object["codeValue"] as? Int == -4814)
        #expect(object["suggestion"] is JSONNull)
        #expect(
            diagnostic.jsonText
                == #"{"file":"f.ahap","line":2,"column":5,"severity":"error","path":"Pattern","message":"m \"x\"","suggestion":null,"code":"invalidPatternDictionary","codeValue":-4814}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(diagnostic.jsonText.utf8)) as? [String: Any]
        #expect(parsed?["message"] as? String == "m \"x\"")
        // The object, written by JSONObjects and read back by Foundation, is what jsonText says.
        let rewritten = try JSONSerialization.jsonObject(with: Data(JSONObjects.text(object).utf8)) as? NSDictionary
        #expect(rewritten != nil && rewritten == parsed.map { $0 as NSDictionary })
    }
}
