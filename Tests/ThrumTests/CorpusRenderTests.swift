import AHAPCodec
import AudioResources
import Foundation
import Testing
import Thrum

/// Every loadable corpus file renders through the offline engine; lengths follow the pattern duration.
@Suite struct CorpusRenderTests {
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static let ricochet = corpus.appendingPathComponent("ricochet")

    static var corpusFiles: [URL] {
        let folders = [corpus.appendingPathComponent("ahap"), ricochet.appendingPathComponent("HapticPatterns")]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .map { folder.appendingPathComponent($0) }
        }
    }

    /// Renders `pattern` to its end and returns (frames until the player ended, output).
    func renderToEnd(_ pattern: CHHapticPattern, rate: Double, roots: [String] = []) throws -> (UInt64, [Float]) {
        let engine = try offlineEngine(rate: rate) { $0.resourceRoots = roots }
        let player = try engine.makePlayer(with: pattern)
        try player.start(atTime: 0)
        var output: [Float] = []
        let state = try #require(player as? ThrumPlayerState)
        while state.endFrame == nil {
            output += try render(engine, frames: 4096, block: 4096)
        }
        return (try #require(state.endFrame), output)
    }

    @Test func everyLoadableCorpusFileRendersToItsDuration() throws {
        let files = Self.corpusFiles
        #expect(files.count == 122, "the corpus is beside the repository at ../shared/corpus")
        var rendered = 0
        var missingAudio: [String] = []
        for file in files {
            let result = AHAPDecoder.decode(contentsOfFile: file.path)
            guard let data = result.pattern, !result.hasErrors else { continue }
            let pattern = CHHapticPattern(data: data, sourceFolder: file.deletingLastPathComponent().path)
            let rate = 8000.0
            let roots = [Self.ricochet.appendingPathComponent("StreamingAssets").path]
            let end: UInt64
            let output: [Float]
            do {
                (end, output) = try renderToEnd(pattern, rate: rate, roots: roots)
            } catch let error as CHHapticError where error.code == .fileNotFound {
                // Files whose audio was not published with them: rejected, naming the missing file.
                #expect(data.events.contains { $0.type == .audioCustom })
                #expect(error.message.contains(".wav' not found"), "\(error)")
                missingAudio.append(file.lastPathComponent)
                continue
            }
            let durationFrames = UInt64((data.duration * rate).rounded())
            // The end is the pattern duration plus release tails, transients and audio files (≤ 30 s).
            #expect(end >= durationFrames, "\(file.lastPathComponent)")
            #expect(end <= durationFrames + UInt64(30 * rate), "\(file.lastPathComponent)")
            // Nothing sounds after the reported end.
            let after = output.dropFirst(Int(end) * 3)
            #expect(after.allSatisfy { $0 == 0 }, "\(file.lastPathComponent) sounds after its end")
            rendered += 1
        }
        #expect(rendered + missingAudio.count == 118)
        #expect(missingAudio == ["apple__unityplugins__Drums.ahap", "ryendu__sound2ahap__test.ahap"])
    }

    @Test(arguments: ["CollisionSmall", "CollisionLarge", "Implode", "Spawn"])
    func ricochetAudioCarriesTheWAVAtTheEventTime(name: String) throws {
        let url = Self.ricochet.appendingPathComponent("HapticPatterns/\(name).ahap")
        let pattern = try CHHapticPattern(contentsOf: url)
        let event = try #require(pattern.data.events.first { $0.type == .audioCustom })
        let wavPath = Self.ricochet.appendingPathComponent("StreamingAssets/" + (event.waveformPath ?? "")).path
        let wav = try AudioFileLoader.load(path: wavPath, targetSampleRate: 48000)
        let roots = [Self.ricochet.appendingPathComponent("StreamingAssets").path]
        let (_, output) = try renderToEnd(pattern, rate: 48000, roots: roots)
        let left = channel(output, 0, of: 3)
        let onset = Int((event.time * 48000).rounded())
        #expect(left[..<onset].allSatisfy { $0 == 0 })
        // Constant-power centre pan: each side carries volume × cos(π/4) of the mono file.
        let gain = event.value(of: .audioVolume) * Float(0.5).squareRoot()
        let fade = 240  // 5 ms volume envelope at each end
        var worst: Float = 0
        var compared = 0
        for k in fade..<(wav.frameCount - fade) {
            let expected = gain * wav.samples[k]
            guard abs(expected) < 0.85 else { continue }  // below the channel limiter's knee
            worst = max(worst, abs(left[onset + k] - expected))
            compared += 1
        }
        #expect(compared > wav.frameCount / 2)
        #expect(worst < 1e-5, "left channel differs from the WAV by up to \(worst)")
    }
}
