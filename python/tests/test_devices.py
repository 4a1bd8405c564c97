"""thrum.devices() lists the playback devices aplay lists; Engine.latency says how late a start at 0 is heard
(issue 40.6), on the PulseAudio null sink."""
import json
import shutil
import subprocess
import time

import pytest

import thrum
from conftest import pulse


@pytest.mark.skipif(not shutil.which("aplay"), reason="needs aplay (alsa-utils) to list ALSA's devices independently")
def test_devices_are_the_ones_aplay_lists():
    # `aplay -L` reads the same name hints (playback PCMs): each name starts a line, its description follows indented.
    listed = subprocess.run(["aplay", "-L"], capture_output=True, text=True, check=True).stdout.splitlines()
    expected = [line for line in listed if line and not line[0].isspace()]
    found = thrum.devices()
    assert [device.name for device in found] == expected
    assert "null" in expected and all(isinstance(device.description, str) for device in found)
    defaults = [device.name for device in found if device.default]
    assert defaults == (["default"] if "default" in expected else [])


@pulse
def test_latency_is_how_late_a_start_at_zero_is_heard(tmp_path):
    log = tmp_path / "onsets.jsonl"
    with thrum.Engine(device="pulse", channels="L,R,H", sample_rate=48000, period=1024, onset_log=log) as engine:
        player = engine.player(thrum.Pattern.from_json({"Version": 1, "Pattern": [
            {"Event": {"EventType": "HapticTransient", "Time": 0}}]}))
        deadline = time.monotonic() + 5
        while engine.latency is None and time.monotonic() < deadline:
            time.sleep(0.01)
        latency = engine.latency
        assert latency is not None, "no latency 5 s after the engine opened"
        called = thrum.monotonic_now()
        player.start()
        assert player.wait(timeout=5)
    # At least one period (21.3 ms at 1024 frames) sits between the render and the DAC; PulseAudio adds its own.
    assert 1024 / 48000 <= latency < 1.0
    # The onset of that start leaves the DAC about `latency` after the call: within two periods (the render
    # cycle the start waits for, and the period the estimate moves by).
    heard = json.loads(log.read_text().splitlines()[0])["dac_time"] - called
    assert abs(heard - latency) < 2 * 1024 / 48000, (heard, latency)
    with pytest.raises(thrum.ThrumError) as raised:
        engine.latency
    assert raised.value.status == 64
