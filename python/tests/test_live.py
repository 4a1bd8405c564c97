"""Live playback through ALSA 'pulse' into the PulseAudio null sink, captured from its monitor: what the
engine plays equals the offline render of the same pattern and transport (the render is the oracle, as
`thrum render` is for `thrum play`)."""
import json
import time

import numpy as np
import pytest

import thrum
from conftest import MonitorCapture, pulse


def onset(samples: np.ndarray) -> int:
    loud = np.flatnonzero(np.abs(samples).max(axis=1) > 1e-4)
    assert loud.size, "no signal"
    return int(loud[0])


@pulse
def test_looped_faster_playback_equals_the_render(tmp_path):
    pattern = thrum.Pattern.load("heartbeat")
    expected = thrum.render(pattern, channels="L+H,R+H", loops=2, rate=1.5)
    xruns = []
    for attempt in range(3):  # a run the device reports xruns in lost audio to the machine: up to three tries
        capture = MonitorCapture(tmp_path / f"monitor-{attempt}.raw")
        ended = []
        with thrum.Engine(device="pulse", channels="L+H,R+H", sample_rate=48000, period=1024) as engine:
            player = engine.player(pattern)
            player.loop = True
            player.loop_passes = 2
            player.rate = 1.5
            player.on_completion = ended.append
            assert (player.loop, player.loop_passes, player.rate) == (True, 2, 1.5)
            player.start(at=engine.time + 0.3)  # after the sink's rewound start, which the monitor drops
            assert player.wait(timeout=10), "playback did not end"
            played = engine.time
            lost = engine.xruns
        time.sleep(0.3)
        captured = capture.finish()
        assert ended == [None]
        assert played >= 0.3 + len(expected) / 48000 - 0.05
        if lost:
            xruns.append(lost)
            continue
        start, want = onset(captured), expected[onset(expected):]
        got = captured[start:start + len(want)]
        assert len(got) == len(want), f"captured {len(got)} of {len(want)} frames"
        assert np.abs(got - want).max() < 1e-6
        return
    pytest.fail(f"xruns in every run: {xruns}")


@pulse
def test_transport_pause_resume_seek_stop():
    pattern = thrum.Pattern.load("heartbeat")
    with thrum.Engine(device="pulse", channels="L+H,R+H") as engine:
        player = engine.player(pattern)
        player.loop = True
        player.start()
        time.sleep(0.3)
        assert player.position is not None and player.position > 0
        player.pause()
        time.sleep(0.1)
        paused = player.position
        time.sleep(0.3)
        assert player.position == pytest.approx(paused, abs=1e-9), "a paused player moved"
        player.seek(0.5)
        player.resume()
        time.sleep(0.2)
        assert 0.5 <= player.position < 0.95
        player.muted = True
        assert player.muted
        player.send("HapticIntensityControl", 0.5)
        player.curve("HapticSharpnessControl", [(0, 0.0), (0.2, 1.0)], at=engine.time)
        player.stop()
        assert player.wait(timeout=5)
        assert player.position is None
    with pytest.raises(thrum.ThrumError):
        player.start()


@pulse
def test_player_errors_raise():
    with thrum.Engine(device="pulse", channels="L+H,R+H") as engine:
        player = engine.player(thrum.Pattern.load("heartbeat"))
        with pytest.raises(thrum.ThrumError) as raised:
            player.rate = 0
        assert raised.value.status == 64 and player.rate == 1.0
        with pytest.raises(thrum.ThrumError) as raised:
            player.send("HapticIntensity", 1)
        assert "unknown dynamic parameter 'HapticIntensity'" in str(raised.value)
        with pytest.raises(thrum.ThrumError):
            player.loop_end = -1
        with pytest.raises(thrum.ThrumError):
            engine.player(thrum.Pattern.load("heartbeat"), actuator="not a name")
    with pytest.raises(thrum.ThrumError) as raised:
        engine.player(thrum.Pattern.load("heartbeat"))
    assert str(raised.value) == "the engine is closed"


# The timing test's pattern: transients at these pattern times, which the onset log must report.
EVENT_TIMES = [0.0, 0.125, 0.3, 0.5]


@pulse
def test_onset_log_and_scheduled_start(tmp_path):
    path = tmp_path / "timed.ahap"
    path.write_text(json.dumps({"Version": 1, "Pattern": [
        {"Event": {"EventType": "HapticTransient", "Time": t}} for t in EVENT_TIMES]}))
    log = tmp_path / "onsets.jsonl"
    with thrum.Engine(device="pulse", channels="L,R,H", sample_rate=48000, period=1024, onset_log=log) as engine:
        player = engine.player(thrum.Pattern.load(path))
        with pytest.raises(thrum.ThrumError) as raised:
            player.start(monotonic=thrum.monotonic_now() - 1)
        assert raised.value.status == 64 and "is in the past" in str(raised.value)
        asked = time.clock_gettime(time.CLOCK_MONOTONIC) + 0.8  # Python's own reading of the clock
        player.start(monotonic=asked)
        assert player.wait(timeout=5), "playback did not end"
        assert engine.output_time(engine.time) > asked
    onsets = [json.loads(line) for line in log.read_text().splitlines()]
    assert [o["pattern_time"] for o in onsets] == EVENT_TIMES
    assert [o["event"] for o in onsets] == list(range(len(EVENT_TIMES)))
    assert {o["pattern"] for o in onsets} == {str(path)} and {o["type"] for o in onsets} == {"HapticTransient"}
    frames = np.array([o["stream_frame"] for o in onsets])
    assert np.all(np.diff(frames) > 0)
    assert np.abs((frames - frames[0]) - np.round(np.array(EVENT_TIMES) * 48000)).max() <= 1
    assert [o["engine_time"] for o in onsets] == pytest.approx(list(frames / 48000), abs=1e-9)
    dac = np.array([o["dac_time"] for o in onsets])
    assert np.all(np.diff(dac) > 0)
    print(f"start asked for {asked:.6f}, left the DAC at {dac[0]:.6f} ({(dac[0] - asked) * 1000:+.3f} ms)")
    assert abs(dac[0] - asked) < 1024 / 48000  # within one period
