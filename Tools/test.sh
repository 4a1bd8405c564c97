#!/usr/bin/env bash
# Runs Thrum's whole test suite:
#   1. installs missing system packages (Tools/dev/system-packages.sh test, which says which and why first;
#      THRUM_NO_INSTALL=1 makes it stop with the list instead) and tests that script
#      (Tools/ci/test-system-packages.sh),
#   2. checks that Package.swift declares every import (Tools/ci/check-imports.py), that every document
#      the code cites and every link of the docs exists (Tools/ci/check-docs.py) and that no module outside
#      Sources/Thrum reaches files through FileManager or URL (Tools/ci/check-file-access.py), builds the simulated
#      sound card (Tools/dev/simcard/build.sh), the package and its tests (with SwiftPM's import check and
#      warnings as errors), and thrum-bench (its own package, Tools/bench) in release
#      (RenderThreadAllocationTests runs its allocation and storm counters: retain counts mean something
#      only optimised),
#   3. runs every test except the real-time ones, in parallel (the seam races after them, alone), then
#      the MPEG haptics oracle tests (Tools/ci/mpeg-haptics.sh),
#   4. starts a PulseAudio null sink (Tools/dev/pulse-null-sink.sh) and runs the real-time tests
#      (suites named *RealTime* or *PulseAudio*, the simulated-card tests among them) one at a time,
#      never beside other tests,
#   4b. the same with a private headless PipeWire (Tools/dev/pipewire-null-sink.sh; suites *PipeWire*), then
#      with a private JACK server on its dummy driver (Tools/dev/jack-dummy.sh; suites *JACK*), each server
#      running only during its own step,
# The sanitizer runs (ThreadSanitizer and AddressSanitizer builds) are Tools/ci/test-sanitizers.sh, which CI
# runs after this script: they double the time of a run and catch what a change to threading or memory
# handling breaks, so run them too after such a change.
# The corpus suites read the shared AHAP corpus at $THRUM_CORPUS, else ../shared/corpus beside the
# repository, and the .haptic oracle suites Meta's test files at $THRUM_ORACLES, else ../shared/oracles;
# without them they are skipped. Every skipped test is listed, with its reason, at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/Tools/dev/system-packages.sh" test
"$root/Tools/ci/test-system-packages.sh"

corpus="${THRUM_CORPUS:-$(dirname "$root")/shared/corpus}"
if [[ -d "$corpus" ]]; then echo "AHAP corpus: $corpus"; else echo "AHAP corpus: none at $corpus (its suites are skipped)"; fi
oracles="${THRUM_ORACLES:-$(dirname "$root")/shared/oracles}"
if [[ -d "$oracles" ]]; then echo "Meta oracles: $oracles"; else echo "Meta oracles: none at $oracles (their suites are skipped)"; fi

log="$(mktemp -t thrum-test-log.XXXXXX)"
# Runs a test command, keeping its output to list the skipped tests at the end.
run_tests() { "$@" 2>&1 | tee -a "$log"; }
# Lists every skipped test (Swift Testing: `… skipped: "reason"`, XCTest: `Test skipped - reason`), and every
# test cancelled because nothing could be judged (`… was cancelled after … seconds: "reason"`: a real-time test
# whose every attempt ran while the machine's host stole the CPUs, Tests/ThrumTestSupport/HostSteal.swift).
report_skips() {
    local skipped
    skipped="$(grep -E '^[^A-Za-z]*(Suite|Test) .* (skipped(:|\.$)|was cancelled after)|: Test skipped' "$log" |
        sed -E 's/^[^A-Za-z/]*//' | sort -u || true)"
    if [[ -n "$skipped" ]]; then
        echo "== skipped or cancelled tests ($(grep -c '' <<<"$skipped")) =="
        echo "$skipped"
    else
        echo "== no test was skipped =="
    fi
    rm -f "$log"
}
trap report_skips EXIT

realtime='RealTime|PulseAudio'
servers='PipeWire|JACK'
"$root/Tools/ci/check-imports.py"
"$root/Tools/ci/check-docs.py"
# One rule for file access on the start-up path: FileSystem/PathName, not FileManager/URL/ProcessInfo.
"$root/Tools/ci/check-file-access.py"
# The simulated sound card (Tools/dev/simcard): an ALSA plugin the tests load through private configurations.
THRUM_SIMCARD_PLUGIN="$("$root/Tools/dev/simcard/build.sh")"
export THRUM_SIMCARD_PLUGIN
swift build --build-tests --explicit-target-dependency-import-check error -Xswiftc -warnings-as-errors
# What `import Thrum` exposes must equal the committed list (a change to the surface is a visible diff).
"$root/Tools/ci/check-public-api.sh"
# thrum and libthrum must not link full Foundation (CoreFoundation and ICU at every start).
"$root/Tools/ci/check-foundation-free.sh"
# thrum-bench is its own package (Tools/bench); RenderThreadAllocationTests runs this release build.
swift build -c release --package-path "$root/Tools/bench" --product thrum-bench -Xswiftc -warnings-as-errors
export THRUM_RELEASE_BENCH="$root/Tools/bench/.build/release/thrum-bench"
run_tests swift test --skip-build --skip "$realtime|$servers|SeamRaceTests"
# The seam races (an offline engine rendered without pause by a thread of their own) alone, after the
# parallel run: beside 600 other tests on two cores their race loop was starved, 20 s became 70-130 s.
run_tests swift test --skip-build --filter SeamRaceTests
# MPEG haptics (HJIF, .hmpg) against MPEG's reference software, built once from ../shared/oracles into
# ~/.cache/thrum (skipped, saying so, without it).
run_tests "$root/Tools/ci/mpeg-haptics.sh"

stop_servers() {
    "$root/Tools/dev/pulse-null-sink.sh" stop >/dev/null 2>&1 || true
    "$root/Tools/dev/pipewire-null-sink.sh" stop >/dev/null 2>&1 || true
    "$root/Tools/dev/jack-dummy.sh" stop >/dev/null 2>&1 || true
}
trap 'stop_servers; report_skips' EXIT
(
    server_env="$("$root/Tools/dev/pulse-null-sink.sh" start)"  # a failed start fails the run
    eval "$server_env"
    run_tests swift test --skip-build --no-parallel --filter "$realtime" --skip "$servers"
    # Thrum Studio's API over loopback (pytest; its PulseAudio test uses this null sink).
    THRUM_BIN="$(swift build --show-bin-path)/thrum" run_tests /usr/bin/python3 -m pytest "$root/Tests/StudioAPI" -q -rs
    # Thrum Studio's page in headless Chromium (Selenium), on the same server binary and null sink.
    THRUM_BIN="$(swift build --show-bin-path)/thrum" run_tests "$root/Tools/ci/test-studio-browser.sh" -q -rs
)
"$root/Tools/dev/pulse-null-sink.sh" stop
(
    server_env="$("$root/Tools/dev/pipewire-null-sink.sh" start)"  # a failed start fails the run
    eval "$server_env"
    run_tests swift test --skip-build --no-parallel --filter 'PipeWire'
)
"$root/Tools/dev/pipewire-null-sink.sh" stop
(
    server_env="$("$root/Tools/dev/jack-dummy.sh" start)"  # a failed start fails the run
    eval "$server_env"
    run_tests swift test --skip-build --no-parallel --filter 'JACK'
)
"$root/Tools/dev/jack-dummy.sh" stop
"$root/Tools/ci/test-libthrum.sh"  # libthrum: install, C test (+ASan), pip install ./python, pytest, examples; own PulseAudio sink

