"""The live engine's trigger latency on the simulated card: `player.start(atTime: CHHapticTimeImmediate)` on a
running engine → the instant the card's own clock played the pattern's first frame (`thrum-bench trigger`,
which reads the card's timing log), at 64 × 2, 128 × 2 and 256 × 4. Target: p99 ≤ the device buffer + one
period + 0.5 ms."""
import re
import subprocess

from report import Figure, Report


def cells(report: Report, bins: dict, env: dict, runs: int) -> None:
    done = subprocess.run([bins["bench"], "trigger", "--runs", str(runs)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"thrum-bench trigger exited {done.returncode}: {done.stderr.strip()[-300:]}")
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    if len(rows) != 3:
        raise RuntimeError(f"thrum-bench trigger printed {len(rows)} rows, not 3")
    for line in rows:
        figure, value, target = (cell.strip() for cell in line.split("|")[1:4])
        p99 = float(re.search(r"p99 ([0-9.]+) ms", value).group(1))
        goal = float(re.search(r"p99 ≤ ([0-9.]+) ms", target).group(1))
        report.add(Figure(figure, value, target, p99 <= goal,
                          f"`thrum-bench trigger --runs {runs}` in-process, the card's timing log for the play instants"))
