#!/usr/bin/env bash
# Runs Thrum Studio's browser tests (Tests/Browser): a real `thrum studio` driven by headless Chromium through
# chromium-driver and Selenium (Debian packages chromium, chromium-driver, python3-selenium, python3-pytest),
# with a private PulseAudio null sink (Tools/dev/pulse-null-sink.sh) so the engine plays in real time and the sound
# is captured from the sink's monitor.
#   Tools/ci/test-studio-browser.sh              # builds thrum (debug) unless THRUM_BIN names one, then runs pytest
#   Tools/ci/test-studio-browser.sh -k save      # extra arguments go to pytest
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [[ -z "${THRUM_BIN:-}" ]]; then
    swift build --product thrum -Xswiftc -warnings-as-errors
    THRUM_BIN="$root/.build/debug/thrum"
fi
export THRUM_BIN
started_pulse=0
if [[ "${THRUM_PULSE_TESTS:-}" != "1" ]]; then
    # A server of its own (not the one Tools/test.sh may be running), stopped at the end.
    export THRUM_PULSE_RUNTIME="${THRUM_PULSE_RUNTIME:-/tmp/thrum-pulse-studio}"
    eval "$("$root/Tools/dev/pulse-null-sink.sh" start)"
    started_pulse=1
fi
stop() { if ((started_pulse)); then "$root/Tools/dev/pulse-null-sink.sh" stop >/dev/null 2>&1 || true; fi; }
trap stop EXIT
# Debian's python3 (where python3-selenium lives), not another python3 earlier on PATH.
/usr/bin/python3 -m pytest "$root/Tests/Browser" -v -p no:cacheprovider "$@"
