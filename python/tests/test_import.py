"""thrum.import_project writes what `thrum import` writes: each clip's designed haptic, its audio beside it, a
Freeform Haptics clip (no audio) alone, and names the clips it cannot write."""
import json
import shutil

import pytest

import thrum
from conftest import REPOSITORY, run_cli

HAPTIC = {"version": {"major": 1, "minor": 0, "patch": 0},
          "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0.5},
                                                                 {"time": 0.2, "amplitude": 0}]}}}}


def write_project(folder, clips):
    (folder / "project.hasp").write_text(json.dumps({"metadata": {"name": "Doors"}, "clips": clips}, indent=2))
    return folder / "project.hasp"


def test_clips_with_and_without_audio_are_written_as_the_command_writes_them(tmp_path):
    shutil.copy(REPOSITORY / "Resources" / "Audio" / "click.wav", tmp_path / "click.wav")
    project = write_project(tmp_path, [
        {"name": "Click", "audioAsset": {"filename": "click.wav", "path": "click.wav", "channels": 1}, "haptic": HAPTIC},
        {"name": "Drawn", "audioAsset": {"channels": 1}, "haptic": HAPTIC},
    ])
    imported = thrum.import_project(project, tmp_path / "python")
    assert [p.rsplit("/", 1)[1] for p in imported.written] == ["Click.haptic", "Click.wav", "Drawn.haptic"]
    assert run_cli("import", str(project), "-o", str(tmp_path / "cli")).returncode == 0
    for name in ["Click.haptic", "Click.wav", "Drawn.haptic"]:
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert sorted(p.name for p in (tmp_path / "cli").iterdir()) == ["Click.haptic", "Click.wav", "Drawn.haptic"]


def test_a_clip_that_cannot_be_written_is_named_and_the_others_are_written(tmp_path):
    project = write_project(tmp_path, [
        {"name": "Gone", "audioAsset": {"path": "gone.wav", "channels": 1}, "haptic": HAPTIC},
        {"name": "Drawn", "audioAsset": {"channels": 1}, "haptic": HAPTIC},
    ])
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.import_project(project, tmp_path / "out", format="ahap")
    cli = run_cli("import", str(project), "-o", str(tmp_path / "cli"), "--format", "ahap")
    assert (raised.value.status, str(raised.value)) == (cli.returncode, "1 clip not written: 'Gone'") == (66, str(raised.value))
    assert [p.rsplit("/", 1)[1] for p in raised.value.written] == ["Drawn.ahap"]
    assert any("clip 'Gone': audio file 'gone.wav' not found" in line for line in raised.value.warnings)


def test_a_missing_project_raises_66(tmp_path):
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.import_project(tmp_path / "none.hasp", tmp_path / "out")
    assert raised.value.status == 66 and not (tmp_path / "out").exists()
