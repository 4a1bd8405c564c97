#!/usr/bin/env python3
"""Benchmarks the Python package against the command (issue 24's figures):
  1. call overhead: thrum.render of a 10 ms pattern (one 10 ms HapticContinuous event), median of N calls,
     beside the same render through the C calls alone (the package's own share is the difference);
  2. throughput: a 600 s render (heartbeat, --loops 600, L,R,H at 48 kHz) by thrum.render (into a fresh
     numpy array, as a caller gets it), by thrum.render(out=) into one reused array, and by
     `thrum render … --format float -o FILE` (into a file on /dev/shm: both sides fill 345 MB of fresh
     memory, the command's in the page cache); beside them, the time to fill a fresh 345 MB array with
     numpy (what fresh memory costs on this machine, render or not).
Each figure: median, min and max of R runs, wall-clock and CPU time (user + system; the command's from
its rusage), so a shared machine's load shows as the gap between them. The load average is printed.
Run it with a Python that has the package installed and the matching command:
  VENV/bin/python Tools/bench/bench-libthrum.py --cli PREFIX/bin/thrum [--calls 2000] [--runs 7]
(Tools/ci/test-libthrum.sh's steps make both: Tools/install.sh --prefix P; python3 -m venv V; V/bin/pip install ./python.)"""
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time
from typing import Callable, List, Tuple

import numpy as np

import thrum
from thrum import _native


def timed(action: Callable[[], object], runs: int, children: bool = False) -> Tuple[List[float], List[float]]:
    """Wall-clock and CPU seconds of each of `runs` calls (CPU of this process, or of its children)."""
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(who)
        start = time.perf_counter()
        action()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(who)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def spread(values: List[float], scale: float = 1.0, digits: int = 2) -> str:
    return (f"median {statistics.median(values) * scale:.{digits}f}, min {min(values) * scale:.{digits}f}, "
            f"max {max(values) * scale:.{digits}f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="the thrum command of the same build")
    parser.add_argument("--calls", type=int, default=2000, help="renders of the 10 ms pattern (default 2000)")
    parser.add_argument("--runs", type=int, default=7, help="600 s renders per side (default 7)")
    options = parser.parse_args()
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())

    short = thrum.Pattern.from_json({"Version": 1, "Pattern": [{"Event": {
        "EventType": "HapticContinuous", "Time": 0, "EventDuration": 0.01}}]})
    samples = thrum.render(short)  # warm up
    calls, _ = timed(lambda: thrum.render(short), options.calls)
    arguments, count = _native.strings_of(["--sample-rate", "48000", "--channels", "L,R,H"])
    block = np.empty((4096, 3), dtype=np.float32)

    def native_only() -> None:
        renderer = _native.lib.thrum_renderer_open(short._handle, arguments, count, None)
        _native.lib.thrum_renderer_read(renderer, block.ctypes.data, len(block), None)
        _native.lib.thrum_renderer_free(renderer)

    native, _ = timed(native_only, options.calls)
    print(f"10 ms pattern ({len(samples)} frames), {options.calls} calls: thrum.render {spread(calls, 1e3, 3)} ms; "
          f"the C calls alone {spread(native, 1e3, 3)} ms; the package's share (medians) "
          f"{(statistics.median(calls) - statistics.median(native)) * 1e3:.3f} ms")

    long = thrum.Pattern.load("heartbeat")
    fresh = timed(lambda: thrum.render(long, loops=600), options.runs)
    reused_array = np.empty((600 * 48000 + 48000, 3), dtype=np.float32)
    reused = timed(lambda: thrum.render(long, loops=600, out=reused_array), options.runs)
    touch = timed(lambda: np.empty((600 * 48000, 3), dtype=np.float32).fill(0.5), options.runs)
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        output = os.path.join(scratch, "long.wav")
        command = [options.cli, "render", "heartbeat", "--loops", "600", "--format", "float", "-o", output]
        cli = timed(lambda: subprocess.run(command, check=True, capture_output=True), options.runs, children=True)
    print(f"600 s render, {options.runs} runs each, seconds (wall | CPU):")
    for name, (walls, cpus) in [("thrum.render (fresh array)", fresh), ("thrum.render(out=reused)", reused),
                                ("thrum render -o /dev/shm", cli), ("numpy: fill a fresh 345 MB array", touch)]:
        print(f"  {name:34} {spread(walls)} | {spread(cpus)}")
    for name, (walls, cpus) in [("fresh", fresh), ("out=", reused)]:
        print(f"Python ({name}) / CLI, medians: wall {statistics.median(walls) / statistics.median(cli[0]):.3f}, "
              f"CPU {statistics.median(cpus) / statistics.median(cli[1]):.3f}")
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
