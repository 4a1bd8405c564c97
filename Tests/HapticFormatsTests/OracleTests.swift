import AHAPCodec
import Foundation
import HapticFormats
import Testing
import ThrumModel

/// Thrum's `.haptic` support against Meta's own test files and expected conversions (see the oracles'
/// MANIFEST.md). Meta's AHAP files are read with absolute curve-point times (how Meta writes them);
/// Thrum's output is read as Core Haptics reads AHAP (relative times).
@Suite("Meta oracles", .enabled(if: Oracles.available, Oracles.skipReason))
struct OracleTests {
    /// The `.haptic` → AHAP pairs of the MANIFEST.
    static let pairs = ["valid_v1", "multiple_emphasis", "2_points", "3_points", "16_points", "17_points", "long_clip"]

    /// Thrum's AHAP for an oracle `.haptic` file.
    func convert(
        _ name: String, split: Bool = false, style: HapticToAHAP.Style = .metaCompatible
    ) throws -> AHAPExport {
        let read = HapticFileDecoder.decode(contentsOfFile: Oracles.file(name + ".haptic"))
        #expect(!read.hasErrors, "\(name): \(read.errors.map(\.formatted))")
        let file = try #require(read.file)
        return HapticToAHAP.convert(file, split: split, style: style)
    }

    /// Asserts that `mine` (Thrum's AHAP) and `oracle` (Meta's) mean the same: the same events within
    /// 1e-6, and the same effective intensity and sharpness on a 1 ms grid, sharpness from the first
    /// frequency breakpoint on (before it Meta's export leaves sharpness at 0, where Thrum holds the first
    /// frequency; that is checked too).
    func expectSameMeaning(
        _ mine: AHAPMeaning, _ oracle: AHAPMeaning, haptic: HapticMeaning, _ name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(mine.continuous.count == oracle.continuous.count, "\(name): continuous events", sourceLocation: sourceLocation)
        for (a, b) in zip(mine.continuous.sorted { $0.0 < $1.0 }, oracle.continuous.sorted { $0.0 < $1.0 }) {
            let same = abs(a.0 - b.0) <= 1e-6 && abs(a.1 - b.1) <= 1e-6 && abs(a.2 - b.2) <= 1e-6 && abs(a.3 - b.3) <= 1e-6
            #expect(same, "\(name): continuous event \(a) vs \(b)", sourceLocation: sourceLocation)
        }
        #expect(mine.transients.count == oracle.transients.count, "\(name): transients", sourceLocation: sourceLocation)
        for (a, b) in zip(mine.transients, oracle.transients) {
            let same = abs(a.0 - b.0) <= 1e-6 && abs(a.1 - b.1) <= 1e-6 && abs(a.2 - b.2) <= 1e-6
            #expect(same, "\(name): transient \(a) vs \(b)", sourceLocation: sourceLocation)
        }
        let firstFrequency = haptic.frequency.first?.0 ?? 0
        var intensityMismatches = 0
        var sharpnessMismatches = 0
        for t in millisecondGrid(to: max(mine.end, oracle.end) + 0.01) {
            if abs(mine.intensity(at: t) - oracle.intensity(at: t)) > 1e-6 { intensityMismatches += 1 }
            let expected = t < firstFrequency ? oracle.sharpness(at: t).map { _ in haptic.frequency(at: t).squareRoot() }
                : oracle.sharpness(at: t)
            switch (mine.sharpness(at: t), expected) {
            case (nil, nil): break
            case (let a?, let b?) where abs(a - b) <= 1e-6: break
            default: sharpnessMismatches += 1
            }
        }
        #expect(intensityMismatches == 0, "\(name): effective intensity differs at \(intensityMismatches) ms", sourceLocation: sourceLocation)
        #expect(sharpnessMismatches == 0, "\(name): effective sharpness differs at \(sharpnessMismatches) ms", sourceLocation: sourceLocation)
    }

    @Test(arguments: pairs) func hapticToAHAPMeansWhatMetasExportMeans(name: String) throws {
        let export = try convert(name)
        let text = AHAPEncoder.encode(export.continuous)
        let mine = try AHAPMeaning(json: try jsonObject(text: text))
        let oracle = try AHAPMeaning(json: try jsonObject(file: Oracles.file(name + ".ahap")), absoluteTimes: true)
        let haptic = try HapticMeaning(json: try jsonObject(file: Oracles.file(name + ".haptic")))
        expectSameMeaning(mine, oracle, haptic: haptic, name)
    }

    /// The default style differs from Meta's export in following the amplitude ramps (the played
    /// amplitude, intensity², stays within 1e-3 of the `.haptic` envelope, where Meta's sags) and in the
    /// sharpness, which is the `.haptic` frequency itself wherever Meta's plays (Meta's is √frequency);
    /// the events are Meta's.
    @Test(arguments: pairs) func faithfulStylePlaysTheEnvelope(name: String) throws {
        let mine = try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(try convert(name, style: .faithful).continuous)))
        let oracle = try AHAPMeaning(json: try jsonObject(file: Oracles.file(name + ".ahap")), absoluteTimes: true)
        let haptic = try HapticMeaning(json: try jsonObject(file: Oracles.file(name + ".haptic")))
        var amplitude = 0
        var sharpness = 0
        for t in millisecondGrid(to: haptic.duration + 0.01) {
            if abs(mine.intensity(at: t) * mine.intensity(at: t) - haptic.amplitude(at: t)) > 1e-3 { amplitude += 1 }
            if t >= (haptic.frequency.first?.0 ?? 0),
                mine.sharpness(at: t).map({ a in oracle.sharpness(at: t).map { _ in abs(a - haptic.frequency(at: t)) > 1e-6 } ?? true }) ?? false
            {
                sharpness += 1
            }
        }
        #expect(amplitude == 0, "\(name): played amplitude off the envelope at \(amplitude) ms")
        #expect(sharpness == 0, "\(name): sharpness differs from the .haptic frequency at \(sharpness) ms")
        #expect(mine.transients.count == oracle.transients.count)
        #expect(zip(mine.transients, oracle.transients).allSatisfy { abs($0.0 - $1.0) <= 1e-6 && abs($0.1 - $1.1) <= 1e-6 })
    }

    @Test(arguments: pairs) func thrumsAHAPFollowsCoreHaptics(name: String) throws {
        let text = AHAPEncoder.encode(try convert(name, style: .faithful).continuous)
        let json = try jsonObject(text: text)
        for entry in try #require(json["Pattern"] as? [[String: Any]]) {
            guard let curve = entry["ParameterCurve"] as? [String: Any] else { continue }
            let points = try #require(curve["ParameterCurveControlPoints"] as? [[String: Any]])
            #expect(points.count <= 16, "\(name): a curve of \(points.count) points")
            let start = try #require(double(curve["Time"]))
            if start > 0 { #expect(double(points.first?["Time"]) == 0, "\(name): point times must be relative") }
        }
        // Thrum's own reader finds nothing to say about it.
        let decoded = AHAPDecoder.decode(text: text, file: name + ".ahap")
        #expect(decoded.diagnostics.isEmpty, "\(decoded.diagnostics.map(\.formatted))")
    }

    @Test func checkWarnsAboutMetasExports() throws {
        var longCurves = 0
        var absoluteTimes = 0
        for name in Self.pairs + ["valid_v1_continuous"] {
            let path = Oracles.file(name + ".ahap")
            let json = try jsonObject(file: path)
            var long = false
            var offset = false
            for entry in try #require(json["Pattern"] as? [[String: Any]]) {
                guard let curve = entry["ParameterCurve"] as? [String: Any],
                    let points = curve["ParameterCurveControlPoints"] as? [[String: Any]], let start = double(curve["Time"])
                else { continue }
                long = long || points.count > 16
                offset = offset || (start > 0 && double(points.first?["Time"]) == start)
            }
            let warnings = AHAPDecoder.decode(contentsOfFile: path).warnings.map(\.message)
            #expect(warnings.contains { $0.contains("limits curves to 16") } == long, "\(name): \(warnings)")
            #expect(warnings.contains { $0.contains("exported with absolute times") } == offset, "\(name): \(warnings)")
            longCurves += long ? 1 : 0
            absoluteTimes += offset ? 1 : 0
        }
        #expect(longCurves >= 2 && absoluteTimes >= 2, "the oracles hold both kinds of departure")
    }

    @Test func splitMatchesMetasSplit() throws {
        let haptic = try HapticMeaning(json: try jsonObject(file: Oracles.file("valid_v1.haptic")))
        let export = try convert("valid_v1", split: true)
        let continuous = try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(export.continuous)))
        let oracleContinuous = try AHAPMeaning(
            json: try jsonObject(file: Oracles.file("valid_v1_continuous.ahap")), absoluteTimes: true)
        #expect(continuous.transients.isEmpty)
        expectSameMeaning(continuous, oracleContinuous, haptic: haptic, "valid_v1_continuous")
        let transients = try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(try #require(export.transients))))
        let oracleTransients = try AHAPMeaning(json: try jsonObject(file: Oracles.file("valid_v1_transients.ahap")))
        expectSameMeaning(transients, oracleTransients, haptic: haptic, "valid_v1_transients")
        #expect(transients.intensityCurves.isEmpty && transients.continuous.isEmpty)

        let three = try convert("3_points", split: true)
        #expect(three.transients == nil, "no emphasis: no transient file")
        expectSameMeaning(
            try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(three.continuous))),
            try AHAPMeaning(json: try jsonObject(file: Oracles.file("3_points_continuous.ahap")), absoluteTimes: true),
            haptic: try HapticMeaning(json: try jsonObject(file: Oracles.file("3_points.haptic"))), "3_points_continuous")
    }

    @Test func faithfulStyleDoesNotDuck() throws {
        let plain = try AHAPMeaning(json: try jsonObject(text: AHAPEncoder.encode(try convert("valid_v1", style: .faithful).continuous)))
        let oracle = try AHAPMeaning(json: try jsonObject(file: Oracles.file("valid_v1.ahap")), absoluteTimes: true)
        // The emphasis sits on the breakpoint at 0.2 s (amplitude 0.2): Meta writes 0.8 × √0.2 there.
        #expect(abs(plain.intensityControl(at: 0.2) - (0.2).squareRoot()) < 1e-6)
        #expect(abs(oracle.intensityControl(at: 0.2) - 0.8 * (0.2).squareRoot()) < 1e-6)
        for t in [0.0, 0.1, 0.3, 5.0] { #expect(abs(plain.intensity(at: t) - oracle.intensity(at: t)) < 1e-6) }
    }

    /// The MANIFEST's validation table: the first error in strict mode, with the rule and the values.
    static let rejections: [(String, String)] = [
        ("validation_v1_amplitude", "amplitude out of range: time 0.3, amplitude 1.5"),
        ("validation_v1_sequence", "amplitude breakpoints out of order: time 0.1 after 0.2"),
        ("validation_v1_emphasis_amplitude", "emphasis amplitude 0.2 lower than envelope amplitude 0.5 at time 0.2"),
        ("validation_v1_emphasis_amplitude_range", "emphasis amplitude out of range: time 0.2, amplitude -0.2"),
        ("validation_v1_emphasis_frequency_range", "emphasis frequency out of range: time 0.2, frequency 1.1"),
        ("invalid_empty_amplitude_envelope", "insufficient amplitude breakpoints"),
        ("invalid_single_amplitude_breakpoint", "insufficient amplitude breakpoints"),
        ("invalid_zero_duration", "amplitude envelope has zero duration"),
        ("invalid_freq_bp_outside_amp_env", "frequency breakpoint outside the amplitude envelope: time 1.0001, envelope ends 1.0"),
        ("invalid_fields_v1", "missing \"signals\""),
    ]

    @Test(arguments: rejections) func negativeFixtureIsRejected(name: String, expected: String) throws {
        let result = HapticFileDecoder.decode(contentsOfFile: Oracles.file(name + ".haptic"), mode: .strict)
        let first = try #require(result.errors.first, "\(name) must be rejected")
        #expect(first.message.hasPrefix(expected), "\(first.formatted)")
        #expect(first.line != nil && first.column != nil, "\(first.formatted)")
        #expect(result.file == nil)
    }

    @Test func legacyModeAcceptsFrequencyPastTheEnvelope() throws {
        let result = HapticFileDecoder.decode(contentsOfFile: Oracles.file("invalid_freq_bp_outside_amp_env.haptic"))
        #expect(!result.hasErrors)
        #expect(result.warnings.map(\.message).contains { $0.hasPrefix("frequency breakpoint outside the amplitude envelope") })
        #expect(result.file != nil)
    }

    @Test func misspeltSignalsIsNamed() throws {
        let result = HapticFileDecoder.decode(contentsOfFile: Oracles.file("invalid_fields_v1.haptic"))
        let error = try #require(result.errors.first)
        #expect(error.suggestion == "rename \"sssignals\" to \"signals\"")
        #expect(result.warnings.contains { $0.path == "sssignals" && $0.suggestion == "did you mean \"signals\"?" })
    }

    @Test(arguments: ["valid_required_v1", "valid_beta_impulses", "validation_v1_optionals", "valid_v1", "multiple_emphasis"])
    func validFileIsValidInStrictMode(name: String) throws {
        let result = HapticFileDecoder.decode(contentsOfFile: Oracles.file(name + ".haptic"), mode: .strict)
        #expect(result.errors.isEmpty, "\(result.errors.map(\.formatted))")
        let file = try #require(result.file)
        // The writer's output reads back as the same file.
        #expect(HapticFileDecoder.decode(text: HapticFileEncoder.encode(file)).file == file)
    }

    @Test func betaImpulsesAreReportedAsIgnored() {
        let result = HapticFileDecoder.decode(contentsOfFile: Oracles.file("valid_beta_impulses.haptic"))
        #expect(result.warnings.contains { $0.path == "signals.impulses" && $0.message.contains("ignored") })
    }

    @Test func metasAHAPFilesLoad() {
        for name in ["single_transient", "valid", "studio_export"] {
            let result = AHAPDecoder.decode(contentsOfFile: Oracles.file(name + ".ahap"))
            #expect(!result.hasErrors && result.pattern != nil, "\(name): \(result.errors.map(\.formatted))")
        }
        // Meta's reader refuses invalid.ahap ("ParameterCurves"); Thrum, like Core Haptics, ignores the
        // unknown key, and says so (so `check --strict` refuses it).
        let invalid = AHAPDecoder.decode(contentsOfFile: Oracles.file("invalid.ahap"))
        #expect(invalid.warnings.contains { $0.message.contains("\"ParameterCurves\"") && $0.suggestion == "did you mean \"ParameterCurve\"?" })
    }
}
