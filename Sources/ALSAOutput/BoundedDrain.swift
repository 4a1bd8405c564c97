import CALSA
import Glibc

/// Waits until a playback PCM has played what was written to it, for at most `limit` seconds.
///
/// `snd_pcm_drain` in blocking mode waits for ever when the other side stops consuming (a JACK or
/// PipeWire server that died or froze, a stalled driver), and the PulseAudio and PipeWire plugins drain
/// with their own unbounded waits on the server. So:
/// - a card or another plugin (`server` nil) drains through ALSA in non-blocking mode (the PCM goes
///   DRAINING and leaves it once everything was played, as a card reports it) and is watched;
/// - a sound server's PCM is watched through its own figures: it is done once it no longer runs (ran
///   dry) or its delay (frames still to be heard, the server's queue included) reaches zero.
/// Either way the PCM is checked every 5 ms and the wait ends at `limit`. A PCM that holds frames but
/// never reached its start threshold (a pattern shorter than the buffer) is started first.
///
/// The caller drops the PCM afterwards either way.
/// - Parameters:
///   - pcm: an open, non-blocking playback PCM whose playback thread has stopped writing.
///   - limit: the longest wait, in seconds.
///   - server: the sound server behind the PCM, if any.
/// - Returns: true when everything was played, false when `limit` passed first or the device failed
///   (the rest is lost).
/// - Important: Thread safety: control side only, with the playback thread joined. Blocks up to `limit`.
func drainBounded(_ pcm: OpaquePointer, limit: Double, server: ALSASoundServer?) -> Bool {
    let deadline = monotonicSeconds() + max(0, limit)
    if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
        var queued: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &queued) == 0 && queued > 0 { _ = snd_pcm_start(pcm) }
    }
    while true {
        if server == nil {
            let state = snd_pcm_state(pcm)
            guard state == SND_PCM_STATE_RUNNING || state == SND_PCM_STATE_DRAINING else {
                return state != SND_PCM_STATE_DISCONNECTED
            }
            // Non-blocking: -EAGAIN while frames remain (a plugin drains a step further on each call).
            let err = snd_pcm_drain(pcm)
            if err == 0 { return true }
            if err != -EAGAIN { return false }
        } else {
            guard snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING else { return true }
            var delay: snd_pcm_sframes_t = 0
            let err = snd_pcm_delay(pcm, &delay)
            if err == -EPIPE { return true }  // ran dry: all of it was played
            if err < 0 { return false }  // the server went away with frames in it
            if delay <= 0 { return true }
        }
        if monotonicSeconds() >= deadline { return false }
        usleep(5_000)
    }
}

/// CLOCK_MONOTONIC now, in seconds (the clock of ``DACTimeEstimate``).
/// - Important: Thread safety: any thread. Real-time safe: yes (vDSO).
package func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
