#!/usr/bin/env bash
# Installs the Debian packages Thrum needs that are missing, saying which and why before it installs
# anything. Usage: Tools/dev/system-packages.sh [build|nullsink|test|package]
#   build: what building and playing need (ALSA, libsndfile, libsamplerate, pkg-config)
#   nullsink: build + the PulseAudio null sink alone (what Tools/thrum play needs on a machine without a card)
#   test:  build + what the tests use (PulseAudio null sink reached through ALSA, aplay, sox; a headless
#          PipeWire with WirePlumber and D-Bus, whose ALSA plugin pipewire-alsa is only downloaded and
#          unpacked by Tools/dev/pipewire-null-sink.sh, never installed; jackd2 and jack_capture; the studio's
#          browser and API test tools; the shells and man for the completion and man-page tests)
#   package: build + what Tools/release/package-deb.sh and Tools/ci/test-package.sh use
# THRUM_NO_INSTALL=1: install nothing; when packages are missing, list them and exit 69 (EX_UNAVAILABLE)
# with the apt-get command to run.
# THRUM_PACKAGES_LIST=1: print the packages the role wants, one per line, and exit (installed or not).
# THRUM_PACKAGES_TEST_EXTRA: more package names to require, only for Tools/ci/test-system-packages.sh (which
# names one that cannot be installed, to see the missing-package path without installing anything).
set -euo pipefail
# Why each package is needed, printed before it is installed.
declare -A why=(
    [pkg-config]="finds the C libraries when building"
    [libasound2-dev]="ALSA, the sound output"
    [libsndfile1-dev]="reads and writes audio files"
    [libsamplerate0-dev]="converts audio files' sample rates"
    [libasound2-plugins]="ALSA's pulse device, for sound servers"
    [librsvg2-bin]="rsvg-convert, for thrum plot --png"
    [libcivetweb-dev]="the HTTP server of thrum studio"
    [pulseaudio]="the tests' null sink (Tools/dev/pulse-null-sink.sh)"
    [pulseaudio-utils]="pactl, parec and pacat for the null sink"
    [alsa-utils]="aplay, the tests' yardstick for thrum play's CPU time"
    [sox]="makes test sounds (Tools/dev/make-click-sound.sh, Tools/dev/fuzz.sh)"
    [python3]="the tests' terminal and image helpers (Tools/*.py)"
    [pipewire]="the tests' headless PipeWire (Tools/dev/pipewire-null-sink.sh)"
    [pipewire-bin]="pw-record and the PipeWire tools for its tests"
    [wireplumber]="the session manager the PipeWire tests need"
    [dbus]="the bus the PipeWire tests' WirePlumber talks on"
    [jackd2]="the tests' JACK server on its dummy driver (Tools/dev/jack-dummy.sh)"
    [jack-capture]="records the JACK tests' output"
    [python3-pytest]="runs the studio's API and browser tests (Tests/StudioAPI, Tests/Browser)"
    [python3-websocket]="the studio API tests' WebSocket client"
    [chromium]="the browser the studio's page tests drive"
    [chromium-driver]="lets Selenium drive Chromium"
    [python3-selenium]="drives the studio's page in Chromium (Tests/Browser)"
    [gcc]="compiles the C test program and examples against libthrum (Tools/ci/test-libthrum.sh)"
    [g++]="compiles thrum.h as C++ (Tools/ci/test-libthrum.sh)"
    [make]="builds the C examples (examples/c/Makefile)"
    [python3-venv]="the fresh venv the Python package is pip-installed into (Tools/ci/test-libthrum.sh)"
    [python3-numpy]="the Python package's sample arrays"
    [python3-matplotlib]="the Python plotting example"
    [python3-setuptools]="builds the Python package (python/setup.py)"
    [python3-wheel]="builds the Python package's wheel"
    [bash]="runs the bash completion script in ShellCompletionTests"
    [zsh]="runs the zsh completion script in ShellCompletionTests"
    [fish]="runs the fish completion script in ShellCompletionTests"
    [man-db]="man(1), which formats the man pages in ShellCompletionTests"
    [dpkg-dev]="dpkg-shlibdeps, which computes the .deb's Depends (Tools/release/package-deb.sh)"
    [binutils]="strip: Tools/install.sh strips libthrum of its debug information, the package its binaries"
    [lintian]="checks the .deb against Debian policy (Tools/ci/test-package.sh)"
    [valgrind]="traces the start-up path for Tools/release/startup-order.py --check; runs libthrum's C test under memcheck"
    [mmdebstrap]="makes the fresh Debian 12 root the .deb is installed into (Tools/ci/test-package.sh)"
)
build_packages=(pkg-config libasound2-dev libsndfile1-dev libsamplerate0-dev libasound2-plugins librsvg2-bin libcivetweb-dev binutils)
test_packages=(pulseaudio pulseaudio-utils alsa-utils sox python3 pipewire pipewire-bin wireplumber dbus jackd2 jack-capture python3-pytest python3-websocket chromium chromium-driver python3-selenium)
# The shells and man(1) that ShellCompletionTests run the completion scripts and man pages in.
test_packages+=(bash zsh fish man-db)
# libthrum under memcheck (Tools/ci/test-libthrum.sh).
test_packages+=(valgrind)
# What Tools/release/package-deb.sh and Tools/ci/test-package.sh use: dpkg-shlibdeps, strip, lintian, a fresh Debian root.
package_packages=(dpkg-dev binutils lintian mmdebstrap valgrind)
# libthrum's tests (Tools/ci/test-libthrum.sh): C and C++ compilers, make, Debian's python3 with venv, numpy, pytest,
# matplotlib, setuptools and wheel.
test_packages+=(gcc g++ make python3-venv python3-numpy python3-pytest python3-matplotlib python3-setuptools python3-wheel)
# The PulseAudio null sink Tools/thrum plays into when the machine has no sound card (Tools/dev/pulse-null-sink.sh).
nullsink_packages=(pulseaudio pulseaudio-utils)
wanted=("${build_packages[@]}")
if [[ "${1:-build}" == "nullsink" ]]; then wanted+=("${nullsink_packages[@]}"); fi
if [[ "${1:-build}" == "test" ]]; then wanted+=("${test_packages[@]}"); fi
if [[ "${1:-build}" == "package" ]]; then wanted+=("${package_packages[@]}"); fi
for package in ${THRUM_PACKAGES_TEST_EXTRA:-}; do
    wanted+=("$package")
    why[$package]="asked for by THRUM_PACKAGES_TEST_EXTRA"
done
if [[ -n "${THRUM_PACKAGES_LIST:-}" ]]; then printf '%s\n' "${wanted[@]}"; exit 0; fi
missing=()
for package in "${wanted[@]}"; do
    [[ -n "${why[$package]:-}" ]] || { echo "Tools/dev/system-packages.sh: $package has no reason in 'why'" >&2; exit 70; }
done
for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
((${#missing[@]})) || exit 0

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
command="${sudo_cmd[*]}${sudo_cmd[*]:+ }apt-get install --no-install-recommends ${missing[*]}"
if [[ "${THRUM_NO_INSTALL:-0}" == "1" ]]; then
    reasons=()
    for package in "${missing[@]}"; do reasons+=("$package (${why[$package]})"); done
    old_ifs="$IFS"; IFS=";"; listed="${reasons[*]}"; IFS="$old_ifs"
    echo "Thrum: missing Debian packages: ${listed//;/, }; THRUM_NO_INSTALL=1, so nothing was installed: run '$command'" >&2
    exit 69
fi
echo "Thrum: installing missing Debian packages (set THRUM_NO_INSTALL=1 to stop here instead):" >&2
for package in "${missing[@]}"; do echo "  $package: ${why[$package]}" >&2; done
echo "Thrum: running '${sudo_cmd[*]}${sudo_cmd[*]:+ }apt-get update' and '$command'" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
