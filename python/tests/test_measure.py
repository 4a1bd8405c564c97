"""thrum.measure (issue 37): the actuator loop measured through libthrum on the simulated card's loop
(Tools/dev/simcard: `sim_lra`, a band-pass LRA at 170 Hz with Q 8 on output channel 2, its accelerometer on
input 1). Expected values come from the simulated actuator's physics, not from the measurement code. Each
measurement runs in its own Python process, whose ALSA configuration holds the simulated cards."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPOSITORY


def simulated_card(folder: Path) -> dict:
    """The environment that gives ALSA the simulated sound cards; skips when the card cannot be built."""
    plugin = os.environ.get("THRUM_SIMCARD_PLUGIN")
    if not plugin:
        build = REPOSITORY / "Tools" / "dev" / "simcard" / "build.sh"
        try:
            result = subprocess.run([str(build)], capture_output=True, text=True, timeout=120)
        except OSError as error:
            pytest.skip(f"the simulated card cannot be built ({build}: {error})")
        if result.returncode != 0:
            pytest.skip(f"the simulated card cannot be built: {result.stderr.strip()[-300:]}")
        plugin = result.stdout.strip()
    folder.mkdir(exist_ok=True)
    return dict(os.environ, THRUM_SIMCARD_PLUGIN=plugin, THRUM_SIMCARD_DIR=str(folder),
                ALSA_CONFIG_PATH=f"/usr/share/alsa/alsa.conf:{REPOSITORY / 'Tools' / 'dev' / 'simcard' / 'profiles.conf'}")


def run(tmp_path: Path, script: str) -> dict:
    """Runs `script` (which prints one JSON object) in a process on the simulated card; returns the object."""
    result = subprocess.run([sys.executable, "-c", "import json, numpy as np, thrum\n" + script],
                            env=simulated_card(tmp_path / "card"), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_measure_returns_the_simulated_actuators_figures_as_numpy_arrays(tmp_path):
    profile = tmp_path / "lra-measured.json"
    found = run(tmp_path, f"""
m = thrum.measure(output="sim_lra", input="sim_lra", channels="0,H", duration=1)
m.write_profile({str(profile)!r})
arrays = (m.frequencies, m.magnitude_db, m.phase_deg, m.latency.clicks)
print(json.dumps(dict(
    types=[type(a).__name__ for a in arrays], dtypes=[str(a.dtype) for a in arrays], count=len(m.frequencies),
    lengths=[len(a) for a in arrays[:3]], first=m.frequencies[0], last=m.frequencies[-1],
    ascending=bool(np.all(np.diff(m.frequencies) > 0)),
    peak=float(m.frequencies[np.argmax(m.magnitude_db)]), resonance=m.resonance_hz, q=m.q, band=m.band_hz,
    latency=[m.latency.median, m.latency.p99, m.latency.jitter], clicks=len(m.latency.clicks),
    warnings=m.warnings, doubtful=m.doubtful, sample_rate=m.sample_rate, model=m.model,
    json=json.loads(m.json))))
""")
    assert found["types"] == ["ndarray"] * 4 and found["dtypes"] == ["float64"] * 4
    assert found["count"] >= 60 and found["lengths"] == [found["count"]] * 3
    assert abs(found["first"] - 20) < 0.5 and abs(found["last"] - 1000) < 10 and found["ascending"]
    # The LRA: f0 170 Hz within 2 %, Q 8 within 15 %, its -3 dB band f0/Q wide around f0.
    assert abs(found["resonance"] / 170 - 1) <= 0.02, found["resonance"]
    assert abs(found["q"] / 8 - 1) <= 0.15, found["q"]
    assert abs(found["peak"] / 170 - 1) <= 0.05, found["peak"]
    low, high = found["band"]
    assert low < 170 < high and abs((high - low) / (170 / 8) - 1) <= 0.2, found["band"]
    median, p99, jitter = found["latency"]
    assert 0 < median <= p99 < 0.2 and 0 <= jitter < 0.001 and found["clicks"] > 0
    assert found["warnings"] == [] and found["doubtful"] is False
    assert found["sample_rate"] == 48000 and found["model"] == "bandpass"
    # The JSON is the same measurement (ms there, seconds in Python).
    assert found["json"]["resonance_hz"] == pytest.approx(found["resonance"], abs=0.001)
    assert found["json"]["latency"]["median_ms"] == pytest.approx(median * 1000, abs=0.0001)
    written = json.loads(profile.read_text())
    assert written["name"] == "lra-measured"


def test_bad_requests_raise_with_the_commands_status(tmp_path):
    found = run(tmp_path, """
failures = {}
for name, keywords in {"no input": dict(output="sim_lra"), "duration": dict(input="sim_lra", duration=99),
                       "channels": dict(input="sim_lra", channels="Q"),
                       "device": dict(output="sim_lra", input="no_such_device", duration=1)}.items():
    try:
        thrum.measure(**keywords)
        failures[name] = None
    except thrum.ThrumError as error:
        failures[name] = [error.status, str(error)]
print(json.dumps(failures))
""")
    assert found["no input"][0] == 64 and "input" in found["no input"][1]
    assert found["duration"][0] == 64 and "duration" in found["duration"][1]
    assert found["channels"][0] == 64 and "--channels" in found["channels"][1]
    assert found["device"][0] == 69 and "no_such_device" in found["device"][1]
