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
            // Haptics Studio's minimum rise is of the loudest: the default (0.2, fitted to designers'
            // clips) leaves out the quietest clicks (0.3 of the loudest, 5-sample RMS) and the small steps
            // up of the noise; with a lower one every onset is a candidate.
            var settings = AnalysisSettings.general
            if name == "clicks" || name == "steps" { settings.minimumRise = 0.05 }
            let times = analyze(sound, settings: settings).transients.map(\.time)
            // An emphasis sits on the breakpoint where the rise ends (Haptics Studio's design): up to the
            // attack after the onset, so within the issue's ±20 ms.
            let score = Scores.f1(found: times, truth: sound.onsets, tolerance: 0.02)
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
            #expect(abs(analysis.duration - sound.duration) <= 0.001)
            for envelope in [analysis.envelope, analysis.sharpness] {
                #expect(envelope.first?.time == 0)
                #expect(abs(envelope.last!.time - analysis.duration) <= 1e-9)
                // At most the budget in each second, plus the point at 0 and the one at the end.
                for second in 0..<12 {
                    let inSecond = envelope.filter { $0.time > 0 && $0.time < analysis.duration && Int($0.time) == second }
                    #expect(Double(inSecond.count) <= perSecond + 1, "\(perSecond) per second, second \(second)")
                }
                #expect(envelope.map(\.time) == envelope.map(\.time).sorted())
            }
        }
    }

    /// A 200 Hz sine at 0.1 (−20 dBFS) reads 0.1 without normalising (the envelope follows the waveform's
    /// peaks, rippling a little under its 100 ms release), 0.2 with 6 dB of gain, and 1 when normalised to
    /// 0 dBFS.
    @Test func levelsWithoutNormalisingAreRelativeToFullScale() {
        let rate = 48_000.0
        let samples = (0..<Int(rate)).map { Float(0.1 * sin(2 * .pi * 200 * Double($0) / rate)) }
        let sound = TestSound(rate: rate, samples: samples, onsets: [0], envelope: nil)
        func level(_ settings: AnalysisSettings) -> Float {
            let analysis = analyze(sound, settings: settings)
            let values = stride(from: 0.2, to: 0.8, by: 0.001).map { analysis.amplitude(at: $0) }
            return values.reduce(0, +) / Float(values.count)
        }
        var settings = AnalysisSettings.general
        settings.normalize = false
        #expect(abs(level(settings) - 0.1) <= 0.008)
        settings.gain = 6.0206
        #expect(abs(level(settings) - 0.2) <= 0.016)
        settings.normalize = true
        settings.gain = 0
        #expect(abs(level(settings) - 1) <= 0.08)
    }

    /// Haptics Studio's envelope has no floor: a tone 60 dB under another reads 60 dB under it.
    @Test func aQuietPartReadsAsQuietAsItIs() {
        let rate = 48_000.0
        let samples = (0..<Int(rate)).map { i -> Float in
            let level = i < Int(rate / 2) ? 0.8 : 0.0008
            return Float(level * sin(2 * .pi * 300 * Double(i) / rate))
        }
        let analysis = analyze(TestSound(rate: rate, samples: samples, onsets: [], envelope: nil))
        let loud = analysis.amplitude(at: 0.3)
        let quiet = analysis.amplitude(at: 0.9)
        #expect(quiet > 0)
        #expect(abs(20 * log10(Double(quiet / loud)) + 60) <= 1.5)
    }

    /// The envelope ends with the sound (within one update), as Haptics Studio's does, and falls 99 % of
    /// the way in `release` seconds after the `hold`.
    @Test func theReleaseTakesItsTime() {
        let rate = 48_000.0
        let samples = (0..<Int(rate)).map { i in i < Int(rate / 2) ? Float(0.8 * sin(2 * .pi * 200 * Double(i) / rate)) : 0 }
        let settings = AnalysisSettings.general
        var plain = settings
        plain.emphasis = false
        let analysis = analyze(TestSound(rate: rate, samples: samples, onsets: [0], envelope: nil), settings: plain)
        #expect(abs(analysis.duration - 1) <= 0.001)
        let top = analysis.amplitude(at: 0.499)
        // The last peak of the sine is at most a quarter period before the end.
        let end = 0.5 - 0.00125 + settings.hold
        #expect(analysis.amplitude(at: end + settings.release) <= 0.02 * top)
        #expect(analysis.amplitude(at: end + 0.3 * settings.release) >= 0.15 * top)
        #expect(analysis.amplitude(at: end + 0.3 * settings.release) <= 0.4 * top)
    }

    /// AHAP's intensity scale holds the same breakpoints and transients as `.haptic`'s amplitude scale,
    /// each breakpoint's intensity the square root of its amplitude.
    @Test func theIntensityScaleIsTheSquareRootOfTheAmplitudeScale() {
        let sound = Signals.toneBursts(seconds: 6, attack: 0.05, release: 0.2)
        let byIntensity = analyze(sound)
        let byAmplitude = sound.samples.withUnsafeBufferPointer {
            AudioAnalyzer.analyze(samples: $0, channels: 1, sampleRate: sound.rate, settings: .general, scale: .amplitude)
        }
        #expect(byIntensity.scale == .intensity)
        #expect(byAmplitude.scale == .amplitude)
        #expect(byAmplitude.transients == byIntensity.transients)
        #expect(byIntensity.envelope.map(\.time) == byAmplitude.envelope.map(\.time))
        for (i, a) in zip(byIntensity.envelope, byAmplitude.envelope) { #expect(abs(i.value * i.value - a.value) <= 1e-6) }
    }

    @Test func silenceGivesAFlatZeroEnvelopeAndNoTransients() {
        let analysis = analyze(TestSound(rate: 48_000, samples: [Float](repeating: 0, count: 48_000), onsets: [], envelope: nil))
        #expect(analysis.envelope.allSatisfy { $0.value == 0 })
        #expect(analysis.envelope.count <= 4)
        #expect(analysis.sharpness.count <= 4)
        #expect(analysis.transients == [])
        #expect(analysis.duration == 1)
        let empty = analyze(TestSound(rate: 48_000, samples: [], onsets: [], envelope: nil))
        #expect(empty.duration == 0)
        #expect(empty.envelope.count == 1)
    }

    /// The frequency envelope is the centroid below the 1 kHz low-pass mapped from 30…600 Hz: a 70 Hz
    /// bass reads (70 − 30) / 570, white noise (a flat spectrum up to the low-pass, centroid near 500 Hz)
    /// reads high.
    @Test func bassIsDullAndNoiseIsSharp() {
        var rng = SplitMix64(seed: 21)
        let rate = 48_000.0
        let noise = (0..<Int(rate)).map { _ in Float(0.3 * rng.noise()) }
        let bass = (0..<Int(rate)).map { Float(0.5 * sin(2 * .pi * 70 * Double($0) / rate)) }
        let dull = analyze(TestSound(rate: rate, samples: bass, onsets: [], envelope: nil)).sharpness(at: 0.5)
        let sharp = analyze(TestSound(rate: rate, samples: noise, onsets: [], envelope: nil)).sharpness(at: 0.5)
        #expect(abs(dull - Float(40.0 / 570)) < 0.03)
        #expect(sharp > 0.7)
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
            let times = analysis.transients.map(\.time)
            #expect(Scores.f1(found: times, truth: sound.onsets, tolerance: 0.02).f1 >= 0.9, "\(rate) Hz")
            let (found, known) = envelopeSeries(analysis, sound)
            #expect(Scores.correlation(found, known) >= 0.95, "\(rate) Hz")
        }
    }
}
