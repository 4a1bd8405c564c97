"""Thrum Studio opens MPEG haptics files (issue 41): a `.hjif` and a `.hmpg` written by `thrum convert` open as
their AHAP form, list in the file menu, and play; saving asks for a new name (the studio does not write HJIF)."""

import subprocess

from test_studio_api import THRUM, Studio, root, simulated_card, studio  # noqa: F401 (fixtures)


def test_hjif_and_hmpg_open_as_patterns(studio, root):
    for name in ["heartbeat.hjif", "heartbeat.hmpg"]:
        subprocess.run([str(THRUM), "convert", str(root / "heartbeat.ahap"), "-o", str(root / name)], check=True,
                       capture_output=True)
    files = [entry["path"] if isinstance(entry, dict) else entry for entry in studio.json("GET", "/api/files")["files"]]
    assert "heartbeat.hjif" in files and "heartbeat.hmpg" in files
    for name in ["heartbeat.hjif", "heartbeat.hmpg"]:
        opened = studio.json("POST", "/api/open", {"path": name})
        assert opened["playable"] is True, opened
        # heartbeat lasts 1.0 s (its last control at 1.0 s); HJIF keeps the envelope's length within a millisecond.
        assert abs(opened["duration"] - 1.0) <= 0.01, opened["duration"]
        assert not [d for d in opened["diagnostics"] if d["severity"] == "error"]
    # A broken .hmpg is a located error, never a crash.
    (root / "broken.hmpg").write_bytes(b"\x00\x00\x00\x00\x00\x00\x00\x16\xff\xff")
    broken = studio.json("POST", "/api/open", {"path": "broken.hmpg"})
    assert broken["playable"] is False and "byte" in broken["diagnostics"][0]["message"]
