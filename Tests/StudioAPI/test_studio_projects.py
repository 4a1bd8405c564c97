"""Haptics Studio projects (.hasp) in Thrum Studio, over loopback against a real `thrum studio`: `POST
/api/open` of a project lists its clips (with or without audio); with `"clip"` the clip becomes the document,
its sound analysed with its own settings. The oracles are the command line's `thrum analyze --settings
PROJECT --clip NAME` and `thrum import`, and the project file the test writes.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""
import json
import shutil
import subprocess

import pytest

from test_studio_api import SOUNDS, THRUM, Studio

HAPTIC = {"version": {"major": 1, "minor": 0, "patch": 0},
          "signals": {"continuous": {"envelopes": {
              "amplitude": [{"time": 0, "amplitude": 0.3}, {"time": 0.1, "amplitude": 0.6,
                                                            "emphasis": {"amplitude": 0.9, "frequency": 0.7}},
                            {"time": 0.3, "amplitude": 0}],
              "frequency": [{"time": 0, "frequency": 0.2}, {"time": 0.3, "frequency": 0.8}]}}}}
#: Meta's settings for the clip with audio (12 dB quieter, released quickly, sensitive onsets): not the general
#: preset's.
SETTINGS = {"preprocessing": {"gain_db": -12},
            "offline": {"amplitude": {"envelope_release_time": 0.02}, "emphasis": {"sensitivity_percent": 90}}}


@pytest.fixture
def project_root(tmp_path):
    root = tmp_path / "root"
    (root / "audio").mkdir(parents=True)
    shutil.copy(SOUNDS / "click.wav", root / "audio" / "click.wav")
    (root / "game.hasp").write_text(json.dumps({
        "version": {"major": 2, "minor": 0, "patch": 0}, "metadata": {"name": "Game"},
        "clips": [
            {"name": "Click", "audioAsset": {"filename": "click.wav", "path": "audio/click.wav", "channels": 1},
             "settings": SETTINGS, "haptic": HAPTIC},
            {"name": "Sketch", "audioAsset": {"channels": 1}, "haptic": HAPTIC},
        ]}, indent=2))
    return root


@pytest.fixture
def studio(project_root):
    server = Studio(project_root)
    yield server
    assert server.stop() == 130


def test_opening_a_project_lists_its_clips_and_keeps_the_document(studio):
    studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Sketch"})
    revision = studio.json("GET", "/api/status")["revision"]
    answer = studio.json("POST", "/api/open", {"path": "game.hasp"})
    assert answer["format"] == "hasp" and answer["project"] == "Game" and answer["file"] == "game.hasp"
    assert [(c["name"], c["hasAudio"], c["audioFound"]) for c in answer["clips"]] == [
        ("Click", True, True), ("Sketch", False, False)]
    assert answer["clips"][1]["audio"] is None and answer["clips"][1]["duration"] == pytest.approx(0.3)
    assert answer["clips"][0]["settings"]["release"] == pytest.approx(0.02)
    assert answer["clips"][0]["settings"]["onsetSensitivity"] == pytest.approx(0.9)
    assert answer["clips"][1]["settings"] is None
    assert studio.json("GET", "/api/status")["revision"] == revision, "listing a project changes no document"
    files = studio.json("GET", "/api/files")["files"]
    assert [f["kind"] for f in files if f["path"] == "game.hasp"] == ["project"]


def test_a_clip_with_audio_is_its_sound_analysed_with_its_own_settings(studio, project_root, tmp_path):
    answer = studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Click"})
    assert answer["clip"] == "Click" and answer["hasAudio"] is True and answer["file"] is None
    assert answer["format"] == "ahap" and answer["playable"] is True and answer["project"] == "game.hasp"
    document = studio.json("GET", "/api/pattern")
    sound = document["Pattern"][0]["Event"]
    assert (sound["EventType"], sound["Time"], sound["EventWaveformPath"]) == ("AudioCustom", 0, "audio/click.wav")
    oracle = tmp_path / "oracle.ahap"
    subprocess.run([str(THRUM), "analyze", str(project_root / "audio" / "click.wav"), "--settings",
                    str(project_root / "game.hasp"), "--clip", "Click", "-o", str(oracle)], check=True, capture_output=True)
    expected = json.loads(oracle.read_text())
    assert document["Pattern"][1:] == expected["Pattern"], "the clip's analysis differs from thrum analyze's"
    assert document["Metadata"] == expected["Metadata"]
    default = tmp_path / "general.ahap"
    subprocess.run([str(THRUM), "analyze", str(project_root / "audio" / "click.wav"), "-o", str(default)], check=True,
                   capture_output=True)
    assert json.loads(default.read_text())["Pattern"] != expected["Pattern"], "the clip's settings change the result"


def test_a_clip_without_audio_is_its_designed_haptic(studio, project_root, tmp_path):
    answer = studio.json("POST", "/api/open", {"path": "game.hasp", "clip": "Sketch"})
    assert answer["hasAudio"] is False and answer["playable"] is True
    document = studio.json("GET", "/api/pattern")
    subprocess.run([str(THRUM), "import", str(project_root / "game.hasp"), "-o", str(tmp_path / "out"), "--format",
                    "ahap"], check=True, capture_output=True)
    assert document == json.loads((tmp_path / "out" / "Sketch.ahap").read_text())
    assert not any(e.get("Event", {}).get("EventType", "").startswith("Audio") for e in document["Pattern"])


def test_wrong_clips_are_refused(studio):
    status, _, body = studio.call("POST", "/api/open", {"path": "game.hasp", "clip": "Clik"})
    assert status == 400 and "did you mean 'Click'?" in json.loads(body)["error"]
    status, _, _ = studio.call("POST", "/api/open", {"path": "audio/click.wav", "clip": "Click"})
    assert status == 400
    status, _, _ = studio.call("POST", "/api/open", {"path": "none.hasp"})
    assert status == 404
