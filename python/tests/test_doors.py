"""One result whichever front door is used: render, check and convert of the same patterns through the
command line (`thrum`, the oracle), libthrum (Python here, which only marshals keywords onto thrum.h's option
structs) and Thrum Studio's API (`thrum studio`), compared byte for byte. All three reach the same
services (Sources/ThrumServices); this is what shows it."""
import json
import re
import shutil
import subprocess
import urllib.request

import numpy as np
import pytest

import thrum
from conftest import REPOSITORY, cli, read_float_wav, run_cli

PATTERNS = ["heartbeat", "checkout", "click-with-sound"]
#: A file with findings (a warning each), as test_check.py writes it.
WARNED = ('{"Version": 1, "Pattern": [{"Event": {"EventType": "HapticTransient", "Time": 0,'
          ' "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 7}]}}]}')


class Studio:
    """`thrum studio ROOT --no-browser` and JSON requests to it (auditioning in the browser: no device)."""

    def __init__(self, root):
        self.process = subprocess.Popen([cli(), "studio", str(root), "--no-browser", "--device", "thrum_no_such_device"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.fullmatch(r"Thrum Studio: (http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{32})", line.strip())
        assert match, f"thrum studio printed {line!r}"
        self.base, self.token = match.groups()

    def call(self, method, path, body=None) -> bytes:
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read()

    def json(self, method, path, body=None):
        return json.loads(self.call(method, path, body))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    root = tmp_path_factory.mktemp("doors")
    for name in PATTERNS:
        shutil.copy(REPOSITORY / "Resources" / "Patterns" / f"{name}.ahap", root / f"{name}.ahap")
    shutil.copy(REPOSITORY / "Resources" / "Audio" / "click.wav", root / "click.wav")
    (root / "warned.ahap").write_text(WARNED)
    server = Studio(root)
    server.root = root
    yield server
    server.stop()


@pytest.mark.parametrize("name", PATTERNS)
def test_render_is_the_same_bytes_through_every_door(studio, tmp_path, name):
    oracle = tmp_path / "cli.wav"
    run = run_cli("render", name, "--format", "float", "-o", str(oracle))
    assert run.returncode == 0, run.stderr
    expected, rate = read_float_wav(oracle)
    assert rate == 48000
    assert np.array_equal(thrum.render(thrum.Pattern.load(name)), expected), "Python (libthrum) differs from thrum render"
    studio.json("POST", "/api/open", {"path": f"{name}.ahap"})
    assert studio.call("GET", "/api/render") == oracle.read_bytes(), "the studio's WAV differs from thrum render's"


def message(diagnostic: dict) -> str:
    """A finding of the studio's JSON as the message part of `thrum check`'s line."""
    return ((diagnostic["path"] + ": " if diagnostic["path"] else "") + diagnostic["message"]
            + ("; " + diagnostic["suggestion"] if diagnostic["suggestion"] else "")
            + (f" [CHHapticError.{diagnostic['code']}]" if diagnostic["code"] else ""))


@pytest.mark.parametrize("name", PATTERNS + ["warned"])
def test_check_finds_the_same_through_every_door(studio, name):
    path = studio.root / f"{name}.ahap"
    printed = run_cli("check", str(path)).stdout.strip().splitlines()[:-1]  # the last line is the summary
    found = thrum.check(str(path))
    assert [str(d) for d in found] == printed
    studio_found = studio.json("POST", "/api/open", {"path": f"{name}.ahap"})["diagnostics"]
    assert [(d["severity"], d["line"], d["column"]) for d in studio_found] == [
        (d.severity, d.line, d.column) for d in found]
    assert [message(d) for d in studio_found] == [d.message for d in found]
    if name == "warned":
        assert found, "the warned file has findings: the comparison is not empty"


@pytest.mark.parametrize("name", PATTERNS)
def test_convert_writes_the_same_bytes_through_every_door(studio, tmp_path, name):
    source = studio.root / f"{name}.ahap"
    run = run_cli("convert", str(source), "-o", str(tmp_path / "cli.haptic"))
    assert run.returncode == 0, run.stderr
    thrum.convert(str(source), tmp_path / "python.haptic")
    studio.json("POST", "/api/open", {"path": f"{name}.ahap"})
    studio.json("POST", "/api/save", {"path": f"{name}-studio.haptic", "format": "haptic", "overwrite": True})
    expected = (tmp_path / "cli.haptic").read_bytes()
    assert (tmp_path / "python.haptic").read_bytes() == expected
    assert (studio.root / f"{name}-studio.haptic").read_bytes() == expected
