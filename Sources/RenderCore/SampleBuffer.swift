/// Immutable interleaved float PCM at the engine sample rate (mono or stereo), read by the render thread.
///
/// Created on the control side, either by copying a `[Float]` or by wrapping memory owned by another
/// object (a decoded file) without copying; the owner is kept alive as long as the buffer.
/// - Important: Thread safety: any thread (immutable). Real-time safe: reading `samples` yes; creating it
///   and releasing the last reference no (do both on the control side).
package final class SampleBuffer: @unchecked Sendable {
    /// The interleaved samples: `frameCount × channelCount` values.
    package let samples: UnsafeBufferPointer<Float>
    /// Frames (one sample per channel) in the buffer.
    package let frameCount: Int
    /// 1 (mono) or 2 (stereo, interleaved L, R).
    package let channelCount: Int
    /// The rate of the samples, in Hz; must equal the rate a pattern is compiled at.
    package let sampleRate: Double
    private let owner: AnyObject?
    private let ownsMemory: Bool

    /// Copies `samples` (interleaved).
    /// - Precondition: `channelCount` is 1 or 2 and `samples.count` is a multiple of it.
    package init(samples: [Float], channelCount: Int = 1, sampleRate: Double) {
        precondition(channelCount == 1 || channelCount == 2, "SampleBuffer: channelCount must be 1 or 2")
        precondition(samples.count % channelCount == 0, "SampleBuffer: sample count not a multiple of channels")
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(samples.count, 1))
        samples.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { storage.initialize(from: base, count: source.count) }
        }
        self.samples = UnsafeBufferPointer(start: storage, count: samples.count)
        frameCount = samples.count / channelCount
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        owner = nil
        ownsMemory = true
    }

    /// Wraps memory that `owner` keeps valid and unchanged for its whole lifetime (no copy).
    /// - Precondition: `channelCount` is 1 or 2 and `samples.count` is a multiple of it.
    package init(
        wrapping samples: UnsafeBufferPointer<Float>, channelCount: Int, sampleRate: Double, owner: AnyObject
    ) {
        precondition(channelCount == 1 || channelCount == 2, "SampleBuffer: channelCount must be 1 or 2")
        precondition(samples.count % channelCount == 0, "SampleBuffer: sample count not a multiple of channels")
        self.samples = samples
        frameCount = samples.count / channelCount
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.owner = owner
        ownsMemory = false
    }

    deinit {
        if ownsMemory, let base = samples.baseAddress { UnsafeMutablePointer(mutating: base).deallocate() }
    }

    /// Length in seconds.
    package var duration: Double { Double(frameCount) / sampleRate }
}
