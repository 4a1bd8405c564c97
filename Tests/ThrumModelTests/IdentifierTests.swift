import Testing
import ThrumModel

@Suite struct IdentifierTests {
    @Test func eventTypeRawValuesAreTheAHAPStrings() {
        #expect(CHHapticEvent.EventType.hapticTransient.rawValue == "HapticTransient")
        #expect(CHHapticEvent.EventType.hapticContinuous.rawValue == "HapticContinuous")
        #expect(CHHapticEvent.EventType.audioContinuous.rawValue == "AudioContinuous")
        #expect(CHHapticEvent.EventType.audioCustom.rawValue == "AudioCustom")
        #expect(CHHapticEvent.EventType.allKnown.count == 4)
        #expect(!CHHapticEvent.EventType(rawValue: "hapticTransient").isKnown)
    }

    @Test func eventParameterRawValues() {
        let expected = [
            "HapticIntensity", "HapticSharpness", "AttackTime", "DecayTime", "ReleaseTime", "Sustained",
            "AudioVolume", "AudioPan", "AudioPitch", "AudioBrightness",
        ]
        #expect(CHHapticEvent.ParameterID.allKnown.map(\.rawValue) == expected)
    }

    @Test func dynamicParameterRawValuesAndRules() {
        let expected = [
            "HapticIntensityControl", "HapticSharpnessControl", "HapticAttackTimeControl",
            "HapticDecayTimeControl", "HapticReleaseTimeControl", "AudioVolumeControl", "AudioPanControl",
            "AudioPitchControl", "AudioBrightnessControl", "AudioAttackTimeControl", "AudioDecayTimeControl",
            "AudioReleaseTimeControl",
        ]
        #expect(CHHapticDynamicParameter.ID.allKnown.map(\.rawValue) == expected)
        #expect(
            CHHapticDynamicParameter.ID.allKnown.filter(\.isMultiplicative) == [
                .hapticIntensityControl, .audioVolumeControl,
            ])
        #expect(CHHapticDynamicParameter.ID.curveCapable.count == 6)
        #expect(!CHHapticDynamicParameter.ID.hapticAttackTimeControl.isCurveCapable)
        #expect(CHHapticDynamicParameter.ID.audioBrightnessControl.isCurveCapable)
    }

    @Test func patternKeysAreTheAHAPStrings() {
        let keys: [CHHapticPattern.Key] = [
            .version, .pattern, .event, .eventType, .time, .eventDuration, .eventWaveformPath, .eventParameters,
            .eventWaveformUseVolumeEnvelope, .eventWaveformLoopEnabled, .parameter, .parameterID,
            .parameterValue, .parameterCurve, .parameterCurveControlPoints,
        ]
        #expect(
            keys.map(\.rawValue) == [
                "Version", "Pattern", "Event", "EventType", "Time", "EventDuration", "EventWaveformPath",
                "EventParameters", "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled", "Parameter",
                "ParameterID", "ParameterValue", "ParameterCurve", "ParameterCurveControlPoints",
            ])
    }

    @Test func timeImmediateIsZero() {
        #expect(CHHapticTimeImmediate == 0)
    }
}

@Suite struct ErrorCodeTests {
    @Test(arguments: [
        (CHHapticError.Code.engineNotRunning, -4805), (.operationNotPermitted, -4806), (.engineStartTimeout, -4808),
        (.notSupported, -4809), (.serverInitFailed, -4810), (.serverInterrupted, -4811),
        (.invalidPatternPlayer, -4812), (.invalidPatternData, -4813), (.invalidPatternDictionary, -4814),
        (.invalidAudioSession, -4815), (.invalidEngineParameter, -4816), (.invalidParameterType, -4820),
        (.invalidEventType, -4821), (.invalidEventTime, -4822), (.invalidEventDuration, -4823),
        (.invalidAudioResource, -4824), (.resourceNotAvailable, -4825), (.badEventEntry, -4830),
        (.badParameterEntry, -4831), (.invalidTime, -4840), (.fileNotFound, -4851), (.insufficientPower, -4897),
        (.unknownError, -4898), (.memoryError, -4899),
    ])
    func appleNumericValues(code: CHHapticError.Code, value: Int) {
        #expect(code.rawValue == value)
        #expect(CHHapticError(code).errorCode == value)
    }

    @Test func everyCodeIsListed() {
        #expect(CHHapticError.Code.allCases.count == 24)
        #expect(CHHapticErrorDomain == "com.apple.CoreHaptics")
    }

    @Test func catchByCodeMatchesLikeApples() {
        func fail() throws { throw CHHapticError(.invalidEventType, "unknown EventType \"x\"") }
        var matched = false
        do { try fail() } catch CHHapticError.invalidEventType { matched = true } catch {}
        #expect(matched)
        #expect(
            "\(CHHapticError(.invalidEventType, "unknown EventType \"x\""))"
                == "unknown EventType \"x\" [CHHapticError.invalidEventType (-4821)]")
    }
}
