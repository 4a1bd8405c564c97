#!/usr/bin/env python3
"""Checks that the documentation the code and the docs point to exists (run by Tools/test.sh).

1. Every document named in Sources/, Tests/, Tools/, Package.swift and .ci/ (a `NAME.md` in a comment,
   a help text or a test name) exists in the repository: at the path given, relative to the repository
   or to the file naming it, or, for a bare name, anywhere in the repository. The bare word DECISIONS
   (the project's decisions, now docs/decisions.md) counts as a document that is not here. The only
   documents allowed outside the repository are the ones docs/testing.md lists under "Data outside the
   repository" (shared test data and reference texts the tests read or copy from), named there in
   backticks.
2. Every relative link and image in README.md and docs/*.md resolves to a file of the repository, and
   a link to a heading (`FILE.md#heading`, `#heading`) to a heading of that file (GitHub's anchors).
3. docs/images/modules.dot matches Package.swift's targets (Tools/dev/draw-modules.py --check).

    Tools/ci/check-docs.py      # prints each problem as FILE:LINE: message, exit 1 if there is any
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_PLACES = ["Sources", "Tests", "Tools", "Package.swift", ".ci"]
CODE_SUFFIXES = {".swift", ".sh", ".py", ".c", ".h", ".conf", ".json", ""}
DOC_NAME = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.md)\b")
BARE_DECISIONS = re.compile(r"\bDECISIONS\b(?!\.md)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def tracked_files():
    """The repository's files: git's list (ignored files left out), or, outside a git checkout, every file
    but those in hidden folders (.build, .git, …)."""
    listing = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True)
    if listing.returncode == 0:
        return [ROOT / name for name in listing.stdout.decode().split("\0") if name and (ROOT / name).exists()]
    return [path for path in ROOT.rglob("*") if path.is_file()
            and not any(part.startswith(".") and part != ".ci" for part in path.relative_to(ROOT).parts)]


def external_documents():
    """The backticked names under "Data outside the repository" in docs/testing.md."""
    testing = (ROOT / "docs/testing.md").read_text()
    match = re.search(r"^## Data outside the repository\n(.*?)(?=^## |\Z)", testing, re.S | re.M)
    return set(re.findall(r"`([\w./-]+\.md)`", match.group(1))) if match else set()


def check_cited_documents(files, problems):
    names = {path.name for path in files}
    external = external_documents()
    for path in files:
        relative = path.relative_to(ROOT)
        if relative.parts[0] not in CODE_PLACES or path.suffix not in CODE_SUFFIXES or path.name == "check-docs.py":
            continue
        try:
            lines = path.read_text().splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            if BARE_DECISIONS.search(line):
                problems.append(f"{relative}:{number}: cites DECISIONS, which is not in the repository: "
                                "cite docs/decisions.md")
            for cited in DOC_NAME.findall(re.sub(r"\$\{?\w+\}?/", "", line)):
                if (ROOT / cited).exists() or (path.parent / cited).exists():
                    continue
                if "/" not in cited and cited in names:
                    continue
                if Path(cited).name in external:
                    continue
                problems.append(f"{relative}:{number}: cites {cited}, which is not in the repository "
                                "(add it under docs/, or list it in docs/testing.md \"Data outside the repository\")")


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown):
    seen, result = {}, set()
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"#{1,6} (.*)", line)):
            base = anchor(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    return result


def check_links(problems):
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for document in documents:
        relative = document.relative_to(ROOT)
        in_code = False
        for number, line in enumerate(document.read_text().splitlines(), 1):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"[a-z]+:", target):
                    continue
                file_part, _, fragment = target.partition("#")
                linked = (document.parent / file_part).resolve() if file_part else document
                if not linked.exists() or ROOT not in [linked, *linked.parents]:
                    problems.append(f"{relative}:{number}: link to {target}: no such file in the repository")
                elif fragment and linked.suffix == ".md" and fragment not in anchors(linked.read_text()):
                    problems.append(f"{relative}:{number}: link to {target}: {linked.name} has no heading #{fragment}")


def main():
    problems = []
    check_cited_documents(tracked_files(), problems)
    check_links(problems)
    drawing = subprocess.run([sys.executable, str(ROOT / "Tools/dev/draw-modules.py"), "--check"],
                             capture_output=True, text=True)
    if drawing.returncode != 0:
        problems.append(drawing.stderr.strip())
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-docs: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
