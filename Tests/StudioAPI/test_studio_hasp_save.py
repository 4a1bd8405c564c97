"""Haptics Studio projects (.hasp) edited in Thrum Studio: a clip re-analysed with changed settings
(`POST /api/open {"path", "clip", "settings"}`, against `thrum analyze --settings` on a project holding those
settings) and the project saved (`POST /api/project/save`) with the clip's haptic and settings replaced and every
other field, known or unknown, kept. No Haptics Studio sample project is in the
shared folders, so the projects here are written by the tests.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""
import copy
import json
import shutil
import subprocess

import pytest

from test_studio_api import SOUNDS, THRUM, Studio
from test_studio_projects import HAPTIC, SETTINGS

LOUDER = {"preprocessing": {"gain_db": 0}, "offline": {"amplitude": {"envelope_release_time": 0.2}}}
PROJECT = {
    "version": {"major": 2, "minor": 0, "patch": 0}, "metadata": {"name": "Game", "futureField": [1, 2]},
    "state": {"selectedClip": "Sketch"}, "groups": [{"name": "UI", "clips": ["Click"]}], "updatedAt": 1733400000,
    "clips": [
        {"name": "Click", "clipId": "c1", "color": "#ff8800",
         "audioAsset": {"filename": "click.wav", "path": "audio/click.wav", "channels": 1},
         "settings": SETTINGS, "haptic": HAPTIC},
        {"name": "Sketch", "clipId": "c2", "audioAsset": {"channels": 1}, "haptic": HAPTIC, "lastUpdate": 17},
    ],
    "pluginData": {"unknown": True},
}


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "root"
    (folder / "audio").mkdir(parents=True)
    shutil.copy(SOUNDS / "click.wav", folder / "audio" / "click.wav")
    (folder / "game.hasp").write_text(json.dumps(PROJECT, indent=2))
    return folder


@pytest.fixture
def studio(root):
    server = Studio(root)
    yield server
    assert server.stop() == 130


def analysed(root, tmp_path, settings):
    """`thrum analyze --settings` of a project whose clip Click has `settings`: the AHAP's Pattern."""
    project = copy.deepcopy(PROJECT)
    project["clips"][0]["settings"] = settings
    (root / "oracle.hasp").write_text(json.dumps(project))
    out = tmp_path / "oracle.ahap"
    subprocess.run([str(THRUM), "analyze", str(root / "audio" / "click.wav"), "--settings", str(root / "oracle.hasp"),
                    "--clip", "Click", "-o", str(out)], check=True, capture_output=True)
    return json.loads(out.read_text())["Pattern"]


def test_a_clip_is_reanalysed_with_changed_settings(studio, root, tmp_path):
    studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Click"})
    own = studio.json("GET", "/api/pattern")["Pattern"][1:]
    studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Click", "settings": LOUDER})
    changed = studio.json("GET", "/api/pattern")["Pattern"][1:]
    assert changed == analysed(root, tmp_path, LOUDER) and changed != own
    status, _, body = studio.call("POST", "/api/open", {"path": "game.hasp", "clip": "Click",
                                                        "settings": {"preprocessing": {"gain_db": "loud"}}})
    assert status == 422, body
    assert studio.call("POST", "/api/open", {"path": "game.hasp", "settings": LOUDER})[0] == 400


def test_saving_the_project_keeps_unknown_fields(studio, root):
    studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Click", "settings": LOUDER})
    answer = studio.json("POST", "/api/project/save", {"path": "game.hasp", "clip": "Click", "settings": LOUDER,
                                                         "to": "saved.hasp"})
    assert answer["written"] == ["saved.hasp"]
    saved = json.loads((root / "saved.hasp").read_text())
    # Everything but the clip's haptic and settings is as written, unknown fields included.
    expected = copy.deepcopy(PROJECT)
    expected["clips"][0]["settings"] = LOUDER
    expected["clips"][0]["haptic"] = saved["clips"][0]["haptic"]
    assert saved == expected
    # The new haptic is the re-analysed clip (not the designed one) and a valid .haptic file.
    assert saved["clips"][0]["haptic"] != HAPTIC
    (root / "click.haptic").write_text(json.dumps(saved["clips"][0]["haptic"]))
    check = subprocess.run([str(THRUM), "check", str(root / "click.haptic")], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    # The saved project opens again, its clip with the saved settings.
    listed = studio.json("POST", "/api/open", {"path": "saved.hasp"})["clips"]
    assert listed[0]["settings"]["release"] == pytest.approx(0.2)
    assert studio.call("POST", "/api/project/save", {"path": "game.hasp", "clip": "Click", "to": "saved.hasp"})[0] == 409
    assert studio.call("POST", "/api/project/save", {"path": "game.hasp", "clip": "Nope"})[0] == 400


def test_a_freeform_clip_is_saved_back_into_its_project(studio, root):
    studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Sketch"})
    studio.json("POST", "/api/project/save", {"path": "game.hasp", "clip": "Sketch"})
    saved = json.loads((root / "game.hasp").read_text())
    sketch = saved["clips"][1]
    assert "settings" not in sketch and sketch["lastUpdate"] == 17 and saved["clips"][0] == PROJECT["clips"][0]
    # The designed envelope survives the trip through its AHAP form: same breakpoints where it has no ramps to split.
    envelopes = sketch["haptic"]["signals"]["continuous"]["envelopes"]
    times = [p["time"] for p in envelopes["amplitude"]]
    assert times[0] == 0 and times[-1] == pytest.approx(0.3)
    assert [p["time"] for p in envelopes["amplitude"] if p.get("emphasis")] == [pytest.approx(0.1)]
