import Foundation
import ThrumTestSupport
import Testing

@testable import AudioAnalysis

func analyze(_ sound: TestSound, settings: AnalysisSettings = .general) -> HapticAnalysis {
    sound.samples.withUnsafeBufferPointer {
        AudioAnalyzer.analyze(samples: $0, channels: 1, sampleRate: sound.rate, settings: settings)
    }
}

/// The analysed drive amplitude and the sound's known amplitude envelope, on a 1 ms grid. The drive
/// amplitude is the intensity squared (docs/decisions.md: A = I² by default).
func envelopeSeries(_ analysis: HapticAnalysis, _ sound: TestSound) -> (found: [Double], known: [Double]) {
    let times = stride(from: 0.0, to: sound.duration, by: 0.001)
    return (times.map { Double(analysis.amplitude(at: $0)) }, times.map { sound.envelope(at: $0) })
}

@Suite struct AnalyzerTests {
    @Test func toneBurstEnvelopesCorrelateWithTheKnownEnvelope() {
        for (frequency, attack, release) in [(150.0, 0.02, 0.15), (60.0, 0.05, 0.3), (1000.0, 0.005, 0.05), (400.0, 0.1, 0.5)] {
            let sound = Signals.toneBursts(seconds: 15, frequency: frequency, attack: attack, release: release)
            let analysis = analyze(sound)
            let (found, known) = envelopeSeries(analysis, sound)
            let r = Scores.correlation(found, known)
            #expect(r >= 0.95, "\(frequency) Hz, attack \(attack) s, release \(release) s")
        }
    }

    @Test func noiseStepEnvelopeCorrelatesWithTheKnownEnvelope() {
        let sound = Signals.noiseSteps(seconds: 20)
        let (found, known) = envelopeSeries(analyze(sound), sound)
        #expect(Scores.correlation(found, known) >= 0.95)
    }

    @Test func transientsSitAtTheOnsets() {
        let sounds = [
            ("clicks", Signals.clicks(seconds: 20)), ("bursts", Signals.toneBursts(seconds: 20, attack: 0.01)),
            ("steps", Signals.noiseSteps(seconds: 20)), ("music", Signals.music(seconds: 20)),
        ]
        for (name, sound) in sounds {
            let times = analyze(sound).transients.map(\.time)
            let score = Scores.f1(found: times, truth: sound.onsets)
            if name == "music" {
                // A designer marks the kicks and snares, not every hi-hat under the mix (see
                // DesignerEmphasisTests): every transient sits at an onset (±20 ms, the measure),
                // and there is one per beat.
                let atOnsets = Scores.f1(found: times, truth: sound.onsets, tolerance: 0.02).matched
                #expect(abs(Double(atOnsets) / Double(max(times.count, 1)) - 1) <= 0.1, "music: \(times.count) transients")
                #expect(Double(times.count) >= sound.duration * 2 * 0.9, "music: \(times.count) transients")
            } else {
                #expect(score.f1 >= 0.9, "\(name): \(times.count) transients for \(sound.onsets.count) onsets")
            }
        }
    }

    /// `.haptic`'s rule: an emphasis is at least as strong as the envelope under it.
    @Test func transientsAreAtLeastAsStrongAsTheEnvelopeUnderThem() {
        let analysis = analyze(Signals.music(seconds: 10))
        #expect(!analysis.transients.isEmpty)
        for transient in analysis.transients {
            #expect(transient.intensity >= analysis.intensity(at: transient.time))
            #expect(transient.intensity <= 1)
            #expect((0...1).contains(transient.sharpness))
        }
    }

    @Test func envelopesSpanTheSoundAndKeepTheDensityLimit() {
        let sound = Signals.music(seconds: 12)
        for perSecond in [5.0, 30.0, 200.0] {
            var settings = AnalysisSettings.general
            settings.breakpointsPerSecond = perSecond
            settings.frequencyBreakpointsPerSecond = perSecond
            let analysis = analyze(sound, settings: settings)
            #expect(analysis.duration >= sound.duration)
            for envelope in [analysis.envelope, analysis.sharpness] {
                #expect(envelope.first?.time == 0)
                #expect(abs(envelope.last!.time - analysis.duration) <= 1e-9)
                #expect(Double(envelope.count) <= perSecond * sound.duration + 3, "\(perSecond) per second")
                #expect(envelope.map(\.time) == envelope.map(\.time).sorted())
            }
        }
    }

    @Test func levelsWithoutNormalisingAreRelativeToFullScale() {
        let rate = 48_000.0
        let samples = (0..<Int(rate)).map { Float(0.1 * sin(2 * .pi * 200 * Double($0) / rate)) }
        let sound = TestSound(rate: rate, samples: samples, onsets: [0], envelope: nil)
        // Intensity = √amplitude: amplitude 0.1 is intensity 0.316, 0.2 is 0.447.
        var settings = AnalysisSettings.general
        settings.normalize = false
        settings.tolerance = 0.005
        #expect(abs(analyze(sound, settings: settings).intensity(at: 0.5) - (Float(0.1).squareRoot())) <= 0.015)
        settings.gain = 6.0206
        #expect(abs(analyze(sound, settings: settings).intensity(at: 0.5) - (Float(0.2).squareRoot())) <= 0.02)
        settings.normalize = true
        settings.gain = 0
        #expect(abs(analyze(sound, settings: settings).intensity(at: 0.5) - 1) <= 0.02)
    }

    @Test func soundUnderTheFloorIsSilent() {
        // A tone at full level for 0.5 s, then the same tone 60 dB lower: under the −50 dB floor.
        let rate = 48_000.0
        let samples = (0..<Int(rate)).map { i -> Float in
            let level = i < Int(rate / 2) ? 0.8 : 0.0008
            return Float(level * sin(2 * .pi * 300 * Double(i) / rate))
        }
        let analysis = analyze(TestSound(rate: rate, samples: samples, onsets: [], envelope: nil))
        #expect(abs(analysis.intensity(at: 0.3) - 1) <= 0.04)
        #expect(analysis.intensity(at: 0.9) == 0)
    }

    /// The release continues after the sound until the envelope falls silent: a sound that stops at full
    /// level ends with a release tail of about hold + 6 × release, down to exactly 0.
    @Test func theReleaseOutlivesTheSound() {
        let rate = 48_000.0
        let samples = (0..<Int(rate / 2)).map { Float(0.8 * sin(2 * .pi * 200 * Double($0) / rate)) }
        let analysis = analyze(TestSound(rate: rate, samples: samples, onsets: [0], envelope: nil))
        let settings = AnalysisSettings.general
        // Amplitude falls from 1 to the −50 dB floor at release τ: ln(316) ≈ 5.8 τ, after the hold.
        #expect(abs(analysis.duration - (0.5 + settings.hold + 5.8 * settings.release)) <= 0.02)
        #expect(analysis.envelope.last?.value == 0)
        #expect(analysis.intensity(at: 0.5 + settings.hold + settings.release) > 0.2)
    }

    /// Each scale keeps its own straight lines within the tolerance: the amplitude scale is what `.haptic`
    /// interpolates, the intensity scale what AHAP curves interpolate.
    @Test func bothScalesKeepTheTolerance() {
        let sound = Signals.toneBursts(seconds: 6, attack: 0.05, release: 0.2)
        var settings = AnalysisSettings.general
        settings.breakpointsPerSecond = 500
        let byIntensity = analyze(sound, settings: settings)
        let byAmplitude = sound.samples.withUnsafeBufferPointer {
            AudioAnalyzer.analyze(samples: $0, channels: 1, sampleRate: sound.rate, settings: settings, scale: .amplitude)
        }
        #expect(byIntensity.scale == .intensity)
        #expect(byAmplitude.scale == .amplitude)
        #expect(byAmplitude.transients == byIntensity.transients)
        // Between the two, the amplitude differs by at most the two tolerances in amplitude terms
        // (an intensity error e moves the amplitude by at most 2e).
        for t in stride(from: 0.0, to: sound.duration, by: 0.001) {
            #expect(abs(byAmplitude.amplitude(at: t) - (byIntensity.amplitude(at: t))) <= 3 * Float(settings.tolerance), "at \(t) s")
        }
    }

    @Test func silenceGivesAFlatZeroEnvelopeAndNoTransients() {
        let analysis = analyze(TestSound(rate: 48_000, samples: [Float](repeating: 0, count: 48_000), onsets: [], envelope: nil))
        #expect(analysis.envelope.map(\.value) == [0, 0])
        #expect(analysis.sharpness.count == 2)
        #expect(analysis.transients == [])
        #expect(analysis.duration == 1)
        let empty = analyze(TestSound(rate: 48_000, samples: [], onsets: [], envelope: nil))
        #expect(empty.duration == 0)
        #expect(empty.envelope.count == 1)
    }

    @Test func bassIsDullAndHissIsSharp() {
        var rng = SplitMix64(seed: 21)
        let rate = 48_000.0
        var previous = 0.0
        let hiss = (0..<Int(rate)).map { _ -> Float in
            let n = rng.noise()
            defer { previous = n }
            return Float(0.3 * (n - previous))
        }
        let bass = (0..<Int(rate)).map { Float(0.5 * sin(2 * .pi * 70 * Double($0) / rate)) }
        let dull = analyze(TestSound(rate: rate, samples: bass, onsets: [], envelope: nil)).sharpness(at: 0.5)
        let sharp = analyze(TestSound(rate: rate, samples: hiss, onsets: [], envelope: nil)).sharpness(at: 0.5)
        #expect(dull < 0.15)
        #expect(sharp > 0.85)
    }

    /// A transient's sharpness says which bands rose: low for a bass note, high for a high tone or a click.
    @Test func transientSharpnessFollowsWhatRose() {
        func mean(_ sound: TestSound) -> Float {
            let transients = analyze(sound).transients
            #expect(!transients.isEmpty)
            return transients.map(\.sharpness).reduce(0, +) / Float(max(transients.count, 1))
        }
        #expect(mean(Signals.toneBursts(seconds: 6, frequency: 60, attack: 0.005)) < 0.25)
        #expect(mean(Signals.toneBursts(seconds: 6, frequency: 150, attack: 0.02)) < 0.4)
        #expect(mean(Signals.toneBursts(seconds: 6, frequency: 3000, attack: 0.005)) > 0.7)
        #expect(mean(Signals.clicks(seconds: 6)) > 0.7)
    }

    @Test func otherSampleRates() {
        for rate in [44_100.0, 22_050.0, 96_000.0] {
            let sound = Signals.toneBursts(seconds: 10, attack: 0.01, rate: rate)
            let analysis = analyze(sound)
            #expect(Scores.f1(found: analysis.transients.map(\.time), truth: sound.onsets).f1 >= 0.9, "\(rate) Hz")
            let (found, known) = envelopeSeries(analysis, sound)
            #expect(Scores.correlation(found, known) >= 0.95, "\(rate) Hz")
        }
    }
}
