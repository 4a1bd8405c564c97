"""Measuring processes fairly: every side is a process timed the same way, runs interleaved A B A B with
the first side alternating, and figures given as median with min and max."""
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Run:
    """One process: exit status, wall seconds (launch to exit, CLOCK_MONOTONIC), user and system CPU
    seconds and peak RSS in KiB (both from GNU time, which forks the program itself, so the peak is the
    program's own and not its parent's)."""
    status: int
    wall: float
    user: float = 0.0
    system: float = 0.0
    peak_kib: int = 0
    stderr: str = ""


@dataclass
class Series:
    """Samples of one measure, in the order taken."""
    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else float("nan")

    def text(self, unit: str = "", digits: int = 1, scale: float = 1.0) -> str:
        """'12.3 ms (11.9–14.0, n = 5)': median, then min–max."""
        if not self.values:
            return "not measured"
        v = [x * scale for x in self.values]
        space = " " if unit and unit not in ("×", "%") else ""
        return (f"{statistics.median(v):.{digits}f}{space}{unit} "
                f"({min(v):.{digits}f}–{max(v):.{digits}f}, n = {len(v)})")


GNU_TIME = "/usr/bin/time"


def run_timed(command: list[str], stdin=subprocess.DEVNULL, env: dict | None = None, timeout: float = 600) -> Run:
    """Runs `command` under GNU time (`-f '%U %S %M'`) and returns its status, wall time, CPU and peak RSS.
    Standard output is discarded; standard error is kept (the last 2000 characters)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        full = [GNU_TIME, "-f", "%U %S %M", "-o", report.name] + command
        start = time.monotonic()
        done = subprocess.run(full, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                              timeout=timeout)
        wall = time.monotonic() - start
        lines = [line for line in report.read().splitlines() if line.strip()]
    user, system, peak = (lines[-1].split() + ["0", "0", "0"])[:3] if lines else ("0", "0", "0")
    return Run(done.returncode, wall, float(user), float(system), int(peak), done.stderr.decode(errors="replace")[-2000:])


def spawn_wall(command: list[str]) -> float:
    """Wall seconds from posix_spawn to exit of `command` with all output discarded; raises on failure.
    The cheapest launch Python has, the same for every side: used for process start-up."""
    devnull = os.open(os.devnull, os.O_RDWR)
    try:
        start = time.monotonic()
        pid = os.posix_spawnp(command[0], command, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                                            (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status = os.waitpid(pid, 0)
        wall = time.monotonic() - start
    finally:
        os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {os.waitstatus_to_exitcode(status)}")
    return wall


def interleave(runs: int, sides: dict[str, Callable[[], None]]) -> None:
    """Calls each side's function once per run, in rotation: run 0 in the given order, run 1 starting from
    the second side, and so on (A B, B A, A B… for two sides), so that neither always goes first and a
    drift in the machine's state falls on every side alike."""
    names = list(sides)
    for index in range(runs):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            sides[name]()


def timed_side(series: Series, name: str, command: list[str], value: Callable[[Run], float] = lambda run: run.wall,
               env: dict | None = None) -> Callable[[], None]:
    """One side for `interleave`: runs `command` under `run_timed`, fails naming `name` on a non-zero exit,
    and adds `value(run)` (default: wall seconds) to `series`."""
    def go() -> None:
        run = run_timed(command, env=env)
        if run.status != 0:
            raise RuntimeError(f"{name} exited {run.status}: {run.stderr.strip()[-200:]}")
        series.add(value(run))
    return go
