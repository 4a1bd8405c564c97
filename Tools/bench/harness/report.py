"""The table, the machine it ran on, and the targets that `--check` enforces."""
import os
import platform
import time
from dataclasses import dataclass


@dataclass
class Figure:
    """One row: what was measured, the values (Thrum first, then its peers), the target, whether it was met
    (None when the row has no target), and how it was measured."""
    name: str
    value: str
    target: str = "—"
    met: bool | None = None
    how: str = ""


class Report:
    def __init__(self) -> None:
        self.figures: list[Figure] = []
        self.notes: list[str] = []
        self.loads: list[str] = []

    def add(self, figure: Figure) -> None:
        self.figures.append(figure)
        mark = {None: "", True: "  [met]", False: "  [MISSED]"}[figure.met]
        print(f"benchmark: {figure.name}: {figure.value}{mark}", flush=True)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def step_failed(self, step: str, error: Exception) -> None:
        """A step that could not measure is a miss of its own, never a silent gap."""
        self.add(Figure(f"step `{step}`", f"failed: {error}", "runs", False, ""))

    def sample_load(self, step: str) -> None:
        self.loads.append(f"{step}: {load_average()}")

    def misses(self) -> list[Figure]:
        return [figure for figure in self.figures if figure.met is False]

    def markdown(self, command: str) -> str:
        lines = ["# Thrum benchmark results", ""] + machine() + [
            f"- Command: `{command}`",
            "- Load average (1/5/15 min) at the start of each step: " + "; ".join(self.loads), "",
            "| figure | value (Thrum first) | target | met | how |", "|---|---|---|---|---|"]
        for f in self.figures:
            met = {None: "", True: "yes", False: "**no**"}[f.met]
            lines.append(f"| {f.name} | {f.value} | {f.target} | {met} | {f.how} |")
        if self.notes:
            lines += ["", "Notes:", ""] + [f"- {text}" for text in self.notes]
        return "\n".join(lines) + "\n"


def load_average() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def machine() -> list[str]:
    model = "?"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return [f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
            f"- Kernel: `{platform.system()} {platform.release()} {platform.machine()}`",
            f"- CPU: {model}, {os.cpu_count()} cores"]
