#!/usr/bin/env bash
# Installs the Debian packages Thrum needs that are missing. Usage: Tools/system-packages.sh [build|test]
#   build: what building and playing need (ALSA, libsndfile, libsamplerate, pkg-config)
#   test:  build + what the tests use (PulseAudio null sink reached through ALSA, aplay, sox; a headless
#          PipeWire with WirePlumber and D-Bus, whose ALSA plugin pipewire-alsa is only downloaded and
#          unpacked by Tools/pipewire-null-sink.sh, never installed; jackd2 and jack_capture)
set -euo pipefail
build_packages=(pkg-config libasound2-dev libsndfile1-dev libsamplerate0-dev libasound2-plugins librsvg2-bin libcivetweb-dev)
test_packages=(pulseaudio pulseaudio-utils alsa-utils sox python3 pipewire pipewire-bin wireplumber dbus jackd2 jack-capture python3-pytest python3-websocket chromium chromium-driver python3-selenium)
wanted=("${build_packages[@]}")
if [[ "${1:-build}" == "test" ]]; then wanted+=("${test_packages[@]}"); fi
missing=()
for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "Thrum: installing ${missing[*]}" >&2
    sudo_cmd=()
    if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
