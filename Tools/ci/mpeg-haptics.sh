#!/usr/bin/env bash
# Checks Thrum's HJIF and .hmpg (ISO/IEC 23090-31) against MPEG's reference software
# (Tests/MPEGHaptics/test_mpeg_haptics.py: both directions on the bundled patterns, the corpus, the .haptic
# fixtures and generated edge cases). Builds the reference Encoder, Decoder and Synthesizer from
# $THRUM_ORACLES/mpeg-haptics (default ../shared/oracles beside the repository) once into
# ${XDG_CACHE_HOME:-~/.cache}/thrum/mpeg-haptics (later runs reuse it; ~80 s the first time), and uses the
# debug thrum (`swift build --product thrum` first). Without the oracle it says so and exits 0: the tests are
# skipped, with that reason. Extra arguments go to pytest (e.g. -k hmpg).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
oracles="${THRUM_ORACLES:-$(dirname "$root")/shared/oracles}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/thrum/mpeg-haptics"
if [[ ! -x "$oracles/mpeg-haptics/build.sh" ]]; then
    echo "MPEG haptics oracle: none at $oracles/mpeg-haptics (Tests/MPEGHaptics skipped)"
    exit 0
fi
echo "MPEG haptics oracle: $oracles/mpeg-haptics (built into $cache)"
MPEG_HAPTICS_BIN="$("$oracles/mpeg-haptics/build.sh" "$cache" | tail -n 1)"
THRUM_BIN="${THRUM_BIN:-$(cd "$root" && swift build --show-bin-path)/thrum}"
export MPEG_HAPTICS_BIN THRUM_BIN
exec /usr/bin/python3 -m pytest "$root/Tests/MPEGHaptics" -q -rs -p no:cacheprovider "$@"
