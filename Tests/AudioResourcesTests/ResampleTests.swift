import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

@Suite("Sample-rate conversion")
struct ResampleTests {
    @Test("44100 → 48000 keeps length and pitch", arguments: [AudioFileLoader.ResampleQuality.medium, .best, .fastest])
    func keepsLengthAndPitch(_ quality: AudioFileLoader.ResampleQuality) throws {
        let dir = TemporaryDirectory("audio")
        let frames = 22_050  // 0.5 s
        let tone = sine(frequency: 1000, rate: 44_100, frames: frames, channels: 2)
        let path = try writeFile(dir.file("tone.wav"), tone, sampleRate: 44_100, channels: 2)

        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 48_000, quality: quality)
        let expected = Int((Double(frames) * 48_000 / 44_100).rounded())
        #expect(expected == 24_000)
        #expect(abs(audio.frameCount - expected) <= 1)
        #expect(audio.channelCount == 2)
        #expect(audio.sampleRate == 48_000)
        #expect(audio.byteCount == audio.frameCount * 2 * 4)

        let out = audio.array
        // Pitch: 1 kHz dominates a 1.088 kHz probe (what a pitch-shifting conversion would give) by 20 dB.
        let left = channel(out, 0, of: 2)
        let right = channel(out, 1, of: 2)
        let at1000 = toneAmplitude(left, rate: 48_000, frequency: 1000, from: 0, to: left.count)
        let at1088 = toneAmplitude(left, rate: 48_000, frequency: 1088, from: 0, to: left.count)
        #expect(at1000 > 10 * at1088)
        // Both channels measure 1 kHz from their zero crossings (within 0.2 %).
        #expect(abs(zeroCrossingFrequency(left, rate: 48_000, from: 0, to: left.count) - 1000) < 2)
        #expect(abs(zeroCrossingFrequency(right, rate: 48_000, from: 0, to: right.count) - 1000) < 2)
        // Amplitude kept (0.5 left, 0.25 right), away from the edges.
        let middle = stride(from: 2000, to: 22_000, by: 1).map { abs(out[$0 * 2]) }.max() ?? 0
        #expect(abs(middle - 0.5) < 0.01)
        let middleRight = stride(from: 2000, to: 22_000, by: 1).map { abs(out[$0 * 2 + 1]) }.max() ?? 0
        #expect(abs(middleRight - 0.25) < 0.01)
    }

    @Test("48000 → 44100 and 8000 → 48000 give round(frames × ratio) frames", arguments: [
        (48_000, 44_100, 4_801), (8_000, 48_000, 1_001), (22_050, 48_000, 333),
    ])
    func lengths(from: Int, to: Int, frames: Int) throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(
            dir.file("t.wav"), sine(frequency: 200, rate: Double(from), frames: frames), sampleRate: from)
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: Double(to))
        #expect(audio.frameCount == Int((Double(frames) * Double(to) / Double(from)).rounded()))
        #expect(audio.channelCount == 1)
    }

    @Test("an impossible ratio is resampleFailed")
    func badRatio() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("t.wav"), [0, 0.1, 0.2, 0.3], sampleRate: 8_000)
        let error = expectAudioError { _ = try AudioFileLoader.load(path: path, targetSampleRate: 8_000 * 300) }
        guard case .resampleFailed = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(error?.category == .invalidAudio)
        #expect(error?.description.contains("t.wav") == true)
        #expect(error?.description.contains("8000 Hz → 2400000 Hz") == true)
    }
}
