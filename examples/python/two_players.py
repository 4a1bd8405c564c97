"""Two players on one clock: a heartbeat on the haptic channel and a click sound, the click scheduled
exactly 0.25 s (12 000 frames at 48 kHz) after the heartbeat's start on the same engine clock.
Usage: python3 two_players.py [DEVICE]"""
import os
import sys

import thrum

device = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("THRUM_DEVICE", "default")
with thrum.Engine(device=device, channels="L,R,H") as engine:
    heartbeat = engine.player(thrum.Pattern.load("heartbeat"))
    click = engine.player(thrum.Pattern.load("click-with-sound"))
    start = engine.time + 0.2
    heartbeat.start(at=start)
    click.start(at=start + 0.25)
    heartbeat.wait(timeout=5)
    click.wait(timeout=5)
    print(f"both played on one clock from engine time {start:.3f} s; xruns: {engine.xruns}")
