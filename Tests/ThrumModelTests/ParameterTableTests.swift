import Testing
import ThrumModel

@Suite struct ParameterTableTests {
    typealias P = CHHapticEvent.ParameterID

    @Test func hapticDefaultsAndRanges() throws {
        for type in [CHHapticEvent.EventType.hapticTransient, .hapticContinuous] {
            let intensity = try #require(ParameterTable.attributes(for: .hapticIntensity, eventType: type))
            #expect(intensity == ParameterAttributes(min: 0, max: 1, default: 0.75))
            let sharpness = try #require(ParameterTable.attributes(for: .hapticSharpness, eventType: type))
            #expect(sharpness == ParameterAttributes(min: 0, max: 1, default: 0.5))
            #expect(ParameterTable.attributes(for: .audioVolume, eventType: type) == nil)
            #expect(ParameterTable.attributes(for: .sustained, eventType: type)?.defaultValue == 1)
        }
    }

    @Test func audioDefaultsAndRanges() {
        for type in [CHHapticEvent.EventType.audioContinuous, .audioCustom] {
            #expect(ParameterTable.attributes(for: .audioVolume, eventType: type) == .init(min: 0, max: 1, default: 1))
            #expect(ParameterTable.attributes(for: .audioPan, eventType: type) == .init(min: -1, max: 1, default: 0))
            #expect(ParameterTable.attributes(for: .audioPitch, eventType: type) == .init(min: -1, max: 1, default: 0))
            #expect(
                ParameterTable.attributes(for: .audioBrightness, eventType: type) == .init(min: 0, max: 1, default: 1))
            #expect(ParameterTable.attributes(for: .hapticIntensity, eventType: type) == nil)
        }
    }

    @Test func envelopeParametersDefaultToZero() {
        for parameter in [P.attackTime, .decayTime, .releaseTime] {
            #expect(
                ParameterTable.attributes(for: parameter, eventType: .hapticContinuous)
                    == .init(min: 0, max: 1, default: 0))
        }
    }

    @Test func dynamicParameterTable() {
        #expect(ParameterTable.attributes(for: .hapticIntensityControl) == .init(min: 0, max: 1, default: 1))
        #expect(ParameterTable.attributes(for: .audioVolumeControl) == .init(min: 0, max: 1, default: 1))
        for id in CHHapticDynamicParameter.ID.allKnown where !id.isMultiplicative {
            #expect(ParameterTable.attributes(for: id) == .init(min: -1, max: 1, default: 0))
        }
        #expect(ParameterTable.attributes(for: CHHapticDynamicParameter.ID(rawValue: "Bogus")) == nil)
    }

    @Test func clampingAndEffectiveValues() {
        let event = EventData(
            type: .hapticTransient, time: 0,
            parameters: [.init(id: .hapticIntensity, value: 1.7), .init(id: .hapticSharpness, value: -0.2)])
        #expect(event.value(of: .hapticIntensity) == 1)
        #expect(event.value(of: .hapticSharpness) == 0)
        #expect(EventData(type: .hapticTransient, time: 0).value(of: .hapticIntensity) == 0.75)
        let twice = EventData(
            type: .hapticTransient, time: 0,
            parameters: [.init(id: .hapticIntensity, value: 0.2), .init(id: .hapticIntensity, value: 0.4)])
        #expect(twice.value(of: .hapticIntensity) == 0.4)
    }

    @Test func sustainedIsTrueUnlessExactlyZero() {
        #expect(EventData(type: .hapticContinuous, time: 0).isSustained)
        #expect(EventData(type: .hapticContinuous, time: 0, parameters: [.init(id: .sustained, value: 0.5)]).isSustained)
        #expect(!EventData(type: .hapticContinuous, time: 0, parameters: [.init(id: .sustained, value: 0)]).isSustained)
    }

    @Test func capabilityReportThrowsForForeignParameters() throws {
        let capability = DeviceCapability(supportsHaptics: true, supportsAudio: true)
        let attributes = try capability.attributes(forEventParameter: .hapticIntensity, eventType: .hapticTransient)
        #expect(attributes.defaultValue == 0.75)
        #expect(throws: CHHapticError.self) {
            try capability.attributes(forEventParameter: .audioPan, eventType: .hapticTransient)
        }
        #expect(throws: CHHapticError.self) {
            try capability.attributes(forDynamicParameter: .init(rawValue: "Nope"))
        }
    }
}
