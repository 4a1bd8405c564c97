// Compiles an accepted pattern and renders it, checking what the renderer promises; shared by the harnesses.
import Foundation
import FuzzSupport
import RenderCore
import ThrumModel

/// The render settings: the engine's default rate (so overflows at that rate are found), small blocks.
package let sampleRate = 48_000.0
package let periodFrames = 256
package let periods = 4
/// The buffer every AudioCustom event plays: 0.1 s of a 440 Hz tone, stereo.
package let clickBuffer = SampleBuffer(
    samples: (0..<4800).flatMap { n in [Float](repeating: Float(0.5 * sin(2 * Double.pi * 440 * Double(n) / sampleRate)), count: 2) },
    channelCount: 2, sampleRate: sampleRate)

/// Compiles `pattern` and renders a few periods from its start and from its last start time.
package func compileAndRender(_ pattern: PatternData) {
    let compiled: CompiledPattern
    do {
        compiled = try CompiledPattern(compiling: pattern, sampleRate: sampleRate, audio: { _, _ in clickBuffer })
    } catch {
        fuzzFailure("an accepted pattern does not compile: \(error)")
    }
    let renderer = Renderer(
        configuration: RendererConfiguration(sampleRate: sampleRate, maxVoices: 16, maxPlayers: 1, maxBlockFrames: periodFrames))
    let instance = InstanceID(slot: 0, generation: 1)
    guard renderer.startPlayer(instance, pattern: compiled, atFrame: 0) else { fuzzFailure("the player did not start") }
    var buses = [Float](repeating: 0, count: 3 * periodFrames)
    func renderPeriods() {
        for _ in 0..<periods {
            buses.withUnsafeMutableBufferPointer { b in
                let base = b.baseAddress!
                renderer.render(frameCount: periodFrames, into: base, base + periodFrames, base + 2 * periodFrames)
            }
            for (index, sample) in buses.enumerated() {
                guard sample.isFinite else { fuzzFailure("sample \(index % periodFrames) of bus \(index / periodFrames) is \(sample)") }
                if index >= 2 * periodFrames && abs(sample) > 1 { fuzzFailure("haptic sample \(sample) is beyond ±1") }
            }
        }
    }
    renderPeriods()
    let latest = max(compiled.events.last?.time ?? 0, compiled.controls.last?.time ?? 0)
    _ = renderer.seekPlayer(instance, toOffset: max(0, latest - 0.01), atFrame: renderer.currentFrame)
    renderPeriods()
}

