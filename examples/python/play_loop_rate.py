"""Play a pattern in a loop, faster, then slower, then stop. Usage: python3 play_loop_rate.py [DEVICE]
(default: $THRUM_DEVICE or "default"; "pulse" for PulseAudio)."""
import os
import sys
import time

import thrum

device = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("THRUM_DEVICE", "default")
with thrum.Engine(device=device, channels="L+H,R+H") as engine:
    player = engine.player(thrum.Pattern.load("heartbeat"))
    player.loop = True
    player.rate = 1.5
    player.start()
    time.sleep(1.0)
    player.rate = 0.75          # takes effect at the next period, without a click
    time.sleep(1.0)
    print(f"position {player.position:.3f} s into the pattern after 2 s of playing")
    player.stop()
    player.wait(timeout=2)
    print(f"played on {device!r} at {engine.sample_rate:.0f} Hz, {engine.xruns} xruns")
