"""Turn a sound into haptics and play both: synthesise a 1.5 s sound of three knocks (or take a sound file),
analyse it as `thrum analyze` does, then play the haptic pattern on the engine.
Usage: python3 analyze_and_play.py [SOUND.wav] [DEVICE]"""
import os
import sys
import tempfile
import wave

import numpy as np

import thrum

folder = tempfile.mkdtemp(prefix="thrum-example-")
if len(sys.argv) > 1:
    sound = sys.argv[1]
else:
    sound = os.path.join(folder, "knocks.wav")
    t = np.arange(int(1.5 * 48000)) / 48000
    signal = np.zeros_like(t)
    for start in (0.1, 0.6, 1.1):  # three decaying 80 Hz knocks
        after = np.clip(t - start, 0, None)
        signal += np.where(t >= start, np.sin(2 * np.pi * 80 * after) * np.exp(-after / 0.08), 0)
    with wave.open(sound, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(48000)
        file.writeframes((signal / np.abs(signal).max() * 30000).astype("<i2").tobytes())

pattern = thrum.analyze(sound, os.path.join(folder, "knocks.ahap"), preset="impacts")
print(f"analysed {sound}: a {pattern.duration:.2f} s pattern; issues: {thrum.check(os.path.join(folder, 'knocks.ahap'))}")
device = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("THRUM_DEVICE", "default")
with thrum.Engine(device=device, channels="L+H,R+H") as engine:
    player = engine.player(pattern)
    player.start()
    player.wait(timeout=pattern.duration + 2)
print("played")
