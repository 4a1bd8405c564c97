import Foundation
import Testing
import Thrum
import ThrumTestSupport

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
    try renderInBlocks(frames: frames, channels: engine.options.channelMap.channelCount, block: block) {
        try engine.renderOffline(frameCount: $0, into: $1)
    }
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
