import AHAPCodec
import AudioResources
import Foundation
import HapticFormats
import ThrumModel
import Testing
import ThrumTestSupport

/// Haptics Studio projects written by the tests in the layout of MANIFEST.md (the public sample
/// projects'): `thrum info`, `thrum import` and `thrum analyze --settings PROJECT.hasp --clip NAME`.
@Suite struct HaspProjectTests {
    /// Meta's settings for a clip: every field of `OfflineAnalysisSettings` plus one Thrum does not know.
    static let settings = """
        {
              "preprocessing": {"gain_db": 0, "normalize_audio": true, "normalize_level_db": 0},
              "offline": {
                "amplitude_breakpoints_per_second": 40, "minimum_breakpoint_score": 1e-8,
                "amplitude": {"envelope_attack_time": 0.002, "envelope_hold_time": 0.005, "envelope_release_time": 0.08,
                  "time_between_updates": 0.001, "rms_windowing_time": 0.004},
                "frequency_breakpoints_per_second": 20,
                "frequency": {"frequency_min": 40, "frequency_max": 500, "output_min": 0.1, "output_max": 0.9},
                "emphasis_enabled": true,
                "emphasis": {"sensitivity_percent": 70, "peak_window_ms": 80, "minimum_rise": 0.15,
                  "plateau_factor_percent": 30, "sharpness_min": 0.2, "sharpness_max": 0.8, "ducking_percent": 40},
                "spectrum": {"centroid_lowpass_hz": 900, "fft_size": 512, "overlap_factor": 4},
                "future_knob": 3
              }
            }
        """
    /// The same settings in Thrum's names, converted by hand from the units Meta documents.
    static let thrumSettings = """
        {"normalize": true, "emphasis": true, "gain": 0, "breakpointsPerSecond": 40, "attack": 0.002, "hold": 0.005,
         "release": 0.08, "rmsWindow": 0.004, "frequencyBreakpointsPerSecond": 20, "frequencyMin": 40, "frequencyMax": 500,
         "frequencyOutputMin": 0.1, "frequencyOutputMax": 0.9, "onsetSensitivity": 0.7, "minimumOnsetInterval": 0.08,
         "minimumRise": 0.15, "plateau": 0.3, "emphasisSharpnessMin": 0.2, "emphasisSharpnessMax": 0.8, "ducking": 0.4,
         "centroidLowpass": 900, "fftSize": 512, "overlap": 4, "textureEmphasis": false, "riseWindow": 0, "relativeSensitivity": true}
        """
    /// A designed haptic with one emphasis and a field of a later version of the format.
    static let haptic = """
        {"version": {"major": 1, "minor": 0, "patch": 0}, "metadata": {"editor": "Haptics Studio", "x_extra": "kept"},
              "signals": {"continuous": {"envelopes": {
                "amplitude": [{"time": 0, "amplitude": 0.2}, {"time": 0.1, "amplitude": 0.5,
                  "emphasis": {"amplitude": 0.9, "frequency": 0.7}}, {"time": 0.4, "amplitude": 0}],
                "frequency": [{"time": 0, "frequency": 0.3}, {"time": 0.4, "frequency": 0.6}]}}}}
        """

    /// Writes `project.hasp` with clips Boom (audio/boom.wav, written) and Swell (audio/swell.wav, written
    /// unless `missingAudio`), and returns the folder.
    static func writeProject(_ temporary: TemporaryDirectory, settings: String = settings, missingAudio: Bool = false) throws -> String {
        let dir = temporary.path
        try FileManager.default.createDirectory(atPath: dir + "/audio", withIntermediateDirectories: true)
        try writeWAV(hits([0.2, 0.7]), to: dir + "/audio/boom.wav")
        if !missingAudio { try writeWAV(hits([0.3]), to: dir + "/audio/swell.wav") }
        func clip(_ id: String, _ name: String, _ file: String) -> String {
            """
                {"clipId": "\(id)", "name": "\(name)",
                  "audioAsset": {"filename": "\(file)", "path": "audio/\(file)", "channels": 1},
                  "waveform": {"envelope": [{"time": 0, "amplitude": 0}]},
                  "settings": \(settings),
                  "lastUpdate": 1700000000000,
                  "haptic": \(haptic)}
            """
        }
        let text = """
            {"version": {"major": 2, "minor": 0, "patch": 0}, "metadata": {"name": "Demo"},
              "state": {"sessionId": "s", "clipId": "a"},
              "clips": [
            \(clip("a", "Boom", "boom.wav")),
            \(clip("b", "Swell", "swell.wav"))
              ],
              "groups": [], "updatedAt": 1700000000000, "studioTheme": "dark"}
            """
        _ = try temporary.write("project.hasp", text)
        return dir
    }

    static func writeWAV(_ samples: [Float], to path: String) throws {
        let writer = try AudioFileWriter(path: path, sampleRate: 48_000, channelCount: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
    }

    /// 1 s of 90 Hz hits (2 ms attack, 60 ms decay) at `onsets`.
    static func hits(_ onsets: [Double]) -> [Float] {
        (0..<48_000).map { i in
            let t = Double(i) / 48_000
            guard let start = onsets.last(where: { $0 <= t }) else { return 0 }
            let u = t - start
            return Float(0.7 * min(u / 0.002, 1) * exp(-u / 0.06) * sin(2 * .pi * 90 * u))
        }
    }

    /// The 1-based line of the first line of `file` that contains `text`, and the column where it starts.
    static func place(of text: String, in file: String) throws -> String {
        let lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(text) })
        let column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: text)!.lowerBound) + 1
        return "\(index + 1):\(column)"
    }

    @Test func infoListsTheClipsWithTheirSettingsInThrumNames() throws {
        let temporary = TemporaryDirectory("hasp")
        let dir = try Self.writeProject(temporary)
        let result = runThrum(["info", dir + "/project.hasp"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("project: Demo (Haptics Studio project 2.0.0), 2 clips"))
        #expect(result.out.contains("clip 1: Boom") && result.out.contains("clip 2: Swell"))
        #expect(result.out.contains("haptic: 0.400 s, 3 amplitude and 2 frequency breakpoints, 1 emphases"))
        for pair in [
            "\"onsetSensitivity\": 0.7", "\"minimumOnsetInterval\": 0.08", "\"plateau\": 0.3", "\"ducking\": 0.4",
            "\"rmsWindow\": 0.004", "\"fftSize\": 512", "\"overlap\": 4", "\"centroidLowpass\": 900", "\"frequencyMin\": 40",
        ] {
            #expect(result.out.contains(pair), "\(pair) in \(result.out)")
        }
        // Nothing is dropped silently: the unknown project field and setting.
        let knob = try Self.place(of: "\"future_knob\"", in: dir + "/project.hasp")
        #expect(result.out.contains("\(dir)/project.hasp:\(knob): settings.offline.future_knob is not a Haptics Studio setting Thrum knows"))
        let theme = try Self.place(of: "\"studioTheme\"", in: dir + "/project.hasp")
        #expect(result.out.contains("\(dir)/project.hasp:\(theme): studioTheme is not a project field Thrum reads"))
        #expect(result.out.contains("\"minimumBreakpointScore\": 1e-08") || result.out.contains("\"minimumBreakpointScore\": 1e-8"))
        let json = runThrum(["info", "--json", dir + "/project.hasp"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let clips = try #require(object["clips"] as? [[String: Any]])
        #expect(clips.map { $0["name"] as? String } == ["Boom", "Swell"])
        #expect((clips[0]["settings"] as? [String: Any])?["minimumRise"] as? Double == 0.15)
    }

    @Test func importWritesEachClipsHapticWithEveryFieldAndItsAudio() throws {
        let temporary = TemporaryDirectory("hasp")
        let dir = try Self.writeProject(temporary)
        let result = runThrum(["import", dir + "/project.hasp", "-o", dir + "/out"])
        #expect(result.status == 0, "\(result.err)")
        for name in ["Boom", "Swell"] {
            let text = try String(contentsOfFile: dir + "/out/\(name).haptic", encoding: .utf8)
            #expect(text.contains("\"x_extra\": \"kept\""))
            let decoded = HapticFileDecoder.decode(text: text, mode: .strict)
            let file = try #require(decoded.file, "\(decoded.diagnostics)")
            #expect(file.amplitude.map(\.amplitude) == [0.2, 0.5, 0])
            #expect(file.emphases.map(\.time) == [0.1] && file.emphases.first?.emphasis.amplitude == 0.9)
        }
        let copied = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/Boom.wav"))
        #expect(copied == (try Data(contentsOf: URL(fileURLWithPath: dir + "/audio/boom.wav"))))

        let ahap = runThrum(["import", dir + "/project.hasp", "-o", dir + "/ahap", "--format", "ahap", "--split"])
        #expect(ahap.status == 0, "\(ahap.err)")
        let transients = try #require(AHAPDecoder.decode(contentsOfFile: dir + "/ahap/Boom_transients.ahap").pattern)
        #expect(transients.events.map(\.time) == [0.1])
        #expect(abs(transients.events[0].value(of: .hapticIntensity) - Float(0.9).squareRoot()) < 1e-6)
        #expect(FileManager.default.fileExists(atPath: dir + "/ahap/Boom_continuous.ahap"))
    }

    /// A clip's settings from the project analyse exactly as the same settings written in Thrum's names.
    @Test func analyzeWithAClipsSettingsEqualsTheSettingsInThrumNames() throws {
        let temporary = TemporaryDirectory("hasp")
        let dir = try Self.writeProject(temporary)
        let sound = dir + "/audio/boom.wav"
        let fromProject = runThrum(["analyze", sound, "--settings", dir + "/project.hasp", "--clip", "Boom", "-o", dir + "/a.haptic"])
        #expect(fromProject.status == 0, "\(fromProject.err)")
        #expect(fromProject.err.contains("future_knob"))
        let settingsFile = try temporary.write("thrum-settings.json", Self.thrumSettings)
        let fromJSON = runThrum(["analyze", sound, "--settings", settingsFile, "-o", dir + "/b.haptic"])
        #expect(fromJSON.status == 0, "\(fromJSON.err)")
        let a = try #require(HapticFileDecoder.decode(contentsOfFile: dir + "/a.haptic").file)
        let b = try #require(HapticFileDecoder.decode(contentsOfFile: dir + "/b.haptic").file)
        #expect(a.amplitude == b.amplitude && a.frequency == b.frequency)
        // Two equal hits are the two candidates; Haptics Studio's sensitivity spans the candidates' flux
        // from the highest (kept at any sensitivity above 0) to the lowest (kept only at 100 %), so at
        // 70 % one of them carries an emphasis.
        #expect(a.emphases.count == 1, "two hits, one emphasis at 70 %: \(a.emphases.map(\.time))")
        #expect(a.metadata?.editor?.contains("clip Boom of project.hasp") == true)
    }

    @Test func brokenProjectsGetLocatedErrors() throws {
        let temporary = TemporaryDirectory("hasp")
        var dir = try Self.writeProject(temporary, missingAudio: true)
        var result = runThrum(["import", dir + "/project.hasp", "-o", dir + "/out"])
        #expect(result.status == 66)
        let path = try Self.place(of: "\"audio/swell.wav\"", in: dir + "/project.hasp")
        #expect(result.err.contains("project.hasp:\(path): clip 'Swell': audio file 'audio/swell.wav' not found"), "\(result.err)")
        #expect(result.err.hasSuffix("thrum import: 1 clip not written: 'Swell'\n"), "\(result.err)")
        // The clip that can be written is, whole; the other leaves nothing.
        #expect(FileManager.default.fileExists(atPath: dir + "/out/Boom.haptic"))
        #expect(FileManager.default.fileExists(atPath: dir + "/out/Boom.wav"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/Swell.haptic"), "a clip that fails leaves nothing")

        let badType = TemporaryDirectory("hasp")
        dir = try Self.writeProject(badType, settings: Self.settings.replacingOccurrences(of: "\"minimum_rise\": 0.15", with: "\"minimum_rise\": \"high\""))
        result = runThrum(["info", dir + "/project.hasp"])
        let rise = try Self.place(of: "\"minimum_rise\"", in: dir + "/project.hasp")
        #expect(result.status == 65)
        #expect(result.err.contains("project.hasp:\(rise): settings.offline.emphasis.minimum_rise must be a number"), "\(result.err)")

        let outOfRange = TemporaryDirectory("hasp")
        dir = try Self.writeProject(outOfRange, settings: Self.settings.replacingOccurrences(of: "\"ducking_percent\": 40", with: "\"ducking_percent\": 140"))
        result = runThrum(["analyze", dir + "/audio/boom.wav", "--settings", dir + "/project.hasp", "--clip", "Boom", "-o", dir + "/x.haptic"])
        let ducking = try Self.place(of: "\"ducking_percent\"", in: dir + "/project.hasp")
        #expect(result.status == 65)
        #expect(result.err.contains("project.hasp:\(ducking): settings.offline.emphasis.ducking_percent → ducking must be 0…1, got 1.4"), "\(result.err)")

        result = runThrum(["analyze", dir + "/audio/boom.wav", "--settings", dir + "/project.hasp", "--clip", "Bom", "-o", dir + "/x.haptic"])
        #expect(result.status == 64 && result.err.contains("did you mean 'Boom'?"), "\(result.err)")
        result = runThrum(["analyze", dir + "/audio/boom.wav", "--settings", dir + "/project.hasp", "-o", dir + "/x.haptic"])
        #expect(result.status == 64 && result.err.contains("needs --clip NAME"), "\(result.err)")

        let syntax = try temporary.write("broken.hasp", "{\"clips\": [\n  {\"name\": \"A\",}\n  ,]\n  oops}")
        result = runThrum(["info", syntax])
        #expect(result.status == 65 && result.err.contains("broken.hasp:4:3: invalid JSON"), "\(result.err)")
        result = runThrum(["info", temporary.path + "/none.hasp"])
        #expect(result.status == 66)
    }
}
