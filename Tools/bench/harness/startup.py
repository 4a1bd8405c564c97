"""Start-up and footprint against aplay, side by side: process start, launch → first sound at the null
sink's monitor at the same period and buffer, and peak RSS while playing."""
import os
import shutil
import subprocess
import tempfile
import threading
import time

from measure import Series, interleave, spawn_wall, timed_side
from report import Figure, Report


def process_start(report: Report, bins: dict, runs: int) -> None:
    """`thrum --version` against `aplay --version`: launch to exit, the same posix_spawn for both."""
    series = {"thrum": Series(), "aplay": Series()}
    interleave(runs, {"thrum": lambda: series["thrum"].add(spawn_wall([bins["thrum"], "--version"])),
                      "aplay": lambda: series["aplay"].add(spawn_wall(["aplay", "--version"]))})
    ratio = series["thrum"].median / series["aplay"].median
    report.add(Figure("process start: `thrum --version` / `aplay --version`, launch → exit",
                      f"{series['thrum'].text('ms', 2, 1e3)} / {series['aplay'].text('ms', 2, 1e3)} = {ratio:.2f}×",
                      "≤ 2× aplay", ratio <= 2, f"posix_spawn → waitpid, interleaved, {runs} runs each"))


def footprint(report: Report, bins: dict, env: dict, runs: int) -> None:
    """Peak RSS of `thrum play heartbeat` against aplay of the same pattern rendered, both on the simulated
    card (it consumes in real time, as a sound card does; ALSA `null` returns at once), and of `thrum --help`."""
    folder = tempfile.mkdtemp(prefix="thrum-bench-rss-")
    try:
        wav = os.path.join(folder, "heartbeat.wav")
        subprocess.run([bins["thrum"], "render", "heartbeat", "--channels", "L+H,R+H", "--format", "pcm32", "-o", wav],
                       check=True, capture_output=True)
        series = {"thrum play": Series(), "aplay": Series(), "thrum --help": Series()}
        card = f"sim_scarlett:DIR={folder}"

        def side(name, command):
            return timed_side(series[name], name, command, value=lambda run: run.peak_kib / 1024, env=env)

        interleave(runs, {"thrum play": side("thrum play", [bins["thrum"], "play", "heartbeat", "--device", card]),
                          "aplay": side("aplay", ["aplay", "-q", "-D", card, wav]),
                          "thrum --help": side("thrum --help", [bins["thrum"], "--help"])})
        ratio = series["thrum play"].median / series["aplay"].median
        report.add(Figure("peak RSS playing 1 s on the simulated card: `thrum play heartbeat` / aplay of the same pattern rendered / `thrum --help`",
                          " / ".join(series[k].text("MB", 1) for k in series) + f"; play ÷ aplay = {ratio:.2f}×",
                          "≤ 2× aplay", ratio <= 2, f"GNU time %M, interleaved, {runs} runs each"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Monitor:
    """Records the null sink's monitor (parec, float32, 2 ms latency) and notes the CLOCK_MONOTONIC time
    of the first non-zero byte read after `arm()`."""

    def __init__(self, env: dict):
        self.process = subprocess.Popen(["parec", "-d", "null.monitor", "--raw", "--format=float32le", "--rate=48000",
                                         "--channels=2", "--latency-msec=2"], stdout=subprocess.PIPE, env=env)
        self.armed = False
        self.heard: float | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        time.sleep(0.5)

    def _read(self) -> None:
        while chunk := os.read(self.process.stdout.fileno(), 4096):
            if self.armed and self.heard is None and chunk.count(0) != len(chunk):
                self.heard = time.monotonic()

    def arm(self) -> None:
        self.heard = None
        self.armed = True

    def wait(self, timeout: float) -> float | None:
        deadline = time.monotonic() + timeout
        while self.heard is None and time.monotonic() < deadline:
            time.sleep(0.001)
        self.armed = False
        return self.heard

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


def first_sound(report: Report, bins: dict, env: dict, runs: int) -> None:
    """Launch → first non-zero sample at `null.monitor`: `thrum play tap` against aplay of the same pattern
    rendered, both at period 256 × 4 on ALSA `pulse`, aplay at thrum's priority (chrt -f 70)."""
    folder = tempfile.mkdtemp(prefix="thrum-bench-first-")
    monitor = Monitor(env)
    try:
        wav = os.path.join(folder, "tap.wav")
        subprocess.run([bins["thrum"], "render", "tap", "--channels", "L+H,R+H", "--format", "pcm32", "-o", wav],
                       check=True, capture_output=True, env=env)
        series = {"thrum": Series(), "aplay": Series()}

        def side(name, command):
            def go():
                time.sleep(0.3)  # the monitor is silent again
                monitor.arm()
                start = time.monotonic()
                process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                heard = monitor.wait(5)
                process.wait()
                if heard is None:
                    raise RuntimeError(f"{name}: no sound reached null.monitor")
                series[name].add(heard - start)
            return go

        interleave(runs, {
            "thrum": side("thrum", [bins["thrum"], "play", "tap", "--device", "pulse", "--period", "256", "--periods", "4"]),
            "aplay": side("aplay", ["chrt", "-f", "70", "aplay", "-q", "-D", "pulse", "--period-size=256", "--buffer-size=1024", wav]),
        })
        difference = (series["thrum"].median - series["aplay"].median) * 1e3
        report.add(Figure("launch → first sound at `null.monitor`, 256 × 4 on `pulse`: `thrum play tap` / aplay of the same pattern rendered (chrt -f 70)",
                          f"{series['thrum'].text('ms', 1, 1e3)} / {series['aplay'].text('ms', 1, 1e3)}; thrum − aplay = {difference:+.1f} ms",
                          "≤ aplay + 5 ms", difference <= 5, f"parec --latency-msec=2 on the monitor, interleaved, {runs} runs each"))
    finally:
        monitor.stop()
        shutil.rmtree(folder, ignore_errors=True)


def server_cpu(report: Report, bins: dict, env: dict, runs: int) -> None:
    """CPU time (user + system, whole process) per second of audio through ALSA `pipewire`, 256 × 4:
    `thrum play` against aplay of the same 10 s pattern rendered (chrt -f 70)."""
    folder = tempfile.mkdtemp(prefix="thrum-bench-cpu-")
    try:
        wav = os.path.join(folder, "drag.wav")
        pattern = ["textured-drag", "--duration", "10", "--channels", "L+H,R+H"]
        subprocess.run([bins["thrum"], "render"] + pattern + ["--format", "pcm32", "-o", wav], check=True,
                       capture_output=True, env=env)
        series = {"thrum": Series(), "aplay": Series()}

        def side(name, command):
            return timed_side(series[name], name, command, value=lambda run: (run.user + run.system) / 10, env=env)

        interleave(runs, {
            "thrum": side("thrum", [bins["thrum"], "play"] + pattern + ["--device", "pipewire", "--period", "256", "--periods", "4"]),
            "aplay": side("aplay", ["chrt", "-f", "70", "aplay", "-q", "-D", "pipewire", "--period-size=256", "--buffer-size=1024", wav]),
        })
        ratio = series["thrum"].median / max(series["aplay"].median, 1e-6)
        report.add(Figure("CPU time per second of audio through ALSA `pipewire` (headless PipeWire, null sink), 256 × 4: `thrum play` / aplay (chrt -f 70)",
                          f"{series['thrum'].text('ms', 1, 1e3)} / {series['aplay'].text('ms', 1, 1e3)} = {ratio:.2f}×",
                          "≤ 3× aplay", ratio <= 3, f"GNU time %U + %S ÷ 10 s, interleaved, {runs} runs each (GNU time's CPU figures have 10 ms steps)"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
