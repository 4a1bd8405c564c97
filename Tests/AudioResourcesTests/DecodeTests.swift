import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

@Suite("Decoding every supported format")
struct DecodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var ext: String
        var format: AudioSampleFormat
        /// Largest accepted difference per sample.
        var tolerance: Float
        var lossy = false
        var testDescription: String { ".\(ext) \(format)" }
    }

    static let cases: [Case] = [
        Case(ext: "wav", format: .float, tolerance: 0),
        Case(ext: "wav", format: .pcm16, tolerance: 1.0 / 32768),
        Case(ext: "wav", format: .pcm24, tolerance: 1.0 / 8_388_608),
        Case(ext: "aiff", format: .pcm16, tolerance: 1.0 / 32768),
        Case(ext: "aif", format: .float, tolerance: 0),
        Case(ext: "caf", format: .float, tolerance: 0),
        Case(ext: "caf", format: .pcm16, tolerance: 1.0 / 32768),
        Case(ext: "au", format: .pcm24, tolerance: 1.0 / 8_388_608),
        Case(ext: "flac", format: .pcm16, tolerance: 1.0 / 32768),
        Case(ext: "flac", format: .float, tolerance: 1.0 / 8_388_608),  // FLAC takes float as 24-bit PCM
        Case(ext: "ogg", format: .float, tolerance: 0.05, lossy: true),
    ]

    @Test("decodes a stereo tone with the right frames, channels and values", arguments: cases)
    func decodes(_ c: Case) throws {
        let dir = TemporaryDirectory("audio")
        let rate = 44_100
        let frames = 4_410
        let tone = sine(frequency: 441, rate: Double(rate), frames: frames, channels: 2)
        let path = try writeFile(dir.file("tone.\(c.ext)"), tone, sampleRate: rate, channels: 2, format: c.format)

        let audio = try AudioFileLoader.load(path: path, targetSampleRate: Double(rate))
        #expect(audio.frameCount == frames)
        #expect(audio.channelCount == 2)
        #expect(audio.sampleRate == Double(rate))
        #expect(audio.byteCount == frames * 2 * 4)
        #expect(audio.sourcePath == path)
        let decoded = audio.array
        #expect(decoded.count == tone.count)
        if c.lossy {
            // Vorbis: compare energy-wise, and the tone is still at 441 Hz on both channels.
            var errorEnergy = 0.0, signalEnergy = 0.0
            for i in 0..<min(decoded.count, tone.count) {
                errorEnergy += Double((decoded[i] - tone[i]) * (decoded[i] - tone[i]))
                signalEnergy += Double(tone[i] * tone[i])
            }
            #expect(errorEnergy / signalEnergy < 0.001)
            let peak = decoded.map { abs($0) }.max() ?? 0
            #expect(abs(peak - 0.5) < c.tolerance)
        } else if c.tolerance == 0 {
            #expect(decoded == tone)
        } else {
            let worst = zip(decoded, tone).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= c.tolerance)
        }
    }

    @Test("mono stays mono")
    func mono() throws {
        let dir = TemporaryDirectory("audio")
        let tone = sine(frequency: 100, rate: 8000, frames: 800)
        let path = try writeFile(dir.file("mono.wav"), tone, sampleRate: 8000)
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 8000)
        #expect(audio.channelCount == 1)
        #expect(audio.frameCount == 800)
        #expect(audio.array == tone)
        #expect(audio.duration == 0.1)
        #expect(audio[frame: 20, channel: 0] == tone[20])
    }

    @Test("more than two channels keep the first two")
    func fourChannels() throws {
        let dir = TemporaryDirectory("audio")
        let frames = 100
        var samples = [Float](repeating: 0, count: frames * 4)
        for n in 0..<frames {
            for c in 0..<4 { samples[n * 4 + c] = Float(c + 1) / 10 + Float(n) / 1000 }
        }
        let path = try writeFile(dir.file("quad.wav"), samples, sampleRate: 8000, channels: 4)
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 8000)
        #expect(audio.channelCount == 2)
        #expect(audio.frameCount == frames)
        for n in 0..<frames {
            #expect(audio[frame: n, channel: 0] == samples[n * 4])
            #expect(audio[frame: n, channel: 1] == samples[n * 4 + 1])
        }
    }

    @Test("an empty file loads as zero frames")
    func empty() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(dir.file("empty.wav"), [], sampleRate: 48000)
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 44100)
        #expect(audio.frameCount == 0)
        #expect(audio.byteCount == 0)
    }

    @Test("withUnsafeSamples sees the stored samples")
    func unsafeAccess() {
        let audio = DecodedAudio(samples: [0.25, -0.5, 1, 0], channelCount: 2, sampleRate: 48000, sourcePath: "mem")
        let sum = audio.withUnsafeSamples { $0.reduce(0, +) }
        #expect(sum == 0.75)
        #expect(audio.frameCount == 2)
        #expect(audio.byteCount == 16)
    }

    @Test("probe reports frames, channels, rate and format")
    func probe() throws {
        let dir = TemporaryDirectory("audio")
        let path = try writeFile(
            dir.file("info.wav"), sine(frequency: 440, rate: 22050, frames: 2205, channels: 2),
            sampleRate: 22050, channels: 2, format: .pcm16)
        let info = try AudioFileInfo.probe(path)
        #expect(info.frames == 2205)
        #expect(info.channels == 2)
        #expect(info.sampleRate == 22050)
        #expect(info.formatName.contains("WAV"))
        #expect(info.formatName.contains("16 bit"))
        #expect(info.durationSeconds == 0.1)
        #expect(info.fileBytes == fileSize(path))
    }
}
