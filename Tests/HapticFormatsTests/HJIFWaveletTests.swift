import AHAPCodec
import Foundation
import HapticFormats
import Testing

/// WaveletWave bands (ISO/IEC 23090-31): a block decoded against MPEG's reference Synthesizer, the inverse
/// transform against the forward one (perfect reconstruction of the 9/7 pair), and bad streams. The MPEG suite
/// (Tools/ci/mpeg-haptics.sh) judges whole files the reference Encoder made from WAVs.
@Suite("HJIF wavelet bands")
struct HJIFWaveletTests {
    /// One block of 1024 samples at 8 kHz: the second block of the reference Encoder's HJIF of a 0.5 s, 150 Hz
    /// sine at 0.8 with 50 ms fades (sox: `synth 0.5 sine 150 fade 0.05 0.5 0.2 vol 0.8`), alone in its band.
    static let stream =
        "qT0gI3Pi0WuOLBnv2/owZEEtjQAAAAA24UBInDO7gAAAAAM2t7//+osF7YQ6i+RT5c5JHGf9oAAAABjm8H6snKNwwZELQXAAArn///////////+"
    /// The reference Synthesizer's output for that document at 8 kHz (16-bit WAV), at these samples.
    static let reference: [(index: Int, value: Double)] = [
        (0, 0.569915771484375), (1, 0.57904052734375), (100, 0.338104248046875), (257, 0.095977783203125),
        (511, -0.7896728515625), (600, 0.2156982421875), (1000, -0.38690185546875), (1023, 0.475341796875),
    ]

    func document(stream: String, blockLength: Int = 128, upper: Int = 8000) -> String {
        """
        {"version": "2023", "profile": "Main", "level": 1, "date": "2026-12-06", "description": "", "timescale": 1000,
         "avatars": [], "syncs": [],
         "perceptions": [{"id": 0, "avatar_id": 0, "description": "", "perception_modality": "Vibrotactile",
          "reference_devices": [], "effect_library": [],
          "channels": [{"id": 0, "description": "", "gain": 1.0, "mixing_coefficient": 1.0, "body_part_mask": 0,
           "frequency_sampling": 8000, "sample_count": 1024,
           "bands": [{"band_type": "WaveletWave", "block_length": \(blockLength), "lower_frequency_limit": 72,
            "upper_frequency_limit": \(upper), "effects": [{"effect_type": "Basis", "position": 0, "wavelet_stream": "\(stream)"}]}]}]}]}
        """
    }

    @Test func aBlockDecodesAsTheReferenceSynthesizerPlaysIt() throws {
        let read = HJIFDecoder.decode(data: Data(document(stream: Self.stream).utf8), file: "block.hjif")
        let decoded = try #require(read.document)
        #expect(!read.diagnostics.contains { $0.severity == .error || $0.severity == .warning }, "\(read.diagnostics)")
        let channel = try #require(HJIFSynthesis.channels(of: decoded).first)
        #expect(abs(channel.endTicks - 128) < 1e-9)
        let samples = HJIFSynthesis.samples(channel, sampleRate: 8000, frames: 0..<1024)
        for (index, value) in Self.reference {
            // The reference wrote 16-bit samples: within one step of them.
            #expect(abs(samples[index] - value) <= 1.0 / 32768, "sample \(index): \(samples[index]) vs \(value)")
        }
        // At 48 kHz each block sample is held for six output samples. (Not the last: the reference's tick
        // arithmetic puts the 8 kHz sample 1023 at 1022.99… block samples, so it holds block sample 1022.)
        let fast = HJIFSynthesis.samples(channel, sampleRate: 48000, frames: 0..<6144)
        for (index, value) in Self.reference where index < 1023 {
            #expect(abs(fast[6 * index + 5] - value) <= 1.0 / 32768, "sample \(index) at 48 kHz: \(fast[6 * index + 5]) vs \(value)")
        }
    }

    /// The forward transform the standard's encoder uses, written from its definition: at each level the
    /// coarse part through the 9-tap low pass (even outputs) and the 7-tap high pass (odd outputs), with
    /// whole-sample symmetric extension.
    func forward(_ input: [Double], levels: Int) -> [Double] {
        func full(_ half: [Double]) -> [Double] { half.dropFirst().reversed() + half }
        let low = full(HJIFWavelet.lowPass)
        let high = full(HJIFWavelet.highPass)
        func filter(_ x: [Double], _ taps: [Double], at k: Int) -> Double {
            let reach = taps.count / 2
            return taps.indices.reduce(0.0) { sum, i in
                var j = k + reach - i
                if j < 0 { j = -j }
                if j >= x.count { j = 2 * (x.count - 1) - j }
                return sum + taps[i] * x[j]
            }
        }
        var out = input
        var coarse = input
        for level in 0..<levels {
            let span = input.count >> level
            let x = Array(coarse[0..<span])
            for k in 0..<(span / 2) {
                out[k] = filter(x, low, at: 2 * k)
                out[k + span / 2] = filter(x, high, at: 2 * k + 1)
                coarse[k] = out[k]
            }
        }
        return out
    }

    @Test func theInverseTransformUndoesTheForwardOne() {
        var generator = SystemRandomNumberGenerator()
        for length in [16, 64, 1024] {
            let signal = (0..<length).map { _ in Double.random(in: -1...1, using: &generator) }
            let levels = Int(log2(Double(length) / 4))
            var coefficients = forward(signal, levels: levels)
            HJIFWavelet.inverseTransform(&coefficients, levels: levels)
            let error = zip(signal, coefficients).map { abs($0 - $1) }.max() ?? 1
            #expect(error < 1e-6, "length \(length): largest error \(error)")
        }
    }

    @Test func anyStreamDecodesToAFiniteBlockOfItsLength() {
        var generator = SystemRandomNumberGenerator()
        for length in [8, 16, 1000, 1024] {
            for size in [0, 1, 3, 40, 400] {
                let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let samples = HJIFWavelet.samples(of: bytes, length: length)
                #expect(samples.count == length && samples.allSatisfy(\.isFinite))
            }
        }
    }

    @Test func aBandTooLargeToDecodeIsRefusedBeforeItIsDecoded() {
        // 255 ms at 1 GHz: 255 million samples in one block.
        let text = document(stream: Self.stream, blockLength: 255, upper: 1_000_000_000)
        let read = HJIFDecoder.decode(data: Data(text.utf8), file: "huge.hjif")
        #expect(read.document == nil)
        #expect(read.diagnostics.contains { $0.severity == .error && $0.message.contains("a WaveletWave band of 255000000 samples") })
    }
}
