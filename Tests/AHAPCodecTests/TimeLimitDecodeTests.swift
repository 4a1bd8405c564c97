import AHAPCodec
import Foundation
import Testing
import ThrumModel

/// Issue 13, problem 1, in the codec: the files that crashed `play` (and that `check` called clean) are
/// rejected with a located error naming the time and the 24 h limit.
@Suite struct TimeLimitDecodeTests {
    static func errors(_ text: String) -> [String] {
        AHAPDecoder.decode(text: text, file: "t.ahap").errors.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.code?.name ?? "-") \($0.path)" }
    }

    @Test func hugeEventTime() {
        let text = """
            {"Version": 1, "Pattern": [
              {"Event": {"Time": 2e14, "EventType": "HapticTransient"}}
            ]}
            """
        #expect(Self.errors(text) == ["2:22 invalidEventTime Pattern[0].Event.Time"])
    }

    @Test func hugeDurations() {
        let text = """
            {"Version": 1, "Pattern": [
              {"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 1e15}},
              {"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventWaveformLoopEnabled": true, "EventDuration": 1e15}}
            ]}
            """
        #expect(
            Self.errors(text) == [
                "2:74 invalidEventDuration Pattern[0].Event.EventDuration",
                "3:134 invalidEventDuration Pattern[1].Event.EventDuration",
            ])
    }

    @Test func hugeParameterAndCurvePointTimes() {
        let text = """
            {"Version": 1, "Pattern": [
              {"Parameter": {"ParameterID": "HapticIntensityControl", "ParameterValue": 1, "Time": 1.9e14}},
              {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [
                {"Time": 0, "ParameterValue": 1}, {"Time": 1.9e14, "ParameterValue": 0}]}}
            ]}
            """
        #expect(
            Self.errors(text) == [
                "2:88 invalidTime Pattern[0].Parameter.Time",
                "4:39 invalidTime Pattern[1].ParameterCurve.ParameterCurveControlPoints[1]",
            ])
        let message = AHAPDecoder.decode(text: text, file: "t.ahap").errors.first?.formatted ?? ""
        #expect(message.contains("parameter Time 1.9e+14 s is past 86400 s, the longest pattern Thrum plays (24 h)"))
    }
}
