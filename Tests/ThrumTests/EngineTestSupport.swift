import Foundation
import Testing
import Thrum

/// An offline engine at `rate` with channels L,R,H (index 2 = haptic).
func offlineEngine(rate: Double = 8000, configure: (inout CHHapticEngine.Options) -> Void = { _ in }) throws
    -> CHHapticEngine
{
    var options = CHHapticEngine.Options()
    options.output = .offline
    options.sampleRate = rate
    options.channelMap = .separate
    configure(&options)
    let engine = try CHHapticEngine(options: options)
    try engine.start()
    return engine
}

/// Renders `frames` frames and returns them interleaved.
func render(_ engine: CHHapticEngine, frames: Int, block: Int = 256) throws -> [Float] {
    let channels = engine.options.channelMap.channelCount
    var output: [Float] = []
    output.reserveCapacity(frames * channels)
    var buffer = [Float](repeating: 0, count: block * channels)
    var done = 0
    while done < frames {
        let count = min(block, frames - done)
        try buffer.withUnsafeMutableBufferPointer { try engine.renderOffline(frameCount: count, into: $0.baseAddress!) }
        output += buffer[0..<(count * channels)]
        done += count
    }
    return output
}

/// One channel of interleaved samples.
func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
    stride(from: index, to: samples.count, by: channels).map { samples[$0] }
}

/// Index of the first sample whose magnitude exceeds `threshold`.
func firstSound(_ samples: [Float], threshold: Float = 0) -> Int? {
    samples.firstIndex { abs($0) > threshold }
}

/// Peak magnitude over a range.
func peak(_ samples: [Float], _ range: Range<Int>) -> Float {
    samples[range].map(abs).max() ?? 0
}

func transient(at time: TimeInterval, intensity: Float = 1, sharpness: Float = 0.5) -> CHHapticEvent {
    CHHapticEvent(
        eventType: .hapticTransient,
        parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: sharpness),
        ], relativeTime: time)
}

func continuous(at time: TimeInterval, duration: TimeInterval, intensity: Float = 1) -> CHHapticEvent {
    CHHapticEvent(
        eventType: .hapticContinuous,
        parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity)], relativeTime: time,
        duration: duration)
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
