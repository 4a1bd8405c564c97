#!/usr/bin/env bash
# Tests the Debian package as a user gets it: builds it with Tools/release/package-deb.sh (or takes DEB), installs it
# with `apt-get install ./thrum_….deb` into a fresh Debian 12 root made by mmdebstrap, with no Swift
# toolchain in it, and runs the installed pieces there (chroot in a private mount namespace; needs root).
# lintian must report no errors.
#   Tools/ci/test-package.sh [DEB]
# The base root (apt, man-db, gcc, pkgconf, python3, shared-mime-info, desktop-file-utils) is cached as
# $THRUM_PACKAGE_CACHE/bookworm-*.tar (default .build/package-cache): the first run makes it (~2–3 min with
# Debian's mirror), later runs unpack it. apt inside uses the machine's apt sources and needs the network.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${THRUM_PACKAGE_CACHE:-$root/.build/package-cache}"
start=$SECONDS
say() { echo "test-package: $*" >&2; }
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (mmdebstrap, chroot)"
"$root/Tools/dev/system-packages.sh" package
for tool in mmdebstrap lintian unshare chroot python3; do command -v "$tool" >/dev/null || fail "needs $tool"; done

deb="${1:-}"
if [[ -z "$deb" ]]; then deb="$("$root/Tools/release/package-deb.sh")"; fi
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
version="$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$root/Sources/Thrum/ThrumVersion.swift")"
say "lintian $(basename "$deb")…"
lintian --fail-on error "$deb" || fail "lintian reports errors"
# Loaded at first use, so dpkg-shlibdeps cannot see them; DT_RELR needs glibc 2.36 (Tools/release/package-deb.sh).
depends="$(dpkg-deb -f "$deb" Depends)"
for needed in "libsndfile1 (" "libsamplerate0 (" "libcivetweb1 (" "libc6 (>= 2.36)"; do
    [[ "$depends" == *"$needed"* ]] || fail "Depends lacks '$needed': $depends"
done
built=$SECONDS

# The base root, cached under a name that changes with its package list.
base_packages="ca-certificates,man-db,gcc,libc6-dev,pkgconf,python3,shared-mime-info,desktop-file-utils"
base="$cache/bookworm-$(echo "$base_packages" | md5sum | cut -c1-12).tar"
if [[ ! -f "$base" ]]; then
    say "making the Debian 12 base root (cached as $base)…"
    mkdir -p "$cache"
    sources=/etc/apt/sources.list.d/debian.sources
    [[ -f $sources ]] || sources=/etc/apt/sources.list
    mmdebstrap --quiet --variant=apt --include="$base_packages" bookworm "${base%.tar}.partial.tar" - <"$sources"
    mv "${base%.tar}.partial.tar" "$base"
fi
based=$SECONDS

rootfs="$(mktemp -d /tmp/thrum-package-root.XXXXXX)"
trap 'rm -rf "$rootfs"' EXIT
tar -C "$rootfs" -xf "$base"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
cp "$deb" "$rootfs/tmp/"
printf '{"Version": 1.0, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticTransient", "EventParameters": []}},\n {"Event": {"Time": "soon"}}]}\n' \
    >"$rootfs/tmp/bad.ahap"

cat >"$rootfs/tmp/inside.sh" <<INSIDE
#!/bin/bash
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
fail() { echo "test-package: FAIL (inside): \$*" >&2; exit 1; }
cd /tmp
apt-get update -qq
apt-get install -y -qq --no-install-recommends ./$(basename "$deb") >/dev/null
! command -v swift >/dev/null || fail "a Swift toolchain is in the root"
[[ -z "\$(find / -xdev -name 'libswiftCore*' -print -quit)" ]] || fail "a Swift runtime is in the root"

[[ "\$(thrum --version)" == "thrum $version" ]] || fail "thrum --version says '\$(thrum --version)'"
thrum render heartbeat -o x.wav
set +e; thrum check bad.ahap >check.out 2>check.err; status=\$?; set -e
[[ \$status -eq 65 ]] || fail "thrum check bad.ahap exited \$status, not 65"
grep -q "bad.ahap:2:" check.out check.err || fail "thrum check names no place in bad.ahap: \$(cat check.out check.err)"
[[ "\$(man -w thrum-play)" == /usr/share/man/man1/thrum-play.1.gz ]] || fail "man -w thrum-play: \$(man -w thrum-play)"
MANWIDTH=120 man thrum-play 2>&1 | grep -q -- "--device" || fail "man thrum-play lacks --device"
offered="\$(bash --norc -c 'source /usr/share/bash-completion/completions/thrum
    COMP_WORDS=(thrum pl); COMP_CWORD=1; COMP_LINE="thrum pl"; COMP_POINT=8
    \$(complete -p thrum | sed -n "s/.*-F \\([^ ]*\\).*/\\1/p") thrum pl thrum
    printf "%s\\n" "\${COMPREPLY[@]}"')"
[[ "\$(echo \$offered)" == "play plot" ]] || fail "bash: thrum pl<Tab> offers '\$offered', not 'play plot'"
grep -q 'application/x-ahap+json:\*\.ahap' /usr/share/mime/globs2 || fail ".ahap is not a registered MIME type"
grep -q 'thrum-studio.desktop' /usr/share/applications/mimeinfo.cache || fail "thrum-studio.desktop is not in mimeinfo.cache"
# MPEG haptics (RFC 9695): shared-mime-info registers the types. The desktop entry lists them, but Debian 12's
# update-desktop-database refuses the 'haptics' top-level type (registered in 2025, after its list), so
# mimeinfo.cache cannot carry them there (docs/formats.md says so).
for type in hjif hmpg; do
    grep -q "haptics/\$type:\\*\\.\$type" /usr/share/mime/globs2 || fail ".\$type is not registered as haptics/\$type"
    grep -q "^MimeType=.*haptics/\$type;" /usr/share/applications/thrum-studio.desktop || fail "thrum-studio.desktop does not list haptics/\$type"
done
grep -q '^application/x-haptic+json=.*thrum-studio.desktop' /usr/share/applications/mimeinfo.cache || fail "thrum-studio.desktop does not open .haptic"
desktop-file-validate /usr/share/applications/thrum-studio.desktop || fail "desktop-file-validate refuses thrum-studio.desktop"
# The studio loads civetweb at start (Sources/CDeferredLibrary): the package's Depends must have brought it.
thrum studio --no-browser --device null /tmp >studio.out 2>studio.err &
studio=\$!
for _ in \$(seq 100); do grep -q "^Thrum Studio: http" studio.out && break; sleep 0.1; done
url="\$(sed -n 's/^Thrum Studio: //p' studio.out)"
[[ -n "\$url" ]] || fail "thrum studio printed no address: \$(cat studio.out studio.err)"
python3 -c 'import sys, urllib.request; assert b"<title>Thrum Studio" in urllib.request.urlopen(sys.argv[1]).read()' "\$url" ||
    fail "the studio's page did not load from \$url"
kill \$studio; wait \$studio || true
echo "studio: ok"
if [[ -f /usr/include/thrum.h ]]; then
    printf '#include <stdio.h>\n#include <thrum.h>\nint main(void) { puts(thrum_version()); return 0; }\n' >version.c
    cc -o version version.c \$(pkg-config --cflags --libs thrum)
    [[ "\$(./version)" == "$version" ]] || fail "thrum_version() says '\$(./version)'"
    echo "C header: ok"
else
    echo "C header: not packaged (no /usr/include/thrum.h)"
fi
if python3 -c 'import thrum' 2>/dev/null; then echo "Python import: ok"; else echo "Python import: not packaged"; fi
echo "inside: ok"
INSIDE
chmod +x "$rootfs/tmp/inside.sh"

say "installing $(basename "$deb") with apt into the fresh root and running it there…"
unshare --mount --pid --fork /bin/bash -c '
    set -e
    mount --rbind /dev "$1/dev"
    mount -t proc proc "$1/proc"
    mount -t sysfs sys "$1/sys"
    chroot "$1" /tmp/inside.sh' unshare "$rootfs"

# Without libsndfile (a broken install: the library is hidden by /dev/null in a private mount namespace),
# thrum still starts, and a render fails in one line that names the library and its package, leaving no file.
libsndfile="$(find "$rootfs/usr/lib" -name 'libsndfile.so.1.*' -type f | head -1)"
[[ -n "$libsndfile" ]] || fail "libsndfile is not in the fresh root"
cat >"$rootfs/tmp/without.sh" <<'WITHOUT'
#!/bin/bash
fail() { echo "test-package: FAIL (without libsndfile): $*" >&2; exit 1; }
cd /tmp
thrum --version >/dev/null || fail "thrum --version failed"
thrum render heartbeat -o nolib.wav 2>nolib.err; status=$?
[[ $status -eq 74 ]] || fail "thrum render exited $status, not 74: $(cat nolib.err)"
[[ $(wc -l <nolib.err) -eq 1 ]] || fail "more than one line: $(cat nolib.err)"
grep -q "cannot load libsndfile.so.1 (.*); install Debian's libsndfile1" nolib.err || fail "$(cat nolib.err)"
[[ ! -e nolib.wav ]] || fail "a file was left behind"
echo "without libsndfile: ok"
WITHOUT
chmod +x "$rootfs/tmp/without.sh"
unshare --mount --pid --fork /bin/bash -c '
    set -e
    mount --bind /dev/null "$2"
    mount -t proc proc "$1/proc"
    chroot "$1" /tmp/without.sh' unshare "$rootfs" "$libsndfile"

# The installed render equals the build tree'\''s, sample for sample.
# The build tree's binary: package-deb.sh's own build, else (when Tools/install.sh built the package's) Tools/thrum's.
reference="$root/.build/deb/release/thrum"
if [[ ! -x "$reference" ]]; then
    swift build -c release --product thrum --package-path "$root" >&2
    reference="$root/.build/release/thrum"
fi
"$reference" render heartbeat -o "$rootfs/tmp/reference.wav"
python3 - "$rootfs/tmp/x.wav" "$rootfs/tmp/reference.wav" <<'PYTHON'
import struct, sys
def chunks(path):
    data = open(path, "rb").read()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", path + ": not a WAV file"
    found, at = {}, 12
    while at + 8 <= len(data):
        name, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        found[name] = data[at + 8:at + 8 + size]
        at += 8 + size + (size & 1)
    return found
installed, reference = (chunks(p) for p in sys.argv[1:3])
assert installed[b"fmt "] == reference[b"fmt "], "the formats differ"
channels, bits = struct.unpack("<H", installed[b"fmt "][2:4])[0], struct.unpack("<H", installed[b"fmt "][14:16])[0]
frames = len(reference[b"data"]) // (channels * bits // 8)
assert frames > 0, "the reference render is empty"
assert installed[b"data"] == reference[b"data"], "the samples differ"
print(f"test-package: render heartbeat: {frames} frames x {channels} channels equal sample for sample")
PYTHON
say "ok: build ${built}s (cached or not), base root $((based - built))s, install and checks $((SECONDS - based))s, total $((SECONDS - start))s"
