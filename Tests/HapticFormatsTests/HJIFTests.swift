import AHAPCodec
import Foundation
import HapticFormats
import Testing

/// HJIF and `.hmpg`: the reader's located diagnostics, the synthesis of a plain sine effect (its physics), and
/// the writers read back. (MPEG's reference software judges the rest: Tools/ci/mpeg-haptics.sh.)
@Suite("HJIF")
struct HJIFTests {
    /// An HJIF document with one VectorialWave band holding `effects` (JSON text), at `timescale`.
    func document(_ effects: String, band: String = "VectorialWave", timescale: Int = 1000) -> String {
        """
        {"version": "2023", "profile": "Main", "level": 1, "date": "2026-12-06", "description": "", "timescale": \(timescale),
         "avatars": [], "syncs": [],
         "perceptions": [{"id": 0, "avatar_id": 0, "description": "", "perception_modality": "Vibrotactile",
          "reference_devices": [], "effect_library": [],
          "channels": [{"id": 0, "description": "", "gain": 1.0, "mixing_coefficient": 1.0, "body_part_mask": 0,
           "bands": [{"band_type": "\(band)", "lower_frequency_limit": 0, "upper_frequency_limit": 1000,
            "effects": [\(effects)]}]}]}]}
        """
    }

    let sine = """
        {"effect_type": "Basis", "position": 0, "phase": 0.0, "base_signal": "Sine", "keyframes": [
         {"relative_position": 0, "amplitude_modulation": 0.5, "frequency_modulation": 100},
         {"relative_position": 100, "amplitude_modulation": 0.5, "frequency_modulation": 100}]}
        """

    @Test func aSineEffectIsASineOfItsAmplitudeAndFrequency() throws {
        let read = HJIFDecoder.decode(data: Data(document(sine).utf8), file: "sine.hjif")
        let decoded = try #require(read.document, "\(read.diagnostics.map(\.formatted))")
        let channel = try #require(HJIFSynthesis.channels(of: decoded).first)
        let rate = 48_000.0
        let samples = HJIFSynthesis.samples(channel, sampleRate: rate, frames: 0..<4800)
        // 100 ms of 100 Hz: 10 periods, 20 sign changes; peak 0.5.
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) && $1 != 0 }.count
        #expect((19...20).contains(crossings))
        #expect(abs((samples.map(abs).max() ?? 0) - 0.5) < 0.001)
        for (i, value) in samples.enumerated() where i % 97 == 0 {
            #expect(abs(value - 0.5 * sin(2 * Double.pi * 100 * Double(i) / rate)) < 0.01)
        }
    }

    @Test func badJSONIsALocatedError() {
        let text = document(sine).replacingOccurrences(of: "\"position\": 0,", with: "\"position\": \"zero\",")
        let read = HJIFDecoder.decode(data: Data(text.utf8), file: "bad.hjif")
        #expect(read.document == nil)
        let error = read.diagnostics.first { $0.severity == .error }
        #expect(error?.line == 7 && error?.column == 54 && error?.path.contains("effects[0].position") == true)
    }

    @Test func aWaveletBlockLengthThatIsNoPowerOfTwoIsALocatedWarning() throws {
        let effect = #"{"effect_type": "Basis", "position": 0, "wavelet_stream": ""}"#
        let text = document(effect, band: "WaveletWave").replacingOccurrences(
            of: #""band_type": "WaveletWave","#, with: #""band_type": "WaveletWave", "block_length": 21,"#)
        let read = HJIFDecoder.decode(data: Data(text.utf8), file: "w.hjif")
        let warning = try #require(read.diagnostics.first { $0.message.contains("block_length 21 is not a power of two") })
        #expect(warning.severity == .warning && warning.line == 6)
        #expect(!read.diagnostics.contains { $0.message.contains("not supported") })
    }

    @Test func documentsOverTenMinutesAreRefused() {
        let long = sine.replacingOccurrences(of: "\"relative_position\": 100,", with: "\"relative_position\": 700000,")
        let read = HJIFDecoder.decode(data: Data(document(long).utf8), file: "long.hjif")
        #expect(read.document == nil)
        #expect(read.diagnostics.contains { $0.severity == .error && $0.message.contains("at most 600 s") })
    }

    @Test func writtenHJIFAndStreamReadBack() throws {
        let decoded = try #require(HJIFDecoder.decode(data: Data(document(sine, timescale: 48_000).utf8)).document)
        let again = HJIFDecoder.decode(data: Data(HJIFEncoder.encode(decoded).utf8), file: "again.hjif")
        #expect(again.document == decoded)
        let stream = try #require(HMPGEncoder.encode(decoded).data)
        let back = try #require(HMPGDecoder.decode(data: stream, file: "again.hmpg").document)
        let keyframes = back.perceptions[0].channels[0].bands[0].effects[0].keyframes
        #expect(back.timescale == 48_000 && keyframes.map(\.position) == [0, 100] && keyframes.map(\.frequency) == [100, 100])
        #expect(keyframes.allSatisfy { abs(Double($0.amplitude ?? 0) - 0.5) < 0.01 })
    }

    @Test func aCutStreamIsAnErrorAtItsByte() throws {
        let decoded = try #require(HJIFDecoder.decode(data: Data(document(sine).utf8)).document)
        let stream = try #require(HMPGEncoder.encode(decoded).data)
        let read = HMPGDecoder.decode(data: stream.prefix(stream.count / 2), file: "cut.hmpg")
        #expect(read.document == nil)
        #expect(read.diagnostics.contains { $0.severity == .error && $0.path.hasPrefix("byte ") })
    }
}
