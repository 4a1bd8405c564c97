"""Thrum Studio never loses work (issue 39): transport settings and undo history belong to a file and come back
with it, edits of one gesture are one undo step, unsaved edits survive a crash in the recovery file, a save can
create its folder, loopCount counts passes, and a seek's new place is pushed at once. A real `thrum studio` on
the simulated sound card, driven over loopback; expected values come from the files and this test's own edits.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""

import json
import time

from test_studio_api import Studio, messages_of, root, simulated_card, studio  # noqa: F401 (fixtures)


def transient(t, intensity=1.0):
    return {"Event": {"Time": t, "EventType": "HapticTransient", "EventParameters": [
        {"ParameterID": "HapticIntensity", "ParameterValue": intensity}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}


def long_pattern():
    """30 s: a transient every second."""
    return json.dumps({"Version": 1, "Pattern": [transient(float(n)) for n in range(31)]}, indent=2)


def edited(root, name, time_value):
    document = json.loads((root / name).read_text())
    document["Pattern"][0]["Event"]["Time"] = time_value
    return json.dumps(document, indent=2)


def test_a_loop_region_and_the_rate_belong_to_their_file(studio, root):
    (root / "long.ahap").write_text(long_pattern())
    studio.json("POST", "/api/open", {"path": "long.ahap"})
    studio.json("POST", "/api/transport", {"loop": True, "loopStart": 12, "loopEnd": 14, "rate": 0.5, "action": "seek", "position": 12.5})
    # Another file: its own transport, never the long pattern's region (issue 39: loopStart 11.966 on a 1 s pattern).
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    status = studio.json("GET", "/api/status")
    assert (status["loop"], status["loopStart"], status["loopEnd"], status["rate"], status["position"]) == (False, 0, 0, 1, 0)
    studio.json("POST", "/api/transport", {"loop": True})
    # Back to the long pattern: its region, rate and position come back.
    studio.json("POST", "/api/open", {"path": "long.ahap"})
    status = studio.json("GET", "/api/status")
    assert (status["loop"], status["loopStart"], status["loopEnd"], status["rate"]) == (True, 12, 14, 0.5)
    assert abs(status["position"] - 12.5) < 1e-9
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    assert studio.json("GET", "/api/status")["loop"] is True, "heartbeat's own loop comes back too"


def test_a_loop_region_after_the_end_of_an_edited_document_is_dropped(studio, root):
    (root / "long.ahap").write_text(long_pattern())
    studio.json("POST", "/api/open", {"path": "long.ahap"})
    studio.json("POST", "/api/transport", {"loop": True, "loopStart": 12, "loopEnd": 14})
    studio.json("PUT", "/api/pattern", json.dumps({"Version": 1, "Pattern": [transient(0.0), transient(1.0)]}))
    status = studio.json("GET", "/api/status")
    assert (status["loop"], status["loopStart"], status["loopEnd"]) == (False, 0, 0)


def test_undo_history_survives_switching_files_and_unsaved_edits_are_its_newest_step(studio, root):
    original = (root / "heartbeat.ahap").read_text()
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    first, second = edited(root, "heartbeat.ahap", 0.05), edited(root, "heartbeat.ahap", 0.07)
    studio.json("PUT", "/api/pattern", first)
    studio.json("PUT", "/api/pattern", second)
    studio.json("POST", "/api/open", {"path": "checkout.ahap"})  # the page asked; the user chose Discard
    assert studio.json("GET", "/api/status")["canUndo"] is False, "checkout has no history of its own"
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    status = studio.json("GET", "/api/status")
    assert status["canUndo"] and not status["dirty"]
    assert studio.call("GET", "/api/pattern")[2].decode() == original
    studio.json("POST", "/api/undo")
    assert studio.call("GET", "/api/pattern")[2].decode() == second, "Undo brings the discarded edits back"
    studio.json("POST", "/api/undo")
    assert studio.call("GET", "/api/pattern")[2].decode() == first
    studio.json("POST", "/api/undo")
    assert studio.call("GET", "/api/pattern")[2].decode() == original


def test_the_edits_of_one_gesture_are_one_undo_step(studio, root):
    original = (root / "heartbeat.ahap").read_text()
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    revisions = [studio.json("PUT", "/api/pattern?gesture=drag-1", edited(root, "heartbeat.ahap", t))["revision"] for t in (0.01, 0.02, 0.03)]
    assert revisions == sorted(set(revisions)), "each edit of the gesture is a new revision (rendered and heard)"
    studio.json("PUT", "/api/pattern?gesture=drag-2", edited(root, "heartbeat.ahap", 0.04))
    studio.json("POST", "/api/undo")
    assert studio.call("GET", "/api/pattern")[2].decode() == edited(root, "heartbeat.ahap", 0.03)
    studio.json("POST", "/api/undo")
    assert studio.call("GET", "/api/pattern")[2].decode() == original, "the three edits of drag-1 are one step"
    assert studio.call("POST", "/api/undo")[0] == 409


def test_unsaved_edits_are_recovered_after_a_crash(root):
    recovery = root / ".thrum-studio" / "recovery.json"
    server = Studio(root)
    try:
        assert server.json("GET", "/api/recovery") == {"recovery": None}
        server.json("POST", "/api/open", {"path": "heartbeat.ahap"})
        text = edited(root, "heartbeat.ahap", 0.09)
        server.json("PUT", "/api/pattern", text)
        deadline = time.monotonic() + 5
        while not recovery.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recovery.exists(), "the unsaved edit was not written to the recovery file"
        assert json.loads(recovery.read_text())["text"] == text
    finally:
        server.process.kill()  # a crash: no clean stop
        server.process.wait()
    server = Studio(root)
    try:
        found = server.json("GET", "/api/recovery")["recovery"]
        assert found["file"] == "heartbeat.ahap" and found["text"] == text and found["format"] == "ahap"
        assert found["savedAt"].endswith("Z")
        assert server.json("GET", "/api/files")["files"] and all(not f["path"].startswith(".") for f in server.json("GET", "/api/files")["files"])
        assert server.json("DELETE", "/api/recovery") == {"discarded": True}
        assert server.json("GET", "/api/recovery") == {"recovery": None}
        assert not recovery.exists()
        # Saving removes this session's recovery file again.
        server.json("POST", "/api/open", {"path": "heartbeat.ahap"})
        server.json("PUT", "/api/pattern", text)
        deadline = time.monotonic() + 5
        while not recovery.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recovery.exists()
        server.json("POST", "/api/save", {"overwrite": True})
        deadline = time.monotonic() + 5
        while recovery.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not recovery.exists(), "a saved document left its recovery file"
    finally:
        server.stop()


def test_a_save_can_create_its_folder(studio, root):
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    status, _, body = studio.call("POST", "/api/save", {"path": "new/deeper/beat.ahap"})
    assert status == 404 and b"no folder" in body
    assert studio.json("POST", "/api/folder", {"path": "new/deeper"}, expect=201) == {"path": "new/deeper"}
    assert (root / "new" / "deeper").is_dir()
    assert studio.json("POST", "/api/folder", {"path": "new/deeper"}, expect=201), "an existing folder is fine"
    studio.json("POST", "/api/save", {"path": "new/deeper/beat.ahap"})
    assert (root / "new" / "deeper" / "beat.ahap").read_text() == (root / "heartbeat.ahap").read_text()
    assert studio.call("POST", "/api/folder", {"path": "../outside"})[0] == 403
    assert studio.call("POST", "/api/folder", {"path": "/tmp/x"})[0] == 403
    assert studio.call("POST", "/api/folder", {"path": "heartbeat.ahap"})[0] == 409
    assert studio.call("POST", "/api/folder", {})[0] == 400
    assert not (root.parent / "outside").exists()


def test_loop_count_counts_the_passes_of_a_loop_region(studio, root):
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    # A region that starts later is looped by seams (a new player each pass); one from 0 by the engine.
    for start in (0.1, 0.0):
        studio.json("POST", "/api/transport", {"action": "play", "position": start, "loop": True, "loopStart": start, "loopEnd": start + 0.25})
        time.sleep(1.2)
        status = studio.json("GET", "/api/status")
        assert status["playing"]
        assert 3 <= status["loopCount"] <= 5, f"loop from {start}: {status['loopCount']} passes of 0.25 s in 1.2 s"
        studio.json("POST", "/api/transport", {"action": "stop"})
        assert studio.json("GET", "/api/status")["loopCount"] == 0


def test_a_seek_while_playing_is_pushed_at_its_new_place_at_once(studio, root):
    (root / "long.ahap").write_text(long_pattern())
    studio.json("POST", "/api/open", {"path": "long.ahap"})
    events = studio.socket()
    try:
        studio.json("POST", "/api/transport", {"action": "play"})
        time.sleep(0.3)
        messages_of(events, 0.1)
        studio.json("POST", "/api/transport", {"action": "seek", "position": 20})
        first = next(m for m in messages_of(events, 0.5) if m["type"] == "position")
        assert abs(first["position"] - 20) < 0.1, f"the first position after the seek is {first['position']}"
    finally:
        events.close()
        studio.json("POST", "/api/transport", {"action": "stop"})
