"""Where the package finds libthrum (thrum/_native.py: $THRUM_LIBRARY, else the bundled copy, else the system's
through ctypes.util.find_library), and analyze() handing back its notes as `thrum analyze` prints them."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import thrum
from thrum import _native
from conftest import REPOSITORY, run_cli


def test_an_installed_package_uses_its_bundled_copy_unless_it_was_installed_without_one():
    bundled = Path(thrum.__file__).parent / "lib" / "libthrum.so"
    if os.environ.get("THRUM_LIBRARY"):
        assert _native.library_path == os.environ["THRUM_LIBRARY"]
    elif bundled.exists():
        assert _native.library_path == str(bundled)
    else:
        assert _native.library_path.startswith("libthrum.so") or "/libthrum.so" in _native.library_path


def _run_package_copy(tmp_path, env):
    """`thrum.__version__` and the library path from a copy of the package's sources (no lib/ inside)."""
    copy = tmp_path / "site"
    shutil.copytree(REPOSITORY / "python" / "thrum", copy / "thrum", ignore=shutil.ignore_patterns("lib", "share"))
    code = "import thrum, thrum._native as n; print(thrum.__version__); print(n.library_path)"
    return subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=60)


def test_without_a_bundled_copy_the_system_libthrum_is_found(tmp_path):
    library_folder = os.environ.get("LD_LIBRARY_PATH", "").split(":")[0]
    if not library_folder or not (Path(library_folder) / "libthrum.so.0").exists():
        pytest.skip("no installed libthrum on LD_LIBRARY_PATH (Tools/ci/test-libthrum.sh installs one)")
    env = {k: v for k, v in os.environ.items() if k != "THRUM_LIBRARY"}
    run = _run_package_copy(tmp_path, env)
    assert run.returncode == 0, run.stderr
    version, path = run.stdout.split()
    assert version == thrum.__version__
    assert "libthrum.so" in path and "site" not in path


def test_no_libthrum_anywhere_names_the_three_places(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("THRUM_LIBRARY", "LD_LIBRARY_PATH")}
    env["PATH"] = str(tmp_path)  # no compiler or linker for find_library to ask
    run = _run_package_copy(tmp_path, env)
    if run.returncode == 0:
        pytest.skip(f"a libthrum is installed system-wide ({run.stdout.split()[-1]})")
    assert "libthrum not found" in run.stderr and "THRUM_LIBRARY" in run.stderr


def test_analyze_returns_the_notes_the_command_prints(tmp_path):
    shutil.copy(REPOSITORY / "Resources" / "Audio" / "click.wav", tmp_path / "click.wav")
    project = tmp_path / "project.hasp"
    # A clip without settings: the general preset is used, with a note.
    project.write_text(json.dumps({"metadata": {"name": "Doors"}, "clips": [
        {"name": "Click", "audioAsset": {"filename": "click.wav", "path": "click.wav", "channels": 1}}]}))
    pattern = thrum.analyze(tmp_path / "click.wav", tmp_path / "out.ahap", settings=project, clip="Click")
    assert any("clip 'Click' has no settings: the general preset is used" in line for line in pattern.warnings)
    cli = run_cli("analyze", str(tmp_path / "click.wav"), "-o", str(tmp_path / "cli.ahap"), "--settings", str(project),
                  "--clip", "Click")
    assert cli.returncode == 0, cli.stderr
    for line in pattern.warnings:
        assert line in cli.stderr, (line, cli.stderr)
    plain = thrum.analyze(tmp_path / "click.wav", tmp_path / "plain.ahap")
    assert plain.warnings == [line for line in run_cli("analyze", str(tmp_path / "click.wav"), "-o",
                                                                 str(tmp_path / "plain-cli.ahap")).stderr.splitlines()
                               if line.startswith(("note:", "warning:"))]
