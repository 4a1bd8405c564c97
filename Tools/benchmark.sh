#!/usr/bin/env bash
# Thrum's benchmark: builds what it times in release: thrum and libthrum as Tools/install.sh and the .deb
# ship them (the Swift runtime linked statically), thrum-bench (its own package, Tools/bench; dynamic, as its
# malloc and retain counters interpose on the runtime), and the simulated sound card (Tools/dev/simcard); runs the harness (Tools/bench/harness): every figure side by
# side with a peer (sox, aplay at thrum's priority, the machine's own wake-up latency) in one run, as
# medians with min and max over interleaved runs; PulseAudio and PipeWire run only for their steps.
# Needs sox, aplay (alsa-utils), cyclictest (rt-tests), GNU time (time), parec (pulseaudio-utils), chrt.
#
#   Tools/benchmark.sh                       # everything (about 40 minutes), the table on standard output
#   Tools/benchmark.sh --only start,footprint --runs 10
#   Tools/benchmark.sh --write               # also write Tools/bench/benchmark-results.md
#   Tools/benchmark.sh --check               # exit 1 naming every missed target
# Options: --runs N, --cell-runs N, --seconds S, --no-load, --only STEP,... (see --help). Run it on a quiet
# machine: each step prints the load average it started at.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool in sox aplay cyclictest chrt parec /usr/bin/time; do
    command -v "$tool" >/dev/null || {
        echo "benchmark: '$tool' is missing (Debian: sox, alsa-utils, rt-tests, util-linux, pulseaudio-utils, time)" >&2
        exit 69
    }
done
echo "benchmark: building thrum-bench (release, Tools/bench) and installing thrum and libthrum (Tools/install.sh)…" >&2
swift build -c release --package-path "$root/Tools/bench" --product thrum-bench >&2
bench="$(swift build -c release --package-path "$root/Tools/bench" --show-bin-path)/thrum-bench"
# What users run: the static-runtime build Tools/install.sh and the .deb ship (build folder .build-install).
prefix="$root/.build-install/benchmark-prefix"
"$root/Tools/install.sh" --prefix "$prefix" >&2
exec python3 "$root/Tools/bench/harness" --prefix "$prefix" --bench "$bench" "$@"
