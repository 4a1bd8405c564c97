import CALSA
import Glibc
import Synchronization

/// The playback thread's real-time loop: render a period when there is room, hand it to ALSA, wait.
///
/// The wait follows what alsa-lib's `snd_pcm_wait` does, plus what real devices need:
/// - the PCM's poll descriptors are fetched again before every wait (pipewire-alsa before 0.3.85 clears
///   its wake-up only inside `snd_pcm_poll_descriptors()`; a loop that fetches them once spins);
/// - the wait has a timeout (twice the period) after which the PCM state is checked, so a driver that
///   never reports POLLERR cannot leave the thread waiting on a device that is gone or stuck;
/// - underruns (-EPIPE) are recovered with `snd_pcm_prepare` and counted; suspends (-ESTRPIPE) are
///   resumed (prepared when the device cannot resume); a disconnected device (-ENODEV, POLLHUP) ends the
///   loop at once; a device that takes no frame for `stallLimitNanoseconds` ends it with -ETIMEDOUT;
/// - dropouts the device's timing shows but no plugin reports (a server that froze or skipped cycles)
///   are counted as xruns too (``DropoutWatch``, one `snd_pcm_delay` per period);
/// - a wake-up that finds less than a period of room is counted; a run of them (a plugin whose
///   descriptor stays readable) is a spin: counted once, and the loop then sleeps until a period should
///   be free instead of burning the core at real-time priority (``SpinGuard``).
///
/// - after each period it writes, one `snd_pcm_status` reading feeds the DAC clock (``DACTimeEstimate``).
///
/// No allocation, locking, logging or I/O other than the PCM calls, poll and the eventfd.
extension PlaybackWorker {
    static let opWrite: UInt8 = 0
    static let opPoll: UInt8 = 1
    static let opResume: UInt8 = 2
    static let opPrepare: UInt8 = 3

    /// What the loop remembers between timeouts to tell a stuck device from a slow one.
    struct StallWatch {
        var since: UInt64 = 0
        var framesAtStart: UInt64 = 0
    }

    /// Returns (0, 0) on a requested stop, else the negative ALSA code and operation that ended playback.
    func loop() -> (Int32, UInt8) {
        let periodFrames = setup.periodFrames
        let samples = periodFrames * setup.sourceChannels
        var pendingFrames = 0
        var pendingOffset = 0
        var watch = StallWatch()
        var dropouts = DropoutWatch(rate: setup.sampleRate, bufferFrames: setup.bufferFrames)
        var spin = SpinGuard()
        var deviceWoke = false
        var unstartedPeriods = 0

        while !shared.stopRequested.load(ordering: .acquiring) {
            let stall = shared.stallMilliseconds.exchange(0, ordering: .relaxed)
            if stall > 0 { sleep(milliseconds: stall) }

            if pendingFrames == 0 {
                let avail = snd_pcm_avail_update(pcm)
                if avail < 0 {
                    let failure = recover(Int32(truncatingIfNeeded: avail))
                    if failure.0 != 0 { return failure }
                    continue
                }
                if avail >= periodFrames {
                    spin.progress()
                    checkTiming(&dropouts)
                    floatBuffer.update(repeating: 0, count: samples)
                    source.render(into: floatBuffer, frameCount: periodFrames, channelCount: setup.sourceChannels)
                    convertPeriodForWrite()
                    pendingFrames = periodFrames
                    pendingOffset = 0
                } else if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
                    // The buffer holds all it can but the start threshold was not reached (mmap access
                    // never starts by itself): start by hand.
                    let err = snd_pcm_start(pcm)
                    if err < 0 {
                        let failure = recover(err)
                        if failure.0 != 0 { return failure }
                        continue
                    }
                } else if deviceWoke {
                    noteEmptyWakeUp(&spin, avail: Int(avail))
                }
            }

            if pendingFrames > 0 {
                let written = transfer(offset: pendingOffset, frames: pendingFrames)
                if written > 0 {
                    pendingFrames -= written
                    pendingOffset += written
                    shared.framesWritten.add(UInt64(written), ordering: .relaxed)
                    if pendingFrames == 0 { readDACClock(unstartedPeriods: &unstartedPeriods) }
                    continue
                }
                if written < 0 && written != -Int(EAGAIN) {
                    let failure = recover(Int32(truncatingIfNeeded: written))
                    if failure.0 != 0 { return failure }
                    continue
                }
            }

            let failure = wait(&watch, deviceWoke: &deviceWoke)
            if failure.0 != 0 { return failure }
        }
        return (0, 0)
    }

    /// One `snd_pcm_delay` reading for the dropout watch; a dropout counts as an xrun.
    private func checkTiming(_ dropouts: inout DropoutWatch) {
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &delay) == 0 else { return }
        let recoveries = shared.xrunCount.load(ordering: .relaxed) &+ shared.suspendCount.load(ordering: .relaxed)
        if dropouts.observe(
            time: monotonicSeconds(), written: shared.framesWritten.load(ordering: .relaxed), delay: delay,
            recoveries: recoveries)
        {
            shared.xrunCount.add(1, ordering: .relaxed)
            shared.timingXrunCount.add(1, ordering: .relaxed)
        }
    }

    /// The device woke the thread but had less than a period of room (`avail` frames).
    private func noteEmptyWakeUp(_ spin: inout SpinGuard, avail: Int) {
        shared.emptyWakeUpCount.add(1, ordering: .relaxed)
        let (spinning, began) = spin.emptyWakeUp()
        if began { shared.spinCount.add(1, ordering: .relaxed) }
        guard spinning else { return }
        // Sleep until the missing frames should have been played: a quarter millisecond at least.
        let missing = max(setup.periodFrames - avail, 1)
        let nanoseconds = max(250_000, missing * 1_000_000_000 / max(setup.sampleRate, 1))
        var request = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Waits for room in the device, an error it signals, a wake-up from the control side or the timeout.
    /// `deviceWoke` becomes true when the PCM's descriptors ended the wait (not the eventfd or the timeout).
    private func wait(_ watch: inout StallWatch, deviceWoke: inout Bool) -> (Int32, UInt8) {
        deviceWoke = false
        let count = snd_pcm_poll_descriptors_count(pcm)
        guard count > 0, Int(count) <= Self.maxPCMDescriptors else {
            return (count < 0 ? count : -EINVAL, Self.opPoll)
        }
        let filled = snd_pcm_poll_descriptors(pcm, pollFDs + 1, UInt32(count))
        guard filled > 0 else { return (filled < 0 ? filled : -EINVAL, Self.opPoll) }
        pollFDs[0].revents = 0
        let ready = poll(pollFDs, nfds_t(filled + 1), pollTimeoutMilliseconds)
        if ready < 0 {
            return errno == EINTR ? (0, 0) : (-errno, Self.opPoll)
        }
        if ready == 0 { return checkState(timedOut: true, &watch) }
        if pollFDs[0].revents != 0 { thrum_eventfd_drain(wakeFD) }
        var pcmReady = false
        for index in 1...Int(filled) where pollFDs[index].revents != 0 { pcmReady = true }
        guard pcmReady else { return (0, 0) }
        deviceWoke = true
        var revents: UInt16 = 0
        let err = snd_pcm_poll_descriptors_revents(pcm, pollFDs + 1, UInt32(filled), &revents)
        if err < 0 { return (err, Self.opPoll) }
        if revents & UInt16(POLLHUP) != 0 || revents & UInt16(POLLNVAL) != 0 { return (-ENODEV, Self.opPoll) }
        if revents & UInt16(POLLERR) != 0 { return checkState(timedOut: false, &watch) }
        return (0, 0)
    }

    /// After POLLERR or a timeout: recovers what can be recovered from the PCM's state.
    private func checkState(timedOut: Bool, _ watch: inout StallWatch) -> (Int32, UInt8) {
        switch snd_pcm_state(pcm) {
        case SND_PCM_STATE_XRUN:
            return recover(-EPIPE)
        case SND_PCM_STATE_SUSPENDED:
            return recover(-ESTRPIPE)
        case SND_PCM_STATE_DISCONNECTED:
            return (-ENODEV, Self.opPoll)
        case SND_PCM_STATE_RUNNING, SND_PCM_STATE_PREPARED, SND_PCM_STATE_DRAINING, SND_PCM_STATE_PAUSED:
            return timedOut ? checkProgress(&watch) : (-EIO, Self.opPoll)
        default:
            return (-EBADFD, Self.opPoll)
        }
    }

    /// A timeout while the stream should be playing: fine unless no frame was taken for the stall limit.
    private func checkProgress(_ watch: inout StallWatch) -> (Int32, UInt8) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        let frames = shared.framesWritten.load(ordering: .relaxed)
        if watch.since == 0 || frames != watch.framesAtStart {
            watch = StallWatch(since: nanoseconds, framesAtStart: frames)
            return (0, 0)
        }
        return nanoseconds - watch.since > stallLimitNanoseconds ? (-ETIMEDOUT, Self.opPoll) : (0, 0)
    }

    /// Handles a negative ALSA code. Returns (0, 0) when playback can go on.
    private func recover(_ code: Int32) -> (Int32, UInt8) {
        switch code {
        case -EPIPE:
            shared.xrunCount.add(1, ordering: .relaxed)
            dacFit.reset()  // the stream restarts: the old line no longer holds
            let err = snd_pcm_prepare(pcm)
            return err < 0 ? (err, Self.opPrepare) : (0, 0)
        case -ESTRPIPE:
            return resume()
        case -EINTR, -EAGAIN:
            return (0, 0)
        default:
            return (code, Self.opWrite)
        }
    }

    /// Resumes after a suspend. `-EAGAIN` means "not yet": retry every 10 ms while no stop is requested.
    /// A device that cannot resume (`-ENOSYS`), or that says it did but stays suspended, is prepared.
    private func resume() -> (Int32, UInt8) {
        shared.suspendCount.add(1, ordering: .relaxed)
        dacFit.reset()
        var err = snd_pcm_resume(pcm)
        while err == -EAGAIN {
            if shared.stopRequested.load(ordering: .acquiring) { return (0, 0) }
            pollFDs[0].revents = 0
            _ = poll(pollFDs, 1, 10)
            err = snd_pcm_resume(pcm)
        }
        if err < 0 || snd_pcm_state(pcm) == SND_PCM_STATE_SUSPENDED {
            let prepared = snd_pcm_prepare(pcm)
            return prepared < 0 ? (prepared, Self.opResume) : (0, 0)
        }
        return (0, 0)
    }

    private func sleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
