import XCTest

@testable import AudioAnalysis

final class SettingsTests: XCTestCase {
    func testEveryPresetIsValid() throws {
        XCTAssertEqual(AnalysisSettings.presets.map(\.name), ["general", "ui", "impacts", "footsteps", "music"])
        for preset in AnalysisSettings.presets { XCTAssertNoThrow(try preset.settings.validate(), preset.name) }
        XCTAssertEqual(AnalysisSettings(), .general)
    }

    func testOutOfRangeValuesNameTheFieldAndTheRange() {
        var settings = AnalysisSettings.general
        settings.release = 5
        XCTAssertThrowsError(try settings.validate()) {
            XCTAssertEqual("\($0)", "release must be 0.001…2, got 5")
        }
        settings = .general
        settings.bandHigh = 25
        XCTAssertThrowsError(try settings.validate()) {
            XCTAssertEqual("\($0)", "bandHigh must be 30…20000, got 25")
        }
        settings = .general
        settings.onsetSensitivity = .nan
        XCTAssertThrowsError(try settings.validate()) { XCTAssertEqual(($0 as? AnalysisSettingsError)?.field, "onsetSensitivity") }
    }

    /// Sensitivity s sets the threshold 12 dB × (1/12)^s: 12 dB near 0, 1 dB at 1; 0 turns onsets off.
    func testSensitivityMapsToTheDocumentedThreshold() throws {
        var settings = AnalysisSettings.general
        for (s, expected) in [(1.0, 1.0), (0.5, 12 / 12.0.squareRoot()), (1e-9, 12)] {
            settings.onsetSensitivity = s
            XCTAssertEqual(try XCTUnwrap(settings.onsetThreshold), expected, accuracy: 1e-6)
        }
        settings.onsetSensitivity = 0
        XCTAssertNil(settings.onsetThreshold)
    }
}
