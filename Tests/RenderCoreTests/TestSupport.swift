import AudioAnalysis
import Foundation
import ThrumModel
import ThrumTestSupport

@testable import RenderCore

/// Tests address instance 0 of a slot by the slot number alone (`r.stopPlayer(3, atFrame: 0)`).
extension InstanceID: ExpressibleByIntegerLiteral {
    public init(integerLiteral slot: Int) { self.init(slot: slot, generation: 0) }
}

/// Rendered buses.
struct Buses: Equatable {
    var left: [Float]
    var right: [Float]
    var haptic: [Float]

    /// Interleaved L, R, H frames (the golden-file layout).
    var interleaved: [Float] {
        var out: [Float] = []
        out.reserveCapacity(left.count * 3)
        for i in 0..<left.count { out += [left[i], right[i], haptic[i]] }
        return out
    }

    func bitsEqual(_ other: Buses) -> Bool {
        left.map(\.bitPattern) == other.left.map(\.bitPattern)
            && right.map(\.bitPattern) == other.right.map(\.bitPattern)
            && haptic.map(\.bitPattern) == other.haptic.map(\.bitPattern)
    }
}

func event(
    _ type: CHHapticEvent.EventType, _ time: Double, duration: Double? = nil,
    _ parameters: [(CHHapticEvent.ParameterID, Float)] = []
) -> EventData {
    EventData(
        type: type, time: time, duration: duration,
        parameters: parameters.map { EventParameterData(id: $0.0, value: $0.1) })
}

func compile(
    _ pattern: PatternData, rate: Double = 8000, profile: ActuatorProfile = .default,
    buffers: [Int: SampleBuffer] = [:]
) throws -> CompiledPattern {
    try CompiledPattern(compiling: pattern, sampleRate: rate, profile: profile) { _, index in buffers[index] }
}

/// Renders `frames` frames, splitting into blocks given by `blockSize` (called once per block).
/// `setup` runs once before the first block (start players, queue parameters and stops).
func render(
    rate: Double = 8000, frames: Int, maxVoices: Int = 64, hapticsFromAudio: AnalysisSettings? = nil,
    blockSize: (inout SplitMix64) -> Int = { _ in 512 }, seed: UInt64 = 1, setup: (Renderer) -> Void
) -> (Buses, Renderer) {
    let renderer = Renderer(
        configuration: RendererConfiguration(
            sampleRate: rate, maxVoices: maxVoices, maxBlockFrames: max(frames, 1), hapticsFromAudio: hapticsFromAudio))
    setup(renderer)
    var buses = Buses(
        left: [Float](repeating: 0, count: frames), right: [Float](repeating: 0, count: frames),
        haptic: [Float](repeating: 0, count: frames))
    var rng = SplitMix64(seed: seed)
    var done = 0
    buses.left.withUnsafeMutableBufferPointer { l in
        buses.right.withUnsafeMutableBufferPointer { r in
            buses.haptic.withUnsafeMutableBufferPointer { h in
                while done < frames {
                    let n = min(max(blockSize(&rng), 1), frames - done)
                    renderer.render(
                        frameCount: n, into: l.baseAddress! + done, r.baseAddress! + done, h.baseAddress! + done)
                    done += n
                }
            }
        }
    }
    return (buses, renderer)
}

/// Renders one pattern from frame 0.
func render(_ pattern: CompiledPattern, frames: Int, blockSize: Int = 512) -> Buses {
    render(rate: pattern.sampleRate, frames: frames, blockSize: { _ in blockSize }) { r in
        r.startPlayer(0, pattern: pattern, atFrame: 0)
    }.0
}
