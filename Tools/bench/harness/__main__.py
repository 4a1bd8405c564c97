"""Thrum's benchmark (run through Tools/benchmark.sh, which builds what it times): every figure side by side
with a peer in one run, as medians with min and max over interleaved runs, the host's own wake-up latency
beside every underrun cell, sound servers running only for the steps that need them.

    Tools/benchmark.sh [--runs N] [--cell-runs N] [--seconds S] [--no-load] [--only STEP,...] [--write] [--check]

--check exits 1 and names every missed target (a step that fails to measure is a miss too)."""
import argparse
import os
import subprocess
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import offline  # noqa: E402
import startup  # noqa: E402
import trigger  # noqa: E402
import underruns  # noqa: E402
from report import Report  # noqa: E402
from servers import ROOT, server, simcard_env  # noqa: E402

STEPS = ["throughput", "analysis", "scale", "counters", "batch", "start", "footprint", "card", "trigger", "pulse",
         "pipewire"]


def main() -> int:
    parser = argparse.ArgumentParser(prog="Tools/benchmark.sh", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prefix", required=True, help="where Tools/install.sh installed thrum and libthrum")
    parser.add_argument("--bench", required=True, help="the release thrum-bench (Tools/bench)")
    parser.add_argument("--runs", type=int, default=5, help="runs per side for timings (default 5; 20× for process start)")
    parser.add_argument("--cell-runs", type=int, default=3, help="runs per side of each underrun cell (default 3)")
    parser.add_argument("--seconds", type=int, default=10, help="length of each underrun run (default 10 s)")
    parser.add_argument("--no-load", action="store_true", help="underrun cells idle only (not also with the other core busy)")
    parser.add_argument("--only", default=",".join(STEPS), help=f"comma-separated steps (default all: {','.join(STEPS)})")
    parser.add_argument("--write", action="store_true", help="also write Tools/bench/benchmark-results.md")
    parser.add_argument("--check", action="store_true", help="exit 1 naming every missed target")
    options = parser.parse_args()
    steps = options.only.split(",")
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        parser.error(f"unknown step {', '.join(unknown)}; steps: {', '.join(STEPS)}")
    bins = {"thrum": os.path.join(options.prefix, "bin/thrum"), "bench": options.bench,
            "libthrum": os.path.join(options.prefix, "lib/libthrum.so"), "root": ROOT}
    loads = [False] if options.no_load else [False, True]
    runs = options.runs
    report = Report()

    def step(name, action):
        if name not in steps:
            return
        print(f"benchmark: == {name}", flush=True)
        report.sample_load(name)
        try:
            action()
        except Exception as error:  # a step that cannot measure is reported as a miss, never dropped
            traceback.print_exc()
            report.step_failed(name, error)

    step("throughput", lambda: offline.throughput(report, bins, runs))
    step("analysis", lambda: offline.analysis(report, bins, runs))
    step("scale", lambda: offline.scale(report, bins, max(3, runs // 2)))
    step("counters", lambda: offline.counters(report, bins))
    step("batch", lambda: offline.batch(report, bins, max(2, runs // 2)))
    step("start", lambda: startup.process_start(report, bins, 20 * runs))
    card_env = simcard_env() if {"footprint", "card", "trigger"} & set(steps) else {}
    step("footprint", lambda: startup.footprint(report, bins, card_env, runs))
    if "card" in steps:
        step("card", lambda: underruns.cells(report, bins, card_env, "card", options.cell_runs, options.seconds, loads))
    step("trigger", lambda: trigger.cells(report, bins, card_env, 40 * runs))
    if "pulse" in steps:
        with server("pulse-null-sink.sh") as env:
            step("pulse", lambda: (startup.first_sound(report, bins, env, 2 * runs),
                                   underruns.cells(report, bins, env, "pulse", options.cell_runs, options.seconds, loads),
                                   latency(report, bins, env, runs)))
    if "pipewire" in steps:
        with server("pipewire-null-sink.sh") as env:
            step("pipewire", lambda: startup.server_cpu(report, bins, env, runs))

    shown = [a for a in sys.argv[1:] if a not in ("--prefix", "--bench", options.prefix, options.bench)]
    text = report.markdown(" ".join(["Tools/benchmark.sh"] + shown))
    print(text)
    if options.write:
        open(os.path.join(ROOT, "Tools/bench/benchmark-results.md"), "w").write(text)
        print("benchmark: wrote Tools/bench/benchmark-results.md", file=sys.stderr)
    misses = report.misses()
    for figure in misses:
        print(f"benchmark: missed: {figure.name}: {figure.value} (target {figure.target})", file=sys.stderr)
    if options.check and misses:
        print(f"benchmark: --check: {len(misses)} target(s) missed", file=sys.stderr)
        return 1
    return 0


def latency(report: Report, bins: dict, env: dict, runs: int) -> None:
    """In-process start-up on `pulse` (`thrum-bench latency`), its rows as they are."""
    from report import Figure
    done = subprocess.run([bins["bench"], "latency", "--runs", str(2 * runs)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"thrum-bench latency exited {done.returncode}: {done.stderr.strip()[-200:]}")
    for line in done.stdout.splitlines():
        if line.startswith("| "):
            figure, value, target = (cell.strip() for cell in line.split("|")[1:4])
            met = None
            if target == "≤ 50 ms":
                met = float(value.split()[0]) <= 50
            report.add(Figure(figure, value, target, met, "`thrum-bench latency`, in-process"))


if __name__ == "__main__":
    sys.exit(main())
