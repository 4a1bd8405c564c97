"""A 20-trial block as an experiment runs one: each trial is a labelled player ("trial-0" ... "trial-19") of a
transient at one of five intensities in a fixed random order, 300 ms apart, scheduled frame-exactly on the
engine clock, with a trigger pulse on channel T at every onset for a DAQ. Onsets are reported as they happen
(``Engine(on_onset=...)``, on the engine's own thread) and each trial is printed the moment its vibration
leaves the DAC; after the block, the live onsets are checked against the engine's onset log (written when it
closes). Writes block.jsonl (trial, label, player id, intensity, scheduled engine time, stream frame, DAC time
on CLOCK_MONOTONIC). With a PulseAudio MONITOR source (e.g. null.monitor, the sink the device plays into), the
block plays haptics on the left channel and the trigger on the right, records the monitor with parec, finds the
20 trigger pulses in it and says how far the logged DAC times stray from where the pulses were captured (the
capture has no clock of its own: the spread of the differences, not their offset).
Usage: python3 experiment_block.py [DEVICE] [LOG.jsonl] [MONITOR]   (the engine's log: onsets.jsonl)"""
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

import thrum

device = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("THRUM_DEVICE", "default")
log_path = sys.argv[2] if len(sys.argv) > 2 else "block.jsonl"
monitor = sys.argv[3] if len(sys.argv) > 3 else None
onset_path = "onsets.jsonl"
intensities = [0.2, 0.4, 0.6, 0.8, 1.0]
trials = intensities * 4
random.Random(12).shuffle(trials)  # a fixed seed: the same order every run
interval = 0.3


def transient(intensity: float) -> thrum.Pattern:
    return thrum.Pattern.from_json({"Version": 1, "Pattern": [{"Event": {
        "EventType": "HapticTransient", "Time": 0,
        "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": intensity},
                            {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}]})


live: "queue.Queue[thrum.Onset]" = queue.Queue()  # filled on the engine's onset thread, read here
records = []
capture = None
if monitor:  # float32 stereo at the engine's 48 kHz, raw, from before the engine opens
    capture = tempfile.NamedTemporaryFile(suffix=".raw")
    recorder = subprocess.Popen(["parec", f"--device={monitor}", "--format=float32le", "--rate=48000", "--channels=2",
                                 "--raw", "--latency-msec=10"], stdout=capture)
    time.sleep(0.5)  # let parec connect before anything plays
channels = "H,T" if monitor else "L+H,R+H,T"
with thrum.Engine(device=device, channels=channels, sample_rate=48000, onset_log=onset_path, on_onset=live.put) as engine:
    players = [engine.player(transient(level), label=f"trial-{trial}") for trial, level in enumerate(trials)]
    first = engine.time + 0.5  # leave the device time to start
    for trial, player in enumerate(players):
        player.start(at=first + trial * interval)  # queued now, played on the exact frame of its time
    for _ in trials:  # one onset per trial, in the order they leave the DAC
        onset = live.get(timeout=first + len(trials) * interval + 5 - engine.time)
        trial = int(onset.label.removeprefix("trial-"))
        assert onset.player == players[trial].id
        records.append({"trial": trial, "label": onset.label, "player": onset.player, "intensity": trials[trial],
                        "scheduled": round(first + trial * interval, 6), "stream_frame": onset.frame,
                        "dac_time": onset.dac_time})
        dac = "unknown" if onset.dac_time is None else f"{onset.dac_time:.6f} s"
        print(f"{onset.label}: intensity {trials[trial]:.1f}, frame {onset.frame}, DAC {dac}", flush=True)
    players[-1].wait(timeout=5)
# The engine has closed: its onset log is complete and must say what the live onsets said.
logged = [json.loads(line) for line in open(onset_path)]
assert [(o["label"], o["player"], o["stream_frame"]) for o in logged] == \
    [(r["label"], r["player"], r["stream_frame"]) for r in records], "the live onsets differ from the onset log"
with open(log_path, "w") as log:
    for record in records:
        log.write(json.dumps(record) + "\n")
print(f"{len(records)} trials, every {interval * 1000:.0f} ms, live onsets match the onset log; log in {log_path}")
if capture:
    time.sleep(0.3)  # the last pulse through the server
    recorder.terminate()
    recorder.wait()
    trigger = np.fromfile(capture.name, dtype="<f4").reshape(-1, 2)[:, 1]
    rises = np.flatnonzero((trigger[1:] > 0.5) & (trigger[:-1] <= 0.5)) + 1  # each pulse's first frame
    assert len(rises) == len(records), f"{len(rises)} trigger pulses in the capture, {len(records)} trials"
    strays = np.array([r["dac_time"] for r in records]) - rises / 48000  # logged DAC time - captured time
    strays -= np.median(strays)
    print(f"logged DAC times against the capture: spread {np.ptp(strays) * 1000:.3f} ms "
          f"(median absolute {np.median(np.abs(strays)) * 1000:.3f} ms) over {len(rises)} pulses "
          f"{np.median(np.diff(rises)):.0f} frames apart")
