import AudioResources
import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// Meta's actuator configuration files (`.acf`, JSON5) as Thrum actuator profiles: every file in the
/// oracle folder (meta-haptics-sdk `resources/acf`, MIT) parses, with the values the files hold mapped
/// as docs/analysis.md says; broken files are named at their line and column.
@Suite struct ActuatorConfigurationTests {
    static var folder: String { (TestOracles.root ?? TestOracles.besideRepository).appendingPathComponent("meta-haptics-sdk/acf").path }

    static func profile(_ text: String, file: String = "test.acf") throws -> ActuatorProfile {
        try ActuatorProfile.decode(actuatorConfiguration: Data(text.utf8), file: file)
    }

    /// Every `.acf` in the folder, and what each holds (read from the files by eye): continuous band,
    /// continuous gain, emphasis gain and the two emphasis durations in ms.
    static let expected: [String: (low: Double, high: Double, gain: Double, emphasisGain: Double, durations: [Double], device: String)] = [
        "MetaQuest.acf": (55, 200, 1, 1, [36.4, 12.1], "Meta Quest controllers"),
        "Generic-Console-PCM.acf": (20, 250, 1, 1, [27, 20], "VCM Generic f0 65Hz"),
        "Generic-Console-SimpleHaptics.acf": (60, 60, 0.8, 1, [40, 20], "Generic Console: Simple Haptics (amplitude only)"),
        "template.acf": (55, 110, 0.8, 1, [40, 4], "Name of device"),
    ]

    @Test(.enabled(if: TestOracles.isAvailable, "\(TestOracles.skipReason)"))
    func everyOracleFileParsesWithItsValuesMapped() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".acf") }.sorted()
        #expect(Set(names) == Set(Self.expected.keys), "a new file in the folder needs its expected values here")
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
            let profile = try ActuatorProfile.decode(actuatorConfiguration: data, file: name)
            let want = try #require(Self.expected[name])
            #expect(profile.name == want.device)
            #expect(profile.lowFrequency == want.low && profile.highFrequency == want.high, "\(name)")
            #expect(abs(profile.gain - 0.8 * want.gain) < 1e-12, "\(name): gain \(profile.gain)")
            #expect(abs(profile.limiterThreshold - max(0.8 * want.gain, min(0.8 * want.emphasisGain, 0.99))) < 1e-12)
            let mean = want.durations.reduce(0, +) / Double(want.durations.count) / 1000
            #expect(abs(profile.transientDuration - min(max(mean, 0.01), 0.03)) < 1e-12, "\(name)")
            #expect(profile.law == .square)
            try profile.validate(sampleRate: 48_000)
        }
    }

    /// Through the CLI: a continuous event at sharpness 0 rendered with --profile MetaQuest.acf drives
    /// the actuator at the file's frequency_min, 55 Hz (zero crossings over 1 s).
    @Test(.enabled(if: TestOracles.isAvailable, "\(TestOracles.skipReason)"))
    func renderDrivesTheBandTheFileGives() throws {
        let temporary = TemporaryDirectory("acf")
        let pattern = try temporary.write(
            "low.ahap",
            """
            {"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1.2,
              "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1},
                                  {"ParameterID": "HapticSharpness", "ParameterValue": 0}]}}]}
            """)
        let out = temporary.file("low.wav")
        let result = runThrum(["render", pattern, "--channels", "H", "--profile", Self.folder + "/MetaQuest.acf", "-o", out])
        #expect(result.status == 0, "\(result.err)")
        let samples = try AudioFileLoader.load(path: out, targetSampleRate: 48_000).withUnsafeSamples { Array($0) }
        let second = Array(samples[4800..<(4800 + 48_000)])
        let crossings = zip(second, second.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
        #expect(abs(crossings - 55) <= 1, "\(crossings) cycles in a second")
    }

    @Test func json5FormsAndBrokenFilesAreNamedAtTheirPlace() throws {
        // JSON5: comments, unquoted keys, single quotes, trailing commas, +, leading and trailing points.
        let profile = try Self.profile(
            """
            // a test actuator
            { metadata: { device: 'It\\'s "mine"', },
              /* the band */ continuous: { gain: +.5, emphasis_ducking: 1., frequency_min: 0x50, frequency_max: 230, },
              emphasis: { gain: 1, frequency_min: { output_frequency: 80, duration_ms: 30, shape: 'sine' } },
            }
            """)
        #expect(profile.name == "It's \"mine\"")
        #expect(profile.lowFrequency == 80 && profile.highFrequency == 230 && profile.gain == 0.4)
        #expect(profile.transientDuration == 0.03)

        let cases: [(String, String)] = [
            ("{\n  continuous: { gain: 1, frequency_min: 55, frequency_max: 200, gian: 2 },\n}", "continuous.gian' (at 2:65) is not an ACF field"),
            ("{\n  continuous: {\n    gain: 'loud', frequency_min: 55, frequency_max: 200 } }", "continuous.gain' (at 3:5) must be a number, not a string"),
            ("{\n  continuous: { gain: 1, frequency_min: 200, frequency_max: 55 } }", "continuous.frequency_max' must be ≥ lowFrequency"),
            ("{ continuous: { gain: 1, frequency_min: 55 } }", "continuous.frequency_max' is missing"),
            ("{\n  continuous: { gain: 1 frequency_min: 55 } }", "2:25:"),
            ("{ emphasis: { frequency_min: { shape: 'round' } }, continuous: { gain: 1, frequency_min: 1, frequency_max: 2 } }",
             "emphasis.frequency_min.shape' (at 1:32) must be 'saw', 'sine', 'square' or 'triangle'"),
        ]
        for (text, message) in cases {
            do {
                _ = try Self.profile(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(String(describing: error).contains(message), "\(error)")
            }
        }
        let temporary = TemporaryDirectory("acf")
        let bad = try temporary.write("bad.acf", "{ continuous: { gain: 2, frequency_min: 55, frequency_max: 200 } }")
        let result = runThrum(["info", packageRoot.path + "/Resources/Patterns/heartbeat.ahap", "--profile", bad])
        #expect(result.status == 65 && result.err.contains("continuous.gain' must be in 0 < gain ≤ 1, got 2.0"), "\(result.err)")
    }
}
