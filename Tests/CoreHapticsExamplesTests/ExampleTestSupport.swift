import Foundation
import Testing
import Thrum
import ThrumTestSupport

/// The package's Resources/Audio/click.wav (what `playClickWithSound` uses in place of `Bundle.main`).
let packageClickURL: URL? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let url = root.appendingPathComponent("Resources/Audio/click.wav")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// Frames per second of every test engine.
let testRate = 8000.0

/// An offline engine at 8 kHz with channels L, R, H (index 2 = haptic), started.
func makeOfflineEngine() throws -> CHHapticEngine {
    var o = CHHapticEngine.Options()
    o.output = .offline
    o.sampleRate = testRate
    o.channelMap = .separate
    let engine = try CHHapticEngine(options: o)
    try engine.start()
    return engine
}

/// Rendered output split into its three channels.
struct Rendered {
    var left: [Float] = []
    var right: [Float] = []
    var haptic: [Float] = []

    mutating func append(_ other: Rendered) {
        left += other.left
        right += other.right
        haptic += other.haptic
    }
}

/// Renders `seconds` (or `frames`) of `engine` in 256-frame blocks, delivering callbacks after each.
func renderOutput(_ engine: CHHapticEngine, seconds: Double) throws -> Rendered {
    try renderOutput(engine, frames: Int((seconds * testRate).rounded()))
}

func renderOutput(_ engine: CHHapticEngine, frames: Int, block: Int = 256) throws -> Rendered {
    let samples = try renderInBlocks(frames: frames, channels: 3, block: block) {
        try engine.renderOffline(frameCount: $0, into: $1)
    }
    return Rendered(left: channel(samples, 0, of: 3), right: channel(samples, 1, of: 3), haptic: channel(samples, 2, of: 3))
}

/// Frame of `seconds` at the test rate.
func frame(_ seconds: Double) -> Int { Int((seconds * testRate).rounded()) }

/// Peak magnitude over a window of `width` seconds around `centre` seconds (clamped to the samples).
func peak(_ samples: [Float], around centre: Double, width: Double = 0.05) -> Float {
    peak(samples, (frame(centre - width / 2)..<frame(centre + width / 2)).clamped(to: 0..<samples.count))
}

/// Onsets of bursts: a sample above `threshold` after at least `gap` frames of silence (≤ threshold).
func burstOnsets(_ samples: [Float], threshold: Float = 0, gap: Int) -> [Int] {
    var onsets: [Int] = []
    var quiet = gap
    for (i, s) in samples.enumerated() {
        if abs(s) > threshold {
            if quiet >= gap { onsets.append(i) }
            quiet = 0
        } else {
            quiet += 1
        }
    }
    return onsets
}

/// `player`'s end frame (Thrum's `ThrumPlayerState`).
func endFrame(of player: AnyObject?) -> UInt64? {
    (player as? ThrumPlayerState)?.endFrame
}
