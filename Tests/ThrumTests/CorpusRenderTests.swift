import AHAPCodec
import AudioResources
import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// Every loadable corpus file renders through the offline engine; lengths follow the pattern duration.
@Suite(.enabled(if: TestCorpus.isAvailable, Comment(rawValue: TestCorpus.skipReason)))
struct CorpusRenderTests {
    static let ricochet = TestCorpus.folder.appendingPathComponent("ricochet")

    static var corpusFiles: [URL] { TestCorpus.files(in: "ahap") + TestCorpus.files(in: "ricochet/HapticPatterns") }

    /// Whether `path` names an existing file in `folders` (the pattern's folder and the resource roots).
    static func exists(_ path: String, in folders: [String]) -> Bool {
        folders.contains { FileManager.default.fileExists(atPath: $0 + "/" + path) }
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
        // The renderer's last guard never fires for a valid pattern (issue 13).
        #expect(engine.nonFiniteSampleCount == 0)
        return (try #require(state.endFrame), output)
    }

    @Test func everyLoadableCorpusFileRendersToItsDuration() throws {
        var rendered = 0
        for file in Self.corpusFiles {
            let result = AHAPDecoder.decode(contentsOfFile: file.path)
            guard let data = result.pattern, !result.hasErrors else { continue }
            let pattern = CHHapticPattern(data: data, sourceFolder: file.deletingLastPathComponent().path)
            let rate = 8000.0
            let roots = [Self.ricochet.appendingPathComponent("StreamingAssets").path]
            // Some files name audio that was not published with them: those must be rejected, naming the file.
            let folders = [file.deletingLastPathComponent().path] + roots
            let missing = data.events.compactMap { event in
                event.type == .audioCustom ? event.waveformPath.flatMap { Self.exists($0, in: folders) ? nil : $0 } : nil
            }
            let end: UInt64
            let output: [Float]
            do {
                (end, output) = try renderToEnd(pattern, rate: rate, roots: roots)
            } catch let error as CHHapticError where error.code == .fileNotFound {
                #expect(!missing.isEmpty, "\(file.lastPathComponent): \(error)")
                #expect(missing.contains { error.message.contains("'\($0)' not found") }, "\(error)")
                continue
            }
            #expect(missing.isEmpty, "\(file.lastPathComponent) played although \(missing) does not exist")
            let durationFrames = UInt64((data.duration * rate).rounded())
            // The end is the pattern duration plus release tails, transients and audio files (≤ 30 s).
            #expect(end >= durationFrames, "\(file.lastPathComponent)")
            #expect(end <= durationFrames + UInt64(30 * rate), "\(file.lastPathComponent)")
            // Nothing sounds after the reported end.
            let after = output.dropFirst(Int(end) * 3)
            #expect(after.allSatisfy { $0 == 0 }, "\(file.lastPathComponent) sounds after its end")
            rendered += 1
        }
        #expect(rendered > 0, "no corpus file rendered")
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
