#!/usr/bin/env python3
"""Tries a learned emphasis classifier over `thrum analyze`'s breakpoints and cross-validates it (a negative result:
see docs/analysis.md, "A learned emphasis model").

For every clip of the dev set (designer-clips, found as in Tools/dev/fit-analysis.py; read at run time, never copied), the
built `thrum analyze` (default settings) gives the candidates: its amplitude breakpoints, and whether the rule model
marks each as an emphasis. Features per breakpoint, recomputed here from the sound (1024-point Hann STFT, hop 256):
level, rise from the breakpoint before and from the lowest within 30 ms, fall to the next, share of the spectrum
that is new (spectral flux / magnitude), brightness (share above 4 kHz over ±0.25 s), bright onsets, local peak
density, and the rule model's own choice. Label: the breakpoint nearest each designer emphasis within ±20 ms.
A logistic regression (L2, each clip weighted equally, threshold chosen for F1 on the training clips) is scored
in-sample, leaving one category out, and leaving one clip out, with the scorer's one-to-one matching at ±20 ms.

    swift build -c release --product thrum
    Tools/dev/fit-emphasis-model.py

Needs python3 with numpy; about a minute.
"""
import json
import os
import subprocess
import sys
import tempfile
import wave

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clip_folder():
    corpus = os.environ.get("THRUM_CORPUS") or os.path.join(os.path.dirname(ROOT), "shared", "corpus")
    folder = os.path.join(corpus, "designer-clips")
    if not os.path.isdir(folder):
        sys.exit(f"fit-emphasis-model: no dev set at {folder}; set THRUM_CORPUS to the folder holding designer-clips")
    return folder


def read_wav(path):
    with wave.open(path) as w:
        dtype = {2: np.int16, 4: np.int32}[w.getsampwidth()]
        data = np.frombuffer(w.readframes(w.getnframes()), dtype=dtype).astype(np.float64)
        data = data.reshape(-1, w.getnchannels()).mean(1)
        return data / max(np.abs(data).max(), 1e-9), w.getframerate()


def envelope(path):
    points = json.load(open(path))["signals"]["continuous"]["envelopes"]["amplitude"]
    return (np.array([p["time"] for p in points]), np.array([p["amplitude"] for p in points]),
            np.array([bool(p.get("emphasis")) for p in points]))


def clip_rows(wav, thrum, scratch):
    out = os.path.join(scratch, "out.haptic")
    subprocess.run([thrum, "analyze", wav, "-o", out], check=True, capture_output=True)
    t, v, rule = envelope(out)
    dt, _, de = envelope(wav[:-4] + ".haptic")
    designer = list(dt[de])
    x, rate = read_wav(wav)
    size, hop = 1024, 256
    count = max(1, (len(x) - size) // hop + 1)
    x = np.pad(x, (0, max(0, size - len(x))))
    spectra = np.abs(np.fft.rfft(np.stack([x[i * hop:i * hop + size] * np.hanning(size) for i in range(count)]), axis=1))
    high = np.fft.rfftfreq(size, 1 / rate) > 4000
    frame_times = (np.arange(count) * hop + size / 2) / rate
    total = spectra.sum(1) + 1e-12
    bright = spectra[:, high].sum(1)
    flux = np.r_[0, np.maximum(np.diff(spectra, axis=0), 0).sum(1)]
    bright_share = np.r_[0, np.maximum(np.diff(spectra[:, high], axis=0), 0).sum(1)] / (bright + 1e-12)
    top = v.max() + 1e-12
    label = np.zeros(len(t))
    for d in designer:
        near = np.where((np.abs(t - d) <= 0.02) & (label == 0))[0]
        if len(near):
            label[near[np.argmin(np.abs(t[near] - d))]] = 1
    peak = np.r_[False, (v[1:-1] >= v[:-2] * 1.41) & (v[1:-1] >= v[2:]), False] & (v > top * 0.03)
    features = []
    for i in range(len(t)):
        before = v[i - 1] if i else 0
        after = v[i + 1] if i < len(t) - 1 else 0
        lowest = v[np.searchsorted(t, t[i] - 0.03):i + 1].min()
        j = min(count - 1, np.searchsorted(frame_times, t[i]))
        j0 = min(np.searchsorted(frame_times, t[i] - 0.25), count - 1)
        j1 = max(np.searchsorted(frame_times, t[i] + 0.25), j0 + 1)
        k0, k1 = np.searchsorted(t, t[i] - 0.25), np.searchsorted(t, t[i] + 0.25)
        near = slice(max(0, j - 2), j + 3)
        features.append([v[i] / top, (v[i] - before) / top, (v[i] - lowest) / top, (v[i] - after) / top,
                         (flux[near] / total[near]).max(), bright[j0:j1].sum() / total[j0:j1].sum(),
                         bright_share[j0:j1].mean(), peak[k0:k1].sum() / 0.5, float(rule[i])])
    return np.array(features), label, rule, t, designer


def fit(x, y, weight, l2=3.0):
    mean, scale = x.mean(0), x.std(0) + 1e-9
    z = np.c_[(x - mean) / scale, np.ones(len(x))]
    w = np.zeros(z.shape[1])
    ridge = l2 * np.diag(np.r_[np.ones(len(w) - 1), 0])
    for _ in range(30):
        p = 1 / (1 + np.exp(-z @ w))
        w -= np.linalg.solve((z * (p * (1 - p) * weight)[:, None]).T @ z + ridge, z.T @ ((p - y) * weight) + ridge @ w)
    return lambda xs: 1 / (1 + np.exp(-np.c_[(xs - mean) / scale, np.ones(len(xs))] @ w))


def main():
    thrum = os.path.join(ROOT, ".build", "release", "thrum")
    folder = clip_folder()
    clips = []
    with tempfile.TemporaryDirectory() as scratch:
        for category in sorted(os.listdir(folder)):
            path = os.path.join(folder, category)
            for f in sorted(os.listdir(path)) if os.path.isdir(path) else []:
                if f.endswith(".wav") and os.path.exists(os.path.join(path, f[:-4] + ".haptic")):
                    clips.append((category, f[:-4], *clip_rows(os.path.join(path, f), thrum, scratch)))

    def score(ids, chosen):  # chosen: per clip of ids, a boolean per breakpoint; the scorer's matching
        tp = fp = fn = 0
        for i, pick in zip(ids, chosen):
            t, designer = clips[i][5], clips[i][6]
            picked, used = t[pick], set()
            for d in designer:
                match = [j for j, u in enumerate(picked) if abs(u - d) <= 0.02 and j not in used]
                if match:
                    used.add(match[0])
            tp += len(used); fn += len(designer) - len(used); fp += len(picked) - len(used)
        return 2 * tp / max(2 * tp + fp + fn, 1), tp, fp, fn

    def train(train_ids):
        x = np.concatenate([clips[i][2] for i in train_ids])
        y = np.concatenate([clips[i][3] for i in train_ids])
        weight = np.concatenate([np.full(len(clips[i][3]), 1 / len(clips[i][3])) for i in train_ids])
        model = fit(x, y, weight * len(weight) / weight.sum())
        probs = [model(clips[i][2]) for i in train_ids]
        best = max(np.linspace(0.05, 0.95, 91), key=lambda th: score(train_ids, [p >= th for p in probs])[0])
        return model, best

    ids = list(range(len(clips)))
    print("rule model (in-sample):  F1 %.3f (tp %d, fp %d, fn %d)" % score(ids, [c[4] for c in clips]))
    model, th = train(ids)
    print("learned, in-sample:      F1 %.3f (tp %d, fp %d, fn %d)" % score(ids, [model(c[2]) >= th for c in clips]))
    for name, group in (("one category out", lambda c: c[0]), ("one clip out", lambda c: c[1])):
        chosen = [None] * len(clips)
        for g in sorted({group(c) for c in clips}):
            model, th = train([i for i in ids if group(clips[i]) != g])
            for i in ids:
                if group(clips[i]) == g:
                    chosen[i] = model(clips[i][2]) >= th
        print("learned, %-16s F1 %.3f (tp %d, fp %d, fn %d)" % ((name + ":",) + score(ids, chosen)))


if __name__ == "__main__":
    main()
