"""Thrum Studio renders only the span an edit touches (issue 39, "edits felt at once"; docs/studio.md): after an
edit of events, the render of the new revision is the previous render with a window around the edit rendered
again. Driven from outside against a real `thrum studio`: the spliced render must be sample for sample the
render `thrum render` makes of the edited file (the oracle), the window must be the documented one (quiet points
around the edit), and an edit of a parameter curve renders whole.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""

import json
import subprocess

import pytest

from test_studio_api import THRUM, Studio


def long_pattern(seconds=12):
    """The benchmark's kind of design (Tools/bench/bench-studio.py): a continuous bed in 2 s events (1.9 s long),
    an audio tone per 2 s, a transient every 125 ms and an intensity curve per second."""
    pattern = []
    for n in range(seconds // 2):
        t = 2.0 * n
        pattern.append({"Event": {"Time": t, "EventType": "HapticContinuous", "EventDuration": 1.9, "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}})
        pattern.append({"Event": {"Time": t + 0.5, "EventType": "AudioContinuous", "EventDuration": 1.0, "EventParameters": [
            {"ParameterID": "AudioVolume", "ParameterValue": 0.3}, {"ParameterID": "AudioPitch", "ParameterValue": 0.1 * n}]}})
    for n in range(seconds * 8):
        pattern.append({"Event": {"Time": n / 8, "EventType": "HapticTransient", "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 0.4 + 0.6 * ((n % 4) == 0)},
            {"ParameterID": "HapticSharpness", "ParameterValue": 0.7}]}})
    for n in range(seconds):
        pattern.append({"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": float(n), "ParameterCurveControlPoints": [
            {"Time": 0, "ParameterValue": 1}, {"Time": 0.5, "ParameterValue": 0.4}, {"Time": 0.99, "ParameterValue": 1}]}})
    return {"Version": 1, "Pattern": pattern}


@pytest.fixture
def studio(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "long.ahap").write_text(json.dumps(long_pattern(), indent=1))
    server = Studio(root, "--device", "thrum-test-no-such-device")
    server.json("POST", "/api/open", {"path": "long.ahap"})
    yield server
    server.stop()


def data_of(wav):
    return wav[wav.index(b"data"):]


def edit_and_compare(studio, tmp_path, change):
    """Renders the open pattern, applies `change` to its JSON, PUTs it, and checks the new render against
    `thrum render` of the edited file; returns the new peaks answer's `rendered` window."""
    assert studio.call("GET", "/api/render")[0] == 200  # the render the next one is spliced into
    pattern = json.loads(studio.call("GET", "/api/pattern")[2])
    change(pattern["Pattern"])
    text = json.dumps(pattern, indent=1)
    assert studio.json("PUT", "/api/pattern", text)["playable"]
    window = studio.json("GET", "/api/peaks?columns=100")["rendered"]
    status, _, wav = studio.call("GET", "/api/render")
    assert status == 200
    edited = tmp_path / "edited.ahap"
    edited.write_text(text)
    oracle = tmp_path / "oracle.wav"
    subprocess.run([str(THRUM), "render", str(edited), "-o", str(oracle), "--channels", "L,R,H"], check=True, capture_output=True)
    assert data_of(wav) == data_of(oracle.read_bytes()), "the spliced render differs from thrum render of the edited file"
    return window


def intensity(entry, value):
    for parameter in entry["Event"]["EventParameters"]:
        if parameter["ParameterID"] == "HapticIntensity":
            parameter["ParameterValue"] = value


def test_an_event_edit_renders_its_window_only_and_equals_the_whole_render(studio, tmp_path):
    # The bed event at 4 s (1.9 s, tail 0.05): quiet points at 4.0 (nothing sounds across it) and at 5.99
    # (the curve of 5 s ends at 5.99, after the bed's 5.95 and the 5.875 transient's 5.925).
    window = edit_and_compare(studio, tmp_path, lambda p: intensity(p[4], 0.9))
    assert window is not None and window["start"] == pytest.approx(4.0) and window["end"] == pytest.approx(5.99)
    # A transient in the middle of the bed (6.5 s): the window widens to the quiet points around the bed.
    transient = next(n for n, e in enumerate(studio_pattern(studio)) if e.get("Event", {}).get("Time") == 6.5
                     and e["Event"]["EventType"] == "HapticTransient")
    window = edit_and_compare(studio, tmp_path, lambda p: intensity(p[transient], 0.1))
    assert window is not None and window["start"] == pytest.approx(6.0) and window["end"] == pytest.approx(7.99)
    # Moved: a transient from 8.25 s to 8.3 s, and several edits in one PUT (two windows' union).
    def move_and_more(p):
        moved = next(e for e in p if e.get("Event", {}).get("Time") == 8.25)
        moved["Event"]["Time"] = 8.3
        intensity(p[0], 0.2)
    window = edit_and_compare(studio, tmp_path, move_and_more)
    assert window is not None and window["start"] == pytest.approx(0.0) and window["end"] == pytest.approx(9.99)


def test_a_curve_edit_or_a_change_at_the_end_renders_whole(studio, tmp_path):
    def curve(p):
        next(e for e in p if "ParameterCurve" in e)["ParameterCurve"]["ParameterCurveControlPoints"][1]["ParameterValue"] = 0.8
    assert edit_and_compare(studio, tmp_path, curve) is None
    # The last bed event (10 s): its window would end at the pattern's end.
    assert edit_and_compare(studio, tmp_path, lambda p: intensity(p[10], 0.7)) is None


def studio_pattern(studio):
    return json.loads(studio.call("GET", "/api/pattern")[2])["Pattern"]
