#!/usr/bin/env bash
# Builds the simulated sound card (an ALSA ioplug plugin) into .build/simcard/ if it is missing or older
# than its sources, and prints the library's path. Usage: Tools/dev/simcard/build.sh
# Use it through an extra configuration named in ALSA_CONFIG_PATH (never the system's), e.g.
#   export THRUM_SIMCARD_PLUGIN="$(Tools/dev/simcard/build.sh)"
#   export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$PWD/Tools/dev/simcard/profiles.conf"
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../../.build/simcard"
lib="$out/libasound_module_pcm_simcard.so"
sources=("$here/simcard.c" "$here/simcard_config.c" "$here/simcard_loop.c" "$here/simcard.h")
stale=0
[[ -f "$lib" ]] || stale=1
for source in "${sources[@]}"; do [[ "$source" -nt "$lib" ]] && stale=1; done
if ((stale)); then
    mkdir -p "$out"
    compiler="${CC:-$(command -v cc || command -v clang || echo /opt/swift/usr/bin/clang)}"
    # -DPIC: alsa-lib's plugin headers export the versioned entry point only for shared objects.
    "$compiler" -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -DPIC -shared -o "$lib.tmp" \
        "$here/simcard.c" "$here/simcard_config.c" "$here/simcard_loop.c" -lasound -lpthread -lm
    mv "$lib.tmp" "$lib"
fi
echo "$(cd "$out" && pwd)/libasound_module_pcm_simcard.so"
