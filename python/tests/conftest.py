"""Shared helpers: the thrum command is the oracle (THRUM_CLI, the installed bin/thrum), float WAV files are
read by their RIFF chunks, and the PulseAudio null sink (Tools/dev/pulse-null-sink.sh) is captured with parec."""
import os
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def cli() -> str:
    path = os.environ.get("THRUM_CLI") or shutil.which("thrum")
    if not path:
        pytest.skip("no thrum command to compare with (set THRUM_CLI to an installed bin/thrum)")
    return path


def run_cli(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([cli(), *arguments], capture_output=True, text=True, timeout=300)


def cli_failure(command: str, *arguments: str) -> tuple:
    """(the one-line message `thrum COMMAND ARGUMENTS` fails with, without `thrum COMMAND: `; its exit status)."""
    result = run_cli(command, *arguments)
    assert result.returncode != 0, f"thrum {command} {arguments} succeeded"
    line = result.stderr.strip().splitlines()[-1]
    prefix = f"thrum {command}: "
    assert line.startswith(prefix), line
    return line[len(prefix):], result.returncode


def cli_error(command: str, *arguments: str) -> str:
    """The one-line message `thrum COMMAND ARGUMENTS` fails with, without `thrum COMMAND: `."""
    return cli_failure(command, *arguments)[0]


def read_float_wav(path: Path) -> tuple:
    """(samples as float32 (frames, channels), sample rate) of a float WAV that libsndfile wrote."""
    data = Path(path).read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    offset, channels, rate = 12, 0, 0
    while offset + 8 <= len(data):
        name, size = data[offset:offset + 4], int.from_bytes(data[offset + 4:offset + 8], "little")
        body = data[offset + 8:offset + 8 + size]
        if name == b"fmt ":
            channels = int.from_bytes(body[2:4], "little")
            rate = int.from_bytes(body[4:8], "little")
        if name == b"data":
            return np.frombuffer(body, dtype="<f4").reshape(-1, channels), rate
        offset += 8 + size + (size & 1)
    raise AssertionError(f"{path}: no data chunk")


def cli_render(tmp_path: Path, pattern: str, *options: str) -> np.ndarray:
    output = tmp_path / f"cli-{len(list(tmp_path.iterdir()))}.wav"
    result = run_cli("render", pattern, "--format", "float", "-o", str(output), *options)
    assert result.returncode == 0, result.stderr
    samples, _ = read_float_wav(output)
    return samples


pulse = pytest.mark.skipif(
    os.environ.get("THRUM_PULSE_TESTS") != "1" or not shutil.which("parec"),
    reason="needs the PulseAudio null sink (eval \"$(Tools/dev/pulse-null-sink.sh start)\") and parec")


class MonitorCapture:
    """Records the null sink's monitor (float32 stereo 48 kHz, raw) while the test plays to ALSA 'pulse'."""

    def __init__(self, path: Path):
        self.path = path
        self.file = open(path, "wb")
        self.process = subprocess.Popen(
            ["parec", "--device=null.monitor", "--format=float32le", "--rate=48000", "--channels=2", "--raw",
             "--latency-msec=10"], stdout=self.file)
        time.sleep(0.5)  # let parec connect before anything plays

    def finish(self) -> np.ndarray:
        self.process.kill()
        self.process.wait()
        self.file.close()
        return np.fromfile(self.path, dtype="<f4").reshape(-1, 2)
