#!/usr/bin/env bash
# Compares what `import Thrum` exposes with the committed list Tools/ci/public-api.txt, so that a change to the
# public surface is a visible diff. The surface is every public (not SPI) symbol of the Thrum module and of
# what it re-exports: all of ThrumModel, and the option types it names from RenderCore, AudioAnalysis and
# AudioResources (Sources/Thrum/Exports.swift). Symbols come from swift-symbolgraph-extract over the debug
# build's modules (build first: `swift build`).
#   Tools/ci/check-public-api.sh            fails (exit 1) with the diff when the surface changed
#   Tools/ci/check-public-api.sh --update   rewrites Tools/ci/public-api.txt
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(swift build --package-path "$root" --show-bin-path)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
flags=(-target "$(uname -m)-unknown-linux-gnu" -I "$build/Modules" -minimum-access-level public -output-dir "$out")
for map in "$build"/*.build/module.modulemap "$build"/*.build/include/module.modulemap; do
    [[ -f "$map" ]] && flags+=(-Xcc "-fmodule-map-file=$map")
done
flags+=(-Xcc "-fmodule-map-file=$root/Sources/CALSA/module.modulemap")
for module in CConfinedOpen CSndFile CSampleRate; do flags+=(-Xcc "-I$root/Sources/$module/include"); done
for module in Thrum ThrumModel RenderCore AudioAnalysis AudioResources; do
    swift-symbolgraph-extract -module-name "$module" "${flags[@]}" >/dev/null
done
# The types Exports.swift re-exports one by one (their members included).
exported="$(grep -oE '^@_exported public import [a-z]+ [A-Za-z]+\.[A-Za-z]+' "$root/Sources/Thrum/Exports.swift" | awk '{print $NF}')"
python3 - "$out" "$exported" >"$out/surface.txt" <<'PY'
import json, pathlib, sys
folder, exported = pathlib.Path(sys.argv[1]), sys.argv[2].split()
names = set()
for graph in sorted(folder.glob("*.symbols.json")):
    module = graph.name.split(".")[0].split("@")[0]
    whole = module in ("Thrum", "ThrumModel")
    for symbol in json.loads(graph.read_text())["symbols"]:
        path = symbol["pathComponents"]
        if not whole and f"{module}.{path[0]}" not in exported:
            continue
        declaration = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
        names.add(f'{".".join(path)} ({symbol["kind"]["displayName"].lower()}): {declaration}')
for name in sorted(names):
    print(" ".join(name.split()))
PY
if [[ "${1:-}" == "--update" ]]; then
    cp "$out/surface.txt" "$root/Tools/ci/public-api.txt"
    echo "Tools/ci/public-api.txt: $(wc -l <"$root/Tools/ci/public-api.txt") public symbols"
elif ! diff -u "$root/Tools/ci/public-api.txt" "$out/surface.txt"; then
    echo "The public surface of 'import Thrum' changed (diff above: - committed, + now). If that is intended, run" >&2
    echo "Tools/ci/check-public-api.sh --update and commit Tools/ci/public-api.txt with the change." >&2
    exit 1
else
    echo "public API: $(wc -l <"$out/surface.txt") symbols, as committed in Tools/ci/public-api.txt"
fi
