/// Two things the playback loop watches besides ALSA's own error codes. Both are plain values updated on
/// the playback thread: no allocation, locking or system calls (the caller passes the clock).

/// Tells when the device's clock ran on without our samples: a sound server that froze or skipped graph
/// cycles, a dropout that no plugin reports as `-EPIPE`.
///
/// The position the device has reached is `framesWritten - delay` (frames handed to ALSA minus those not
/// yet heard; a server's delay includes its own queue). While the stream runs it advances with the
/// monotonic clock. The lag, `elapsed × rate - advance`, therefore stays within the device's granularity
/// (one server cycle or hardware period) of its running minimum; clock drift moves that minimum slowly
/// (followed at up to 0.2 %), a dropout raises the lag at once by its length. A rise of at least
/// ``threshold`` frames is one dropout, and the watch starts over from there.
struct DropoutWatch {
    /// Frames per second.
    let rate: Double
    /// The smallest rise counted as a dropout, in frames: two buffers, and at least 20 ms, so a server's
    /// cycle granularity and latency changes are never counted (seen in play without loss: under 60
    /// frames on JACK and PipeWire; PulseAudio's delay steps up by one buffer when it adjusts its latency).
    let threshold: Double

    private var originTime = 0.0
    private var originPosition: Int64 = 0
    private var started = false
    private var floor = 0.0
    private var lastTime = 0.0
    /// The xrun + suspend count the baseline belongs to: after any recovery the position restarts.
    private var epoch: UInt64 = 0

    /// - Parameters:
    ///   - rate: the stream's rate in Hz.
    ///   - bufferFrames: the device buffer in frames.
    init(rate: Int, bufferFrames: Int) {
        self.rate = Double(max(rate, 1))
        threshold = max(2 * Double(bufferFrames), 0.02 * Double(max(rate, 1)))
    }

    /// Takes one reading while the stream plays.
    /// - Parameters:
    ///   - time: CLOCK_MONOTONIC in seconds.
    ///   - written: frames handed to ALSA so far.
    ///   - delay: `snd_pcm_delay` now, in frames.
    ///   - recoveries: xruns + suspends so far; a change restarts the baseline.
    /// - Returns: true when this reading shows a dropout (the caller counts it as an xrun).
    mutating func observe(time: Double, written: UInt64, delay: Int, recoveries: UInt64) -> Bool {
        let position = Int64(truncatingIfNeeded: written) - Int64(delay)
        if recoveries != epoch {
            epoch = recoveries
            started = false
        }
        // The baseline starts once the device has taken something: a server may hold a new stream back.
        guard started else {
            if position > 0 { restart(time: time, position: position) }
            return false
        }
        let lag = (time - originTime) * rate - Double(position - originPosition)
        floor = min(lag, floor + 0.002 * rate * max(0, time - lastTime))
        lastTime = time
        guard lag - floor >= threshold else { return false }
        restart(time: time, position: position)
        return true
    }

    private mutating func restart(time: Double, position: Int64) {
        started = true
        originTime = time
        originPosition = position
        floor = 0
        lastTime = time
    }
}

/// Tells a plugin that keeps waking the playback thread with nothing to do (its descriptor stays
/// readable: a spin at real-time priority) from the odd spurious wake-up.
///
/// The loop reports each wake-up that found less than a period of room (``emptyWakeUp()``) and each
/// period it rendered (``progress()``). From ``spinThreshold`` empty wake-ups in a row on, the loop stops
/// trusting the descriptors and sleeps until a period should be free.
struct SpinGuard {
    /// Empty wake-ups in a row that mean a spin. A plugin that works wakes once per period.
    static let spinThreshold = 8

    /// Empty wake-ups since the last rendered period.
    private(set) var streak = 0

    /// Records an empty wake-up.
    /// - Returns: whether the loop is spinning (then it should sleep), and whether this wake-up began
    ///   the spin (to count episodes once).
    mutating func emptyWakeUp() -> (spinning: Bool, began: Bool) {
        streak += 1
        return (streak >= Self.spinThreshold, streak == Self.spinThreshold)
    }

    /// Records a rendered period: the device is making room, whatever woke the thread.
    mutating func progress() { streak = 0 }
}
