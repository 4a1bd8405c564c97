"""Runs examples/python/experiment_block.py (20 labelled trials, onsets as they happen) on the null sink and
checks its block log against what the experiment asked for, independently of the code under test: every label
once, player ids 1-20 counted on the fresh engine, each trial 0.3 s after the one before at the sink's 48 kHz,
the five intensities four times each, the live onsets equal to the onset log (the script asserts that); with
the sink's monitor recorded, the trigger pulses found in the capture 14,400 frames apart."""
import json
import os
import subprocess
import sys

import numpy as np

from conftest import REPOSITORY, pulse


@pulse
def test_experiment_block(tmp_path):
    environment = dict(os.environ, THRUM_DEVICE="pulse")
    result = subprocess.run([sys.executable, str(REPOSITORY / "examples/python/experiment_block.py")], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120, env=environment)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("trial-") == 20 and "live onsets match the onset log" in result.stdout
    records = [json.loads(line) for line in (tmp_path / "block.jsonl").read_text().splitlines()]
    assert sorted(r["label"] for r in records) == sorted(f"trial-{n}" for n in range(20))
    assert [r["trial"] for r in records] == list(range(20))  # scheduled in order, so played in order
    assert [r["player"] for r in records] == list(range(1, 21))  # per engine, from 1, in the order made
    assert sorted(r["intensity"] for r in records) == sorted([0.2, 0.4, 0.6, 0.8, 1.0] * 4)
    frames = np.array([r["stream_frame"] for r in records])
    assert np.abs(np.diff(frames) - 0.3 * 48000).max() <= 1
    dac = [r["dac_time"] for r in records]
    assert all(t is not None for t in dac) and np.all(np.diff(dac) > 0)


@pulse
def test_experiment_block_against_a_monitor_capture(tmp_path):
    # The null sink's monitor records what the device played: haptics left, the trigger right.
    environment = dict(os.environ, THRUM_DEVICE="pulse")
    result = subprocess.run([sys.executable, str(REPOSITORY / "examples/python/experiment_block.py"), "pulse", "block.jsonl",
                             "null.monitor"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=environment)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("logged DAC times against the capture"))
    words = line.split()
    spread = float(words[words.index("spread") + 1])
    # The sink plays the frames it is given: 0.3 s apart at 48 kHz is 14,400 frames between pulses.
    assert "over 20 pulses 14400 frames apart" in line, line
    # A logged DAC time a period (21 ms) off would show here. Below half a period the spread is PulseAudio's own:
    # its latency reports move by milliseconds (the issue measured 0.35-1.4 ms; 2.1 and 5.8 ms in two CI runs
    # here), which the server-aware estimate of issue 40.5 (not built) is to take out.
    assert 0 <= spread < 10, line
    print(line)
