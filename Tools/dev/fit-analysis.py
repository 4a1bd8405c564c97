#!/usr/bin/env python3
"""Fits `thrum analyze`'s default settings to designers' clips and measures how well they carry over.

The clips are the designer-made dev set (sounds with the `.haptic` a designer made from each, in category
folders), found at $THRUM_CORPUS/designer-clips or ../shared/corpus/designer-clips beside the repository;
they are read at fitting time only and never copied into the repository. Each candidate is a set of
settings (a `thrum analyze --settings` JSON object) over the defaults; each clip is analysed by the built
`thrum` and scored as the project is judged (the scorer ../shared/tools/clipscore.py): the amplitude
envelope's Pearson r on a 1 ms grid over the designer's clip (median and 10th percentile over the clips) and
the F1 of emphasis points matched one to one within ±20 ms, summed over the clips.

Three grids, fitted in turn: the envelope (release, hold, breakpoints per second, ducking; ranked by r
median + r p10), then the emphasis peaks (sensitivity, minimum rise, peak window) and the
texture thresholds (ranked by F1). Then the same fit is cross-validated across the categories: fitted on
three, scored on the fourth. A full run takes about 15 minutes.

    swift build -c release --product thrum
    Tools/dev/fit-analysis.py                       # fit, print the best settings and the held-out figures
    Tools/dev/fit-analysis.py --score '{"release": 0.05}'   # score one candidate (per category and overall)

Needs python3 with numpy. The defaults in Sources/AudioAnalysis/AnalysisSettings.swift are this script's
result (docs/analysis.md, "Figures").
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clip_folder():
    corpus = os.environ.get("THRUM_CORPUS") or os.path.join(os.path.dirname(ROOT), "shared", "corpus")
    folder = os.path.join(corpus, "designer-clips")
    if not os.path.isdir(folder):
        sys.exit(f"fit-analysis: no designer clips at {folder} (set THRUM_CORPUS to the corpus folder)")
    return folder


def clips(folder):
    """(category, name, wav path, haptic path) of every NAME.wav beside a NAME.haptic, sorted."""
    found = []
    for dirpath, _, files in sorted(os.walk(folder)):
        for f in sorted(files):
            if f.endswith(".wav") and f[:-4] + ".haptic" in files:
                found.append((os.path.basename(dirpath), f[:-4], os.path.join(dirpath, f),
                              os.path.join(dirpath, f[:-4] + ".haptic")))
    return found


def envelope(path):
    doc = json.load(open(path))
    env = doc["signals"]["continuous"]["envelopes"]["amplitude"]
    return (np.array([e["time"] for e in env]), np.array([e["amplitude"] for e in env]),
            [e["time"] for e in env if e.get("emphasis")])


def score_clip(designer, analysed):
    """(r, tp, fp, fn) exactly as clipscore.py measures them."""
    t0, v0, e0 = designer
    t1, v1, e1 = analysed
    grid = np.arange(0, t0[-1], 0.001)
    x, y = np.interp(grid, t0, v0), np.interp(grid, t1, v1, right=0)
    r = float(np.corrcoef(x, y)[0, 1]) if x.std() > 0 and y.std() > 0 else 0.0
    used, tp = set(), 0
    for t in e0:
        m = [j for j, u in enumerate(e1) if abs(u - t) <= 0.02 and j not in used]
        if m:
            used.add(m[0])
            tp += 1
    return r, tp, len(e1) - len(used), len(e0) - tp


class Scorer:
    def __init__(self, thrum, folder):
        self.thrum = thrum
        self.clips = clips(folder)
        self.designer = {c[1]: envelope(c[3]) for c in self.clips}
        self.tmp = tempfile.mkdtemp(prefix="fit-analysis-")
        self.cache = {}

    def run(self, settings):
        """{clip name: (category, r, tp, fp, fn)} for `settings` (a dict over the defaults)."""
        key = json.dumps(settings, sort_keys=True)
        if key in self.cache:
            return self.cache[key]
        path = os.path.join(self.tmp, "settings.json")
        with open(path, "w") as f:
            json.dump(settings, f)
        result = {}
        for category, name, wav, _ in self.clips:
            out = os.path.join(self.tmp, name + ".haptic")
            done = subprocess.run([self.thrum, "analyze", wav, "-o", out, "--settings", path],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"fit-analysis: thrum analyze {wav} failed: {done.stderr.strip()}")
            result[name] = (category,) + score_clip(self.designer[name], envelope(out))
        self.cache[key] = result
        return result


def summary(result, categories=None):
    """(r median, r p10, F1, tp, fp, fn) over the clips of `categories` (all when None)."""
    rows = [v for v in result.values() if categories is None or v[0] in categories]
    rs = [v[1] for v in rows]
    tp, fp, fn = (sum(v[k] for v in rows) for k in (2, 3, 4))
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    return float(np.median(rs)), float(np.percentile(rs, 10)), f1, tp, fp, fn


ENVELOPE_GRID = {
    "release": [0.05, 0.1, 0.15],
    "hold": [0.0015, 0.01],
    "breakpointsPerSecond": [30, 40, 60],
    "ducking": [0, 0.2, 0.5],
}
PEAK_GRID = {
    "onsetSensitivity": [0.3, 0.5, 0.7, 1.0],
    "minimumRise": [0.05, 0.1, 0.2, 0.3],
    "minimumOnsetInterval": [0.05, 0.1],
}
TEXTURE_GRID = {
    "textureBrightness": [0.2, 0.25, 0.3],
    "textureDensity": [8, 10, 12],
}


def candidates(grid, base):
    keys = sorted(grid)
    for values in itertools.product(*(grid[k] for k in keys)):
        yield dict(base, **dict(zip(keys, values)))


def fit(scorer, categories=None, verbose=False):
    """The best envelope settings (by r median + p10), then over them the best peak-emphasis settings and
    the best texture settings (by F1)."""
    def envelope_score(s):
        figures = summary(scorer.run(s), categories)
        return figures[0] + figures[1]
    def emphasis_score(s):
        return summary(scorer.run(s), categories)[2]
    best = max(candidates(ENVELOPE_GRID, {}), key=envelope_score)
    if verbose:
        print("envelope:", json.dumps(best), "r median %.3f, p10 %.3f" % summary(scorer.run(best), categories)[:2])
    for grid in (PEAK_GRID, TEXTURE_GRID):
        best = max(candidates(grid, best), key=emphasis_score)
        if verbose:
            print("emphasis:", json.dumps(best), "F1 %.3f" % summary(scorer.run(best), categories)[2])
    return best


def report(label, figures):
    m, p, f1, tp, fp, fn = figures
    print(f"{label}: r median {m:.3f}, p10 {p:.3f}; emphasis F1 {f1:.2f} (tp {tp}, fp {fp}, fn {fn})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--thrum", default=os.path.join(ROOT, ".build", "release", "thrum"))
    ap.add_argument("--clips", default=None, help="the designer-clips folder")
    ap.add_argument("--score", metavar="JSON", help="score these settings only")
    args = ap.parse_args()
    scorer = Scorer(args.thrum, args.clips or clip_folder())
    categories = sorted({c[0] for c in scorer.clips})
    if args.score is not None:
        result = scorer.run(json.loads(args.score))
        for category in categories:
            report(f"  {category}", summary(result, {category}))
        report("all", summary(result))
        return
    best = fit(scorer, verbose=True)
    report("fitted on all, scored on all", summary(scorer.run(best)))
    pooled = {}
    for held in categories:
        others = set(categories) - {held}
        chosen = fit(scorer, others)
        figures = summary(scorer.run(chosen), {held})
        report(f"fitted on the others, scored on {held} ({json.dumps(chosen)})", figures)
        pooled.update({k: v for k, v in scorer.run(chosen).items() if v[0] == held})
    report("held out, pooled over the four folds", summary(pooled))


if __name__ == "__main__":
    main()
