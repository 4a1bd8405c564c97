#!/usr/bin/env bash
# Thrum's benchmark suite: builds thrum-bench (its own package, Tools/bench; and thrum beside it, for the
# `thrum play` figures) in release and the simulated sound card (Tools/simcard), starts a private PulseAudio
# null sink (ALSA device `pulse`) and a private headless PipeWire (ALSA device `pipewire`,
# Tools/pipewire-null-sink.sh), runs `thrum-bench all`, stops the servers and prints the markdown table.
# Uses sox, aplay (alsa-utils) and GNU time (`/usr/bin/time`, Debian package `time`, for the peak RSS of
# `thrum play` and aplay; that row is skipped without it).
#
#   Tools/benchmark.sh            # print the table
#   Tools/benchmark.sh --write    # also write Tools/benchmark-results.md
#   Tools/benchmark.sh --no-load  # skip the "other core busy" half of the xrun matrices
# Other options are passed to `thrum-bench all` (e.g. --runs 5 for the throughput median).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

write=0
args=()
for arg in "$@"; do
    case "$arg" in
        --write) write=1 ;;
        *) args+=("$arg") ;;
    esac
done

# thrum-bench is its own package (Tools/bench); thrum is built in it too, so it sits next to thrum-bench.
echo "benchmark: building thrum-bench and thrum (release, Tools/bench)…" >&2
swift build -c release --package-path "$root/Tools/bench" --product thrum-bench >&2
swift build -c release --package-path "$root/Tools/bench" --product thrum >&2
bin="$(swift build -c release --package-path "$root/Tools/bench" --show-bin-path)"
# The simulated card for the low-latency underrun table (thrum-bench card-xruns adds it to ALSA's
# configuration for its own processes only).
THRUM_SIMCARD_PLUGIN="$("$root/Tools/simcard/build.sh")"
export THRUM_SIMCARD_PLUGIN THRUM_SIMCARD_PROFILES="$root/Tools/simcard/profiles.conf"

# A server of our own, so the benchmark neither uses nor stops one that tests are running against.
export THRUM_PULSE_RUNTIME="${THRUM_PULSE_RUNTIME:-/tmp/thrum-pulse-bench-$$}"
export THRUM_PIPEWIRE_RUNTIME="${THRUM_PIPEWIRE_RUNTIME:-/tmp/thrum-pipewire-bench-$$}"
stop_servers() {
    "$root/Tools/pulse-null-sink.sh" stop >/dev/null 2>&1 || true
    rm -rf "$THRUM_PULSE_RUNTIME"
    "$root/Tools/pipewire-null-sink.sh" stop >/dev/null 2>&1 || true
    rm -rf "$THRUM_PIPEWIRE_RUNTIME"
}
trap stop_servers EXIT
if env_lines="$("$root/Tools/pulse-null-sink.sh" start)"; then
    eval "$env_lines"
else
    echo "benchmark: the PulseAudio null sink did not start; live figures are skipped" >&2
fi
if env_lines="$("$root/Tools/pipewire-null-sink.sh" start)"; then
    eval "$env_lines"
else
    echo "benchmark: PipeWire did not start; its figure is skipped" >&2
fi

out="$(mktemp)"
status=0
"$bin/thrum-bench" all ${args[@]+"${args[@]}"} >"$out" || status=$?
cat "$out"
if [[ $write == 1 ]]; then
    cp "$out" "$root/Tools/benchmark-results.md"
    echo "benchmark: wrote Tools/benchmark-results.md" >&2
fi
rm -f "$out"
exit $status
