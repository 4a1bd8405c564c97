#!/usr/bin/env python3
"""Checks the one rule for file access on the start-up path: outside `Sources/Thrum` (whose Core Haptics API
takes URLs, as Apple's does), Thrum's modules reach files, folders and the environment through
FoundationStandIns' `FileSystem`, `FileBytes` and `PathName`, never FoundationEssentials' `FileManager`, `URL`
or `ProcessInfo`: those bring URL parsing, path standardisation and a copy of the environment into every start
of `thrum` and every load of libthrum (docs/performance.md, "Start-up and footprint"; docs/architecture.md,
"Foundation").

Usage: Tools/ci/check-file-access.py   (from anywhere; exit 1 and one line a use when the rule is broken)
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
forbidden = re.compile(r"\b(FileManager|URL|ProcessInfo)\b")
exempt = {os.path.join("Sources", "Thrum")}

problems = []
for folder, _, files in os.walk(os.path.join(root, "Sources")):
    relative = os.path.relpath(folder, root)
    if any(relative == path or relative.startswith(path + os.sep) for path in exempt):
        continue
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                code = line.split("//", 1)[0]  # comments may name what they replace
                code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)  # and so may messages
                match = forbidden.search(code)
                if match:
                    problems.append(f"{os.path.relpath(path, root)}:{number}: {match.group(1)}; use FileSystem, FileBytes or PathName (FoundationStandIns)")

for problem in problems:
    print(f"check-file-access: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print("check-file-access: no FileManager, URL or ProcessInfo outside Sources/Thrum")
