import AHAPCodec
import Foundation
import Testing
import ThrumModel

/// Decodes `text` and returns the formatted diagnostics (file name `t.ahap`).
private func diagnostics(_ text: String) -> [String] {
    AHAPDecoder.decode(text: text, file: "t.ahap").diagnostics.map(\.formatted)
}

/// A one-line document with `entries` as the Pattern array.
private func doc(_ entries: String, version: String = "\"Version\": 1, ") -> String {
    "{\(version)\"Pattern\": [\(entries)]}"
}

@Suite("AHAP decoder")
struct DecoderTests {
    @Test func fullEventWithEveryKey() throws {
        let text = """
            {"Version": 1.0, "Metadata": {"Project": "P", "Count": 3},
             "Pattern": [{"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventDuration": 2,
               "EventWaveformPath": "a.wav", "EventWaveformUseVolumeEnvelope": false,
               "EventWaveformLoopEnabled": true,
               "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.3}]}}]}
            """
        let result = AHAPDecoder.decode(text: text, file: nil)
        // Only the note that Core Haptics may ignore EventDuration on an AHAP audio file (Thrum loops it).
        #expect(result.diagnostics.map(\.path) == ["Pattern[0].Event.EventDuration"])
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && $0.message.contains("may ignore EventDuration") })
        #expect(
            result.pattern
                == PatternData(
                    version: 1, metadata: [MetadataEntry(key: "Project", value: "P"), MetadataEntry(key: "Count", value: "3")],
                    events: [
                        EventData(
                            type: .audioCustom, time: 0.5, duration: 2,
                            parameters: [EventParameterData(id: .audioVolume, value: 0.3)], waveformPath: "a.wav",
                            useVolumeEnvelope: false, loopEnabled: true)
                    ]))
    }

    @Test func parameterAndCurve() throws {
        let text = doc("""
            {"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 1, "ParameterValue": -0.5}},
            {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.25,
              "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 0.5, "ParameterValue": 0}]}}
            """)
        let pattern = try #require(AHAPDecoder.decode(text: text, file: nil).pattern)
        #expect(pattern.parameters == [DynamicParameterData(id: .hapticSharpnessControl, value: -0.5, time: 1)])
        #expect(
            pattern.curves == [
                ParameterCurveData(
                    id: .hapticIntensityControl, time: 0.25,
                    points: [ControlPointData(time: 0, value: 1), ControlPointData(time: 0.5, value: 0)])
            ])
    }

    @Test func oneEntryWithEventAndParameterProducesBoth() throws {
        let text = doc("""
            {"Event": {"Time": 0, "EventType": "HapticTransient"},
             "Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 0.5}}
            """)
        let pattern = try #require(AHAPDecoder.decode(text: text, file: nil).pattern)
        #expect(pattern.events.count == 1)
        #expect(pattern.parameters.count == 1)
    }

    @Test func eventTimeAndParameterTimeAliases() throws {
        let text = doc("""
            {"Event": {"EventTime": 0.25, "EventType": "HapticTransient"}},
            {"Parameter": {"ParameterID": "HapticIntensityControl", "ParameterTime": 0.75, "ParameterValue": 0.5}}
            """)
        let result = AHAPDecoder.decode(text: text, file: nil)
        #expect(result.diagnostics.isEmpty)
        #expect(result.pattern?.events.first?.time == 0.25)
        #expect(result.pattern?.parameters.first?.time == 0.75)
    }

    @Test func aliasIsIgnoredWhenTimeIsAlsoGiven() {
        #expect(
            diagnostics(doc("{\"Event\": {\"Time\": 1, \"EventTime\": 2, \"EventType\": \"HapticTransient\"}}")) == [
                "t.ahap:1:50: warning: Pattern[0].Event.EventTime: EventTime is ignored because Time is also given"
            ])
    }

    @Test func validatorIssuesPointAtAliasedKeys() {
        #expect(
            diagnostics(doc("{\"Event\": {\"EventTime\": -1, \"EventType\": \"HapticTransient\"}}")) == [
                "t.ahap:1:52: error: Pattern[0].Event.EventTime: event Time -1 is negative [CHHapticError.invalidEventTime]"
            ])
    }

    @Test func missingEventDurationIsNil() throws {
        let pattern = try #require(
            AHAPDecoder.decode(text: doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}"), file: nil).pattern)
        #expect(pattern.events[0].duration == nil)
        #expect(pattern.events[0].useVolumeEnvelope == nil)
        #expect(pattern.events[0].loopEnabled == nil)
        #expect(pattern.events[0].parameters.isEmpty)
    }

    @Test func missingParameterValueIsZeroWithAWarning() throws {
        let text = doc("{\"Parameter\": {\"ParameterID\": \"HapticIntensityControl\", \"Time\": 0}}")
        let result = AHAPDecoder.decode(text: text, file: "t.ahap")
        #expect(result.pattern?.parameters == [DynamicParameterData(id: .hapticIntensityControl, value: 0, time: 0)])
        #expect(
            result.diagnostics.map(\.formatted) == [
                "t.ahap:1:42: warning: Pattern[0].Parameter: the Parameter has no ParameterValue; 0 is used, as Core Haptics does (for HapticIntensityControl this silences the player); add \"ParameterValue\""
            ])
        let other = AHAPDecoder.decode(
            text: doc("{\"Parameter\": {\"ParameterID\": \"AudioPanControl\", \"Time\": 0}}"), file: nil)
        #expect(other.diagnostics.first?.message == "the Parameter has no ParameterValue; 0 is used, as Core Haptics does")
    }

    @Test func missingVersionIsAWarning() throws {
        let result = AHAPDecoder.decode(text: doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}", version: ""), file: nil)
        #expect(result.pattern?.version == nil)
        #expect(result.diagnostics.map(\.formatted) == ["<input>:1:1: warning: Version missing; 1.0 assumed; add \"Version\": 1.0"])
    }

    @Test func versionNotANumberIsAWarning() {
        let result = AHAPDecoder.decode(
            text: doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}", version: "\"Version\": \"1.0\", "),
            file: nil)
        #expect(result.pattern?.version == nil)
        #expect(
            result.diagnostics.map(\.formatted) == [
                "<input>:1:13: warning: Version: Version must be a number, found a string; 1.0 assumed; write \"Version\": 1.0"
            ])
    }

    @Test func missingPatternIsAnError() {
        let result = AHAPDecoder.decode(text: "{\"Version\": 1}", file: "t.ahap")
        #expect(result.pattern == nil)
        #expect(
            result.diagnostics.map(\.formatted) == [
                "t.ahap:1:1: error: missing \"Pattern\"; add \"Pattern\": [ … ] with at least one Event [CHHapticError.invalidPatternDictionary]"
            ])
    }

    @Test func patternNotAnArray() {
        #expect(
            diagnostics("{\"Version\": 1, \"Pattern\": {}}") == [
                "t.ahap:1:27: error: Pattern: Pattern must be an array, found an object [CHHapticError.invalidPatternDictionary]"
            ])
    }

    @Test func emptyPatternIsReportedByTheValidator() {
        #expect(
            diagnostics(doc("")) == [
                "t.ahap:1:27: error: Pattern: the pattern has no events, parameters or curves; add at least one Event to \"Pattern\" [CHHapticError.invalidPatternDictionary]"
            ])
    }

    @Test func entryWithoutKnownKeysIsIgnoredWithAWarning() {
        #expect(
            diagnostics(doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}, {}")) == [
                "t.ahap:1:84: warning: Pattern[1]: the entry has no Event, Parameter or ParameterCurve; it is ignored"
            ])
    }

    @Test func entryThatIsNotAnObject() {
        #expect(
            diagnostics(doc("3")) == [
                "t.ahap:1:28: error: Pattern[0]: a Pattern entry must be an object, found a number [CHHapticError.invalidPatternDictionary]"
            ])
    }

    @Test func missingEventType() {
        #expect(
            diagnostics(doc("{\"Event\": {\"Time\": 0}}")) == [
                "t.ahap:1:38: error: Pattern[0].Event: Missing event type: the event has no EventType; add \"EventType\": one of HapticTransient, HapticContinuous, AudioContinuous, AudioCustom [CHHapticError.badEventEntry]"
            ])
    }

    @Test func missingEventTime() {
        #expect(
            diagnostics(doc("{\"Event\": {\"EventType\": \"HapticTransient\"}}")) == [
                "t.ahap:1:38: error: Pattern[0].Event: Illegal or missing event time: the event has no Time; add \"Time\" (seconds from the pattern start) [CHHapticError.invalidEventTime]"
            ])
    }

    @Test func unknownEventTypeComesFromTheValidator() {
        #expect(
            diagnostics(doc("{\"Event\": {\"Time\": 0, \"EventType\": \"hapticTransient\"}}")) == [
                "t.ahap:1:63: error: Pattern[0].Event.EventType: unknown EventType \"hapticTransient\"; did you mean \"HapticTransient\"? [CHHapticError.invalidEventType]"
            ])
    }

    @Test func eventParameterEntriesNeedIDAndValue() {
        let text = doc(
            "{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\", \"EventParameters\": [{\"ParameterID\": \"HapticIntensity\"}, {\"ParameterValue\": 1}, 5]}}")
        #expect(
            diagnostics(text) == [
                "t.ahap:1:102: error: Pattern[0].Event.EventParameters[0]: the event parameter has no ParameterValue; add \"ParameterValue\" [CHHapticError.badParameterEntry]",
                "t.ahap:1:138: error: Pattern[0].Event.EventParameters[1]: the event parameter has no ParameterID; add \"ParameterID\", e.g. \"HapticIntensity\" [CHHapticError.badParameterEntry]",
                "t.ahap:1:161: error: Pattern[0].Event.EventParameters[2]: an EventParameters entry must be an object, found a number [CHHapticError.badParameterEntry]",
            ])
    }

    @Test func parameterNeedsIDAndTime() {
        #expect(
            diagnostics(doc("{\"Parameter\": {\"ParameterValue\": 1}}")) == [
                "t.ahap:1:42: error: Pattern[0].Parameter: the Parameter has no ParameterID; add \"ParameterID\", e.g. \"HapticIntensityControl\" [CHHapticError.badParameterEntry]",
                "t.ahap:1:42: error: Pattern[0].Parameter: the Parameter has no Time; add \"Time\" (seconds from the pattern start) [CHHapticError.badParameterEntry]",
            ])
    }

    @Test func curveNeedsIDTimeAndCompletePoints() {
        let text = doc("{\"ParameterCurve\": {\"ParameterCurveControlPoints\": [{\"Time\": 0}, {\"ParameterValue\": 1}]}}")
        #expect(
            diagnostics(text) == [
                "t.ahap:1:47: error: Pattern[0].ParameterCurve: the ParameterCurve has no ParameterID; add \"ParameterID\", e.g. \"HapticIntensityControl\" [CHHapticError.badParameterEntry]",
                "t.ahap:1:47: error: Pattern[0].ParameterCurve: the ParameterCurve has no Time; add \"Time\" (seconds from the pattern start) [CHHapticError.badParameterEntry]",
                "t.ahap:1:80: warning: Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]: the control point has no ParameterValue; it is dropped (Core Haptics' reader drops it); add \"ParameterValue\"",
                "t.ahap:1:93: error: Pattern[0].ParameterCurve.ParameterCurveControlPoints[1]: the control point has no Time; add \"Time\" (seconds from the curve's Time) [CHHapticError.badParameterEntry]",
            ])
    }

    @Test func controlPointWithoutValueIsDroppedWithAWarning() throws {
        let text = doc(
            "{\"ParameterCurve\": {\"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": "
                + "[{\"Time\": 0, \"ParameterValue\": 1}, {\"Time\": 0.5}, {\"Time\": 1, \"ParameterValue\": 0}]}}")
        let result = AHAPDecoder.decode(text: text, file: "t.ahap")
        #expect(!result.hasErrors)
        #expect(result.diagnostics.map(\.severity) == [.warning])
        let curve = try #require(result.pattern?.curves.first)
        #expect(curve.points == [ControlPointData(time: 0, value: 1), ControlPointData(time: 1, value: 0)])
    }

    @Test(arguments: ["tap.txt", "tap", "tap.AHAP.bak"])
    func patternFileWithAnotherExtensionLoadsWithAWarning(name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-decoder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}").utf8).write(to: file)
        let result = AHAPDecoder.decode(contentsOfFile: file.path)
        #expect(result.pattern != nil && !result.hasErrors)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.diagnostics.first?.message.contains(".ahap or .json") == true, "\(result.diagnostics)")
        for accepted in ["tap.ahap", "tap.JSON"] {
            let ok = folder.appendingPathComponent(accepted)
            try Data(doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}").utf8).write(to: ok)
            #expect(AHAPDecoder.decode(contentsOfFile: ok.path).diagnostics.isEmpty)
        }
    }

    @Test func numericStringsAreAcceptedWithAWarning() throws {
        let text = doc("{\"Event\": {\"Time\": \"0.5\", \"EventType\": \"HapticTransient\"}}")
        let result = AHAPDecoder.decode(text: text, file: "t.ahap")
        #expect(result.pattern?.events.first?.time == 0.5)
        #expect(
            result.diagnostics.map(\.formatted) == [
                "t.ahap:1:47: warning: Pattern[0].Event.Time: Time is the string \"0.5\"; read as the number 0.5; write the number without quotes"
            ])
    }

    @Test(arguments: [
        ("[1]", "Time must be a number, found an array"),
        ("{}", "Time must be a number, found an object"),
        ("true", "Time must be a number, found a boolean"),
        ("null", "Time must be a number, found null"),
        ("\"soon\"", "Time must be a number, found the string \"soon\""),
    ])
    func wrongTypesAreErrors(value: String, message: String) {
        let result = AHAPDecoder.decode(
            text: doc("{\"Event\": {\"Time\": \(value), \"EventType\": \"HapticTransient\"}}"), file: nil)
        #expect(result.pattern == nil)
        #expect(result.errors.map(\.message) == [message])
        #expect(result.errors.first?.code == .invalidPatternDictionary)
        #expect(result.errors.first?.path == "Pattern[0].Event.Time")
    }

    @Test func booleanFlagsAcceptZeroAndOneWithAWarning() throws {
        let text = doc(
            "{\"Event\": {\"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"a.wav\", \"EventWaveformLoopEnabled\": 0, \"EventWaveformUseVolumeEnvelope\": 1}}")
        let result = AHAPDecoder.decode(text: text, file: nil)
        #expect(result.pattern?.events.first?.loopEnabled == false)
        #expect(result.pattern?.events.first?.useVolumeEnvelope == true)
        #expect(
            result.diagnostics.map(\.message) == [
                "EventWaveformLoopEnabled is the number 0; read as false",
                "EventWaveformUseVolumeEnvelope is the number 1; read as true",
            ])
        let bad = AHAPDecoder.decode(
            text: doc("{\"Event\": {\"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"a.wav\", \"EventWaveformLoopEnabled\": 2}}"),
            file: nil)
        #expect(bad.errors.map(\.message) == ["EventWaveformLoopEnabled must be true or false, found the number 2"])
    }

    @Test func duplicateKeysWarnAndTheLastWins() throws {
        let text = doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\", \"Time\": 0.25}}")
        let result = AHAPDecoder.decode(text: text, file: "t.ahap")
        #expect(result.pattern?.events.first?.time == 0.25)
        #expect(
            result.diagnostics.map(\.formatted) == [
                "t.ahap:1:82: warning: Pattern[0].Event.Time: duplicate key \"Time\"; the last one wins"
            ])
    }

    @Test func trailingCommaWarns() {
        #expect(
            diagnostics(doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\",}}")) == [
                "t.ahap:1:80: warning: Pattern[0].Event: trailing comma (Core Haptics accepts it; strict JSON does not); remove the comma"
            ])
    }

    @Test func unknownKeysWarnWithSuggestions() {
        let text = doc(
            "{\"Events\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}, {\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\", \"Name\": 1}}")
        #expect(
            diagnostics(text) == [
                "t.ahap:1:28: warning: Pattern[0]: the entry has no Event, Parameter or ParameterCurve; it is ignored",
                "t.ahap:1:29: warning: Pattern[0].Events: unknown key \"Events\" is ignored; did you mean \"Event\"?",
                "t.ahap:1:139: warning: Pattern[1].Event.Name: unknown key \"Name\" is ignored",
            ])
    }

    @Test func allProblemsAreReportedInSourceOrder() {
        let text = """
            {"Pattern": [
              {"Event": {"Time": 0, "EventType": "Buzz"}},
              {"Event": {"EventType": "HapticTransient"}},
              {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": -1, "ParameterValue": 2}}
            ]}
            """
        let result = AHAPDecoder.decode(text: text, file: nil)
        #expect(
            result.diagnostics.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.severity.rawValue) \($0.code?.name ?? "-")" } == [
                "1:1 warning -", "2:38 error invalidEventType", "3:13 error invalidEventTime",
                "4:67 error badParameterEntry", "4:89 warning -",
            ])
    }

    @Test func unreadableFileIsFileNotFound() {
        let result = AHAPDecoder.decode(contentsOfFile: "/nonexistent/x.ahap")
        #expect(result.pattern == nil)
        #expect(
            result.diagnostics.map(\.formatted) == [
                "/nonexistent/x.ahap: error: cannot open the file: no such file [CHHapticError.fileNotFound]"
            ])
    }

    @Test func readsAFile() throws {
        let url = TestPaths.fixtures.appendingPathComponent("malformed/version-2.ahap")
        let result = AHAPDecoder.decode(contentsOfFile: url.path)
        #expect(result.pattern?.version == 2)
        #expect(result.diagnostics.first?.file == url.path)
    }

    @Test func dataWithByteOrderMark() {
        let data = Data([0xEF, 0xBB, 0xBF] + Array(doc("{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}").utf8))
        let result = AHAPDecoder.decode(data: data, file: nil)
        #expect(result.diagnostics.isEmpty)
        #expect(result.pattern?.events.count == 1)
    }

    @Test func invalidJSONIsOneError() {
        #expect(
            diagnostics("{\"Version\": 1,\n \"Pattern\": [}") == [
                "t.ahap:2:14: error: invalid JSON: expected a value, found '}'"
            ])
    }
}

@Suite("Dictionary decoding")
struct DictionaryDecodingTests {
    @Test func typedKeysAndValues() throws {
        let dictionary: [CHHapticPattern.Key: Any] = [
            .version: 1.0,
            .pattern: [
                [
                    CHHapticPattern.Key.event: [
                        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticContinuous,
                        .time: 0.5 as Float,
                        .eventDuration: 1,
                        .eventParameters: [
                            [CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity, .parameterValue: NSNumber(value: 0.25)]
                        ],
                    ] as [CHHapticPattern.Key: Any]
                ],
                [
                    "Parameter": [
                        "ParameterID": CHHapticDynamicParameter.ID.hapticIntensityControl, "Time": 0, "ParameterValue": 0.5,
                    ] as [String: Any]
                ],
            ] as [Any],
        ]
        let result = AHAPDecoder.decode(dictionary: dictionary)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.pattern
                == PatternData(
                    version: 1,
                    events: [
                        EventData(
                            type: .hapticContinuous, time: 0.5, duration: 1,
                            parameters: [EventParameterData(id: .hapticIntensity, value: 0.25)])
                    ],
                    parameters: [DynamicParameterData(id: .hapticIntensityControl, value: 0.5, time: 0)]))
    }

    @Test func diagnosticsHaveNoPosition() {
        let result = AHAPDecoder.decode(dictionary: ["Pattern": [["Event": ["Time": 0]]]])
        #expect(
            result.diagnostics.map(\.formatted) == [
                "<input>: warning: Version missing; 1.0 assumed; add \"Version\": 1.0",
                "<input>: error: Pattern[0].Event: Missing event type: the event has no EventType; add \"EventType\": one of HapticTransient, HapticContinuous, AudioContinuous, AudioCustom [CHHapticError.badEventEntry]",
            ])
    }

    @Test func unsupportedValueType() {
        let result = AHAPDecoder.decode(dictionary: ["Version": 1, "Pattern": [["Event": ["Time": Date(), "EventType": "HapticTransient"]]]])
        #expect(result.errors.map(\.message) == ["Time must be a number, found a value of type Date"])
    }

    @Test func booleansStayBooleans() throws {
        let result = AHAPDecoder.decode(dictionary: [
            "Version": 1,
            "Pattern": [["Event": ["Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventDuration": 1,
                "EventWaveformLoopEnabled": true, "EventWaveformUseVolumeEnvelope": NSNumber(value: false),
            ]]],
        ])
        #expect(result.diagnostics.map(\.message) == [
            "Thrum loops the audio file to EventDuration; Core Haptics may ignore EventDuration on an AHAP AudioCustom event and play the file once, whole"
        ])
        #expect(result.pattern?.events.first?.loopEnabled == true)
        #expect(result.pattern?.events.first?.useVolumeEnvelope == false)
    }

    /// Foundation's objects, as `JSONSerialization` makes them (NSNumber, the boolean NSNumber, NSNull, NSString,
    /// NSArray, NSDictionary), read as the same text read directly: Thrum reads them without linking Foundation.
    @Test func foundationObjectsReadAsTheirText() throws {
        let text = """
            {"Version": 1.0, "Metadata": {"Project": "x", "Note": null}, "Pattern": [
              {"Event": {"Time": 0.25, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventDuration": 1,
                "EventWaveformLoopEnabled": true, "EventWaveformUseVolumeEnvelope": 1}},
              {"Event": {"Time": 1, "EventType": "HapticTransient",
                "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}]}
            """
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let direct = AHAPDecoder.decode(text: text, file: nil)
        let bridged = AHAPDecoder.decode(dictionary: foundation)
        #expect(direct.pattern != nil)
        #expect(bridged.pattern?.events == direct.pattern?.events)
        #expect(bridged.pattern?.events.first?.loopEnabled == true)
        // The number 1 (not a boolean NSNumber) is a number read as true, with the same warning as in text.
        #expect(bridged.diagnostics.map(\.message).sorted() == direct.diagnostics.map(\.message).sorted())
        #expect(bridged.diagnostics.contains { $0.message == "EventWaveformUseVolumeEnvelope is the number 1; read as true" })
    }
}
