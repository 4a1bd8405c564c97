/// Decoded audio held in memory as interleaved 32-bit float samples.
///
/// The samples are allocated once when the object is created and never change, so a
/// `DecodedAudio` can be shared freely between threads. The render thread may read
/// ``samples`` (or call ``withUnsafeSamples(_:)``) without allocating, locking or
/// retaining anything beyond the object itself; the buffer stays valid for as long as
/// the object is alive, and is freed in `deinit`, so keep a strong reference on the
/// control side and release the last one off the real-time thread.
package final class DecodedAudio: Sendable {
    /// Interleaved samples (`frameCount × channelCount` floats, channel order as in the file).
    ///
    /// Valid for the lifetime of this object. Reading it is real-time safe.
    nonisolated(unsafe) package let samples: UnsafeBufferPointer<Float>

    /// Number of frames (one sample per channel).
    package let frameCount: Int

    /// Number of interleaved channels: 1 (mono) or 2 (stereo) when produced by
    /// ``AudioFileLoader``.
    package let channelCount: Int

    /// Sample rate of ``samples`` in Hz (after any conversion by the loader).
    package let sampleRate: Double

    /// Path of the file the samples came from (as passed to the loader), or a
    /// descriptive name for audio that was not loaded from a file.
    package let sourcePath: String

    /// Memory held by the samples in bytes: `frameCount × channelCount × 4`.
    package var byteCount: Int { frameCount * channelCount * MemoryLayout<Float>.size }

    /// Length in seconds: `frameCount / sampleRate`.
    package var duration: Double { sampleRate > 0 ? Double(frameCount) / sampleRate : 0 }

    /// Copies interleaved samples into new storage.
    ///
    /// - Parameters:
    ///   - samples: interleaved samples; the count must be a multiple of `channelCount`.
    ///   - channelCount: channels per frame (≥ 1).
    ///   - sampleRate: sample rate in Hz (> 0).
    ///   - sourcePath: where the samples came from, for messages.
    package convenience init(samples: [Float], channelCount: Int, sampleRate: Double, sourcePath: String) {
        precondition(channelCount >= 1, "channelCount must be at least 1")
        precondition(samples.count % channelCount == 0, "sample count must be a multiple of channelCount")
        precondition(sampleRate > 0, "sampleRate must be positive")
        let storage = UnsafeMutableBufferPointer<Float>.allocate(capacity: samples.count)
        _ = storage.initialize(from: samples)
        self.init(adopting: storage, channelCount: channelCount, sampleRate: sampleRate, sourcePath: sourcePath)
    }

    /// Takes ownership of `storage` (allocated with `UnsafeMutableBufferPointer.allocate`
    /// and fully initialised); it is deallocated in `deinit`.
    init(adopting storage: UnsafeMutableBufferPointer<Float>, channelCount: Int, sampleRate: Double, sourcePath: String) {
        self.samples = UnsafeBufferPointer(storage)
        self.channelCount = channelCount
        self.frameCount = storage.count / channelCount
        self.sampleRate = sampleRate
        self.sourcePath = sourcePath
    }

    deinit {
        UnsafeMutableBufferPointer(mutating: samples).deallocate()
    }

    /// Calls `body` with the interleaved samples. Does not allocate; real-time safe.
    @inlinable
    package func withUnsafeSamples<R, E: Error>(_ body: (UnsafeBufferPointer<Float>) throws(E) -> R) throws(E) -> R {
        try body(samples)
    }

    /// The sample at `frame` on `channel` (bounds-checked in debug builds only).
    @inlinable
    package subscript(frame frame: Int, channel channel: Int) -> Float {
        samples[frame * channelCount + channel]
    }
}
