#!/usr/bin/env bash
# Installs Thrum under a prefix (default /usr/local):
#   PREFIX/bin/thrum                         the command
#   PREFIX/lib/libthrum.so.VERSION           libthrum, the C ABI (soname libthrum.so.0), with the links
#   PREFIX/lib/libthrum.so.0, libthrum.so
#   PREFIX/include/thrum.h                   its header
#   PREFIX/lib/pkgconfig/thrum.pc            for `pkg-config --cflags --libs thrum`
#   PREFIX/share/thrum/{Patterns,Audio,Actuators,Studio}   the bundled files (found relative to bin/ and lib/)
# Builds in release with the Swift runtime linked statically, so neither the command nor the library
# needs a Swift toolchain at run time (only Debian's libasound2, libsndfile1, libsamplerate0).
# Usage: Tools/install.sh [--prefix DIR] [--destdir DIR]   (--destdir stages PREFIX under DIR, for packages)
# The build folder is .build-install (THRUM_INSTALL_SCRATCH overrides it): its objects are built for a
# static runtime and are kept apart from the debug build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix=/usr/local
destdir=""
usage() { echo "usage: Tools/install.sh [--prefix DIR] [--destdir DIR]"; }
while (($#)); do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --prefix=*) prefix="${1#*=}"; shift ;;
        --destdir) destdir="${2:?--destdir needs a folder}"; shift 2 ;;
        --destdir=*) destdir="${1#*=}"; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "Tools/install.sh: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
    esac
done
[[ "$prefix" == /* ]] || prefix="$(pwd)/$prefix"
version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$root/Sources/Thrum/ThrumVersion.swift")"
[[ -n "$version" ]] || { echo "Tools/install.sh: no version in Sources/Thrum/ThrumVersion.swift" >&2; exit 70; }

scratch="${THRUM_INSTALL_SCRATCH:-$root/.build-install}"
# Linked by GNU ld with packed relative relocations (DT_RELR, glibc ≥ 2.36): the loader applies thrum's
# 75,000 relative relocations from a 15 KB bitmap instead of a 1.7 MB table (docs/performance.md).
build=(swift build --package-path "$root" -c release --scratch-path "$scratch" --static-swift-stdlib -Xswiftc -static-stdlib
    -Xswiftc -use-ld=bfd -Xlinker -z -Xlinker pack-relative-relocs)
# Both link libstdc++ and libgcc's unwinder statically too (the Swift runtime's C++ needs them): the loader
# then maps 4 libraries instead of 6, and libgcc_s's constructor, which asks the CPU for its features
# with CPUID (slow under a hypervisor), no longer runs at every start (docs/performance.md). GNU ld takes
# the first libstdc++ it finds on its -L path, so that path starts at a folder holding only the archive.
# Their symbols stay local (the runtime links with --exclude-libs ALL), so a plugin that loads libstdc++.so
# (ALSA's jack plugin, through libjack) or a host program using it keeps its own. One set of flags for both
# products, or each build would recompile the other's modules.
static_cxx="$scratch/static-libstdc++"
archive="$(clang -print-file-name=libstdc++.a)"
[[ -f "$archive" ]] || { echo "Tools/install.sh: no libstdc++.a (Debian: libstdc++-12-dev)" >&2; exit 69; }
mkdir -p "$static_cxx" && ln -sfn "$archive" "$static_cxx/libstdc++.a"
static_cxx_flags=(-Xlinker "-L$static_cxx" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc)
# One section per function, and the functions a start runs grouped first (Tools/release/startup-order.ld, written by
# Tools/release/startup-order.py): the kernel maps code 64 KB around each page touched, so scattered start-up code
# made most of `thrum play`'s resident set (docs/performance.md).
# --no-export-dynamic undoes the toolchain's -export-dynamic (static-stdlib-args.lnk): thrum's 4,400 Swift
# symbols in its dynamic symbol table made the loader's every symbol lookup (libasound's included) search
# them, and 410 KB of tables (.gnu.hash, .dynsym, .dynstr) were mapped at every start. Nothing resolves a
# symbol of the executable at run time; libthrum, a shared library, exports its C functions either way.
order_flags=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker -T -Xlinker "$root/Tools/release/startup-order.ld"
    -Xlinker --no-export-dynamic)
# SwiftPM does not track a linker script: a product older than the script is linked again.
for product in "$scratch/release/thrum" "$scratch/release/libThrumC.so"; do
    if [[ "$root/Tools/release/startup-order.ld" -nt "$product" ]]; then rm -f "$product"; fi
done
# The static Foundation's mktemp warning comes from the toolchain's own archive; nothing of ours.
"${build[@]}" "${static_cxx_flags[@]}" "${order_flags[@]}" --product thrum 2>&1 | grep -v -e "use of \`mktemp' is dangerous" -e "Data+Writing.swift.o" || true
"${build[@]}" "${static_cxx_flags[@]}" "${order_flags[@]}" --product ThrumC 2>&1 | grep -v -e "use of \`mktemp' is dangerous" -e "Data+Writing.swift.o" || true
bin="$("${build[@]}" "${static_cxx_flags[@]}" "${order_flags[@]}" --show-bin-path)"
[[ -x "$bin/thrum" && -f "$bin/libThrumC.so" ]] || { echo "Tools/install.sh: the release build failed" >&2; exit 70; }

target="$destdir$prefix"
install -d "$target/bin" "$target/lib/pkgconfig" "$target/include" "$target/share/thrum"
install -m 755 "$bin/thrum" "$target/bin/thrum"
install -m 755 "$bin/libThrumC.so" "$target/lib/libthrum.so.$version"
# libthrum without its debug information: DWARF 5, most of its 31 MB, which valgrind 3.19 cannot read (a separate
# debug file behind a debug link was tried: valgrind gave up on it). Debug with the debug build's libThrumC.so.
strip --strip-debug "$target/lib/libthrum.so.$version"
ln -sfn "libthrum.so.$version" "$target/lib/libthrum.so.0"
ln -sfn "libthrum.so.0" "$target/lib/libthrum.so"
install -m 644 "$root/include/thrum.h" "$target/include/thrum.h"
for folder in Patterns Audio Actuators Studio; do
    if [[ -d "$root/Resources/$folder" ]]; then
        rm -rf "${target:?}/share/thrum/$folder"
        cp -R "$root/Resources/$folder" "$target/share/thrum/$folder"
    fi
done
cat >"$target/lib/pkgconfig/thrum.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: thrum
Description: Core Haptics patterns (AHAP, .haptic) played through ALSA or rendered to samples
Version: $version
Libs: -L\${libdir} -lthrum
Cflags: -I\${includedir}
PC
echo "installed Thrum $version in $target: bin/thrum, lib/libthrum.so, include/thrum.h, lib/pkgconfig/thrum.pc, share/thrum"
