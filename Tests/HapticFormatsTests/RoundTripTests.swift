import AHAPCodec
import Foundation
import HapticFormats
import Testing
import ThrumModel

/// `.haptic` → AHAP → `.haptic` and AHAP → `.haptic` → AHAP keep the envelopes within 1e-3 on a 1 ms grid
/// and the transients the same, through the split AHAP form (two players, so the intensity curve does not
/// scale the transients). Meanings are read from the JSON texts by the tests' own readers.
@Suite("Round trips")
struct RoundTripTests {
    static let ownHaptic = ["gear", "rumble", "taps"].map { TestPaths.fixture($0 + ".haptic") }
    static let oracleHaptic = ["valid_v1", "multiple_emphasis", "2_points", "3_points", "16_points", "17_points",
        "long_clip", "valid_required_v1", "validation_v1_optionals", "invalid_freq_bp_outside_amp_env"]
        .map { Oracles.file($0 + ".haptic") }
    static let ownAHAP = [TestPaths.fixture("pulses.ahap")]
    static let oracleAHAP = ["studio_export", "valid", "single_transient", "3_points", "long_clip"].map { Oracles.file($0 + ".ahap") }

    /// `.haptic` text → split AHAP texts → `.haptic` text.
    func viaAHAP(_ path: String) throws -> (original: HapticMeaning, back: HapticMeaning) {
        let read = HapticFileDecoder.decode(contentsOfFile: path)
        let file = try #require(read.file, "\(read.errors.map(\.formatted))")
        let export = HapticToAHAP.convert(file, split: true)
        var sources: [AHAPSource] = []
        for pattern in [export.continuous] + (export.transients.map { [$0] } ?? []) {
            let decoded = AHAPDecoder.decode(text: AHAPEncoder.encode(pattern))
            sources.append(AHAPSource(pattern: try #require(decoded.pattern), paths: decoded.sourcePaths))
        }
        let back = AHAPToHaptic.convert(sources)
        #expect(!back.issues.contains { $0.severity == .error }, "\(back.issues)")
        let text = HapticFileEncoder.encode(try #require(back.file))
        #expect(!HapticFileDecoder.decode(text: text, mode: .strict).hasErrors, "the result is a valid .haptic")
        return (try HapticMeaning(json: try jsonObject(file: path)), try HapticMeaning(json: try jsonObject(text: text)))
    }

    func expectSame(_ a: HapticMeaning, _ b: HapticMeaning, _ name: String) {
        var amplitude = 0
        var frequency = 0
        for t in millisecondGrid(to: a.duration + 0.01) {
            if abs(a.amplitude(at: t) - b.amplitude(at: t)) > 1e-3 { amplitude += 1 }
            if t >= (a.amplitude.first?.0 ?? 0) && t <= a.duration && abs(a.frequency(at: t) - b.frequency(at: t)) > 1e-3 {
                frequency += 1
            }
        }
        #expect(amplitude == 0, "\(name): amplitude differs at \(amplitude) ms")
        #expect(frequency == 0, "\(name): frequency differs at \(frequency) ms")
        #expect(a.emphases.count == b.emphases.count, "\(name): emphases")
        for (x, y) in zip(a.emphases, b.emphases) {
            #expect(x.0 == y.0 && abs(x.1 - y.1) <= 1e-6 && abs(x.2 - y.2) <= 1e-6, "\(name): emphasis \(x) vs \(y)")
        }
    }

    @Test(arguments: ownHaptic) func ownHapticSurvivesAHAP(path: String) throws {
        let (original, back) = try viaAHAP(path)
        expectSame(original, back, path)
    }

    @Test(.enabled(if: Oracles.available, Oracles.skipReason), arguments: oracleHaptic)
    func oracleHapticSurvivesAHAP(path: String) throws {
        let (original, back) = try viaAHAP(path)
        expectSame(original, back, (path as NSString).lastPathComponent)
    }

    /// The merged form's loss, as declared: Core Haptics scales each transient by the intensity curve.
    @Test func mergedFormScalesEmphasisByTheEnvelope() throws {
        let file = try #require(HapticFileDecoder.decode(contentsOfFile: TestPaths.fixture("gear.haptic")).file)
        let export = HapticToAHAP.convert(file, split: false)
        #expect(export.issues.contains { $0.message.contains("intensity curve scales too") && $0.path.hasSuffix("[3].emphasis") })
        let imported = AHAPToHaptic.convert([AHAPSource(pattern: export.continuous)])
        let back = try #require(imported.file)
        // Emphasis 0.8 on amplitude 0.71: intensity √0.8 × control √0.71 plays amplitude 0.8 × 0.71 = 0.568,
        // weaker than the 0.71 under it, which a .haptic emphasis cannot be: raised to 0.71, and said.
        #expect(back.emphases.count == 1)
        #expect(abs((back.emphases.first?.emphasis.amplitude ?? 0) - 0.71) < 1e-6)
        #expect(imported.issues.contains { $0.message.contains("(amplitude 0.568) is weaker than the continuous signal under it (0.71)") })
    }

    /// AHAP text → `.haptic` text → split AHAP texts, compared with the original as Core Haptics reads it.
    func expectAHAPSurvives(_ path: String) throws {
        let read = AHAPDecoder.decode(contentsOfFile: path)
        let pattern = try #require(read.pattern, "\(read.errors.map(\.formatted))")
        let imported = AHAPToHaptic.convert([AHAPSource(pattern: pattern, paths: read.sourcePaths)])
        let text = HapticFileEncoder.encode(try #require(imported.file, "\(imported.issues)"))
        let file = try #require(HapticFileDecoder.decode(text: text, mode: .strict).file)
        let export = HapticToAHAP.convert(file, split: true)
        let original = try AHAPMeaning(json: try jsonObject(file: path))
        let continuous = try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(export.continuous)))
        let transients = try export.transients.map { try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode($0))) }
        var intensity = 0
        var sharpness = 0
        for t in millisecondGrid(to: max(original.end, continuous.end) + 0.01) {
            let expected = original.intensity(at: t)
            if abs(expected - continuous.intensity(at: t)) > 1e-3 { intensity += 1 }
            if expected > 1e-3, let a = original.sharpness(at: t), let b = continuous.sharpness(at: t), abs(a - b) > 1e-3 {
                sharpness += 1
            }
        }
        let name = (path as NSString).lastPathComponent
        #expect(intensity == 0, "\(name): effective intensity differs at \(intensity) ms")
        #expect(sharpness == 0, "\(name): effective sharpness differs at \(sharpness) ms")
        // Each transient plays as before: its intensity × the intensity control in force then; except that
        // a .haptic emphasis cannot be weaker than the continuous signal under it, which is declared.
        let back = transients?.transients ?? []
        #expect(original.transients.count == back.count, "\(name): transients")
        for (a, b) in zip(original.transients, back) {
            let played = a.1 * original.intensityControl(at: a.0)
            let floor = original.intensity(at: a.0)
            #expect(a.0 == b.0 && abs(max(played, floor) - b.1) <= 1e-6 && abs(a.2 - b.2) <= 1e-6, "\(name): transient \(a) vs \(b)")
            if floor > played + 1e-6 {
                #expect(imported.issues.contains { $0.message.contains("weaker than the continuous signal") }, "\(name)")
            }
        }
    }

    @Test(arguments: ownAHAP) func ownAHAPSurvivesHaptic(path: String) throws {
        try expectAHAPSurvives(path)
    }

    @Test(.enabled(if: Oracles.available, Oracles.skipReason), arguments: oracleAHAP)
    func oracleAHAPSurvivesHaptic(path: String) throws {
        try expectAHAPSurvives(path)
    }
}
