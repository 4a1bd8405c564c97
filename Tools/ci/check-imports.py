#!/usr/bin/env python3
"""Checks that Package.swift declares the package's module graph honestly.

For every Swift target: each module of this package that one of its files imports is one of its direct
dependencies, and each dependency it declares is imported by one of its files. (SwiftPM's
`--explicit-target-dependency-import-check` only catches imports outside a target's dependency closure,
so an import reached through another target's dependencies passes it; this catches that too.)
Toolchain modules (Foundation, Glibc, Testing, …) are not this package's and are not checked.
Also: no file uses the standard library's `Mutex` (its futex is invisible to ThreadSanitizer; `Locked`, a pthread
mutex in FoundationStandIns, is the package's one lock).

Usage: Tools/ci/check-imports.py   (from anywhere; exit 1 and one line a problem when the graph is not honest)
"""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
description = json.loads(
    subprocess.run(
        ["swift", "package", "describe", "--type", "json"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
)
targets = description["targets"]
module_of = {target["name"]: target["c99name"] for target in targets}
package_modules = set(module_of.values())

# `import X`, `@testable import X`, `@_exported public import struct X.Y`, `internal import X`, …
import_line = re.compile(
    r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?(\w+)",
    re.MULTILINE,
)

# A use of `Mutex` as a type or a call, outside comments.
mutex_use = re.compile(r"^(?!\s*//).*\bMutex\s*[<(]", re.MULTILINE)

problems = []
for target in targets:
    if target["type"] == "system-target":
        continue
    sources = [os.path.join(root, target["path"], source) for source in target.get("sources", [])]
    imported = {}
    for path in sources:
        if not path.endswith(".swift"):
            continue
        with open(path, encoding="utf-8") as file:
            text = file.read()
            if mutex_use.search(text):
                problems.append(f"{os.path.relpath(path, root)} uses Mutex: use Locked (FoundationStandIns), which ThreadSanitizer sees")
            for module in import_line.findall(text):
                if module in package_modules and module != target["c99name"]:
                    imported.setdefault(module, os.path.relpath(path, root))
    if not any(path.endswith(".swift") for path in sources):
        continue
    declared = {module_of[name] for name in target.get("target_dependencies") or []}
    for module, path in sorted(imported.items()):
        if module not in declared:
            problems.append(f"{target['name']}: {path} imports {module}, which Package.swift does not declare")
    for module in sorted(declared - set(imported)):
        problems.append(f"{target['name']}: declares {module} in Package.swift but no file imports it")

for problem in problems:
    print(f"check-imports: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-imports: {sum(1 for t in targets if t['type'] != 'system-target')} targets, every import declared")
