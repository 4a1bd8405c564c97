#!/usr/bin/env bash
# Runs Thrum's whole test suite:
#   1. installs missing system packages (Tools/system-packages.sh test),
#   2. builds the package and its tests,
#   3. runs every test except the real-time ones, in parallel,
#   4. starts a PulseAudio null sink (Tools/pulse-null-sink.sh) and runs the real-time tests
#      (suites named *RealTime* or *PulseAudio*) one at a time, never beside other tests,
#   5. runs the engine and render tests again under ThreadSanitizer (own build folder .build-tsan),
#   6. runs every test but the real-time ones under AddressSanitizer (.build-asan; XCTest's own leaks
#      are not ours, so leak detection is off).
# Set THRUM_SKIP_SANITIZERS=1 to skip steps 5 and 6 while iterating.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/Tools/system-packages.sh" test

realtime='RealTime|PulseAudio'
swift build --build-tests
swift test --skip-build --skip "$realtime"

eval "$("$root/Tools/pulse-null-sink.sh" start)"
trap '"$root/Tools/pulse-null-sink.sh" stop >/dev/null 2>&1 || true' EXIT
swift test --skip-build --no-parallel --filter "$realtime"

if [[ "${THRUM_SKIP_SANITIZERS:-0}" != "1" ]]; then
    swift test --scratch-path "$root/.build-tsan" --sanitize=thread \
        --filter 'EngineOfflineTests|EngineALSAFileTests|AdvancedPlayerTests|FaultInjectionTests|RenderCoreTests|ALSAOutputHermeticTests' \
        --no-parallel
    ASAN_OPTIONS=detect_leaks=0 swift test --scratch-path "$root/.build-asan" --sanitize=address --skip "$realtime"
fi
