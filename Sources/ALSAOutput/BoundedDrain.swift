import CALSA
import Glibc

/// Waits until a playback PCM has played what was written to it, for at most `limit`.
///
/// `snd_pcm_drain` in blocking mode waits for ever when the other side stops consuming (a JACK or
/// PipeWire server that died, a stalled driver), and plugins implement it with their own unbounded
/// waits. This watches the device's own figures instead: it returns as soon as the PCM is no longer
/// running (ran dry: XRUN; stopped; or never started with nothing queued) or its delay (frames still to
/// be heard, including a server's own queue) reaches zero, checking every 5 ms. A PCM that holds frames
/// but never reached its start threshold (a pattern shorter than the buffer) is started first.
///
/// The caller drops the PCM afterwards either way.
/// - Parameters:
///   - pcm: an open playback PCM whose playback thread has stopped writing.
///   - limit: the longest wait, in seconds.
/// - Returns: true when everything was played, false when `limit` passed first (the rest is lost).
/// - Important: Thread safety: control side only, with the playback thread joined. Blocks up to `limit`.
func drainBounded(_ pcm: OpaquePointer, limit: Double) -> Bool {
    let deadline = monotonicSeconds() + max(0, limit)
    if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
        var queued: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &queued) == 0 && queued > 0 { _ = snd_pcm_start(pcm) }
    }
    while true {
        guard snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING else { return true }
        var delay: snd_pcm_sframes_t = 0
        let err = snd_pcm_delay(pcm, &delay)
        if err == -EPIPE { return true }  // ran dry: all of it was played
        if err < 0 { return false }  // the device went away with frames in it
        if delay <= 0 { return true }
        if monotonicSeconds() >= deadline { return false }
        usleep(5_000)
    }
}

/// CLOCK_MONOTONIC in seconds. Real-time safe (vDSO).
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
