#!/usr/bin/env bash
# Runs Thrum's whole test suite: installs missing system packages, starts a PulseAudio null sink
# for the real-time tests (reached through ALSA's `pulse` device), runs `swift test`, stops the server.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/Tools/system-packages.sh" test
swift build --build-tests 2>&1 | tail -n 3
swift test --skip-build --parallel --num-workers 2
