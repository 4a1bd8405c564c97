"""A Jupyter-style plot: render a pattern and draw each channel against time with matplotlib (the Agg
backend writes a PNG; in a notebook, drop the `matplotlib.use` line and the figure shows inline).
Usage: python3 plot_render.py [PATTERN] [OUT.png]"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import thrum

name = sys.argv[1] if len(sys.argv) > 1 else "heartbeat"
output = sys.argv[2] if len(sys.argv) > 2 else "render.png"
samples = thrum.render(thrum.Pattern.load(name), sample_rate=48000, channels="L,R,H")
time = np.arange(len(samples)) / 48000

figure, axes = plt.subplots(samples.shape[1], 1, sharex=True, figsize=(8, 5))
for axis, channel, label in zip(axes, samples.T, ["audio L", "audio R", "haptic"]):
    axis.plot(time, channel, linewidth=0.6)
    axis.set_ylabel(label)
    axis.set_ylim(-1, 1)
axes[-1].set_xlabel("time (s)")
figure.suptitle(f"thrum.render({name!r})")
figure.savefig(output, dpi=100)
print(f"wrote {output}")
