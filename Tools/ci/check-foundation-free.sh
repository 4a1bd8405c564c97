#!/usr/bin/env bash
# Checks that `thrum` and libthrum link no full Foundation: any reference to the Foundation module (NSString,
# String(format:), JSONSerialization, Thread, Process, FileHandle…) would link CoreFoundation and ICU into them,
# which at every start costs more than everything else thrum does (docs/performance.md, "Start-up and
# footprint"). FoundationEssentials is fine; Sources/FoundationStandIns has what the modules used Foundation for.
# `import Thrum` still brings Foundation to Swift programs, so a module that imports Thrum can reach Foundation's
# names without a compile error: this check is what catches them. Run by Tools/test.sh after the debug build.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$(swift build --package-path "$root" --show-bin-path)"
status=0
for file in "$bin/thrum" "$bin/libThrumC.so"; do
    [[ -f "$file" ]] || { echo "check-foundation-free: $file is not built (run swift build first)" >&2; exit 66; }
    # Swift symbols of the module Foundation carry "10Foundation" ("$s10Foundation…", and "$sSS10FoundationE…" for its
    # extensions of String and the like); FoundationEssentials' carry "20FoundationEssentials".
    found="$(nm --dynamic --undefined-only "$file" | grep -E '(^|[^0-9])10Foundation' | swift demangle --simplified | sed 's/^ *U */  /' || true)"
    if [[ -n "$found" ]]; then
        echo "check-foundation-free: $(basename "$file") uses full Foundation; use FoundationEssentials or FoundationStandIns for:" >&2
        echo "$found" | sort -u >&2
        status=1
    fi
done
((status == 0)) && echo "check-foundation-free: thrum and libthrum reference nothing of full Foundation"
exit $status
