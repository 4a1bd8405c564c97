import Foundation
import Testing
import ThrumTestSupport

@testable import AudioAnalysis

/// Sounds made for the test, each with the emphases a designer would mark (and would not): a hit on a
/// sustained tone, a drum loop whose hi-hats are too faint to mark, speech-like syllables, a rising
/// whoosh with no onset. Scored as F1 at ±20 ms (the issue's measure).
enum DesignedSounds {
    static let rate = 48_000.0

    static func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * rate)) }

    /// Adds `burst` to `samples` from `time`.
    static func add(_ burst: [Float], at time: Double, to samples: inout [Float]) {
        let start = Int(time * rate)
        for (i, x) in burst.enumerated() where start + i < samples.count { samples[start + i] += x }
    }

    /// A decaying burst: `body(t)` shaped by e^(−t/decay), `seconds` long.
    static func burst(seconds: Double, decay: Double, _ body: (Double) -> Double) -> [Float] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            return Float(body(t) * exp(-t / decay))
        }
    }

    /// A 150 Hz tone at 0.3 fading in over 0.4 s (no onset a designer marks), 3 s long, with two hits
    /// (a thump and a crack) at 1.0 and 2.0 s.
    static func hitOnTone() -> TestSound {
        var samples = (0..<Int(3 * rate)).map { i -> Float in
            let t = Double(i) / rate
            return Float(0.3 * min(t / 0.4, 1) * sin(2 * .pi * 150 * t))
        }
        var rng = SplitMix64(seed: 7)
        for time in [1.0, 2.0] {
            add(burst(seconds: 0.2, decay: 0.04) { t in 0.6 * sin(2 * .pi * 70 * t) + 0.3 * rng.noise() }, at: time, to: &samples)
        }
        return TestSound(rate: rate, samples: samples, onsets: [1.0, 2.0], envelope: nil)
    }

    /// Two bars at 120 BPM from 0.1 s: kicks on beats 1 and 3, snares on 2 and 4 (marked), hi-hats on
    /// every eighth at −26 dB (too faint to mark).
    static func drumLoop() -> TestSound {
        var samples = silence(4.3)
        var rng = SplitMix64(seed: 8)
        var marked: [Double] = []
        for beat in 0..<8 {
            let time = 0.1 + Double(beat) * 0.5
            if beat % 2 == 0 {
                // Kick: a sine gliding from 120 to 50 Hz.
                add(burst(seconds: 0.3, decay: 0.08) { t in 0.9 * sin(2 * .pi * (50 * t + 70 * 0.03 * (1 - exp(-t / 0.03)))) }, at: time, to: &samples)
            } else {
                add(burst(seconds: 0.25, decay: 0.06) { t in 0.4 * rng.noise() + 0.3 * sin(2 * .pi * 190 * t) }, at: time, to: &samples)
            }
            marked.append(time)
        }
        for eighth in 0..<16 {
            var previous = 0.0
            add(burst(seconds: 0.05, decay: 0.015) { _ in
                let n = rng.noise()
                defer { previous = n }
                return 0.05 * (n - previous)
            }, at: 0.1 + Double(eighth) * 0.25 + 0.01, to: &samples)
        }
        return TestSound(rate: rate, samples: samples, onsets: marked, envelope: nil)
    }

    /// Speech-like syllables: a 110–140 Hz buzz (harmonics falling 6 dB per octave) with a 15 ms attack,
    /// 120–250 ms of vowel whose level wavers by ±15 % at 5 Hz, a 60 ms release, 100–250 ms gaps. A
    /// designer marks each syllable's start and nothing inside it.
    static func speechBursts() -> TestSound {
        var rng = SplitMix64(seed: 9)
        var samples = silence(5)
        var onsets: [Double] = []
        var time = 0.2
        while time < 4.4 {
            let pitch = rng.range(110, 140)
            let level = rng.range(0.3, 0.8)
            let vowel = rng.range(0.12, 0.25)
            let length = 0.015 + vowel + 0.06
            let syllable = (0..<Int(length * rate)).map { i -> Float in
                let t = Double(i) / rate
                let shape = t < 0.015 ? t / 0.015 : t < 0.015 + vowel ? 1 : max(0, 1 - (t - 0.015 - vowel) / 0.06)
                let waver = 1 + 0.15 * sin(2 * .pi * 5 * t)
                var buzz = 0.0
                for k in 1...12 { buzz += sin(2 * .pi * pitch * Double(k) * t) / Double(k) }
                return Float(level * shape * waver * buzz / 2.2)
            }
            add(syllable, at: time, to: &samples)
            onsets.append(time)
            time += length + rng.range(0.1, 0.25)
        }
        return TestSound(rate: rate, samples: samples, onsets: onsets, envelope: nil)
    }

    /// Noise rising by 20 dB a second for 1.5 s, then fading out over 0.5 s: no onset anywhere.
    static func risingWhoosh() -> TestSound {
        var rng = SplitMix64(seed: 10)
        let samples = (0..<Int(2.2 * rate)).map { i -> Float in
            let t = Double(i) / rate
            let db = t < 1.5 ? -30 + 20 * t : 0
            let fade = t < 1.5 ? 1 : max(0, 1 - (t - 1.5) / 0.5)
            return Float(0.7 * pow(10, db / 20) * fade * rng.noise())
        }
        return TestSound(rate: rate, samples: samples, onsets: [], envelope: nil)
    }
}

@Suite struct DesignerEmphasisTests {
    static let cases: [(String, @Sendable () -> TestSound)] = [
        ("hit on a sustained tone", DesignedSounds.hitOnTone), ("drum loop", DesignedSounds.drumLoop),
        ("speech-like syllables", DesignedSounds.speechBursts), ("rising whoosh", DesignedSounds.risingWhoosh),
    ]

    @Test(arguments: 0..<4)
    func emphasesAreWhereADesignerMarksThem(index: Int) {
        let (name, make) = Self.cases[index]
        let sound = make()
        let found = analyze(sound).transients.map(\.time)
        let score = Scores.f1(found: found, truth: sound.onsets, tolerance: 0.02)
        #expect(score.f1 >= 0.95, "\(name): found \(found.map { String(format: "%.3f", $0) }) for \(sound.onsets)")
    }

    @Test func sensitivityZeroOrEmphasisOffFindsNone() {
        var settings = AnalysisSettings.general
        settings.onsetSensitivity = 0
        #expect(analyze(DesignedSounds.drumLoop(), settings: settings).transients.isEmpty)
        settings = .general
        settings.emphasis = false
        #expect(analyze(DesignedSounds.drumLoop(), settings: settings).transients.isEmpty)
    }

    /// A minimum rise above the snares' (about half the kicks' level) keeps only the kicks; a peak
    /// window longer than a beat drops every other hit.
    @Test func minimumRiseAndPeakWindowThinTheEmphases() {
        let sound = DesignedSounds.drumLoop()
        var settings = AnalysisSettings.general
        settings.minimumRise = 0.8
        let kicks = analyze(sound, settings: settings).transients.map(\.time)
        #expect(Scores.f1(found: kicks, truth: stride(from: 0, to: 8, by: 2).map { sound.onsets[$0] }, tolerance: 0.02).f1 == 1, "\(kicks)")
        settings = .general
        settings.minimumOnsetInterval = 0.6
        let everyOther = analyze(sound, settings: settings).transients.map(\.time)
        #expect(everyOther.count == 4, "\(everyOther)")
    }

    /// Ducking lowers the envelope at each transient by the fraction set (in the drive amplitude).
    @Test func duckingLowersTheEnvelopeUnderEachTransient() {
        let sound = DesignedSounds.hitOnTone()
        var settings = AnalysisSettings.general
        settings.ducking = 0
        let plain = sound.samples.withUnsafeBufferPointer {
            AudioAnalyzer.analyze(samples: $0, channels: 1, sampleRate: sound.rate, settings: settings, scale: .amplitude)
        }
        settings.ducking = 0.5
        let ducked = sound.samples.withUnsafeBufferPointer {
            AudioAnalyzer.analyze(samples: $0, channels: 1, sampleRate: sound.rate, settings: settings, scale: .amplitude)
        }
        #expect(ducked.transients.count == 2)
        for transient in ducked.transients {
            let under = plain.amplitude(at: transient.time)
            #expect(abs(ducked.amplitude(at: transient.time) - 0.5 * under) <= 1e-4, "at \(transient.time)")
        }
    }

    /// The sharpness envelope is the centroid below the low-pass, linear from frequencyMin to
    /// frequencyMax: a 200 Hz tone reads (200 − 30) / 570 with the defaults, 0.5 with a 100–300 Hz band,
    /// and a 3 kHz tone added above the low-pass changes nothing.
    @Test func frequencyIsTheCentroidInTheBand() {
        let tone = (0..<Int(DesignedSounds.rate)).map { Float(0.5 * sin(2 * .pi * 200 * Double($0) / DesignedSounds.rate)) }
        let plain = TestSound(rate: DesignedSounds.rate, samples: tone, onsets: [], envelope: nil)
        #expect(abs(analyze(plain).sharpness(at: 0.5) - Float(170.0 / 570)) < 0.03)
        var band = AnalysisSettings.general
        band.frequencyMin = 100
        band.frequencyMax = 300
        #expect(abs(analyze(plain, settings: band).sharpness(at: 0.5) - 0.5) < 0.03)
        let withHiss = tone.enumerated().map { $1 + Float(0.3 * sin(2 * .pi * 3000 * Double($0) / DesignedSounds.rate)) }
        let sharp = TestSound(rate: DesignedSounds.rate, samples: withHiss, onsets: [], envelope: nil)
        #expect(abs(analyze(sharp).sharpness(at: 0.5) - Float(170.0 / 570)) < 0.03)
    }
}
