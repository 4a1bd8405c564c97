#!/usr/bin/env python3
"""Writes Tools/release/startup-order.ld, the linker script that places the functions `thrum` runs when it starts
and plays first in `.text` (Tools/install.sh links with it).

Why: the kernel maps an executable's code 64 KB at a time around each page a process touches, so the few
hundred KB of functions a start runs, scattered through 10 MB of code, made 7 MB of `thrum play`'s
resident set (docs/performance.md). Grouped in one output section they take a few windows instead.

How: runs the installed `thrum` (Tools/install.sh --prefix PREFIX) under valgrind's callgrind for the
commands below, collects every function of the executable that ran, and writes one input-section line per
function. The functions are found by their sections (`.text.SYMBOL`): the Swift standard library,
FoundationEssentials and Thrum's own modules (Tools/install.sh compiles them with -function-sections) have
one section per function; code without such sections stays where it is. A name that no longer exists
matches nothing and costs nothing, so a stale script only loses some of the gain; run this again after
larger changes to the play path and check the footprint with `Tools/benchmark.sh --only footprint`.

    Tools/install.sh --prefix /tmp/thrum-order && Tools/release/startup-order.py /tmp/thrum-order
    Tools/release/startup-order.py --check /tmp/thrum-order   # exit 1 when the committed script is stale

Stale means: a name in the script no longer exists in the executable (renamed or removed code), or more than
1 % of the functions the commands run in two passes both are not in it (they would stay scattered). Some
functions run only in some runs (libdispatch's queue set-up; an underrun's recovery when valgrind's
slowness starves the card: 1 to 40 of about 1,700 in one pass over an unchanged tree), hence both passes
and the 1 %. `.ci/run` checks it after the
package test, so a change to the start-up path that forgets to regenerate the script fails CI.

Needs valgrind (Debian: valgrind) and the simulated card (Tools/dev/simcard/build.sh).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, "Tools/release/startup-order.ld")


def commands(folder: str) -> list[list[str]]:
    """What a user's first minute runs: the version, the help, and plays on the simulated card."""
    card = f"sim_scarlett:DIR={folder}"
    return [["--version"], ["--help"], ["play", "heartbeat", "--device", card],
            ["play", "tap", "--device", card, "--period", "256", "--periods", "4"],
            ["play", "heartbeat", "--device", card, "--channels", "L+H,R+H"]]


def executed_functions(callgrind_output: str) -> set[str]:
    """Names of the functions that ran, from a callgrind output file (name compression: `fn=(N) name` defines
    a number once, later lines use the number alone). callgrind cannot always tell which object a function
    came from, so this takes every name; the caller keeps those the executable defines."""
    names: dict[str, str] = {}
    found: set[str] = set()
    for line in open(callgrind_output, errors="replace"):
        match = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if match:
            if match.group(3):
                names[match.group(2)] = match.group(3)
            if match.group(1) == "fn":
                # callgrind marks recursion depth with 'N; the symbol is the part before it.
                found.add(re.sub(r"'\d+$", "", names[match.group(2)]))
    return found


def defined_functions(executable: str) -> set[str]:
    """The function symbols `executable` defines (nm: t, T, w, W)."""
    listing = subprocess.run(["nm", "--defined-only", executable], capture_output=True, text=True, check=True).stdout
    return {parts[2] for parts in (line.split(" ", 2) for line in listing.splitlines())
            if len(parts) == 3 and parts[1] in "tTwW"}


def committed_functions() -> set[str]:
    """The function names the committed script places."""
    return set(re.findall(r'\*\("\.text\.([^"]+)"\)', open(OUTPUT).read()))


def main() -> int:
    arguments = sys.argv[1:]
    check = arguments[:1] == ["--check"]
    if check:
        arguments = arguments[1:]
    if len(arguments) != 1:
        print("usage: Tools/release/startup-order.py [--check] PREFIX   (a prefix Tools/install.sh installed into)",
              file=sys.stderr)
        return 64
    prefix = os.path.abspath(arguments[0])
    thrum = os.path.join(prefix, "bin/thrum")
    if not os.access(thrum, os.X_OK):
        print(f"startup-order: {thrum} is missing; run Tools/install.sh --prefix {prefix} first", file=sys.stderr)
        return 66
    plugin = subprocess.run([os.path.join(ROOT, "Tools/dev/simcard/build.sh")], capture_output=True, text=True,
                            check=True).stdout.strip()
    profiles = os.path.join(ROOT, "Tools/dev/simcard/profiles.conf")
    env = dict(os.environ, THRUM_SIMCARD_PLUGIN=plugin, THRUM_SIMCARD_PROFILES=profiles,
               ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{profiles}")
    with tempfile.TemporaryDirectory(prefix="thrum-order-") as folder:
        # valgrind cannot read the debug information of the release build; a copy without it runs the same code.
        bare = os.path.join(prefix, "bin/.thrum-order")
        subprocess.run(["strip", "--strip-debug", "-o", bare, thrum], check=True)
        # Generating takes every function of one pass; checking takes those of two passes both, so that a
        # path only a slow run takes (valgrind is 50 times slower; an underrun's recovery) is not counted.
        passes: list[set[str]] = []
        try:
            for _ in range(2 if check else 1):
                functions: set[str] = set()
                for command in commands(folder):
                    output = os.path.join(folder, "callgrind.out")
                    done = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                                           f"--callgrind-out-file={output}", bare] + command,
                                          env=env, capture_output=True, text=True)
                    if done.returncode != 0:
                        print(f"startup-order: thrum {' '.join(command)} failed under valgrind: "
                              f"{done.stderr.strip()[-300:]}", file=sys.stderr)
                        return 70
                    functions |= executed_functions(output)
                passes.append(functions)
            functions = set.intersection(*passes)
            defined = defined_functions(bare)
            symbols = sorted(functions & defined)
        finally:
            os.remove(bare)
    if check:
        committed = committed_functions()
        missing = sorted(set(symbols) - committed)
        gone = sorted(committed - defined)
        if len(missing) <= len(committed) // 100 and not gone:
            print(f"startup-order: {os.path.relpath(OUTPUT, ROOT)} is current ({len(committed)} functions; "
                  f"{len(missing)} run now outside it, within the 1 % of run-to-run noise)")
            return 0
        print(f"startup-order: {os.path.relpath(OUTPUT, ROOT)} is stale: {len(missing)} functions run at start are not in it"
              f"{' (e.g. ' + missing[0] + ')' if missing else ''}, {len(gone)} of its names no longer exist"
              f"{' (e.g. ' + gone[0] + ')' if gone else ''}; run Tools/release/startup-order.py {arguments[0]} and commit it",
              file=sys.stderr)
        return 1
    lines = ["/* Written by Tools/release/startup-order.py: the functions thrum runs at start and while it plays first,",
             "   grouped before .text (docs/performance.md). Regenerate it; do not edit it. */",
             "SECTIONS", "{", "  .text.thrum_startup : {"]
    lines += [f'    *(".text.{name}")' for name in symbols]
    lines += ["  }", "}", "INSERT BEFORE .text;"]
    open(OUTPUT, "w").write("\n".join(lines) + "\n")
    print(f"startup-order: {len(symbols)} functions in {os.path.relpath(OUTPUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
