import Foundation
import Synchronization
import Testing

@testable import ALSAOutput

/// Progress published by a test source (atomics only, so the render thread may update it).
final class SourceProgress: Sendable {
    let framesRendered = Atomic<Int>(0)
    let renderCalls = Atomic<Int>(0)
    let wrongFrameCount = Atomic<Int>(0)
}

/// A deterministic source: sample(frame, channel) from a pure function, frame index counted from 0.
final class FunctionSource: ALSARenderSource {
    let progress: SourceProgress
    let expectedFrameCount: Int
    let sample: @Sendable (Int, Int) -> Float
    /// Frames after which the source only renders silence (nil: never).
    let limit: Int?
    private var frame = 0

    init(progress: SourceProgress, expectedFrameCount: Int, limit: Int? = nil, sample: @escaping @Sendable (Int, Int) -> Float) {
        self.progress = progress
        self.expectedFrameCount = expectedFrameCount
        self.limit = limit
        self.sample = sample
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int, channelCount: Int) {
        if frameCount != expectedFrameCount { progress.wrongFrameCount.add(1, ordering: .relaxed) }
        for f in 0..<frameCount {
            let index = frame + f
            if let limit, index >= limit { break }
            for c in 0..<channelCount {
                buffer[f * channelCount + c] = sample(index, c)
            }
        }
        frame += frameCount
        progress.renderCalls.add(1, ordering: .relaxed)
        progress.framesRendered.store(frame, ordering: .releasing)
    }
}

/// A ramp that is exact in both float32 and s16: k / 32768 for k cycling through every Int16 value.
@Sendable func rampSample(frame: Int, channel: Int) -> Float {
    let k = ((frame * 2 + channel * 7919) % 65536) - 32768
    return Float(k) / 32768
}

/// The s16 value `rampSample` must become.
func rampS16(frame: Int, channel: Int) -> Int16 {
    Int16(((frame * 2 + channel * 7919) % 65536) - 32768)
}

/// Waits until `condition` holds or `timeout` seconds pass. Returns whether it held.
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

/// An ALSA configuration defining `pcm.<name>` as the file plugin over an inline null PCM.
func fileOverNullConfiguration(name: String, path: String) -> String {
    """
    pcm.\(name) {
        type file
        slave.pcm { type null }
        file "\(path)"
        format raw
    }
    """
}

func temporaryPath(_ stem: String) -> String {
    NSTemporaryDirectory() + "thrum-\(stem)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).raw"
}

/// Parent of every ALSAOutput suite, serialized: the hermetic tests drive unpaced `null` devices flat out,
/// which on a 2-core machine starves PulseAudio and causes real xruns in the timing tests.
@Suite("ALSAOutput", .serialized) enum ALSAOutputSuites {}
