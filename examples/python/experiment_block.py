"""A 20-trial block as an experiment runs one: each trial is a labelled player ("trial-0" ... "trial-19") of a
transient at one of five intensities in a fixed random order, 300 ms apart, scheduled frame-exactly on the
engine clock, with a trigger pulse on channel T at every onset for a DAQ. Onsets are reported as they happen
(``Engine(on_onset=...)``, on the engine's own thread) and each trial is printed the moment its vibration
leaves the DAC; after the block, the live onsets are checked against the engine's onset log (written when it
closes). Writes block.jsonl (trial, label, player id, intensity, scheduled engine time, stream frame, DAC time
on CLOCK_MONOTONIC). Usage: python3 experiment_block.py [DEVICE] [LOG.jsonl]   (the engine's log: onsets.jsonl)"""
import json
import os
import queue
import random
import sys

import thrum

device = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("THRUM_DEVICE", "default")
log_path = sys.argv[2] if len(sys.argv) > 2 else "block.jsonl"
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
with thrum.Engine(device=device, channels="L+H,R+H,T", onset_log=onset_path, on_onset=live.put) as engine:
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
