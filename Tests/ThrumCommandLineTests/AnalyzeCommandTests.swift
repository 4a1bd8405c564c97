import AHAPCodec
import AudioResources
import Foundation
import HapticFormats
import Testing
import ThrumModel
import ThrumTestSupport

/// `thrum analyze` end to end, on sounds generated here.
@Suite struct AnalyzeCommandTests {
    /// Writes mono float samples as a WAV.
    func writeWAV(_ samples: [Float], rate: Int, to path: String) throws {
        let writer = try AudioFileWriter(path: path, sampleRate: rate, channelCount: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
    }

    /// 100 Hz bursts (5 ms attack, 0.3 s, 50 ms release) starting at `onsets`, `seconds` long.
    func bursts(_ onsets: [Double], seconds: Double, rate: Int) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { i in
            let t = Double(i) / Double(rate)
            guard let start = onsets.last(where: { $0 <= t }) else { return 0 }
            let u = t - start
            let envelope = u < 0.005 ? u / 0.005 : u < 0.305 ? 1 : max(0, 1 - (u - 0.305) / 0.05)
            return Float(0.5 * envelope * sin(2 * .pi * 100 * u))
        }
    }

    func pattern(_ path: String) throws -> PatternData {
        let result = AHAPDecoder.decode(contentsOfFile: path)
        return try #require(result.pattern, "\(result.diagnostics)")
    }

    /// The value of the pattern's `id` curves at `time`: the latest curve started at or before it,
    /// linear between its points (relative times), its end values held; 1 for intensity when none applies.
    func control(_ id: CHHapticDynamicParameter.ID, of pattern: PatternData, at time: Double) -> Float {
        guard let curve = pattern.curves.filter({ $0.id == id && $0.time <= time }).max(by: { $0.time < $1.time }),
            let first = curve.points.first, let last = curve.points.last
        else { return id == .hapticIntensityControl ? 1 : 0 }
        let t = time - curve.time
        if t <= first.time { return first.value }
        if t >= last.time { return last.value }
        let i = curve.points.lastIndex { $0.time <= t }!
        let a = curve.points[i]
        let b = curve.points[i + 1]
        return a.value + Float((t - a.time) / (b.time - a.time)) * (b.value - a.value)
    }

    func transients(_ pattern: PatternData) -> [EventData] { pattern.events.filter { $0.type == .hapticTransient } }

    @Test func writesAnAHAPThatCoreHapticsTakesAsItIs() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        let onsets = [0.1, 0.6, 1.15, 1.9]
        try writeWAV(bursts(onsets, seconds: 2.5, rate: 48_000), rate: 48_000, to: dir + "/bursts.wav")
        let result = runThrum(["analyze", dir + "/bursts.wav", "-o", dir + "/bursts.ahap"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("wrote \(dir)/bursts.ahap: "))
        #expect(result.out.contains("4 transients"))
        let check = runThrum(["check", dir + "/bursts.ahap"])
        #expect(check.status == 0 && check.out.contains("0 errors, 0 warnings"), "\(check.out)")

        let decoded = try pattern(dir + "/bursts.ahap")
        #expect(decoded.curves.allSatisfy { $0.points.count <= 16 && $0.points.first?.time == 0 })
        let continuous = decoded.events.filter { $0.type == .hapticContinuous }
        #expect(continuous.count == 1 && continuous[0].time == 0)
        #expect((continuous.first?.duration ?? 0) >= 2.5)
        let found = transients(decoded).map(\.time)
        #expect(found.count == onsets.count)
        for (time, onset) in zip(found, onsets) { #expect(abs(time - onset) <= 0.01, "transient at \(time) for \(onset)") }
        // A 100 Hz tone is dull: low sharpness for the envelope and the transients.
        #expect(control(.hapticSharpnessControl, of: decoded, at: 0.3) < 0.25)
        #expect(transients(decoded).allSatisfy { $0.value(of: .hapticSharpness) < 0.35 })
    }

    /// Core Haptics scales transients by the intensity curve: the merged form lifts the curve under each
    /// transient so the product is the intensity the split form gives the transient on its own.
    @Test func mergedTransientsPlayAtTheIntensityTheSplitFormGivesThem() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        try writeWAV(bursts([0.1, 0.5, 0.9], seconds: 1.5, rate: 48_000), rate: 48_000, to: dir + "/b.wav")
        #expect(runThrum(["analyze", dir + "/b.wav", "-o", dir + "/merged.ahap"]).status == 0)
        let split = runThrum(["analyze", dir + "/b.wav", "-o", dir + "/split.ahap", "--split"])
        #expect(split.status == 0, "\(split.err)")
        #expect(split.out.hasPrefix("wrote \(dir)/split.ahap and \(dir)/split_transients.ahap: "))
        let merged = try pattern(dir + "/merged.ahap")
        let alone = try pattern(dir + "/split_transients.ahap")
        #expect(transients(try pattern(dir + "/split.ahap")).isEmpty)
        #expect(alone.curves.isEmpty && alone.events.count == 3)
        for (event, reference) in zip(transients(merged), transients(alone)) {
            #expect(event.time == reference.time)
            for offset in [0.0, 0.01, 0.02] {
                let played = event.value(of: .hapticIntensity) * control(.hapticIntensityControl, of: merged, at: event.time + offset)
                #expect(abs(played - reference.value(of: .hapticIntensity)) <= 0.002 || played > reference.value(of: .hapticIntensity))
            }
        }
        #expect(runThrum(["check", dir + "/split.ahap", dir + "/split_transients.ahap"]).status == 0)
    }

    @Test func soundsOver30SecondsBecomeSeveralEventsThatCheckAccepts() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        let onsets = stride(from: 0.2, to: 64, by: 1.3).map { $0 }
        try writeWAV(bursts(onsets, seconds: 65, rate: 16_000), rate: 16_000, to: dir + "/long.wav")
        let result = runThrum(["analyze", dir + "/long.wav", "-o", dir + "/long.ahap"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("warning: the sound lasts 65"))
        #expect(result.err.contains("HapticContinuous events of at most 30 s"))
        #expect(result.err.contains("(Core Haptics takes at most 16 points per curve)"))
        let decoded = try pattern(dir + "/long.ahap")
        let events = decoded.events.filter { $0.type == .hapticContinuous }
        #expect(events.count == 3)
        #expect(events.allSatisfy { ($0.duration ?? 0) <= 30 })
        for (a, b) in zip(events, events.dropFirst()) { #expect(abs(a.time + (a.duration ?? 0) - b.time) < 1e-9) }
        // Split at quiet moments: the envelope there is 0 (between bursts).
        // (Within 1e-9: the curve's point times are relative to its start, rebuilt in floating point.)
        for event in events.dropFirst() { #expect(abs(control(.hapticIntensityControl, of: decoded, at: event.time)) < 1e-9) }
        let check = runThrum(["check", dir + "/long.ahap"])
        #expect(check.status == 0 && check.out.contains("0 errors, 0 warnings"), "\(check.out)")
    }

    @Test func writesAValidHapticFile() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        try writeWAV(bursts([0.1, 0.6], seconds: 1.2, rate: 48_000), rate: 48_000, to: dir + "/b.wav")
        let result = runThrum(["analyze", dir + "/b.wav", "-o", dir + "/b.haptic", "--preset", "impacts"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("amplitude and"))
        let decoded = HapticFileDecoder.decode(contentsOfFile: dir + "/b.haptic", mode: .strict)
        let file = try #require(decoded.file, "\(decoded.diagnostics)")
        #expect(decoded.diagnostics.isEmpty, "\(decoded.diagnostics)")
        #expect(file.emphases.map(\.time).count == 2)
        #expect(file.metadata?.source == "b.wav" && file.metadata?.editor == "thrum analyze (impacts)")
        #expect(abs(file.amplitude(at: 0.3) - 1) < 0.05)  // normalised: the bursts' level is amplitude 1
    }

    /// Render an AHAP's haptic channel, analyse the sound, and get the intensity envelope back.
    @Test func roundTripThroughTheRenderedSound() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        let source = """
            {"Version": 1, "Pattern": [
              {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 3,
                "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5},
                                    {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}},
              {"Event": {"Time": 0.7, "EventType": "HapticTransient",
                "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}},
              {"Event": {"Time": 2.4, "EventType": "HapticTransient",
                "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}},
              {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [
                {"Time": 0, "ParameterValue": 0.2}, {"Time": 0.5, "ParameterValue": 0.85},
                {"Time": 1.2, "ParameterValue": 0.4}, {"Time": 2.0, "ParameterValue": 0.8},
                {"Time": 3.0, "ParameterValue": 0.1}]}}
            ]}
            """
        try source.write(toFile: dir + "/in.ahap", atomically: true, encoding: .utf8)
        let render = runThrum(["render", dir + "/in.ahap", "-o", dir + "/in.wav", "--channels", "H"])
        #expect(render.status == 0, "\(render.err)")
        #expect(runThrum(["analyze", dir + "/in.wav", "-o", dir + "/back.ahap", "--split"]).status == 0)
        let original = try pattern(dir + "/in.ahap")
        let back = try pattern(dir + "/back.ahap")
        // The continuous plays at 0.5 × the curve; the transients (intensity 1 × the curve) stand out by
        // 12 dB. Away from the transients the analysed intensity follows the continuous one, up to a scale
        // (the analysis maps its loudest moment, a transient, to 1): fit that scale, then compare.
        var found: [Double] = []
        var expected: [Double] = []
        for t in stride(from: 0.02, to: 2.98, by: 0.001) where abs(t - 0.7) > 0.06 && abs(t - 2.4) > 0.06 {
            found.append(Double(control(.hapticIntensityControl, of: back, at: t)))
            expected.append(0.5 * Double(control(.hapticIntensityControl, of: original, at: t)))
        }
        let scale = zip(found, expected).map { $0 * $1 }.reduce(0, +) / found.map { $0 * $0 }.reduce(0, +)
        found = found.map { $0 * scale }
        let n = Double(found.count)
        let (mf, me) = (found.reduce(0, +) / n, expected.reduce(0, +) / n)
        let covariance = zip(found, expected).map { ($0 - mf) * ($1 - me) }.reduce(0, +)
        let r = covariance / (found.map { ($0 - mf) * ($0 - mf) }.reduce(0, +) * expected.map { ($0 - me) * ($0 - me) }.reduce(0, +)).squareRoot()
        #expect(r >= 0.95, "correlation \(r)")
        let meanError = zip(found, expected).map { abs($0 - $1) }.reduce(0, +) / n
        #expect(meanError <= 0.03, "mean error \(meanError) (scale \(scale))")
        // The transients come back where they were.
        let times = try pattern(dir + "/back_transients.ahap").events.map(\.time)
        for t in [0.7, 2.4] { #expect(times.contains { abs($0 - t) <= 0.01 }, "transient at \(t) s in \(times)") }
    }

    @Test(arguments: [
        (["-o", "x.wav"], 64, "thrum analyze: -o: thrum analyze writes .ahap or .haptic files, not 'x.wav'\n"),
        ([String](), 64, "thrum analyze: 'thrum analyze' needs -o FILE (the .ahap or .haptic file to write)\n"),
        (["-o", "x.haptic", "--split"], 64, "thrum analyze: --split applies to .ahap output only\n"),
        (["-o", "x.ahap", "--release", "6"], 64, "thrum analyze: --release must be 0…5, got 6\n"),
        (["-o", "x.ahap", "--sensitivity", "1.5"], 64, "thrum analyze: --sensitivity must be 0…1, got 1.5\n"),
        (["-o", "x.ahap", "--band", "20-x"], 64, "thrum analyze: --band takes LOW-HIGH in Hz, e.g. 20-250, not '20-x'\n"),
        (["-o", "x.ahap", "--band", "300-100"], 64, "thrum analyze: --band must be 310…20000, got 100\n"),
        (["-o", "x.ahap", "--preset", "loud"], 64,
            "thrum analyze: --preset takes general, studio, ui, impacts, footsteps or music, not 'loud'\n"),
    ])
    func badOptionsAreUsageErrors(options: [String], status: Int32, message: String) throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        try writeWAV([Float](repeating: 0.1, count: 4800), rate: 48_000, to: dir + "/s.wav")
        let result = runThrum(["analyze", dir + "/s.wav"] + options)
        #expect(result.status == status)
        #expect(result.err == message)
    }

    @Test func badInputsAreNamedWithTheirExitCodes() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        let missing = runThrum(["analyze", dir + "/none.wav", "-o", dir + "/x.ahap"])
        #expect(missing.status == 66 && missing.err.contains("cannot open '\(dir)/none.wav': no such file"))
        try "not audio".write(toFile: dir + "/text.wav", atomically: true, encoding: .utf8)
        let text = runThrum(["analyze", dir + "/text.wav", "-o", dir + "/x.ahap"])
        #expect(text.status == 65 && text.err.contains("cannot be read as audio"), "\(text.err)")
        try writeWAV([], rate: 48_000, to: dir + "/empty.wav")
        let empty = runThrum(["analyze", dir + "/empty.wav", "-o", dir + "/x.ahap"])
        #expect(empty.status == 65 && empty.err.contains("holds no audio"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.ahap"), "no output after a failure")
        let unwritable = runThrum(["analyze", dir + "/empty.wav", "-o", dir + "/no/such/folder/x.ahap"])
        #expect(unwritable.status == 65)  // the empty sound is found first
    }

    @Test func settingsFilesAreReadWithPositionsAndOptionsWinOverThem() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        try writeWAV(bursts([0.1], seconds: 0.6, rate: 48_000), rate: 48_000, to: dir + "/s.wav")
        try "{\n  \"relase\": 0.1\n}\n".write(toFile: dir + "/typo.json", atomically: true, encoding: .utf8)
        let typo = runThrum(["analyze", dir + "/s.wav", "-o", dir + "/x.ahap", "--settings", dir + "/typo.json"])
        #expect(typo.status == 65)
        #expect(typo.err == "thrum analyze: \(dir)/typo.json:2:3: relase is not a setting; did you mean 'release'?\n")
        try "{\"release\": 6}".write(toFile: dir + "/range.json", atomically: true, encoding: .utf8)
        let range = runThrum(["analyze", dir + "/s.wav", "-o", dir + "/x.ahap", "--settings", dir + "/range.json"])
        #expect(range.err == "thrum analyze: \(dir)/range.json:1:2: release must be 0…5, got 6\n")
        try "{\"normalize\": 1}".write(toFile: dir + "/type.json", atomically: true, encoding: .utf8)
        let type = runThrum(["analyze", dir + "/s.wav", "-o", dir + "/x.ahap", "--settings", dir + "/type.json"])
        #expect(type.err == "thrum analyze: \(dir)/type.json:1:2: normalize must be true or false\n")
        try "{\"preset\": \"music\", \"release\": 0.1}".write(toFile: dir + "/music.json", atomically: true, encoding: .utf8)
        let music = runThrum(["analyze", dir + "/s.wav", "-o", dir + "/m.ahap", "--settings", dir + "/music.json"])
        #expect(music.status == 0, "\(music.err)")
        #expect(try pattern(dir + "/m.ahap").metadata.contains(MetadataEntry(key: "Generator", value: "thrum analyze (music)")))
        let both = runThrum([
            "analyze", dir + "/s.wav", "-o", dir + "/o.ahap", "--settings", dir + "/music.json", "--sensitivity", "0",
        ])
        #expect(both.status == 0 && both.out.contains(" 0 transients"), "\(both.out)")
        #expect(try pattern(dir + "/o.ahap").metadata.contains(MetadataEntry(key: "Generator", value: "thrum analyze (music with options)")))
    }

    @Test(arguments: ["general", "studio", "ui", "impacts", "footsteps", "music"])
    func everyPresetWritesAPatternCheckAccepts(preset: String) throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        try writeWAV(bursts([0.05, 0.4, 0.75], seconds: 1.2, rate: 44_100), rate: 44_100, to: dir + "/s.wav")
        #expect(runThrum(["analyze", dir + "/s.wav", "-o", dir + "/p.ahap", "--preset", preset]).status == 0)
        let check = runThrum(["check", dir + "/p.ahap"])
        #expect(check.status == 0 && check.out.contains("0 errors, 0 warnings"), "\(check.out)")
    }

    /// `render` (and `play`) take a sound file as the pattern; --haptics-from-audio derives the haptic
    /// channel from it on the render thread.
    @Test func renderDerivesHapticsFromASoundFile() throws {
        let temporary = TemporaryDirectory("analyze")
        let dir = temporary.path
        try writeWAV(bursts([0.1, 0.5], seconds: 1, rate: 48_000), rate: 48_000, to: dir + "/s.wav")
        for (flag, expectHaptics) in [(["--haptics-from-audio"], true), ([], false)] {
            let result = runThrum(["render", dir + "/s.wav", "-o", dir + "/out.wav", "--channels", "L,H"] + flag)
            #expect(result.status == 0, "\(result.err)")
            let decoded = try AudioFileLoader.load(path: dir + "/out.wav", targetSampleRate: 48_000)
            let haptic = (0..<decoded.frameCount).map { decoded[frame: $0, channel: 1] }
            let audio = (0..<decoded.frameCount).map { decoded[frame: $0, channel: 0] }
            #expect(audio.contains { $0 != 0 }, "the sound plays")
            #expect(haptic.contains { abs($0) > 0.1 } == expectHaptics, "flags \(flag)")
        }
        let preset = runThrum(["render", dir + "/s.wav", "-o", dir + "/out.wav", "--preset", "music"])
        #expect(preset.status == 64 && preset.err.contains("add --haptics-from-audio"))
        let watch = runThrum(["play", dir + "/s.wav", "--watch", "--haptics-from-audio"])
        #expect(watch == (64, "", "thrum play: --watch replays an AHAP file when it is saved; '\(dir)/s.wav' is a sound\n"))
    }
}
