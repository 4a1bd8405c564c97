import RenderCore
import Testing

/// Issue 13, problem 6: a profile cannot put a band the renderer cannot draw on the actuator.
@Suite struct ProfileLimitTests {
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
