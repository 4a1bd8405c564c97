"""Runs every example (examples/python, and examples/c when THRUM_C_EXAMPLES names the folder the test
script built them in) and checks what each one made."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPOSITORY, cli_render, pulse, read_float_wav

PYTHON_EXAMPLES = REPOSITORY / "examples/python"
C_EXAMPLES = Path(os.environ["THRUM_C_EXAMPLES"]) if os.environ.get("THRUM_C_EXAMPLES") else None
needs_c = pytest.mark.skipif(C_EXAMPLES is None, reason="THRUM_C_EXAMPLES is not set (Tools/ci/test-libthrum.sh sets it)")


def run(command, folder, *arguments):
    environment = dict(os.environ, THRUM_DEVICE="pulse", MPLCONFIGDIR=str(folder))
    result = subprocess.run([*command, *arguments], cwd=folder, capture_output=True, text=True, timeout=120,
                            env=environment)
    assert result.returncode == 0, result.stderr
    return result.stdout


def python_example(name):
    return [sys.executable, str(PYTHON_EXAMPLES / f"{name}.py")]


def test_python_render_to_file(tmp_path):
    run(python_example("render_to_file"), tmp_path, "heartbeat", "out.wav")
    import wave
    with wave.open(str(tmp_path / "out.wav")) as file:
        pcm = np.frombuffer(file.readframes(file.getnframes()), dtype="<i2").reshape(-1, file.getnchannels())
    expected = cli_render(tmp_path, "heartbeat")
    assert pcm.shape == expected.shape
    assert np.abs(pcm / 32767 - expected).max() <= 0.5 / 32767 + 1e-7  # rounded to 16 bits, nothing else


def test_python_plot(tmp_path):
    run(python_example("plot_render"), tmp_path, "heartbeat", "plot.png")
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_c
def test_c_render_to_file(tmp_path):
    run([str(C_EXAMPLES / "render_to_file")], tmp_path, "heartbeat", "out.wav")
    samples, rate = read_float_wav(tmp_path / "out.wav")
    expected = cli_render(tmp_path, "heartbeat")
    assert rate == 48000 and np.array_equal(samples, expected)


def check_stimulus_log(path: Path):
    """The example's log joins its 10 trials, 400 ms apart, with the engine's onset log (onsets.jsonl beside
    it): one onset per stimulus (a pattern of one event at Time 0), 0.4 s of frames after the one before at
    the 48 kHz the null sink runs at, each trial with its onset's frame and DAC time. (How close a DAC time
    is to the instant a card played the frame is measured on the simulated card: docs/timing.md. On the
    null sink an underrun of a loaded machine delays every later frame, so the DAC times are only
    checked to increase.)"""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["trial"] for line in lines] == list(range(10))
    assert sorted(line["intensity"] for line in lines) == sorted([0.2, 0.4, 0.6, 0.8, 1.0] * 2)
    gaps = np.diff([line["scheduled"] for line in lines])
    assert np.allclose(gaps, 0.4, atol=1e-6)
    onsets = [json.loads(line) for line in (path.parent / "onsets.jsonl").read_text().splitlines()]
    assert len(onsets) == 10 and {o["pattern_time"] for o in onsets} == {0} and {o["event"] for o in onsets} == {0}
    assert [line["stream_frame"] for line in lines] == [o["stream_frame"] for o in onsets]
    assert np.allclose([line["dac_time"] for line in lines], [o["dac_time"] for o in onsets], rtol=0, atol=1e-9)
    assert np.abs(np.diff([line["stream_frame"] for line in lines]) - 0.4 * 48000).max() <= 1
    assert np.all(np.diff([line["dac_time"] for line in lines]) > 0)


@pulse
@pytest.mark.parametrize("name", ["play_loop_rate", "stimulus_train", "analyze_and_play", "two_players"])
def test_python_live_examples(tmp_path, name):
    output = run(python_example(name), tmp_path)
    assert output.strip()
    if name == "stimulus_train":
        check_stimulus_log(tmp_path / "stimuli.jsonl")


@needs_c
@pulse
@pytest.mark.parametrize("name, arguments", [
    ("play_loop_rate", []), ("stimulus_train", []), ("two_players", []),
    ("analyze_and_play", [str(REPOSITORY / "Resources/Audio/click.wav")])])
def test_c_live_examples(tmp_path, name, arguments):
    output = run([str(C_EXAMPLES / name)], tmp_path, *arguments)
    assert output.strip()
    if name == "stimulus_train":
        check_stimulus_log(tmp_path / "stimuli.jsonl")
    if name == "analyze_and_play":
        assert (tmp_path / "analysed.ahap").exists()
