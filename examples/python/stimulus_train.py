"""A psychophysics-style stimulus train: transients of five intensities in random order, one every 400 ms,
each scheduled frame-exactly on the engine clock. The engine logs every onset (``Engine(onset_log=...)``,
as ``thrum play --onset-log``); each stimulus is then written with the time it actually left the DAC (JSON
Lines: trial, intensity, the engine time it was scheduled at, its stream frame, its DAC time on
CLOCK_MONOTONIC). Usage: python3 stimulus_train.py [DEVICE] [LOG.jsonl]   (the engine's log: onsets.jsonl)"""
import json
import os
import random
import sys

import thrum

device = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("THRUM_DEVICE", "default")
log_path = sys.argv[2] if len(sys.argv) > 2 else "stimuli.jsonl"
onset_path = "onsets.jsonl"
intensities = [0.2, 0.4, 0.6, 0.8, 1.0]
trials = intensities * 2
random.Random(7).shuffle(trials)  # a fixed seed: the same order every run
interval = 0.4


def transient(intensity: float) -> thrum.Pattern:
    return thrum.Pattern.from_json({"Version": 1, "Pattern": [{"Event": {
        "EventType": "HapticTransient", "Time": 0,
        "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": intensity},
                            {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}]})


scheduled = []
with thrum.Engine(device=device, channels="L+H,R+H", onset_log=onset_path) as engine:
    players = {level: engine.player(transient(level)) for level in intensities}
    first = engine.time + 0.5  # leave the device time to start
    for trial, level in enumerate(trials):
        at = first + trial * interval
        players[level].start(at=at)  # queued now, played on the exact frame of `at`
        scheduled.append(at)
    players[trials[-1]].wait(timeout=first + len(trials) * interval + 2)
# The engine has closed: its onset log is complete, one line per stimulus, in the order they played.
onsets = [json.loads(line) for line in open(onset_path)]
with open(log_path, "w") as log:
    for trial, (level, at, onset) in enumerate(zip(trials, scheduled, onsets)):
        log.write(json.dumps({"trial": trial, "intensity": level, "scheduled": round(at, 6),
                              "stream_frame": onset["stream_frame"], "dac_time": onset["dac_time"]}) + "\n")
print(f"{len(trials)} stimuli, every {interval * 1000:.0f} ms, {len(onsets)} onsets logged; log in {log_path}")
