import Foundation
import Testing
import ThrumTestSupport
import ThrumModel

@testable import RenderCore


// Shared by the Transport* suites (advanced-player transport on rendered samples: loop, seam fades, seek,
// pause/resume, rate, loop changes, audio/haptic alignment, position readback and block independence).

/// Fade length in frames at `rate` for the default 5 ms.
func fadeFrames(_ rate: Double) -> Int { Int((0.005 * rate).rounded()) }

/// Largest |x[n] − x[n−1]|.
func maxJump(_ x: [Float]) -> Float {
    var m: Float = 0
    for i in 1..<x.count { m = max(m, abs(x[i] - x[i - 1])) }
    return m
}

/// A mono sine file (`seconds` long, `hz`) at `rate`.
func sineFile(seconds: Double, hz: Double = 300, rate: Double = 8000, amplitude: Float = 0.5) -> SampleBuffer {
    SampleBuffer(
        samples: sine(frequency: hz, rate: rate, frames: Int(seconds * rate), amplitude: Double(amplitude)), sampleRate: rate)
}

/// Onsets (non-resumed voice starts) of one slot, as frames.
func onsetFrames(_ r: Renderer, kind: VoiceKind? = nil) -> [Int] {
    r.loggedOnsets().filter { !$0.resumed && (kind == nil || $0.kind == kind) }.map(\.frame)
}
