import Synchronization

/// One reading of a stream's clock: stream frame `frame` was at the converter (leaving the DAC, or being
/// sampled by the ADC) at CLOCK_MONOTONIC time `seconds`.
/// - Important: Thread safety: any thread (a value).
package struct StreamClockReading: Sendable, Equatable {
    /// The stream frame (frames written, or read, since the stream was opened, plus ALSA's delay).
    package var frame: UInt64
    /// CLOCK_MONOTONIC seconds.
    package var seconds: Double

    /// A reading.
    package init(frame: UInt64, seconds: Double) {
        self.frame = frame
        self.seconds = seconds
    }
}

/// Every clock reading a stream takes while it runs (one per period), kept for a measurement that needs
/// the streams' own timing over its whole length rather than the latest fit (``ALSAPlayback/start(source:holdingOutput:clockLog:onFailure:)``,
/// ``ALSACapture``). Storage is allocated in `init`; readings past `capacity` are counted, not kept.
/// - Important: Thread safety: `append` from one thread (the stream's thread; real-time safe), `readings`
///   and `dropped` from any thread.
package final class StreamClockLog: @unchecked Sendable {
    // @unchecked: slot i is written once by the appending thread before `count` is released past it.
    private let frames: UnsafeMutablePointer<UInt64>
    private let times: UnsafeMutablePointer<Double>
    private let count = Atomic<Int>(0)
    private let overflow = Atomic<Int>(0)
    /// The most readings kept.
    package let capacity: Int

    /// A log for at most `capacity` readings (≥ 1).
    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
        frames = .allocate(capacity: self.capacity)
        frames.initialize(repeating: 0, count: self.capacity)
        times = .allocate(capacity: self.capacity)
        times.initialize(repeating: 0, count: self.capacity)
    }

    deinit {
        frames.deallocate()
        times.deallocate()
    }

    /// Keeps a reading. Real-time safe.
    func append(frame: UInt64, seconds: Double) {
        let index = count.load(ordering: .relaxed)
        guard index < capacity else {
            overflow.add(1, ordering: .relaxed)
            return
        }
        frames[index] = frame
        times[index] = seconds
        count.store(index + 1, ordering: .releasing)
    }

    /// The readings kept so far, in the order taken (allocates).
    package var readings: [StreamClockReading] {
        let n = count.load(ordering: .acquiring)
        return (0..<n).map { StreamClockReading(frame: frames[$0], seconds: times[$0]) }
    }

    /// Readings that did not fit.
    package var dropped: Int { overflow.load(ordering: .relaxed) }
}
