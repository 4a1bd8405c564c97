"""The studio's Measure panel (issue 37): `thrum measure` through the studio's API on the simulated card's
loop (Tools/dev/simcard: `sim_lra`, a band-pass LRA at 170 Hz, Q 8, on output channel 2, its accelerometer on
input 1). Expected values come from the simulated actuator's physics, not from the measurement code.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""

import json

from test_studio_api import Studio, root, simulated_card, studio  # noqa: F401 (fixtures)


def test_a_measurement_finds_the_actuators_resonance_and_saves_a_profile_that_play_takes(studio, root):
    answer = studio.json("POST", "/api/measure", {"output": "sim_lra", "input": "sim_lra", "channels": "0,H", "duration": 1})
    assert abs(answer["resonance_hz"] / 170 - 1) <= 0.02, answer["resonance_hz"]
    assert abs(answer["q"] / 8 - 1) <= 0.15, answer["q"]
    assert answer["doubtful"] is False and answer["warnings"] == []
    assert len(answer["response"]) > 50 and {"hz", "magnitude_db", "phase_deg"} <= set(answer["response"][0])
    assert answer["latency"]["median_ms"] > 0
    saved = studio.json("POST", "/api/measure/profile", {"path": "profiles/lra-measured.json"}, expect=201)
    written = json.loads((root / "profiles" / "lra-measured.json").read_text())
    assert saved["path"] == "profiles/lra-measured.json" and written["name"] == "lra-measured"
    # Saving over it needs "overwrite", as every save does.
    studio.json("POST", "/api/measure/profile", {"path": "profiles/lra-measured.json"}, expect=409)
    studio.json("POST", "/api/measure/profile", {"path": "profiles/lra-measured.json", "overwrite": True}, expect=201)
    studio.json("POST", "/api/measure/profile", {"path": "../outside.json"}, expect=403)
    studio.json("POST", "/api/measure/profile", {"path": "../elsewhere/outside.json"}, expect=403)
    assert not (root.parent / "outside.json").exists() and not (root.parent / "elsewhere").exists()
    # The saved profile is one the studio's measure takes back (its equalisation flattens the band).
    again = studio.json("POST", "/api/measure", {"output": "sim_lra", "input": "sim_lra", "channels": "0,H", "duration": 1,
                                                 "profile": "profiles/lra-measured.json"})
    assert again["doubtful"] is False


def test_bad_requests_are_refused_with_their_reason(studio, root):
    assert "capture device" in studio.json("POST", "/api/measure", {}, expect=400)["error"]
    assert "--channels" in studio.json("POST", "/api/measure", {"input": "sim_lra", "channels": "Q"}, expect=400)["error"]
    assert "duration" in studio.json("POST", "/api/measure", {"input": "sim_lra", "duration": 99}, expect=400)["error"]
    studio.json("POST", "/api/measure/profile", {"path": "p.json"}, expect=409)
    refused = studio.json("POST", "/api/measure", {"output": "sim_lra", "input": "no_such_device", "duration": 1}, expect=503)
    assert "no_such_device" in refused["error"]
