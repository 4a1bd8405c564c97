"""Signal measures the MPEG haptics oracle tests judge by (numpy, scipy): WAV reading, the envelope on a 1 ms
grid, onsets and per-window frequencies. Expected figures come from the issue (envelope r, onsets ±1 ms,
frequencies ±2 %), the signals from MPEG's reference Synthesizer and from `thrum render`."""
import struct

import numpy as np
from scipy.ndimage import maximum_filter1d


def read_wav(path):
    """(samples as float frames × channels, sample rate) of a PCM (8/16/24/32-bit) or float WAV file."""
    data = open(path, "rb").read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path}: not a WAV file")
    offset, fmt, frames = 12, None, None
    while offset + 8 <= len(data):
        tag, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        body = data[offset + 8:offset + 8 + size]
        if tag == b"fmt ":
            code, channels, rate = struct.unpack("<HHI", body[:8])
            bits = struct.unpack("<H", body[14:16])[0]
            if code == 0xFFFE:
                code = struct.unpack("<H", body[24:26])[0]
            fmt = (code, channels, rate, bits)
        elif tag == b"data":
            frames = body
        offset += 8 + size + (size & 1)
    if fmt is None or frames is None:
        raise ValueError(f"{path}: no fmt or data chunk")
    code, channels, rate, bits = fmt
    if code == 3:
        x = np.frombuffer(frames, dtype="<f4" if bits == 32 else "<f8").astype(float)
    elif bits == 24:
        raw = np.frombuffer(frames[:len(frames) // 3 * 3], dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        x = ((raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)) << 8 >> 8) / 2.0**23
    elif bits == 8:
        x = (np.frombuffer(frames, dtype=np.uint8).astype(float) - 128) / 128
    else:
        x = np.frombuffer(frames, dtype={16: "<i2", 32: "<i4"}[bits]).astype(float) / 2.0**(bits - 1)
    return x[:len(x) // channels * channels].reshape(-1, channels), rate


def magnitude(x):
    """The magnitude of the analytic signal of `x` (its instantaneous amplitude)."""
    n = len(x)
    if n == 0:
        return np.zeros(0)
    spectrum = np.fft.fft(x)
    h = np.zeros(n)
    h[0] = 1
    if n % 2 == 0:
        h[n // 2] = 1
        h[1:n // 2] = 2
    else:
        h[1:(n + 1) // 2] = 2
    return np.abs(np.fft.ifft(spectrum * h))


def envelope(x, rate, grid=0.001):
    """The amplitude envelope (`magnitude`, smoothed over 2 ms) sampled every `grid` s."""
    n = len(x)
    width = max(int(round(0.002 * rate)), 1)
    smooth = np.convolve(magnitude(x), np.ones(width) / width, mode="same")
    step = grid * rate
    return smooth[(np.arange(int(n / step)) * step).astype(int)]


def correlation(a, b):
    """Pearson r of two envelopes (the shorter padded with silence); 1 when both are silent."""
    n = max(len(a), len(b))
    a, b = np.pad(a, (0, n - len(a))), np.pad(b, (0, n - len(b)))
    if a.std() == 0 and b.std() == 0:
        return 1.0
    if a.std() == 0 or b.std() == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def onsets(x, rate, quiet=0.003, low=0.005):
    """Times (s) where the signal starts: where its magnitude rises above 1 % of its peak after at least
    `quiet` s in which it stayed below `low` × peak (0.1 % of full scale at least); with whether it is sharp
    (reaches 10 % of the peak within 10 ms: a fade-in from silence has no onset time to ±1 ms). The silence is
    causal (the sample magnitude's maximum over the last 5 ms), the time where `magnitude` reaches 5 % of the
    peak (independent of the wave's phase)."""
    level = np.abs(x)
    recent = maximum_filter1d(level, max(int(0.005 * rate), 1), origin=(max(int(0.005 * rate), 1) - 1) // 2)
    peak = level.max(initial=0)
    envelope_level = magnitude(x)
    envelope_peak = envelope_level.max(initial=0)
    high, low = max(0.01 * peak, 0.001), max(min(low, 0.01) * peak, 0.001)
    gap, result = int(quiet * rate), []
    silent = gap
    for k in np.flatnonzero((level > high) | (recent < low)):
        if level[k] <= high:
            silent = silent + 1 if silent >= 0 else 1
            continue
        if silent >= gap:
            # The time: where the instantaneous amplitude (whatever the wave's phase) reaches 5 % of the peak,
            # within 10 ms of the first loud sample (from 2 ms before it: the analytic magnitude leaks a little
            # ahead, below 2 %).
            window = envelope_level[max(k - int(0.002 * rate), 0):k + int(0.01 * rate)]
            above = np.flatnonzero(window >= 0.05 * envelope_peak)
            start = max(k - int(0.002 * rate), 0) + (above[0] if len(above) else int(0.002 * rate))
            result.append((start / rate, recent[k:k + int(0.01 * rate)].max() >= 0.1 * peak))
        silent = -1
    return result


def frequencies(x, rate, window=0.03):
    """(window start s, frequency Hz) of each `window`-long stretch that is loud (RMS above 20 % of the
    signal's loudest window) and holds at least four zero crossings, from interpolated crossing times."""
    n = int(window * rate)
    if n < 4 or len(x) < n:
        return []
    frames = [x[k:k + n] for k in range(0, len(x) - n + 1, n)]
    levels = np.array([np.sqrt(np.mean(f * f)) for f in frames])
    result = []
    for k, f in enumerate(frames):
        if levels[k] < 0.2 * levels.max(initial=0) or levels[k] == 0:
            continue
        sign = np.signbit(f)
        cross = np.flatnonzero(sign[1:] != sign[:-1])
        times = [c + f[c] / (f[c] - f[c + 1]) for c in cross if f[c] != f[c + 1]]
        if len(times) < 4:
            continue
        result.append((k * window, (len(times) - 1) / 2 / ((times[-1] - times[0]) / rate)))
    return result


def compare(reference, candidate, rate):
    """The figures of `candidate` against `reference` (mono arrays at `rate`): envelope r on a 1 ms grid,
    the onset counts and the worst offset (s) of a sharp onset of `reference` from the nearest onset of
    `candidate` (whose onsets count every rise after 1 ms below 1 %: a near-silent gap of the reference may
    be a hair louder in the candidate, which moves no onset), and the worst relative frequency difference over windows
    loud in both where each holds one steady tone (its half-windows agree within 1 %)."""
    r = correlation(envelope(reference, rate), envelope(candidate, rate))
    a, b = onsets(reference, rate), onsets(candidate, rate, quiet=0.001, low=0.01)
    worst_onset = max((min((abs(p - q) for q, _ in b), default=float("inf")) for p, sharp in a if sharp), default=0.0)
    fa, fb = dict(frequencies(reference, rate)), dict(frequencies(candidate, rate))
    steady = {t for t, f in fa.items() if _steady(reference, rate, t, f)}
    errors = [abs(fb[t] - fa[t]) / fa[t] for t in sorted(steady & fb.keys())]
    return {"r": r, "onsets": (len(a), len(b)), "onset_error": worst_onset,
            "frequency_error": max(errors, default=0.0), "frequency_windows": len(errors)}


def _steady(x, rate, start, frequency, window=0.03):
    halves = frequencies(x[int(start * rate):int((start + window) * rate)], rate, window / 2)
    return len(halves) == 2 and all(abs(f - frequency) / frequency < 0.01 for _, f in halves)
