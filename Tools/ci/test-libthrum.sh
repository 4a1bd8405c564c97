#!/usr/bin/env bash
# libthrum's tests, against a real install:
#   1. Tools/install.sh into a temporary prefix; the installed thrum and libthrum.so must run with no Swift
#      toolchain (env -i, a PATH without it; ldd lists no Swift or Foundation library); libthrum.so holds
#      nothing of the command line, the studio or civetweb (nm -D, and their texts);
#   2. include/thrum.h compiles as C99, C11 and C++11 with -Wall -Wextra -Werror -pedantic;
#   3. the C test (Tests/libthrum/thrum_test.c) is built with `cc $(pkg-config --cflags --libs thrum)`
#      (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig) and run, then built and run again with -fsanitize=address;
#      the C examples are built with their Makefile;
#   4. a fresh venv (Debian's python3 with --system-site-packages for numpy, pytest, matplotlib) gets
#      `pip install ./python`, and pytest runs python/tests (render equal to `thrum render`, every error
#      path, check, live capture, the examples) with no Swift toolchain in reach.
# Live tests play on ALSA 'pulse' into the PulseAudio null sink (Tools/dev/pulse-null-sink.sh): started here
# (in a private runtime folder) unless PULSE_SERVER is already set, and stopped again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d -t thrum-libthrum.XXXXXX)"
started_pulse=0
cleanup() {
    if ((started_pulse)); then "$root/Tools/dev/pulse-null-sink.sh" stop >/dev/null 2>&1 || true; fi
    if [[ -d "$work/pulse-loss" ]]; then
        THRUM_PULSE_RUNTIME="$work/pulse-loss" "$root/Tools/dev/pulse-null-sink.sh" stop >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
step() { echo "== libthrum: $*"; }
fail() { echo "libthrum tests: $*" >&2; exit 1; }

version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$root/Sources/Thrum/ThrumVersion.swift")"
prefix="$work/prefix"
step "install into $prefix"
"$root/Tools/install.sh" --prefix "$prefix"

step "the installed command and library need no Swift toolchain"
bare=(env -i PATH=/usr/bin:/bin HOME="$work")
[[ "$("${bare[@]}" "$prefix/bin/thrum" --version)" == "thrum $version" ]] || fail "thrum --version is not $version"
"${bare[@]}" "$prefix/bin/thrum" list >"$work/list.txt"  # whole: grep -q may leave a pipe early (EPIPE, exit 74)
grep -q heartbeat "$work/list.txt" || fail "the installed thrum does not find its patterns"
for file in "$prefix/bin/thrum" "$prefix/lib/libthrum.so"; do
    if ldd "$file" | grep -E -i 'swift|foundation|dispatch|not found'; then fail "$file needs the libraries above"; fi
done
[[ "$(readelf -d "$prefix/lib/libthrum.so" | sed -n 's/.*soname: \[\(.*\)\]/\1/p')" == "libthrum.so.0" ]] ||
    fail "libthrum.so's soname is not libthrum.so.0"

step "libthrum is stripped of its debug information"
if readelf -S "$prefix/lib/libthrum.so" | grep -q -F .debug_; then fail "libthrum.so carries debug information"; fi

step "libthrum links none of the command line, the studio, civetweb, man pages, completions or plotting"
# Their Swift symbols (module names ThrumCommandLine, ThrumStudio mangled as 16ThrumCommandLine, 11ThrumStudio) and
# their texts (civetweb's functions are looked up by name; help, man pages, completions and SVG plots are text).
if nm -D --defined-only "$prefix/lib/libthrum.so" | grep -E '16ThrumCommandLine|11ThrumStudio'; then
    fail "libthrum.so exports the symbols above of the command line or the studio"
fi
for text in mg_start 'usage: thrum COMMAND' '.SH SYNOPSIS' 'complete -c thrum' 'http://www.w3.org/2000/svg'; do
    if grep -q -a -F -e "$text" "$prefix/lib/libthrum.so"; then fail "libthrum.so holds '$text' (civetweb, help, man, completions or plotting)"; fi
done

step "libthrum exports the functions of thrum.h and nothing else (Tools/ci/libthrum-symbols.txt)"
grep -v '^#' "$root/Tools/ci/libthrum-symbols.txt" >"$work/symbols-expected.txt"
# Exported: global (upper-case type); the linker leaves some Swift metadata in .dynsym bound LOCAL (lower case),
# which no program can link to. The version script names every export, so the map must list them too.
nm -D --defined-only "$prefix/lib/libthrum.so" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sed 's/@.*//' | LC_ALL=C sort -u \
    >"$work/symbols-exported.txt"
diff "$work/symbols-expected.txt" "$work/symbols-exported.txt" ||
    fail "libthrum.so's exports differ from Tools/ci/libthrum-symbols.txt (< listed only, > exported only)"
sed -n 's/^ *\(thrum_[a-z0-9_]*\);$/\1/p' "$root/Tools/release/libthrum.map" | LC_ALL=C sort -u >"$work/symbols-map.txt"
diff "$work/symbols-expected.txt" "$work/symbols-map.txt" ||
    fail "Tools/release/libthrum.map's names differ from Tools/ci/libthrum-symbols.txt (< listed only, > in the map only)"
grep -oE '\bthrum_[a-z0-9_]+\(' "$root/include/thrum.h" | tr -d '(' | LC_ALL=C sort -u >"$work/symbols-header.txt"
diff "$work/symbols-expected.txt" "$work/symbols-header.txt" ||
    fail "thrum.h's functions differ from Tools/ci/libthrum-symbols.txt (< listed only, > declared only)"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[[ "$(pkg-config --modversion thrum)" == "$version" ]] || fail "thrum.pc's version is not $version"
read -r -a flags <<<"$(pkg-config --cflags --libs thrum)"

step "thrum.h: C99, C11, C++11, warning-free"
for std in c99 c11; do
    echo '#include <thrum.h>' | cc -std="$std" -Wall -Wextra -Werror -pedantic -fsyntax-only "${flags[@]}" -x c -
done
echo '#include <thrum.h>' | c++ -std=c++11 -Wall -Wextra -Werror -pedantic -fsyntax-only "${flags[@]}" -x c++ -

step "C test (and under AddressSanitizer)"
oracle="$work/oracle"
mkdir -p "$oracle" "$work/c-work" "$work/c-asan-work"
"${bare[@]}" "$prefix/bin/thrum" render heartbeat --sample-rate 48000 --channels L,R,H --format float -o "$oracle/once.wav" >/dev/null
"${bare[@]}" "$prefix/bin/thrum" render heartbeat --loops 2 --rate 1.5 --sample-rate 44100 --channels M+H --format float \
    -o "$oracle/options.wav" >/dev/null
cc -std=c99 -Wall -Wextra -Werror "$root/Tests/libthrum/thrum_test.c" "${flags[@]}" -lm -o "$work/thrum_test"
cc -std=c99 -Wall -Wextra -Werror -g -fsanitize=address -fno-omit-frame-pointer "$root/Tests/libthrum/thrum_test.c" \
    "${flags[@]}" -lm -o "$work/thrum_test_asan"

if [[ -z "${PULSE_SERVER:-}" ]]; then
    export THRUM_PULSE_RUNTIME="${THRUM_PULSE_RUNTIME:-/tmp/thrum-pulse-libthrum}"
    eval "$("$root/Tools/dev/pulse-null-sink.sh" start)"
    started_pulse=1
fi
# What the live tests need of the environment, passed through env -i.
pulse_env=(PULSE_SERVER="$PULSE_SERVER" PULSE_RUNTIME_PATH="$PULSE_RUNTIME_PATH" PULSE_CLIENTCONFIG="$PULSE_CLIENTCONFIG"
    THRUM_PULSE_TESTS=1)
run_c=("${bare[@]}" LD_LIBRARY_PATH="$prefix/lib" "${pulse_env[@]}" THRUM_TEST_DEVICE=pulse)
"${run_c[@]}" "$work/thrum_test" "$version" "$oracle/once.wav" "$oracle/options.wav" "$work/c-work"
# The Swift runtime's own allocations that live until exit are not ours: leak detection stays on for the
# test's handles but ignores what is still reachable at exit.
"${run_c[@]}" ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=report_objects=0 \
    "$work/thrum_test_asan" "$version" "$oracle/once.wav" "$oracle/options.wav" "$work/c-asan-work"

step "C test under valgrind's memcheck (offline calls): no invalid or uninitialised read, no invalid free"
if command -v valgrind >/dev/null; then
    mkdir -p "$work/c-valgrind-work"
    # The Swift runtime's caches live until exit: leaks are not checked here (AddressSanitizer checks the test's).
    "${bare[@]}" LD_LIBRARY_PATH="$prefix/lib" valgrind --quiet --error-exitcode=99 --leak-check=no \
        "$work/thrum_test" "$version" "$oracle/once.wav" "$oracle/options.wav" "$work/c-valgrind-work" ||
        fail "valgrind reported the errors above in thrum_test"
else
    echo "skipped: valgrind is not installed (Tools/dev/system-packages.sh test installs it)"
fi

step "device loss: a second private PulseAudio server killed mid-play (C, then Python)"
loss_runtime="$work/pulse-loss"
loss_server() { THRUM_PULSE_RUNTIME="$loss_runtime" "$root/Tools/dev/pulse-null-sink.sh" "$@"; }
loss_run() {  # starts the loss server and runs "$@" with its environment and THRUM_TEST_KILL_SERVER=its pid
    loss_server start >/dev/null
    "${bare[@]}" LD_LIBRARY_PATH="$prefix/lib" PULSE_SERVER="unix:$loss_runtime/native" PULSE_RUNTIME_PATH="$loss_runtime" \
        PULSE_CLIENTCONFIG="$loss_runtime/client.conf" THRUM_TEST_DEVICE=pulse \
        THRUM_TEST_KILL_SERVER="$(cat "$loss_runtime/pulseaudio.pid")" "$@"
    loss_server stop >/dev/null 2>&1 || true
}
loss_run "$work/thrum_test" "$version" "$oracle/once.wav" "$oracle/options.wav" "$work/c-work"

step "thrum_measure and live onsets from C on the simulated card (sim_lra, sim_hda), and under AddressSanitizer"
# The simulated card (an ALSA plugin built with cc): without it the measurement tests are skipped, saying why.
simcard_env=()
if plugin="$("$root/Tools/dev/simcard/build.sh" 2>"$work/simcard.log")"; then
    simcard_env=(THRUM_SIMCARD_PLUGIN="$plugin" THRUM_SIMCARD_DIR="$work/simcard"
        ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$root/Tools/dev/simcard/profiles.conf")
    mkdir -p "$work/simcard"
    for test in thrum_measure_test thrum_onset_test; do
        for variant in "" "-g -fsanitize=address -fno-omit-frame-pointer"; do
            folder="$work/$test${variant:+-asan}-work"
            mkdir -p "$folder"
            # shellcheck disable=SC2086 # the variant's flags are words
            cc -std=c99 -Wall -Wextra -Werror $variant "$root/Tests/libthrum/$test.c" "${flags[@]}" -lm -lpthread \
                -o "$work/$test"
            "${run_c[@]}" "${simcard_env[@]}" ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=report_objects=0 \
                "$work/$test" "$folder"
        done
    done
else
    echo "skipped: the simulated card cannot be built ($(tail -1 "$work/simcard.log"))"
fi

step "C examples (examples/c/Makefile)"
cp -R "$root/examples/c" "$work/c-examples"
make -s -C "$work/c-examples"

step "venv + pip install ./python"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$root/python"
rm -rf "$root/python/build" "$root/python/"*.egg-info

step "pytest (no Swift toolchain in reach)"
(cd "$work" && "${bare[@]}" "${pulse_env[@]}" THRUM_CLI="$prefix/bin/thrum" THRUM_C_EXAMPLES="$work/c-examples" \
    LD_LIBRARY_PATH="$prefix/lib" "${simcard_env[@]}" "$work/venv/bin/python" -m pytest -p no:cacheprovider -q -rs "$root/python/tests")
step "device loss from Python (a private server killed mid-play)"
(cd "$work" && loss_run "$work/venv/bin/python" -m pytest -p no:cacheprovider -q "$root/python/tests/test_device_loss.py")
step "pip install ./python with THRUM_USE_SYSTEM_LIBRARY=1: no Swift built, nothing bundled, the installed libthrum used"
/usr/bin/python3 -m venv --system-site-packages "$work/venv-system"
# No Swift on PATH (env -i): Tools/install.sh, if it ran, would fail.
"${bare[@]}" THRUM_USE_SYSTEM_LIBRARY=1 "$work/venv-system/bin/pip" install --quiet --no-build-isolation --no-index "$root/python"
rm -rf "$root/python/build" "$root/python/"*.egg-info
system_package="$("$work/venv-system/bin/python" -c 'import importlib.util as u; print(u.find_spec("thrum").submodule_search_locations[0])')"
[[ ! -e "$system_package/lib" ]] || fail "THRUM_USE_SYSTEM_LIBRARY=1 bundled a libthrum: $(ls "$system_package/lib")"
(cd "$work" && "${bare[@]}" LD_LIBRARY_PATH="$prefix/lib" "$work/venv-system/bin/python" -c '
import thrum, thrum._native as n
assert n.library_path.startswith("libthrum.so") or n.library_path.startswith("'"$prefix"'/lib/"), n.library_path
assert thrum.render(thrum.Pattern.load("heartbeat"), sample_rate=48000).shape[0] > 0
print("system libthrum:", n.library_path)')
step "all passed"
