"""A psychophysics-style stimulus train: transients of five intensities in random order, one every 400 ms,
each scheduled frame-exactly on the engine clock, with a log line per stimulus (JSON Lines: trial,
intensity, the engine time it was scheduled at). Usage: python3 stimulus_train.py [DEVICE] [LOG.jsonl]

The log holds scheduled engine times; the time each onset leaves the DAC comes with Thrum's onset log."""
import json
import os
import random
import sys

import thrum

device = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("THRUM_DEVICE", "default")
log_path = sys.argv[2] if len(sys.argv) > 2 else "stimuli.jsonl"
intensities = [0.2, 0.4, 0.6, 0.8, 1.0]
trials = intensities * 2
random.Random(7).shuffle(trials)  # a fixed seed: the same order every run
interval = 0.4

def transient(intensity: float) -> thrum.Pattern:
    return thrum.Pattern.from_json({"Version": 1, "Pattern": [{"Event": {
        "EventType": "HapticTransient", "Time": 0,
        "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": intensity},
                            {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}]})

with thrum.Engine(device=device, channels="L+H,R+H") as engine, open(log_path, "w") as log:
    players = {level: engine.player(transient(level)) for level in intensities}
    first = engine.time + 0.5  # leave the device time to start
    for trial, level in enumerate(trials):
        at = first + trial * interval
        players[level].start(at=at)  # queued now, played on the exact frame of `at`
        log.write(json.dumps({"trial": trial, "intensity": level, "scheduled": round(at, 6)}) + "\n")
    last = players[trials[-1]]
    last.wait(timeout=first + len(trials) * interval + 2)
print(f"{len(trials)} stimuli, every {interval * 1000:.0f} ms; log in {log_path}")
