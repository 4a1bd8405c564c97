import Foundation
import ThrumTestSupport
import Testing

@testable import AudioAnalysis

/// Runs the streaming detector over `samples` in blocks of `block` frames.
func detect(
    _ samples: [Float], rate: Double = 48_000, settings: AnalysisSettings = .general, block: (Int) -> Int = { _ in 4096 }
) -> [DetectorTick] {
    let detector = AudioFeatureDetector(sampleRate: rate, settings: settings)
    var ticks: [DetectorTick] = []
    samples.withUnsafeBufferPointer { buffer in
        var start = 0
        var index = 0
        while start < buffer.count {
            let n = min(max(block(index), 1), buffer.count - start)
            detector.process(interleaved: buffer.baseAddress! + start, channels: 1, frameCount: n) { ticks.append($0) }
            start += n
            index += 1
        }
    }
    return ticks
}

func onsetTimes(_ ticks: [DetectorTick], rate: Double = 48_000) -> [Double] {
    ticks.compactMap { $0.onset.map { Double($0.frame) / rate } }
}

@Suite struct DetectorTests {
    @Test func outputDoesNotDependOnBlockSizes() {
        let sound = Signals.music(seconds: 3)
        let whole = detect(sound.samples, block: { _ in sound.samples.count })
        var rng = SplitMix64(seed: 11)
        let sizes = (0..<100_000).map { _ in Int(rng.range(1, 700)) }
        for split in [{ (_: Int) in 1 }, { _ in 7 }, { _ in 256 }, { sizes[$0] }] {
            let ticks = detect(sound.samples, block: split)
            #expect(ticks.count == whole.count)
            #expect(zip(ticks, whole).allSatisfy {
                    $0.frame == $1.frame && $0.level.bitPattern == $1.level.bitPattern
                        && $0.sharpness.bitPattern == $1.sharpness.bitPattern && $0.onset == $1.onset
                })
        }
        #expect(whole.count == sound.samples.count / 24)  // 0.5 ms ticks at 48 kHz
    }

    @Test func clicksAreFoundWithin10ms() {
        let sound = Signals.clicks(seconds: 20)
        let found = onsetTimes(detect(sound.samples))
        let score = Scores.f1(found: found, truth: sound.onsets)
        #expect(score.f1 >= 0.9, "found \(found.count) of \(sound.onsets.count), matched \(score.matched)")
    }

    @Test func toneBurstOnsetsAreFoundWithin10ms() {
        for (frequency, attack) in [(150.0, 0.005), (150.0, 0.03), (1000.0, 0.01), (60.0, 0.02)] {
            let sound = Signals.toneBursts(seconds: 20, frequency: frequency, attack: attack)
            let found = onsetTimes(detect(sound.samples))
            let score = Scores.f1(found: found, truth: sound.onsets)
            #expect(score.f1 >= 0.9, "\(frequency) Hz, attack \(attack) s: found \(found.count) of \(sound.onsets.count), matched \(score.matched)")
        }
    }

    @Test func noiseStepsUpAreOnsetsAndStepsDownAreNot() {
        let sound = Signals.noiseSteps(seconds: 30)
        let found = onsetTimes(detect(sound.samples))
        let score = Scores.f1(found: found, truth: sound.onsets)
        #expect(score.f1 >= 0.9, "found \(found.count) of \(sound.onsets.count), matched \(score.matched)")
    }

    @Test func musicLikeMixtureOnsets() {
        let sound = Signals.music(seconds: 20)
        let found = onsetTimes(detect(sound.samples))
        let score = Scores.f1(found: found, truth: sound.onsets)
        #expect(score.f1 >= 0.9, "found \(found.count) of \(sound.onsets.count), matched \(score.matched)")
    }

    @Test func steadySoundsHaveNoOnsetsAfterTheirStart() {
        var rng = SplitMix64(seed: 12)
        let rate = 48_000.0
        let noise = (0..<Int(10 * rate)).map { _ in Float(0.3 * rng.noise()) }
        let tone = (0..<Int(10 * rate)).map { Float(0.5 * sin(2 * .pi * 80 * Double($0) / rate)) }
        for (name, samples) in [("noise", noise), ("tone", tone)] {
            let late = onsetTimes(detect(samples, settings: .ui)).filter { $0 > 0.05 }
            #expect(late == [], "\(name): onsets in a steady sound")
        }
    }

    @Test func sensitivityOrdersTheOnsetsFound() {
        let sound = Signals.music(seconds: 10)
        var counts: [Int] = []
        for sensitivity in [0.0, 0.2, 0.5, 0.8, 1.0] {
            var settings = AnalysisSettings.general
            settings.onsetSensitivity = sensitivity
            counts.append(onsetTimes(detect(sound.samples, settings: settings)).count)
        }
        #expect(counts[0] == 0, "sensitivity 0 finds nothing")
        #expect(counts == counts.sorted(), "more sensitive finds at least as many: \(counts)")
        #expect(counts[1] < counts[4])
    }

    @Test func minimumIntervalSpacesOnsets() {
        let sound = Signals.music(seconds: 10)
        var settings = AnalysisSettings.general
        settings.minimumOnsetInterval = 0.3
        let found = onsetTimes(detect(sound.samples, settings: settings))
        #expect(!found.isEmpty)
        for (a, b) in zip(found, found.dropFirst()) { #expect(b - a >= 0.3 - 0.0011) }
    }

    /// A sine's centroid is its frequency: sharpness = log(f / 60) / log(6000 / 60) on the default scale.
    @Test func sharpnessFollowsTheCentroidOnALogScale() {
        let rate = 48_000.0
        for frequency in [100.0, 300.0, 1000.0, 3000.0] {
            let samples = (0..<Int(rate)).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / rate)) }
            let ticks = detect(samples)
            let expected = log(frequency / 60) / log(100)
            #expect(abs(Double(ticks.last!.sharpness) - expected) <= 0.05, "\(frequency) Hz")
        }
    }

    /// A steady full-scale sine in the band reads level 1; a −20 dB one reads 0.1.
    @Test func levelIsOnThePeakScale() {
        let rate = 48_000.0
        for (amplitude, frequency) in [(1.0, 200.0), (0.1, 200.0), (0.5, 1000.0)] {
            let samples = (0..<Int(rate / 2)).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / rate)) }
            #expect(abs(Double(detect(samples).last!.level) - amplitude) <= 0.05 * amplitude, "\(amplitude) at \(frequency) Hz")
        }
    }

    @Test func stereoIsAveragedToMono() {
        let rate = 48_000.0
        let mono = (0..<24_000).map { Float(0.4 * sin(2 * .pi * 300 * Double($0) / rate)) }
        var stereo: [Float] = []
        for x in mono { stereo += [x * 1.5, x * 0.5] }
        let detector = AudioFeatureDetector(sampleRate: rate, settings: .general)
        var ticks: [DetectorTick] = []
        stereo.withUnsafeBufferPointer { detector.process(interleaved: $0.baseAddress!, channels: 2, frameCount: 24_000) { ticks.append($0) } }
        let reference = detect(mono)
        #expect(ticks.count == reference.count)
        #expect(abs(ticks.last!.level - (reference.last!.level)) <= 1e-6)
    }
}
