import Foundation
import Testing
import Thrum

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
    var result = Rendered()
    var buffer = [Float](repeating: 0, count: block * 3)
    var done = 0
    while done < frames {
        let count = min(block, frames - done)
        try buffer.withUnsafeMutableBufferPointer {
            try engine.renderOffline(frameCount: count, into: $0.baseAddress!)
        }
        for i in 0..<count {
            result.left.append(buffer[3 * i])
            result.right.append(buffer[3 * i + 1])
            result.haptic.append(buffer[3 * i + 2])
        }
        done += count
    }
    return result
}

/// Frame of `seconds` at the test rate.
func frame(_ seconds: Double) -> Int { Int((seconds * testRate).rounded()) }

/// Peak magnitude over `range` (clamped to the samples).
func peak(_ samples: [Float], _ range: Range<Int>) -> Float {
    let r = range.clamped(to: 0..<samples.count)
    return samples[r].reduce(0) { max($0, abs($1)) }
}

/// Peak magnitude over a window of `seconds` around `centre` seconds.
func peak(_ samples: [Float], around centre: Double, width: Double = 0.05) -> Float {
    peak(samples, frame(centre - width / 2)..<frame(centre + width / 2))
}

/// First frame at or after `from` whose magnitude is above `threshold`.
func onset(_ samples: [Float], from: Int = 0, threshold: Float = 0) -> Int? {
    guard from < samples.count else { return nil }
    return samples[from...].firstIndex { abs($0) > threshold }
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

/// Last frame whose magnitude is above `threshold`.
func lastSound(_ samples: [Float], threshold: Float = 0) -> Int? {
    samples.lastIndex { abs($0) > threshold }
}

/// `player`'s end frame (Thrum's `ThrumPlayerState`).
func endFrame(of player: AnyObject?) -> UInt64? {
    (player as? ThrumPlayerState)?.endFrame
}
