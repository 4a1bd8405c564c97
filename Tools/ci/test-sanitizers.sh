#!/usr/bin/env bash
# Runs Thrum's tests again under the sanitizers (CI runs this after Tools/test.sh; it takes as long as
# the test command itself on two cores, since each sanitizer is its own build of the package):
#   1. the engine, render-core, device and ALSA tests (the simulated-card ones included) under
#      ThreadSanitizer (own build folder .build-tsan), one at a time,
#   2. every test but the real-time and sound-server ones under AddressSanitizer (.build-asan; XCTest's
#      own leaks are not ours, so leak detection is off).
# It needs what Tools/test.sh needs (Tools/dev/system-packages.sh test says which packages and why). The
# corpus and oracle suites find their data the same way ($THRUM_CORPUS, $THRUM_ORACLES, ../shared).
# Every skipped test is listed, with its reason, at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
"$root/Tools/dev/system-packages.sh" test

log="$(mktemp -t thrum-sanitizer-log.XXXXXX)"
# Runs a test command, keeping its output to list the skipped tests at the end.
run_tests() { "$@" 2>&1 | tee -a "$log"; }
report_skips() {
    local skipped
    # Cancelled: a real-time test whose every attempt ran while the host stole the CPUs (Tools/test.sh).
    skipped="$(grep -E '^[^A-Za-z]*(Suite|Test) .* (skipped(:|\.$)|was cancelled after)|: Test skipped' "$log" |
        sed -E 's/^[^A-Za-z/]*//' | sort -u || true)"
    if [[ -n "$skipped" ]]; then
        echo "== skipped or cancelled tests under the sanitizers ($(grep -c '' <<<"$skipped")) =="
        echo "$skipped"
    else
        echo "== no test was skipped under the sanitizers =="
    fi
    rm -f "$log"
}
trap report_skips EXIT

# The simulated sound card (Tools/dev/simcard): the simulated-card suites load it through private configurations.
THRUM_SIMCARD_PLUGIN="$("$root/Tools/dev/simcard/build.sh")"
export THRUM_SIMCARD_PLUGIN
run_tests swift test --scratch-path "$root/.build-tsan" --sanitize=thread \
    --filter 'EngineOfflineTests|EngineALSAFileTests|AdvancedPlayerTests|FaultInjectionTests|RenderCoreTests|ALSAOutputHermeticTests|SimulatedCardRealTimeTests|SimulatedCardFaultRealTimeTests|EngineConcurrencyTests|InstanceAddressingTests|HousekeepingWakeUpTests|StopWhileRenderingTests|DeviceConcurrencyTests|MultiActuatorTests|SeamRaceTests' \
    --no-parallel
ASAN_OPTIONS=detect_leaks=0 run_tests swift test --scratch-path "$root/.build-asan" --sanitize=address \
    --skip 'RealTime|PulseAudio|PipeWire|JACK'
