#!/usr/bin/env bash
# Runs Thrum's whole test suite:
#   1. installs missing system packages (Tools/system-packages.sh test),
#   2. checks that Package.swift declares every import (Tools/check-imports.py) and that every document
#      the code cites and every link of the docs exists (Tools/check-docs.py), builds the simulated
#      sound card (Tools/simcard/build.sh), the package and its tests (with SwiftPM's import check and
#      warnings as errors), and thrum-bench in release (RenderThreadAllocationTests runs its storm counter:
#      retain counts mean something only optimised),
#   3. runs every test except the real-time ones, in parallel,
#   4. starts a PulseAudio null sink (Tools/pulse-null-sink.sh) and runs the real-time tests
#      (suites named *RealTime* or *PulseAudio*, the simulated-card tests among them) one at a time,
#      never beside other tests,
#   4b. the same with a private headless PipeWire (Tools/pipewire-null-sink.sh; suites *PipeWire*), then
#      with a private JACK server on its dummy driver (Tools/jack-dummy.sh; suites *JACK*), each server
#      running only during its own step,
#   5. runs the engine, render, device and ALSA tests (the simulated-card ones included) again under
#      ThreadSanitizer (own build folder .build-tsan),
#   6. runs every test but the real-time ones under AddressSanitizer (.build-asan; XCTest's own leaks
#      are not ours, so leak detection is off).
# Set THRUM_SKIP_SANITIZERS=1 to skip steps 5 and 6 while iterating.
# The corpus suites read the shared AHAP corpus at $THRUM_CORPUS, else ../shared/corpus beside the
# repository, and the .haptic oracle suites Meta's test files at $THRUM_ORACLES, else ../shared/oracles;
# without them they are skipped. Every skipped test is listed, with its reason, at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/Tools/system-packages.sh" test

corpus="${THRUM_CORPUS:-$(dirname "$root")/shared/corpus}"
if [[ -d "$corpus" ]]; then echo "AHAP corpus: $corpus"; else echo "AHAP corpus: none at $corpus (its suites are skipped)"; fi
oracles="${THRUM_ORACLES:-$(dirname "$root")/shared/oracles}"
if [[ -d "$oracles" ]]; then echo "Meta oracles: $oracles"; else echo "Meta oracles: none at $oracles (their suites are skipped)"; fi

log="$(mktemp -t thrum-test-log.XXXXXX)"
# Runs a test command, keeping its output to list the skipped tests at the end.
run_tests() { "$@" 2>&1 | tee -a "$log"; }
# Lists every skipped test (Swift Testing: `… skipped: "reason"`, XCTest: `Test skipped - reason`).
report_skips() {
    local skipped
    skipped="$(grep -E '^[^A-Za-z]*(Suite|Test) .* skipped(:|\.$)|: Test skipped' "$log" | sed -E 's/^[^A-Za-z/]*//' | sort -u || true)"
    if [[ -n "$skipped" ]]; then
        echo "== skipped tests ($(grep -c '' <<<"$skipped")) =="
        echo "$skipped"
    else
        echo "== no test was skipped =="
    fi
    rm -f "$log"
}
trap report_skips EXIT

realtime='RealTime|PulseAudio'
servers='PipeWire|JACK'
"$root/Tools/check-imports.py"
"$root/Tools/check-docs.py"
# The simulated sound card (Tools/simcard): an ALSA plugin the tests load through private configurations.
THRUM_SIMCARD_PLUGIN="$("$root/Tools/simcard/build.sh")"
export THRUM_SIMCARD_PLUGIN
swift build --build-tests --explicit-target-dependency-import-check error -Xswiftc -warnings-as-errors
# What `import Thrum` exposes must equal the committed list (a change to the surface is a visible diff).
"$root/Tools/check-public-api.sh"
swift build -c release --product thrum-bench -Xswiftc -warnings-as-errors
run_tests swift test --skip-build --skip "$realtime|$servers"

stop_servers() {
    "$root/Tools/pulse-null-sink.sh" stop >/dev/null 2>&1 || true
    "$root/Tools/pipewire-null-sink.sh" stop >/dev/null 2>&1 || true
    "$root/Tools/jack-dummy.sh" stop >/dev/null 2>&1 || true
}
trap 'stop_servers; report_skips' EXIT
(
    server_env="$("$root/Tools/pulse-null-sink.sh" start)"  # a failed start fails the run
    eval "$server_env"
    run_tests swift test --skip-build --no-parallel --filter "$realtime" --skip "$servers"
    # Thrum Studio's API over loopback (pytest; its PulseAudio test uses this null sink).
    THRUM_BIN="$(swift build --show-bin-path)/thrum" run_tests /usr/bin/python3 -m pytest "$root/Tests/StudioAPI" -q -rs
    # Thrum Studio's page in headless Chromium (Selenium), on the same server binary and null sink.
    THRUM_BIN="$(swift build --show-bin-path)/thrum" run_tests "$root/Tools/test-studio-browser.sh" -q -rs
)
"$root/Tools/pulse-null-sink.sh" stop
(
    server_env="$("$root/Tools/pipewire-null-sink.sh" start)"  # a failed start fails the run
    eval "$server_env"
    run_tests swift test --skip-build --no-parallel --filter 'PipeWire'
)
"$root/Tools/pipewire-null-sink.sh" stop
(
    server_env="$("$root/Tools/jack-dummy.sh" start)"  # a failed start fails the run
    eval "$server_env"
    run_tests swift test --skip-build --no-parallel --filter 'JACK'
)
"$root/Tools/jack-dummy.sh" stop

if [[ "${THRUM_SKIP_SANITIZERS:-0}" != "1" ]]; then
    run_tests swift test --scratch-path "$root/.build-tsan" --sanitize=thread \
        --filter 'EngineOfflineTests|EngineALSAFileTests|AdvancedPlayerTests|FaultInjectionTests|RenderCoreTests|ALSAOutputHermeticTests|SimulatedCardRealTimeTests|SimulatedCardFaultRealTimeTests|EngineConcurrencyTests|InstanceAddressingTests|HousekeepingWakeUpTests|StopWhileRenderingTests|DeviceConcurrencyTests|MultiActuatorTests|SeamRaceTests' \
        --no-parallel
    ASAN_OPTIONS=detect_leaks=0 run_tests swift test --scratch-path "$root/.build-asan" --sanitize=address \
        --skip "$realtime|$servers"
fi
