"""Render a pattern to a 16-bit WAV file (the same samples `thrum render` makes), with the standard library's
wave module. Usage: python3 render_to_file.py [PATTERN] [OUT.wav]"""
import sys
import wave

import numpy as np

import thrum

pattern = thrum.Pattern.load(sys.argv[1] if len(sys.argv) > 1 else "heartbeat")
output = sys.argv[2] if len(sys.argv) > 2 else "heartbeat.wav"

samples = thrum.render(pattern, sample_rate=48000, channels="L,R,H")  # float32, shape (frames, 3)
pcm = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2")
with wave.open(output, "wb") as file:
    file.setnchannels(samples.shape[1])
    file.setsampwidth(2)
    file.setframerate(48000)
    file.writeframes(pcm.tobytes())
print(f"wrote {output}: {len(samples)} frames, {pattern.duration:.3f} s pattern, haptic peak {abs(samples[:, 2]).max():.3f}")
