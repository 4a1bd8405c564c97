import Testing

@testable import AudioAnalysis

@Suite struct SettingsTests {
    @Test func everyPresetIsValid() throws {
        #expect(AnalysisSettings.presets.map(\.name) == ["general", "studio", "ui", "impacts", "footsteps", "music"])
        for preset in AnalysisSettings.presets {
            #expect(throws: Never.self, "\(preset.name)") { try preset.settings.validate() }
        }
        #expect(AnalysisSettings() == .general)
    }

    @Test func outOfRangeValuesNameTheFieldAndTheRange() {
        var settings = AnalysisSettings.general
        settings.release = 6
        let release = #expect(throws: AnalysisSettingsError.self) { try settings.validate() }
        #expect(release.map { "\($0)" } == "release must be 0…5, got 6")
        settings = .general
        settings.bandHigh = 25
        let band = #expect(throws: AnalysisSettingsError.self) { try settings.validate() }
        #expect(band.map { "\($0)" } == "bandHigh must be 30…20000, got 25")
        settings = .general
        settings.onsetSensitivity = .nan
        let sensitivity = #expect(throws: AnalysisSettingsError.self) { try settings.validate() }
        #expect(sensitivity?.field == "onsetSensitivity")
    }

    /// Sensitivity s sets the threshold 12 dB × (1/12)^s: 12 dB near 0, 1 dB at 1; 0 turns onsets off.
    @Test func sensitivityMapsToTheDocumentedThreshold() throws {
        var settings = AnalysisSettings.general
        for (s, expected) in [(1.0, 1.0), (0.5, 12 / 12.0.squareRoot()), (1e-9, 12)] {
            settings.onsetSensitivity = s
            #expect(abs(try #require(settings.onsetThreshold) - expected) <= 1e-6)
        }
        settings.onsetSensitivity = 0
        #expect(settings.onsetThreshold == nil)
    }
}
