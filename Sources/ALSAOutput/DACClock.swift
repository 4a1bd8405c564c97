import CALSA
import Glibc
import Synchronization

/// When the stream's frames leave the DAC, in CLOCK_MONOTONIC seconds, as estimated from ALSA's status
/// timestamps (``ALSAPlayback/dacTimeEstimate``).
///
/// Stream frames count the frames written to the device since the ``ALSAPlayback`` was opened (frame 0 is
/// the first frame of the first start). The estimate is a straight line through recent readings: each
/// reading is one `snd_pcm_status` (its `htstamp`, CLOCK_MONOTONIC, and its `delay`), taken by the
/// playback thread right after it wrote a period, giving the frame that was leaving the DAC at that
/// instant (frames written − delay). The line's slope is a least-squares fit over the last
/// ``DACClockFit/window`` readings since the stream last (re)started, so it follows the card's own clock
/// (its rate error, in `secondsPerFrame`); it passes through the earliest of them (the lower envelope):
/// every error a reading can have (the thread preempted between the position and its timestamp, a coarse
/// hardware pointer that lags) makes it late, never early.
/// - Important: Thread safety: any thread (a value).
package struct DACTimeEstimate: Sendable, Equatable {
    /// A stream frame on the fitted line (the mean of the readings' frames; not necessarily whole)…
    package var anchorFrame: Double
    /// …and the CLOCK_MONOTONIC time, in seconds, at which it leaves the DAC.
    package var anchorTime: Double
    /// Seconds per frame: 1 / the rate at which the card actually plays (≈ 1 / nominal rate).
    package var secondsPerFrame: Double
    /// The frame leaving the DAC at the latest reading: frames before it have been played.
    package var latestFrame: UInt64
    /// The CLOCK_MONOTONIC time of the latest reading, in seconds.
    package var latestTime: Double
    /// Readings in the fit (1 … ``DACClockFit/window``); with one, `secondsPerFrame` is the nominal one.
    package var readings: Int

    /// The estimated CLOCK_MONOTONIC time, in seconds, at which stream frame `frame` leaves the DAC.
    package func time(ofFrame frame: UInt64) -> Double {
        anchorTime + (Double(frame) - anchorFrame) * secondsPerFrame
    }

    /// The stream frame (fractional) that leaves the DAC at CLOCK_MONOTONIC time `time` (seconds).
    package func frame(atTime time: Double) -> Double {
        anchorFrame + (time - anchorTime) / secondsPerFrame
    }
}

/// The playback thread's window of clock readings and its least-squares fit. Storage is allocated in
/// `init`; `add` and `reset` never allocate.
/// - Important: Thread safety: one thread (the playback thread). Real-time safe: yes, except `init`/`deinit`.
final class DACClockFit {
    /// Readings kept for the fit: 64 periods (about 0.35 s at 256 frames and 48 kHz).
    static let window = 64
    /// The fitted rate may differ from the nominal one by at most this much (0.5 %); a fit beyond it (a
    /// reading taken across a stall) uses the nominal rate.
    static let maxRateError = 0.005

    private let frames: UnsafeMutablePointer<Double>
    private let times: UnsafeMutablePointer<Double>
    private var count = 0
    private var next = 0
    private let nominalSecondsPerFrame: Double

    init(sampleRate: Int) {
        frames = .allocate(capacity: Self.window)
        frames.initialize(repeating: 0, count: Self.window)
        times = .allocate(capacity: Self.window)
        times.initialize(repeating: 0, count: Self.window)
        nominalSecondsPerFrame = 1 / Double(max(sampleRate, 1))
    }

    deinit {
        frames.deallocate()
        times.deallocate()
    }

    /// Forgets every reading (the stream restarted after an xrun, a suspend or a prepare).
    func reset() {
        count = 0
        next = 0
    }

    /// Adds a reading: stream frame `frame` was leaving the DAC at CLOCK_MONOTONIC `seconds`. Returns the
    /// new fit.
    func add(frame: UInt64, seconds: Double) -> DACTimeEstimate {
        frames[next] = Double(frame)
        times[next] = seconds
        next = (next + 1) % Self.window
        count = min(count + 1, Self.window)
        // Means first, then the slope of the centred values (well conditioned whatever the magnitudes).
        var meanFrame = 0.0
        var meanTime = 0.0
        for i in 0..<count {
            meanFrame += frames[i]
            meanTime += times[i]
        }
        meanFrame /= Double(count)
        meanTime /= Double(count)
        var sxx = 0.0
        var sxy = 0.0
        for i in 0..<count {
            let dx = frames[i] - meanFrame
            sxx += dx * dx
            sxy += dx * (times[i] - meanTime)
        }
        var slope = nominalSecondsPerFrame
        if sxx > 0 {
            let fitted = sxy / sxx
            if abs(fitted / nominalSecondsPerFrame - 1) <= Self.maxRateError { slope = fitted }
        }
        // Every error of a reading makes it late (the timestamp is taken after the position, a coarse
        // hardware pointer lags the true one), so the line goes through the earliest reading, not the mean.
        var earliest = Double.infinity
        for i in 0..<count { earliest = min(earliest, times[i] - meanTime - slope * (frames[i] - meanFrame)) }
        return DACTimeEstimate(
            anchorFrame: meanFrame, anchorTime: meanTime + earliest, secondsPerFrame: slope, latestFrame: frame,
            latestTime: seconds, readings: count)
    }
}

/// The latest ``DACTimeEstimate``, published by the playback thread and read from any thread without a
/// lock (a sequence lock: the writer makes the sequence odd, stores, makes it even; a reader retries
/// while it is odd or changed under it); and whether the device turned out to have no clock to read.
/// - Important: Thread safety: `publish` and `markClockless` from one thread (the playback thread); `read`
///   and `isClockless` from any thread. Real-time safe: yes.
final class DACClockPublication: Sendable {
    private let clockless = Atomic<Bool>(false)
    private let sequence = Atomic<UInt64>(0)
    private let anchorFrame = Atomic<UInt64>(0)
    private let anchorTime = Atomic<UInt64>(0)
    private let secondsPerFrame = Atomic<UInt64>(0)
    private let latestFrame = Atomic<UInt64>(0)
    private let latestTime = Atomic<UInt64>(0)
    private let readings = Atomic<Int>(0)

    /// Publishes `estimate`. Playback thread only.
    func publish(_ estimate: DACTimeEstimate) {
        let start = sequence.load(ordering: .relaxed)
        sequence.store(start &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        anchorFrame.store(estimate.anchorFrame.bitPattern, ordering: .relaxed)
        anchorTime.store(estimate.anchorTime.bitPattern, ordering: .relaxed)
        secondsPerFrame.store(estimate.secondsPerFrame.bitPattern, ordering: .relaxed)
        latestFrame.store(estimate.latestFrame, ordering: .relaxed)
        latestTime.store(estimate.latestTime.bitPattern, ordering: .relaxed)
        readings.store(estimate.readings, ordering: .relaxed)
        sequence.store(start &+ 2, ordering: .releasing)
    }

    /// Records that the device takes frames but never reports a running stream (ALSA's `null`): no reading
    /// will come this start. Playback thread only.
    func markClockless() { clockless.store(true, ordering: .releasing) }

    /// True once ``markClockless()`` was called since the last ``clear()``.
    var isClockless: Bool { clockless.load(ordering: .acquiring) }

    /// Forgets the estimate and the clockless mark (a new start): `read` returns nil until the next `publish`.
    func clear() {
        clockless.store(false, ordering: .relaxed)
        let start = sequence.load(ordering: .relaxed)
        sequence.store(start &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        readings.store(0, ordering: .relaxed)
        sequence.store(start &+ 2, ordering: .releasing)
    }

    /// The latest estimate, or nil before the first reading.
    func read() -> DACTimeEstimate? {
        while true {
            let before = sequence.load(ordering: .acquiring)
            if before & 1 != 0 { continue }
            let estimate = DACTimeEstimate(
                anchorFrame: Double(bitPattern: anchorFrame.load(ordering: .relaxed)),
                anchorTime: Double(bitPattern: anchorTime.load(ordering: .relaxed)),
                secondsPerFrame: Double(bitPattern: secondsPerFrame.load(ordering: .relaxed)),
                latestFrame: latestFrame.load(ordering: .relaxed),
                latestTime: Double(bitPattern: latestTime.load(ordering: .relaxed)),
                readings: readings.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == before { return estimate.readings > 0 ? estimate : nil }
        }
    }
}

extension PlaybackWorker {
    /// One clock reading after a period was written: `snd_pcm_status` (non-blocking; the status was
    /// allocated in `init`) while the stream runs. Its timestamp is used when it is a CLOCK_MONOTONIC time
    /// within a second of ours (some plugins leave it 0 or use another clock); else our own, taken just after.
    ///
    /// `unstartedPeriods` counts the periods written in a row while the stream had not started (PREPARED):
    /// a device that keeps what it is given starts once its buffer is full (at the start threshold, or by
    /// the loop's own `snd_pcm_start` for mmap access), so more than a buffer of them means a device that
    /// never reports a running stream (ALSA's `null`), and the publication is marked clockless.
    func readDACClock(unstartedPeriods: inout Int) {
        guard snd_pcm_status(pcm, status) == 0 else { return }
        let state = snd_pcm_status_get_state(status)
        if state == SND_PCM_STATE_PREPARED {
            unstartedPeriods += 1
            if unstartedPeriods == setup.bufferFrames / max(setup.periodFrames, 1) + 1 { dacClock.markClockless() }
            return
        }
        guard state == SND_PCM_STATE_RUNNING else { return }
        unstartedPeriods = 0
        let delay = Int64(snd_pcm_status_get_delay(status))
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let now = monotonicSeconds()
        let stamped = Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1e9
        let seconds = abs(stamped - now) < 1 ? stamped : now
        let written = Int64(bitPattern: shared.framesWritten.load(ordering: .relaxed))
        guard delay >= 0, delay <= written else { return }
        clockLog?.append(frame: UInt64(written - delay), seconds: seconds)
        dacClock.publish(dacFit.add(frame: UInt64(written - delay), seconds: seconds))
    }
}
