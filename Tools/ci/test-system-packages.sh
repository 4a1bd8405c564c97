#!/usr/bin/env bash
# Tests Tools/dev/system-packages.sh without installing anything (run by Tools/test.sh after it installed the
# test packages): with everything present it is silent; with THRUM_NO_INSTALL=1 and a package missing (a
# name no archive has, added through THRUM_PACKAGES_TEST_EXTRA) it installs nothing, exits 69 and prints
# one line naming the package, why it is needed and the apt-get command to run.
set -euo pipefail
script="$(cd "$(dirname "${BASH_SOURCE[0]}")/../dev" && pwd)/system-packages.sh"
failures=0
fail() { echo "test-system-packages: FAIL: $*" >&2; failures=$((failures + 1)); }
out="$(mktemp)"; err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT

# Everything installed: nothing to say, nothing to do.
status=0; THRUM_NO_INSTALL=1 "$script" test >"$out" 2>"$err" || status=$?
[[ $status -eq 0 ]] || fail "all installed: exit $status, expected 0 ($(cat "$err"))"
[[ ! -s "$out" && ! -s "$err" ]] || fail "all installed: printed '$(cat "$out" "$err")'"

# A missing package with THRUM_NO_INSTALL=1: exit 69, one line with the package, its reason and the command.
absent="thrum-test-absent-package"
sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo "
status=0; THRUM_NO_INSTALL=1 THRUM_PACKAGES_TEST_EXTRA="$absent" "$script" build >"$out" 2>"$err" || status=$?
[[ $status -eq 69 ]] || fail "missing package: exit $status, expected 69"
[[ ! -s "$out" ]] || fail "missing package: stdout '$(cat "$out")'"
[[ $(grep -c '' "$err") -eq 1 ]] || fail "missing package: expected one line, got: $(cat "$err")"
grep -qF "missing Debian packages: $absent (asked for by THRUM_PACKAGES_TEST_EXTRA);" "$err" \
    || fail "missing package: the line does not name it with its reason: $(cat "$err")"
grep -qF "run '${sudo}apt-get install --no-install-recommends $absent'" "$err" \
    || fail "missing package: the line does not give the command to run: $(cat "$err")"

# Tools/thrum play without a card wants the build packages and the null sink's two, nothing of the test set.
build_set="$(THRUM_PACKAGES_LIST=1 "$script" build | sort)"
nullsink_set="$(THRUM_PACKAGES_LIST=1 "$script" nullsink | sort)"
expected="$(printf '%s\n' $build_set pulseaudio pulseaudio-utils | sort)"
[[ "$nullsink_set" == "$expected" ]] || fail "nullsink wants $(echo $nullsink_set), expected $(echo $expected)"
grep -q 'system-packages.sh" nullsink' "$(dirname "$script")/../thrum" || fail "Tools/thrum does not ask for the nullsink set"

if ((failures)); then exit 1; fi
echo "test-system-packages: 4 checks passed"
