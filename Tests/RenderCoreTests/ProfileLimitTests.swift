import Foundation
import RenderCore
import Testing

/// Issue 13, problem 6: a profile file cannot put a band the renderer cannot draw on the actuator.
@Suite struct ProfileLimitTests {
    static func json(high: String, gain: String = "1") -> Data {
        Data(#"{"name": "x", "lowFrequency": 80, "highFrequency": \#(high), "gain": \#(gain)}"#.utf8)
    }

    @Test func aBandPastAQuarterOfTheHighestRateIsRefusedOnDecode() {
        #expect(throws: ActuatorProfileError.invalidField("highFrequency", "must be below 192000 Hz (a quarter of the highest engine rate, 768000 Hz), got 1e+300")) {
            try ActuatorProfile.decode(from: Self.json(high: "1e300"))
        }
        #expect(throws: ActuatorProfileError.self) { try ActuatorProfile.decode(from: Self.json(high: "1e7")) }
        #expect(throws: ActuatorProfileError.self) { try ActuatorProfile.decode(from: Self.json(high: "200", gain: "1e300")) }
        #expect((try? ActuatorProfile.decode(from: Self.json(high: "230"))) != nil)
    }

    @Test func theBandMustStayBelowAQuarterOfTheEngineRate() throws {
        var profile = ActuatorProfile.default
        profile.highFrequency = 2_000
        #expect(throws: ActuatorProfileError.invalidField("highFrequency", "must be below 2000 Hz (a quarter of the 8000 Hz engine rate), got 2000")) {
            try profile.validate(sampleRate: 8_000)
        }
        try profile.validate(sampleRate: 48_000)
        try ActuatorProfile.default.validate(sampleRate: 1_000)
    }
}
