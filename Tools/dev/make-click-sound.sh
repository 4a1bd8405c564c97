#!/usr/bin/env bash
# Generates Resources/Audio/click.wav, the sound of the bundled pattern click-with-sound.ahap:
# a 20 ms mono 48 kHz 16-bit click, a sine sweeping down from 3 kHz to 2 kHz under a 0.5 ms
# fade-in and a 19.5 ms logarithmic fade-out (the decay), peak about -3.6 dBFS (vol 0.7).
# Deterministic: no dither (-D), no noise source, so every run writes the same bytes.
#   Tools/dev/make-click-sound.sh            writes Resources/Audio/click.wav
#   Tools/dev/make-click-sound.sh OUT.wav    writes OUT.wav instead
# Needs sox (Debian package `sox`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/Resources/Audio/click.wav}"
if ! command -v sox >/dev/null 2>&1; then
    echo "make-click-sound: sox not found; install it with: apt-get install sox" >&2
    exit 69
fi
mkdir -p "$(dirname "$out")"
# -D: no dither when reducing to 16 bits.  -n: no input, the synth effect makes the signal.
sox -D -n -r 48000 -c 1 -b 16 -e signed-integer "$out" \
    synth 0.020 sine 3000-2000 \
    fade l 0.0005 0.020 0.0195 \
    vol 0.7
echo "wrote $out"
