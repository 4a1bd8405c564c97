import AudioAnalysis
import Foundation
import Testing
import ThrumModel
import ThrumTestSupport

@testable import RenderCore

/// Haptics from audio: the haptic bus derived from the audio buses on the render thread.
@Suite struct AudioHapticsTests {
    static let rate = 48_000.0

    /// An AudioCustom event playing `samples` (mono) from engine frame `start`, rendered with haptics from
    /// audio on.
    func renderFromAudio(
        _ samples: [Float], settings: AnalysisSettings? = .general, start: Int = 0,
        blockSize: (inout SplitMix64) -> Int = { _ in 256 }
    ) throws -> Buses {
        let buffer = SampleBuffer(samples: samples, sampleRate: Self.rate)
        let pattern = try compile(
            PatternData(events: [EventData(type: .audioCustom, time: 0)]), rate: Self.rate, buffers: [0: buffer])
        return render(rate: Self.rate, frames: samples.count + start, hapticsFromAudio: settings, blockSize: blockSize) {
            $0.startPlayer(0, pattern: pattern, atFrame: UInt64(start))
        }.0
    }

    /// Single-sample clicks at random gaps of 120…300 ms; their frames.
    func clickTrain(seconds: Double) -> (samples: [Float], clicks: [Int]) {
        var rng = SplitMix64(seed: 31)
        var samples = [Float](repeating: 0, count: Int(seconds * Self.rate))
        var clicks: [Int] = []
        var t = 0.1
        while t < seconds - 0.1 {
            clicks.append(Int(t * Self.rate))
            samples[clicks[clicks.count - 1]] = 0.9
            t += rng.range(0.12, 0.3)
        }
        return (samples, clicks)
    }

    @Test func aClickTrainGivesAHapticBurstWithin5msOfEachClick() throws {
        let (samples, clicks) = clickTrain(seconds: 4)
        let haptic = try renderFromAudio(samples).haptic
        let window = Int(0.03 * Self.rate)
        for click in clicks {
            let strongest = peak(haptic, click..<(click + window))
            #expect(strongest > 0.1, "a burst after the click at \(click)")
            // Where the burst reaches a tenth of its peak: at most 5 ms after the click.
            let start = try #require(firstSound(haptic, from: click, threshold: strongest / 10))
            #expect(start >= click && start - click <= Int(0.005 * Self.rate), "burst at \(start) for the click at \(click)")
            // Nothing before the click: the haptics follow the sound, never lead it.
            #expect(peak(haptic, (click - Int(0.05 * Self.rate))..<click) < strongest / 10)
        }
        // Without the option the pattern (audio only) leaves the haptic bus silent.
        #expect(try renderFromAudio(samples, settings: nil).haptic.allSatisfy { $0 == 0 })
    }

    /// A steady tone: a sine on the haptic bus whose amplitude follows the level (square law: amplitude =
    /// gain × intensity² = gain × level relative to full scale) and whose frequency follows the sharpness: a 200 Hz tone
    /// has sharpness log(200/60)/log(100) = 0.26, so 80 + 0.26 × 150 = 119 Hz on the default profile.
    @Test func aSteadyToneGivesASineInTheActuatorBand() throws {
        let frames = Int(Self.rate)
        // The file plays centre-panned: each channel carries it × cos(π/4), and the detector averages them.
        let tone = sine(frequency: 200, rate: Self.rate, frames: frames, amplitude: 0.6)
        let haptic = try renderFromAudio(tone).haptic
        let level = 0.6 * (0.5).squareRoot()
        let floor = pow(10, -50.0 / 20)
        let expected = (level - floor) / (1 - floor) * ActuatorProfile.default.gain
        let frequency = zeroCrossingFrequency(haptic, rate: Self.rate, from: frames / 2, to: frames)
        #expect(abs(frequency - (80 + log(200.0 / 60) / log(100) * 150)) < 3, "\(frequency) Hz")
        #expect(abs(toneAmplitude(haptic, rate: Self.rate, frequency: frequency, from: frames / 2, to: frames) - expected) < 0.03)
    }

    /// The follower starts with the sound, not with the engine: a sound started later gives the same
    /// samples later (so `play`, which starts a pattern some periods after the engine, equals `render`).
    @Test func theOutputFollowsTheSoundNotTheEngineClock() throws {
        let (clicks, _) = clickTrain(seconds: 1)
        let tone = sine(frequency: 150, rate: Self.rate, frames: clicks.count, amplitude: 0.2)
        let mix = zip(clicks, tone).map { $0 + $1 }
        let atZero = try renderFromAudio(mix).haptic
        for start in [256, 1000, 4097] {
            let later = try renderFromAudio(mix, start: start).haptic
            #expect(later[0..<start].allSatisfy { $0 == 0 })
            #expect(Array(later[start...]).map(\.bitPattern) == atZero.map(\.bitPattern), "started at \(start)")
        }
    }

    @Test func theOutputDoesNotDependOnBlockSizes() throws {
        let (clicks, _) = clickTrain(seconds: 1.5)
        let tone = sine(frequency: 90, rate: Self.rate, frames: clicks.count, amplitude: 0.3)
        let mix = zip(clicks, tone).map { $0 + $1 }
        let whole = try renderFromAudio(mix, blockSize: { _ in 4096 })
        for blocks in [{ (_: inout SplitMix64) in 1 }, { _ in 37 }, { Int($0.range(1, 900)) }] {
            #expect(try renderFromAudio(mix, blockSize: blocks).bitsEqual(whole))
        }
    }
}
