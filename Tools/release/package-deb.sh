#!/usr/bin/env bash
# Builds the Debian package thrum_VERSION_ARCH.deb from Tools/install.sh's release build, whose Swift
# runtime is linked in (--static-swift-stdlib), so the package needs no Swift toolchain.
#   Tools/release/package-deb.sh [OUTPUT_DIR]        (default: .build/deb-out; prints the .deb's path last)
# The version is ThrumVersion.string (Sources/Thrum/ThrumVersion.swift); Depends is computed by
# dpkg-shlibdeps from the binaries; man pages and completions are written by the packaged binary itself
# (thrum man, thrum completions) from the option tables its --help reads. Needs dpkg-dev (dpkg-shlibdeps).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$(mkdir -p "${1:-$root/.build/deb-out}" && cd "${1:-$root/.build/deb-out}" && pwd)"
version="$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$root/Sources/Thrum/ThrumVersion.swift")"
[[ -n "$version" ]] || { echo "package-deb: no version in Sources/Thrum/ThrumVersion.swift" >&2; exit 70; }
"$root/Tools/dev/system-packages.sh" package
arch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The package's tree sits at debian/thrum, where dpkg-shlibdeps expects a package being built.
pkg="$work/debian/thrum"

# The installed layout of docs/install.md (bin/thrum, lib/libthrum.so, include/thrum.h, lib/pkgconfig/thrum.pc,
# share/thrum/…), staged by Tools/install.sh as a user's install would be.
"$root/Tools/install.sh" --prefix "$pkg/usr" >&2
thrum="$pkg/usr/bin/thrum"
share="$pkg/usr/share"
is_elf() { [[ "$(head -c 4 "$1")" == $'\x7fELF' ]]; }
mapfile -t elves < <(find "$pkg/usr" -type f | while read -r file; do if is_elf "$file"; then echo "$file"; fi; done)
strip --strip-unneeded --remove-section=.comment --remove-section=.note "${elves[@]}"
# The patterns folder's notes are for the repository's readers, not for the installed tree.
find "$share/thrum" -name '*.md' -delete

# Man pages and completions, from the packaged binary's own tables.
mkdir -p "$share/man/man1"
while read -r page; do
    if [[ $page == thrum ]]; then "$thrum" man; else "$thrum" man "${page#thrum-}"; fi | gzip -9n >"$share/man/man1/$page.1.gz"
done < <("$thrum" man --list)
install -d "$share/bash-completion/completions" "$share/zsh/vendor-completions" "$share/fish/vendor_completions.d"
"$thrum" completions bash >"$share/bash-completion/completions/thrum"
"$thrum" completions zsh >"$share/zsh/vendor-completions/_thrum"
"$thrum" completions fish >"$share/fish/vendor_completions.d/thrum.fish"

# Desktop integration: the studio entry, the MIME types of .ahap and .haptic, the icon.
install -D -m 0644 "$root/Packaging/linux/thrum-studio.desktop" "$share/applications/thrum-studio.desktop"
install -D -m 0644 "$root/Packaging/linux/thrum.xml" "$share/mime/packages/thrum.xml"
install -D -m 0644 "$root/Packaging/linux/thrum.svg" "$share/icons/hicolor/scalable/apps/thrum.svg"

# Documentation as Debian policy asks: copyright, and the changelog of a native package.
install -D -m 0644 "$root/Packaging/debian/copyright" "$share/doc/thrum/copyright"
maintainer="Thrum maintainers <maintainers@users.noreply.a-seed-189918ba.example>"
date="$(git -C "$root" log -1 --format=%aD -- Sources/Thrum/ThrumVersion.swift 2>/dev/null || true)"
[[ -n "$date" ]] || date="$(date -R)"
printf 'thrum (%s) unstable; urgency=medium\n\n  * Release %s: see docs/ in the repository for what it does.\n\n -- %s  %s\n' \
    "$version" "$version" "$maintainer" "$date" | gzip -9n >"$share/doc/thrum/changelog.gz"

# Ownership and modes as dpkg-deb --root-owner-group records them; directories 0755, files 0644 except programs.
find "$pkg" -type d -exec chmod 0755 {} +
find "$pkg" -type f -exec chmod 0644 {} +
find "$pkg/usr/bin" -type f -exec chmod 0755 {} +

# Depends from the ELF files' needed libraries (dpkg-shlibdeps reads debian/control above the tree).
mkdir -p "$pkg/DEBIAN"
printf 'Source: thrum\n\nPackage: thrum\nArchitecture: any\n' >"$work/debian/control"
libdirs=()
[[ -d "$pkg/usr/lib" ]] && libdirs=(-l"$pkg/usr/lib")
depends="$(cd "$work" && dpkg-shlibdeps -O "${libdirs[@]}" "${elves[@]}" | sed -n 's/^shlibs:Depends=//p')"
[[ -n "$depends" ]] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 70; }
# thrum and libthrum load libsndfile, libsamplerate and civetweb at first use (Sources/CDeferredLibrary), so
# they are not among the needed libraries; each library package's shlibs file names the package and version
# that dpkg-shlibdeps would have named (Debian policy 8.6.4.1 asks for such dependencies by hand).
for soname in libsndfile.so.1 libsamplerate.so.0 libcivetweb.so.1; do
    owner="$(dpkg-query -S "*/$soname" | head -1 | cut -d: -f1)"
    shlibs="$(dpkg-query --control-path "$owner" shlibs)"
    dependency="$(awk -v name="${soname%%.so.*}" -v major="${soname##*.so.}" \
        '$1 == name && $2 == major { $1 = $2 = ""; sub(/^ +/, ""); print; exit }' "$shlibs")"
    [[ -n "$dependency" ]] || { echo "package-deb: no shlibs entry for $soname in $owner" >&2; exit 70; }
    depends+=", $dependency"
done
# Packed relative relocations (Tools/install.sh) need glibc 2.36 (the GLIBC_ABI_DT_RELR version), which
# dpkg-shlibdeps does not count.
libc_version="$(sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p' <<<"$depends")"
versions="$(readelf -V "${elves[@]}")"
if [[ "$versions" == *GLIBC_ABI_DT_RELR* ]] && dpkg --compare-versions "${libc_version:-0}" lt 2.36; then
    depends="$(sed "s/libc6 (>= [^)]*)/libc6 (>= 2.36)/" <<<"$depends")"
fi

(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
installed_size="$(du -sk --apparent-size --exclude=DEBIAN "$pkg" | cut -f1)"
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" \
    "$root/Packaging/debian/control.in" >"$pkg/DEBIAN/control"
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
# libthrum is a shared library: other packages' dpkg-shlibdeps learn from shlibs which package provides its
# soname, and the ldconfig trigger refreshes the linker cache when it is installed or removed (Debian policy 8.6).
if compgen -G "$pkg/usr/lib/libthrum.so.*" >/dev/null; then
    soname_major="$(objdump -p "$pkg"/usr/lib/libthrum.so.*.* | sed -n 's/^ *SONAME *libthrum\.so\.//p')"
    printf 'libthrum %s thrum (>= %s)\n' "$soname_major" "$version" >"$pkg/DEBIAN/shlibs"
    printf 'activate-noawait ldconfig\n' >"$pkg/DEBIAN/triggers"
    chmod 0644 "$pkg/DEBIAN/shlibs" "$pkg/DEBIAN/triggers"
fi

deb="$out/thrum_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb.partial" >&2
mv "$deb.partial" "$deb"
echo "package-deb: $(du -h "$deb" | cut -f1) $deb (installed size ${installed_size} KiB; Depends: $depends)" >&2
echo "$deb"
