import Foundation
import Testing
import ThrumTestSupport

@testable import AudioResources

@Suite("Audio file writer")
struct WriterTests {
    /// Deterministic pseudo-random samples in [-1, 1], plus the extremes.
    static func testSignal(count: Int) -> [Float] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var out: [Float] = [1, -1, 0, 0.5, -0.5, 1.0 / 32768, -1.0 / 32768]
        while out.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            out.append(Float(Double(state >> 11) / Double(1 << 53) * 2 - 1))
        }
        return out
    }

    @Test("float WAV round-trips bit-exact, including values beyond ±1")
    func floatExact() throws {
        let dir = TemporaryDirectory("audio")
        var signal = Self.testSignal(count: 2000)
        signal += [1.5, -3, .leastNonzeroMagnitude, -0.0, .greatestFiniteMagnitude, 1e-30]
        let path = dir.file("exact.wav")
        let writer = try AudioFileWriter(path: path, sampleRate: 48000, channelCount: 2)
        try writer.write(Array(signal[0..<1000]))
        try writer.write(Array(signal[1000...]))
        #expect(writer.framesWritten == signal.count / 2)
        #expect(writer.clippedSampleCount == 3)  // 1.5, -3, greatestFiniteMagnitude: out of range, stored as is
        #expect(writer.formatName == "WAV (Microsoft), 32 bit float")
        try writer.close()
        try writer.close()  // second close does nothing

        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 48000)
        #expect(audio.channelCount == 2)
        #expect(audio.frameCount == signal.count / 2)
        #expect(audio.array.map(\.bitPattern) == signal.map(\.bitPattern))
    }

    @Test("PCM round-trips within one step", arguments: [
        (AudioSampleFormat.pcm16, "wav", 16), (.pcm24, "wav", 24), (.pcm16, "aiff", 16), (.pcm24, "flac", 24), (.pcm16, "flac", 16),
    ])
    func pcmWithinOneStep(format: AudioSampleFormat, ext: String, bits: Int) throws {
        let dir = TemporaryDirectory("audio")
        let signal = Self.testSignal(count: 3000)
        let path = dir.file("pcm.\(ext)")
        let writer = try AudioFileWriter(path: path, sampleRate: 44100, channelCount: 1, sampleFormat: format)
        try writer.write(signal)
        #expect(writer.clippedSampleCount == 0)
        try writer.close()

        let info = try AudioFileInfo.probe(path)
        #expect(info.formatName.contains("\(bits) bit"))
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 44100)
        #expect(audio.frameCount == signal.count)
        let step = Float(1) / Float(1 << (bits - 1))
        let decoded = audio.array
        let worst = zip(decoded, signal).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= step)
        // Within half a step, except in the top half-step below +1, which clamps to the top code.
        for (d, s) in zip(decoded, signal) where s < 1 - step / 2 {
            #expect(abs(d - s) <= step / 2 + step * 1e-3)
        }
        #expect(decoded[0] == 1 - step)  // +1 → top code
        #expect(decoded[1] == -1)  // -1 exact
        #expect(decoded[2] == 0)
        #expect(decoded[3] == 0.5)
    }

    @Test("clipping is counted and clamped to full scale", arguments: [AudioSampleFormat.pcm16, .pcm24])
    func clipping(_ format: AudioSampleFormat) throws {
        let dir = TemporaryDirectory("audio")
        let path = dir.file("clip.wav")
        let writer = try AudioFileWriter(path: path, sampleRate: 8000, channelCount: 2, sampleFormat: format)
        try writer.write([1.5, -2, 0.5, .nan, 1.0, -1.0, 1.0001, .infinity])
        #expect(writer.clippedSampleCount == 5)
        try writer.write([-1.25, 0])
        #expect(writer.clippedSampleCount == 6)
        try writer.close()
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 8000)
        let step: Float = format == .pcm16 ? 1.0 / 32768 : 1.0 / 8_388_608
        #expect(audio.array == [1 - step, -1, 0.5, 0, 1 - step, -1, 1 - step, 1 - step, -1, 0])
    }

    /// Float files store every sample as given and count those outside [−1, 1] (NaN and ±∞ included), in
    /// every position of a write (the counting loop works several samples at a time, then the rest one by one).
    @Test("float clipping is counted anywhere in a write; no PEAK chunk", arguments: [1, 7, 8, 9, 1001])
    func floatClipCount(length: Int) throws {
        let dir = TemporaryDirectory("audio")
        let path = dir.file("clip.wav")
        let outside: [Float] = [.nan, .infinity, -.infinity, 1.000_000_1, -1.000_000_1, 2]
        var signal = [Float](repeating: 0.25, count: length)
        signal[0] = -1  // the range's ends are inside
        if length > 1 { signal[length - 1] = 1 }
        var expected = 0
        for (i, value) in outside.enumerated() where (3 * i + 1) < length - 1 {
            signal[3 * i + 1] = value
            expected += 1
        }
        let writer = try AudioFileWriter(path: path, sampleRate: 8000, channelCount: 1)
        try writer.write(signal)
        #expect(writer.clippedSampleCount == expected)
        try writer.close()
        let audio = try AudioFileLoader.load(path: path, targetSampleRate: 8000)
        #expect(audio.array.map(\.bitPattern) == signal.map(\.bitPattern))
        // libsndfile's optional PEAK chunk is not written (docs/decisions.md: a second pass for nothing).
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let peakTag = Array("PEAK".utf8)
        #expect(!(0..<(bytes.count - 4)).contains { Array(bytes[$0..<($0 + 4)]) == peakTag })
    }

    /// The integer codes in the WAV's data chunk, worked out by hand from round(x × 2^(bits−1)) with halves
    /// away from zero: what a sound card of that width receives from Thrum (see ALSAOutput's conversion).
    @Test("PCM codes are exact: 32 bits and halves away from zero", arguments: [16, 24, 32])
    func exactCodes(bits: Int) throws {
        let dir = TemporaryDirectory("audio")
        let path = dir.file("codes.wav")
        let format: AudioSampleFormat = bits == 16 ? .pcm16 : bits == 24 ? .pcm24 : .pcm32
        let step = Double(Int64(1) << (bits - 1))
        // 0.75, −1, +1 (clamps to the top code), half a step (→ 1), minus half a step (→ −1), 2.5 steps (→ 3).
        let signal: [Float] = [0.75, -1, 1, Float(0.5 / step), Float(-0.5 / step), Float(2.5 / step)]
        let top = Int64(step) - 1
        let expected: [Int64] = [Int64(step * 0.75), -Int64(step), top, 1, -1, 3]
        let writer = try AudioFileWriter(path: path, sampleRate: 48000, channelCount: 1, sampleFormat: format)
        try writer.write(signal)
        try writer.close()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let width = bits / 8
        let tag = Array("data".utf8)
        let found = (12..<(bytes.count - 8)).first { Array(bytes[$0..<($0 + 4)]) == tag }
        let data = try #require(found, "no data chunk")
        let codes = (0..<signal.count).map { index -> Int64 in
            let start = data + 8 + index * width
            var value: Int64 = 0
            for byte in 0..<width { value |= Int64(bytes[start + byte]) << (8 * byte) }
            return value >= Int64(step) ? value - 2 * Int64(step) : value  // sign
        }
        #expect(codes == expected)
    }

    @Test("float formats that cannot hold float pick PCM 24 or Vorbis")
    func fallbackFormats() throws {
        let dir = TemporaryDirectory("audio")
        let flac = try AudioFileWriter(path: dir.file("a.flac"), sampleRate: 48000, channelCount: 1)
        #expect(flac.formatName.contains("24 bit"))
        try flac.close()
        let ogg = try AudioFileWriter(path: dir.file("a.OGG"), sampleRate: 48000, channelCount: 1)
        #expect(ogg.formatName.contains("Vorbis"))
        try ogg.close()
    }

    @Test("writer errors name the file and the problem")
    func errors() throws {
        let dir = TemporaryDirectory("audio")
        let bad = expectAudioError { _ = try AudioFileWriter(path: dir.path + "/x.xyz", sampleRate: 48000, channelCount: 1) }
        guard case .writeFailed(let p, let reason) = bad else { Issue.record("got \(String(describing: bad))"); return }
        #expect(p == dir.path + "/x.xyz")
        #expect(reason.hasPrefix("'.xyz' is not a format Thrum writes (use one of .wav"))
        #expect(bad?.description.hasPrefix("cannot write audio file '\(p)': '.xyz'") == true)

        let noFolder = dir.path + "/no/such/folder/out.wav"
        let missing = expectAudioError { _ = try AudioFileWriter(path: noFolder, sampleRate: 48000, channelCount: 1) }
        guard case .writeFailed(let p2, let reason2) = missing else { Issue.record("got \(String(describing: missing))"); return }
        #expect(p2 == noFolder)
        #expect(!reason2.isEmpty)

        let writer = try AudioFileWriter(path: dir.file("s.wav"), sampleRate: 48000, channelCount: 2)
        let misaligned = expectAudioError { try writer.write([0, 0, 0]) }
        #expect(misaligned == .writeFailed(path: dir.path + "/s.wav", reason: "3 samples is not a whole number of 2-channel frames"))
        try writer.close()
        let closed = expectAudioError { try writer.write([0, 0]) }
        #expect(closed == .writeFailed(path: dir.path + "/s.wav", reason: "the writer is already closed"))

        let opusRate = expectAudioError { _ = try AudioFileWriter(path: dir.file("o.opus"), sampleRate: 44100, channelCount: 1) }
        guard case .writeFailed = opusRate else { Issue.record("got \(String(describing: opusRate))"); return }
    }
}
