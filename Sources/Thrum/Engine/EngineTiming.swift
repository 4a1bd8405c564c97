internal import ALSAOutput
import FoundationEssentials
import FoundationStandIns
internal import Synchronization

// Timing for research (Thrum additions; docs/timing.md): the engine clock against CLOCK_MONOTONIC through
// the device's DAC time estimate, and the onsets that could not be reported.

extension CHHapticEngine {
    /// The estimated CLOCK_MONOTONIC time, in seconds, at which engine time `time` (seconds, the clock of
    /// `currentTime` and `start(atTime:)`) leaves the DAC, from ALSA's status timestamps
    /// (`ThrumClock.monotonicNow()` reads the same clock). Nil offline, while stopped, and until the
    /// device has played its first period.
    /// - Important: Thread safety: any thread. Lock-free apart from the engine's lock, briefly.
    public func outputTime(forEngineTime time: TimeInterval) -> Double? {
        guard let estimate = state.withLock({ $0.run?.playback?.dacTimeEstimate }) else { return nil }
        return estimate.anchorTime + (time * options.sampleRate - estimate.anchorFrame) * estimate.secondsPerFrame
    }

    /// The engine time whose frame leaves the DAC at CLOCK_MONOTONIC time `monotonicTime` (seconds): to
    /// start a pattern at a wall-clock instant, `try player.start(atTime: engine.engineTime(forOutputTime: t)!)`
    /// (a time before `currentTime` plus the buffer cannot be reached any more). Nil offline, while
    /// stopped, and until the device has played its first period (`waitForOutputClock`).
    /// - Important: Thread safety: any thread.
    public func engineTime(forOutputTime monotonicTime: Double) -> TimeInterval? {
        guard let estimate = state.withLock({ $0.run?.playback?.dacTimeEstimate }) else { return nil }
        return estimate.frame(atTime: monotonicTime) / options.sampleRate
    }

    /// Waits until the device's DAC time estimate has settled (8 periods have played since the stream
    /// started: a line through 8 readings), for at most `timeout` seconds. Returns false on timeout, offline
    /// and while stopped.
    /// - Important: Thread safety: any thread. Blocks (sleeps 1 ms at a time).
    public func waitForOutputClock(timeout: TimeInterval) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let estimate = state.withLock({ $0.run?.playback?.dacTimeEstimate }), estimate.readings >= 8 { return true }
            guard isRunning, monotonicSeconds() < deadline else { return false }
            Threads.sleep(seconds: 0.001)
        }
    }

    /// Onsets `Options.onsetHandler` did not get since the engine started, because `Options.maxPendingOnsets`
    /// were already waiting (the handler fell behind); 0 without a handler.
    public var lostOnsetCount: Int { state.withLock { $0.run?.onsets?.lostCount ?? 0 } }
}
