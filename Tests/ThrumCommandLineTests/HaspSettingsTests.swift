import AudioResources
import Foundation
import HapticFormats
import Testing
import ThrumTestSupport

/// Every analysis setting a Haptics Studio project (`.hasp`) writes, varied one at a time in a project the
/// test builds, analysed with `thrum analyze SOUND --settings P.hasp --clip NAME`, and checked against
/// what Meta's sources say the setting does (meta-haptics-sdk `audio_analysis`: `amplitude_analyzer.rs`,
/// haptic_dsp's envelope follower and windowed RMS, `breakpoint_reduction.rs`, `emphasis_detection.rs`,
/// `spectrum_analysis.rs`, `frequency_analyzer.rs`, `audio_preprocessing.rs`). The expected values are
/// worked out from those definitions and the test sounds (a square wave's magnitude is constant, so its
/// RMS over any window is its amplitude), not taken from Thrum's code.
@Suite struct HaspSettingsTests {
    static let rate = 48_000.0

    /// Haptics Studio's defaults (`OfflineAnalysisSettings::default()`, `PreprocessingSettings::default()`).
    static let defaults: [(group: String, key: String, value: String)] = [
        ("preprocessing", "gain_db", "0"), ("preprocessing", "normalize_audio", "false"),
        ("preprocessing", "normalize_level_db", "0"),
        ("offline", "amplitude_breakpoints_per_second", "60"), ("offline", "minimum_breakpoint_score", "1e-8"),
        ("offline", "frequency_breakpoints_per_second", "60"), ("offline", "emphasis_enabled", "true"),
        ("offline.amplitude", "time_between_updates", "0.001"), ("offline.amplitude", "envelope_attack_time", "0.0001"),
        ("offline.amplitude", "envelope_hold_time", "0.0015"), ("offline.amplitude", "envelope_release_time", "0.1"),
        ("offline.amplitude", "rms_windowing_time", "0.0001"),
        ("offline.frequency", "frequency_min", "30"), ("offline.frequency", "frequency_max", "600"),
        ("offline.frequency", "output_min", "0"), ("offline.frequency", "output_max", "1"),
        ("offline.emphasis", "sensitivity_percent", "50"), ("offline.emphasis", "peak_window_ms", "100"),
        ("offline.emphasis", "minimum_rise", "0.1"), ("offline.emphasis", "plateau_factor_percent", "25"),
        ("offline.emphasis", "sharpness_min", "0"), ("offline.emphasis", "sharpness_max", "1"),
        ("offline.emphasis", "ducking_percent", "50"),
        ("offline.spectrum", "centroid_lowpass_hz", "1000"), ("offline.spectrum", "fft_size", "1024"),
        ("offline.spectrum", "overlap_factor", "8"),
    ]

    /// A clip's `settings` object: the defaults with `changes` ("group.key": JSON value) over them.
    static func settings(_ changes: [String: String]) -> String {
        func members(_ group: String) -> String {
            defaults.filter { $0.group == group }.map { "\"\($0.key)\": \(changes[$0.group + "." + $0.key] ?? $0.value)" }
                .joined(separator: ", ")
        }
        let offline = members("offline") + ", " + ["amplitude", "frequency", "emphasis", "spectrum"]
            .map { "\"\($0)\": {\(members("offline." + $0))}" }.joined(separator: ", ")
        return "{\"preprocessing\": {\(members("preprocessing"))}, \"offline\": {\(offline)}}"
    }

    /// The `.haptic` Thrum makes of `samples` with clip C's settings from a project written around them.
    static func analyse(_ samples: [Float], _ changes: [String: String] = [:]) throws -> HapticFile {
        let temporary = TemporaryDirectory("hasp-settings")
        let writer = try AudioFileWriter(path: temporary.file("c.wav"), sampleRate: Int(rate), channelCount: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let haptic = "{\"version\": {\"major\": 1, \"minor\": 0, \"patch\": 0}, \"signals\": {\"continuous\": {\"envelopes\": "
            + "{\"amplitude\": [{\"time\": 0, \"amplitude\": 0}, {\"time\": 1, \"amplitude\": 0}]}}}}"
        let project = try temporary.write("p.hasp", """
            {"version": {"major": 2, "minor": 0, "patch": 0}, "metadata": {"name": "T"}, "state": {},
             "clips": [{"clipId": "c", "name": "C", "audioAsset": {"filename": "c.wav", "path": "c.wav", "channels": 1},
               "settings": \(settings(changes)), "haptic": \(haptic)}],
             "groups": [], "updatedAt": 0}
            """)
        let out = temporary.file("out.haptic")
        let result = runThrum(["analyze", temporary.file("c.wav"), "--settings", project, "--clip", "C", "-o", out])
        #expect(result.status == 0, "\(result.err)")
        return try #require(HapticFileDecoder.decode(contentsOfFile: out).file)
    }

    /// Silence with a 100 Hz square wave of `level` from `start` for `length` seconds (whole periods).
    static func square(_ level: Float, at start: Double, for length: Double, in seconds: Double = 0.8) -> [Float] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate - start
            guard t >= 0 && t < length else { return 0 }
            return (Int(t * 200) % 2 == 0 ? 1 : -1) * level
        }
    }

    /// The amplitude envelope at `time` (linear between breakpoints).
    static func amplitude(_ file: HapticFile, at time: Double) -> Double {
        let points = file.amplitude
        guard let after = points.firstIndex(where: { $0.time >= time }) else { return points.last?.amplitude ?? 0 }
        guard after > 0 else { return points[0].amplitude }
        let a = points[after - 1], b = points[after]
        return b.time == a.time ? b.amplitude : a.amplitude + (time - a.time) / (b.time - a.time) * (b.amplitude - a.amplitude)
    }

    /// Every update kept, nothing dropped, no emphasis: the envelope itself.
    static let raw = [
        "offline.amplitude_breakpoints_per_second": "1000", "offline.minimum_breakpoint_score": "0",
        "offline.emphasis_enabled": "false",
    ]

    /// `envelope_attack_time`, `envelope_hold_time`, `envelope_release_time`: each stage reaches 99 % of
    /// its way in its time (so half way through it, 1 − 0.01^0.5 = 90 %); the hold keeps the level.
    @Test func attackHoldAndReleaseTakeTheirTimes() throws {
        let file = try Self.analyse(
            Self.square(0.5, at: 0.1, for: 0.3),
            Self.raw.merging([
                "offline.amplitude.envelope_attack_time": "0.02", "offline.amplitude.envelope_hold_time": "0.05",
                "offline.amplitude.envelope_release_time": "0.1",
            ]) { $1 })
        func at(_ t: Double) -> Double { Self.amplitude(file, at: t) }
        #expect(abs(at(0.11) - 0.45) <= 0.01, "half the attack: \(at(0.11))")
        #expect(abs(at(0.12) - 0.495) <= 0.006, "the whole attack: \(at(0.12))")
        #expect(abs(at(0.44) - 0.5) <= 0.003, "held: \(at(0.44))")
        #expect(abs(at(0.4 + 0.05 + 0.05) - 0.05) <= 0.006, "half the release: \(at(0.5))")
        #expect(at(0.4 + 0.05 + 0.1) <= 0.0065, "the whole release: \(at(0.55))")
    }

    /// `rms_windowing_time`: the RMS over that window; one sample of 0.8 reads 0.8 / √N over N samples.
    @Test func theRMSWindowAveragesTheSquares() throws {
        var impulse = [Float](repeating: 0, count: Int(Self.rate))
        impulse[Int(0.2 * Self.rate)] = 0.8
        for (window, samples) in [(0.001, 48.0), (0.0001, 5.0)] {
            let file = try Self.analyse(
                impulse,
                Self.raw.merging(["offline.amplitude.rms_windowing_time": "\(window)", "offline.amplitude.envelope_release_time": "2"]) { $1 })
            let peak = file.amplitude.map(\.amplitude).max() ?? 0
            #expect(abs(peak - 0.8 / samples.squareRoot()) <= 0.01 * 0.8 / samples.squareRoot() + 0.001, "window \(window): \(peak)")
        }
    }

    /// `time_between_updates`: the envelope's points are that far apart.
    @Test func updatesComeAtTheirInterval() throws {
        let file = try Self.analyse(Self.square(0.5, at: 0.1, for: 0.3), Self.raw.merging(["offline.amplitude.time_between_updates": "0.005"]) { $1 })
        let times = file.amplitude.map(\.time).dropFirst().dropLast()
        #expect(times.count > 100)
        for (a, b) in zip(times, times.dropFirst()) { #expect(abs(b - a - 0.005) <= 0.0002, "\(a) → \(b)") }
    }

    /// `amplitude_breakpoints_per_second` and `frequency_breakpoints_per_second`: at most that many in each
    /// second (besides the point added at 0 and the one at the end).
    @Test func eachSecondKeepsAtMostItsBreakpoints() throws {
        var rng = SplitMix64(seed: 3)
        var level: Float = 0.5
        let busy = (0..<Int(3 * Self.rate)).map { i -> Float in
            if i % 480 == 0 { level = Float(rng.range(0.1, 0.9)) }
            return (i / 240) % 2 == 0 ? level : -level
        }
        for (amplitude, frequency) in [(25, 10), (200, 100)] {
            let file = try Self.analyse(busy, [
                "offline.amplitude_breakpoints_per_second": "\(amplitude)", "offline.frequency_breakpoints_per_second": "\(frequency)",
            ])
            // Seconds counted from each envelope's first point (the amplitude's after the one added at 0).
            let a0 = try #require(file.amplitude.first { $0.time > 0 }).time
            let f0 = try #require(file.frequencyBreakpoints.first).time
            for second in 0..<2 {
                // Times are written to 0.1 ms, so a point within 0.05 ms of a region's edge may be either
                // region's: counted in the later one, the later one may show one more.
                func region(_ t: Double, _ start: Double) -> Int { Int((t - start + 0.00005).rounded(.down)) }
                let a = file.amplitude.filter { $0.time >= a0 && region($0.time, a0) == second }
                let f = file.frequencyBreakpoints.filter { $0.time >= f0 && region($0.time, f0) == second }
                #expect(a.count <= amplitude + 1 && a.count >= amplitude - 2, "amplitude, second \(second): \(a.count)")
                #expect(f.count <= frequency + 1 && f.count >= frequency - 2, "frequency, second \(second): \(f.count)")
            }
        }
    }

    /// `minimum_breakpoint_score`: a steady level (every triangle flat) keeps only its corners.
    @Test func theMinimumScoreDropsSteadyRuns() throws {
        let steady = Self.square(0.5, at: 0.1, for: 0.6, in: 0.8)
        let all = try Self.analyse(steady, Self.raw)
        let dropped = try Self.analyse(steady, Self.raw.merging(["offline.minimum_breakpoint_score": "1e-6"]) { $1 })
        #expect(all.amplitude.count > 700)
        #expect(dropped.amplitude.count < 60, "\(dropped.amplitude.count)")
    }

    /// `normalize_audio`, `normalize_level_db`, `gain_db`: normalising scales the highest sample to the
    /// level (and ignores the gain); otherwise the gain applies.
    @Test func normalisingAndGainScaleTheSound() throws {
        let quiet = Self.square(0.25, at: 0.1, for: 0.3)
        func level(_ changes: [String: String]) throws -> Double {
            Self.amplitude(try Self.analyse(quiet, Self.raw.merging(changes) { $1 }), at: 0.3)
        }
        #expect(abs(try level([:]) - 0.25) <= 0.002)
        #expect(abs(try level(["preprocessing.gain_db": "6.0206"]) - 0.5) <= 0.003)
        let normalised = ["preprocessing.normalize_audio": "true", "preprocessing.normalize_level_db": "-6.0206"]
        #expect(abs(try level(normalised) - 0.5) <= 0.003)
        #expect(abs(try level(normalised.merging(["preprocessing.gain_db": "12"]) { $1 }) - 0.5) <= 0.003)
    }

    /// Two hits `gap` seconds apart: a 20 ms burst of loud noise (much spectral flux: every bin) and a
    /// 100 Hz square (less: its harmonics).
    static func twoHits(gap: Double = 0.3) -> [Float] {
        var rng = SplitMix64(seed: 9)
        let low = square(0.6, at: 0.1 + gap, for: 0.05)
        return (0..<Int(0.8 * rate)).map { i in
            let t = Double(i) / rate - 0.1
            let noise: Float = t >= 0 && t < 0.02 ? Float(0.8 * rng.range(-1, 1)) : 0
            return noise + low[i]
        }
    }

    /// `emphasis_enabled` and `sensitivity_percent`: 100 % keeps every candidate peak, 50 % those scoring
    /// in the upper half of the candidates' spectral-flux range, 0 % none (Haptics Studio keeps the best
    /// one; Thrum none, as its sensitivity reads); disabled, none.
    @Test func sensitivityDialsTheCandidates() throws {
        func emphases(_ changes: [String: String]) throws -> [Double] {
            try Self.analyse(Self.twoHits(), changes).emphases.map(\.time)
        }
        let all = try emphases(["offline.emphasis.sensitivity_percent": "100"])
        #expect(all.count == 2 && abs(all[0] - 0.1) <= 0.005 && abs(all[1] - 0.4) <= 0.005, "\(all)")
        let half = try emphases(["offline.emphasis.sensitivity_percent": "50"])
        #expect(half.count == 1 && abs(half[0] - 0.1) <= 0.005, "\(half)")
        #expect(try emphases(["offline.emphasis.sensitivity_percent": "0"]).isEmpty)
        #expect(try emphases(["offline.emphasis.sensitivity_percent": "100", "offline.emphasis_enabled": "false"]).isEmpty)
    }

    /// `peak_window_ms`: a peak within that time of the previous one is not a candidate.
    @Test func thePeakWindowSpacesThePeaks() throws {
        let close = Self.twoHits(gap: 0.05)
        let everything = ["offline.emphasis.sensitivity_percent": "100"]
        #expect(try Self.analyse(close, everything.merging(["offline.emphasis.peak_window_ms": "100"]) { $1 }).emphases.count == 1)
        #expect(try Self.analyse(close, everything.merging(["offline.emphasis.peak_window_ms": "20"]) { $1 }).emphases.count == 2)
    }

    /// `minimum_rise`: a burst rising 0.3 from silence is a peak above a 0.2 minimum, not above 0.5.
    @Test func theMinimumRiseGatesThePeaks() throws {
        let burst = Self.square(0.3, at: 0.2, for: 0.1)
        func count(_ rise: String) throws -> Int {
            try Self.analyse(burst, ["offline.emphasis.minimum_rise": rise, "offline.emphasis.sensitivity_percent": "100"]).emphases.count
        }
        #expect(try count("0.2") == 1)
        #expect(try count("0.5") == 0)
    }

    /// `plateau_factor_percent`: a step to 0.3 held flat, then to 0.5. With every update kept, the first
    /// point of each step rose (by 0.3, then 0.2) and the next is level with it: a peak when the plateau
    /// allows the next to rise a little (25 %), none when it must fall (0 %).
    @Test func thePlateauFactorDecidesWhereARiseEnds() throws {
        let first = Self.square(0.3, at: 0.1, for: 0.05)
        let second = Self.square(0.5, at: 0.15, for: 0.1)
        let steps = zip(first, second).map { $0 + $1 }
        let base = ["offline.amplitude_breakpoints_per_second": "1000", "offline.minimum_breakpoint_score": "0",
                    "offline.emphasis.sensitivity_percent": "100", "offline.emphasis.peak_window_ms": "0"]
        let allowed = try Self.analyse(steps, base.merging(["offline.emphasis.plateau_factor_percent": "25"]) { $1 }).emphases
        #expect(allowed.count == 2 && abs(allowed[0].time - 0.1) <= 0.0015 && abs(allowed[1].time - 0.15) <= 0.0015, "\(allowed.map(\.time))")
        #expect(try Self.analyse(steps, base.merging(["offline.emphasis.plateau_factor_percent": "0"]) { $1 }).emphases.isEmpty)
    }

    /// `sharpness_min`, `sharpness_max`: every emphasis's frequency lies between them; `ducking_percent`:
    /// the envelope under an emphasis is lowered by that share of the emphasis's amplitude.
    @Test func emphasisSharpnessRangeAndDucking() throws {
        let file = try Self.analyse(Self.twoHits(), [
            "offline.emphasis.sensitivity_percent": "100", "offline.emphasis.sharpness_min": "0.3",
            "offline.emphasis.sharpness_max": "0.6", "offline.emphasis.ducking_percent": "30",
        ])
        #expect(file.emphases.count == 2)
        for (index, _, emphasis) in file.emphases {
            #expect((0.3...0.6).contains(emphasis.frequency), "\(emphasis.frequency)")
            #expect(abs(file.amplitude[index].amplitude - 0.7 * emphasis.amplitude) <= 0.002)
        }
        let fixed = try Self.analyse(Self.twoHits(), [
            "offline.emphasis.sensitivity_percent": "100", "offline.emphasis.sharpness_min": "0.4",
            "offline.emphasis.sharpness_max": "0.4",
        ])
        #expect(fixed.emphases.map(\.emphasis.frequency) == [0.4, 0.4])
    }

    /// Loud tones of `frequencies` (equal amplitudes) for 1 s.
    static func tones(_ frequencies: [Double]) -> [Float] {
        (0..<Int(rate)).map { i in
            Float(frequencies.map { 0.8 / Double(frequencies.count) * sin(2 * .pi * $0 * Double(i) / rate) }.reduce(0, +))
        }
    }

    /// The frequency envelope's middle value.
    static func middleFrequency(_ file: HapticFile) -> Double {
        let middle = file.frequencyBreakpoints.filter { (0.3...0.7).contains($0.time) }.map(\.frequency)
        return middle.reduce(0, +) / Double(max(middle.count, 1))
    }

    /// `frequency_min`, `frequency_max`, `output_min`, `output_max`: the spectral centroid maps linearly
    /// from the first pair onto the second: a 200 Hz tone is 0.2 + (200 − 100) / 200 × 0.4 = 0.4 with
    /// 100–300 Hz onto 0.2–0.6, and (200 − 30) / 570 with the defaults.
    @Test func theCentroidMapsOntoTheOutputRange() throws {
        let tone = Self.tones([200])
        let mapped = try Self.analyse(tone, [
            "offline.frequency.frequency_min": "100", "offline.frequency.frequency_max": "300",
            "offline.frequency.output_min": "0.2", "offline.frequency.output_max": "0.6",
        ])
        #expect(abs(Self.middleFrequency(mapped) - 0.4) <= 0.02)
        #expect(abs(Self.middleFrequency(try Self.analyse(tone)) - 170.0 / 570) <= 0.03)
    }

    /// `centroid_lowpass_hz`: bins from the low-pass up are left out: 200 Hz and 800 Hz tones centre near
    /// 500 Hz under a 1 kHz low-pass, near 200 Hz under a 500 Hz one (0…1000 Hz onto 0…1).
    @Test func theLowpassLeavesTheHighBinsOut() throws {
        let pair = Self.tones([200, 800])
        let band = ["offline.frequency.frequency_min": "0", "offline.frequency.frequency_max": "1000"]
        #expect(abs(Self.middleFrequency(try Self.analyse(pair, band)) - 0.5) <= 0.04)
        let low = try Self.analyse(pair, band.merging(["offline.spectrum.centroid_lowpass_hz": "500"]) { $1 })
        #expect(abs(Self.middleFrequency(low) - 0.2) <= 0.04)
    }

    /// `fft_size`, `overlap_factor`: a spectrum every fft_size / overlap_factor samples.
    @Test func theSpectrumHopIsTheWindowOverTheOverlap() throws {
        var rng = SplitMix64(seed: 4)
        let noise = (0..<Int(Self.rate)).map { _ in Float(0.5 * rng.range(-1, 1)) }
        for (size, overlap) in [(1024, 8), (512, 2), (2048, 4)] {
            let file = try Self.analyse(noise, [
                "offline.spectrum.fft_size": "\(size)", "offline.spectrum.overlap_factor": "\(overlap)",
                "offline.frequency_breakpoints_per_second": "1000", "offline.minimum_breakpoint_score": "0",
            ])
            let times = file.frequencyBreakpoints.map(\.time).dropLast()
            let hop = Double(size / overlap) / Self.rate
            for (a, b) in zip(times, times.dropFirst()) { #expect(abs(b - a - hop) <= 0.0002, "\(size)/\(overlap): \(a) → \(b)") }
        }
    }
}
