"""`.haptic` clips in Thrum Studio edited natively, over loopback against a real `thrum studio`: `POST /api/open`
answers `"format": "haptic"` with the clip's signals; `PUT /api/haptic` edits amplitude/frequency breakpoints and
emphasis directly; `POST /api/save` writes the signals without a trip through AHAP, the file's own bytes when
nothing changed. Oracles: the file the test writes (in a layout the studio's encoder does not produce), Meta's
`.haptic` fixtures under the shared oracles when present, and `thrum check`.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from test_studio_api import THRUM, Studio

AMPLITUDE = [{"time": 0, "amplitude": 0.3}, {"time": 0.1, "amplitude": 0.6, "emphasis": {"amplitude": 0.9, "frequency": 0.7}},
             {"time": 0.3, "amplitude": 0}]
FREQUENCY = [{"time": 0, "frequency": 0.2}, {"time": 0.3, "frequency": 0.8}]
#: Tabs, key order and number spelling of a hand-written file: re-encoding it cannot reproduce these bytes.
CLIP = ('{\n\t"signals": {"continuous": {"envelopes": {\n\t\t"frequency": ' + json.dumps(FREQUENCY)
        + ',\n\t\t"amplitude": ' + json.dumps(AMPLITUDE).replace("0.3", "0.30") + '}}},\n\t"version": {"major": 1, "minor": 0, "patch": 0}\n}\n')


def oracle_fixtures():
    """Meta's `.haptic` test files (THRUM_ORACLES or ../shared/oracles), or an empty list."""
    here = Path(__file__).resolve()
    for base in [os.environ.get("THRUM_ORACLES"), here.parents[3] / "shared" / "oracles", Path("/work/shared/oracles")]:
        if base and (Path(base) / "meta-haptics-sdk" / "test_files").is_dir():
            folder = Path(base) / "meta-haptics-sdk" / "test_files"
            return sorted(p for p in folder.glob("*.haptic") if not p.name.startswith(("validation", "invalid")))
    return []


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "clip.haptic").write_text(CLIP)
    return folder


@pytest.fixture
def studio(root):
    server = Studio(root)
    yield server
    assert server.stop() == 130


def check(path):
    result = subprocess.run([str(THRUM), "check", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_open_answers_the_signals_and_saving_unedited_keeps_the_bytes(studio, root):
    answer = studio.json("POST", "/api/open", {"path": "clip.haptic"})
    assert answer["format"] == "haptic"
    assert answer["haptic"]["amplitude"] == [dict(p, emphasis=p.get("emphasis")) for p in AMPLITUDE]
    assert answer["haptic"]["frequency"] == FREQUENCY and answer["haptic"]["duration"] == pytest.approx(0.3)
    assert studio.json("GET", "/api/haptic") == answer["haptic"]
    studio.json("POST", "/api/save", {"path": "copy.haptic"})
    assert (root / "copy.haptic").read_bytes() == CLIP.encode()
    check(root / "copy.haptic")
    # Unchanged signals PUT back are still no edit of the bytes.
    studio.json("PUT", "/api/haptic", {"amplitude": AMPLITUDE, "frequency": FREQUENCY})
    studio.json("POST", "/api/save", {"path": "again.haptic"})
    assert (root / "again.haptic").read_bytes() == CLIP.encode()


def test_breakpoints_and_emphasis_are_edited_and_saved_natively(studio, root):
    studio.json("POST", "/api/open", {"path": "clip.haptic"})
    amplitude = [{"time": 0, "amplitude": 0.3, "emphasis": {"amplitude": 1.0, "frequency": 0.25}},  # emphasis added
                 {"time": 0.15, "amplitude": 0.5},  # dragged later and down, its emphasis deleted
                 {"time": 0.2, "amplitude": 0.8},   # added
                 {"time": 0.3, "amplitude": 0}]
    frequency = [{"time": 0, "frequency": 0.4}]  # one breakpoint deleted, the other moved
    answer = studio.json("PUT", "/api/haptic", {"amplitude": amplitude, "frequency": frequency})
    assert answer["haptic"]["amplitude"][0]["emphasis"] == {"amplitude": 1.0, "frequency": 0.25}
    # The AHAP form follows: one transient, at the new emphasis (time 0, intensity 1.0).
    pattern = json.loads(studio.call("GET", "/api/pattern")[2])
    transients = [e["Event"] for e in pattern["Pattern"] if e.get("Event", {}).get("EventType") == "HapticTransient"]
    assert [t["Time"] for t in transients] == [0]
    studio.json("POST", "/api/save", {"path": "clip.haptic", "overwrite": True})
    saved = json.loads((root / "clip.haptic").read_text())
    envelopes = saved["signals"]["continuous"]["envelopes"]
    assert envelopes["amplitude"] == amplitude and envelopes["frequency"] == frequency
    assert saved["version"]["major"] == 1
    check(root / "clip.haptic")


def test_invalid_signals_are_refused_and_the_document_kept(studio):
    studio.json("POST", "/api/open", {"path": "clip.haptic"})
    revision = studio.json("GET", "/api/status")["revision"]
    status, _, body = studio.call("PUT", "/api/haptic", {"amplitude": [{"time": 0, "amplitude": 1.5}], "frequency": []})
    assert status == 422 and json.loads(body)["diagnostics"], body
    status, _, body = studio.call("PUT", "/api/haptic", {"amplitude": [{"time": "soon", "amplitude": 0.5}]})
    assert status == 400 and b"amplitude[0].time" in body
    assert studio.json("GET", "/api/status")["revision"] == revision
    assert studio.json("GET", "/api/haptic")["amplitude"][1]["emphasis"] == {"amplitude": 0.9, "frequency": 0.7}


def test_an_ahap_document_has_no_native_signals(studio, root):
    (root / "tap.ahap").write_text(json.dumps({"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient",
                                                                        "EventParameters": []}}]}))
    studio.json("POST", "/api/open", {"path": "tap.ahap"})
    assert studio.call("GET", "/api/haptic")[0] == 409


@pytest.mark.parametrize("fixture", oracle_fixtures() or [None], ids=lambda p: p.name if p else "none")
def test_meta_fixtures_save_back_byte_stable(fixture, tmp_path):
    if fixture is None:
        pytest.skip("Meta's .haptic fixtures not found (set THRUM_ORACLES to the shared oracles folder)")
    folder = tmp_path / "meta"
    folder.mkdir()
    shutil.copy(fixture, folder / "in.haptic")
    server = Studio(folder)
    try:
        answer = server.json("POST", "/api/open", {"path": "in.haptic"})
        assert answer["format"] == "haptic"
        server.json("POST", "/api/save", {"path": "out.haptic"})
        assert (folder / "out.haptic").read_bytes() == fixture.read_bytes()
    finally:
        assert server.stop() == 130
