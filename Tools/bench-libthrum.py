#!/usr/bin/env python3
"""Benchmarks the Python package against the command (issue 24's figures):
  1. call overhead: thrum.render of a 10 ms pattern (one 10 ms HapticContinuous event), median of N calls;
  2. throughput: a 600 s render (heartbeat, --loops 600, L,R,H at 48 kHz) by thrum.render (into a numpy
     array) and by `thrum render … --format float -o FILE` (into a file on /dev/shm), best of R runs each;
     beside them, the same render read through libthrum into one reused 65536-frame block (the library's
     own speed, without the result's 345 MB), and the time to fill a fresh array of that size with numpy
     (the memory cost any in-memory result pays: on some VMs each new page is expensive).
Run it with a Python that has the package installed and the matching command:
  VENV/bin/python Tools/bench-libthrum.py --cli PREFIX/bin/thrum [--calls 200] [--runs 3]
(Tools/test-libthrum.sh's steps make both: Tools/install.sh --prefix P; python3 -m venv V; V/bin/pip install ./python.)
Do not run it beside other work: the figures are wall-clock times."""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

import thrum
from thrum import _native


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="the thrum command of the same build")
    parser.add_argument("--calls", type=int, default=200, help="renders of the 10 ms pattern (default 200)")
    parser.add_argument("--runs", type=int, default=3, help="600 s renders per side (default 3)")
    options = parser.parse_args()

    short = thrum.Pattern.from_json({"Version": 1, "Pattern": [{"Event": {
        "EventType": "HapticContinuous", "Time": 0, "EventDuration": 0.01}}]})
    thrum.render(short)  # warm up
    times = []
    for _ in range(options.calls):
        start = time.perf_counter()
        samples = thrum.render(short)
        times.append(time.perf_counter() - start)
    print(f"10 ms pattern: thrum.render median {statistics.median(times) * 1e3:.2f} ms per call "
          f"({len(samples)} frames; min {min(times) * 1e3:.2f} ms, {options.calls} calls)")

    long = thrum.Pattern.load("heartbeat")
    python_times = []
    for _ in range(options.runs):
        start = time.perf_counter()
        samples = thrum.render(long, loops=600)
        python_times.append(time.perf_counter() - start)
        del samples
    reused = []
    block = np.empty((65536, 3), dtype=np.float32)
    for _ in range(options.runs):
        arguments, count = _native.strings_of(["--loops", "600"])
        renderer = _native.call(_native.lib.thrum_renderer_open, long._handle, arguments, count, failed=lambda h: not h)
        start = time.perf_counter()
        while _native.lib.thrum_renderer_read(renderer, block.ctypes.data, len(block), None) == len(block):
            pass
        reused.append(time.perf_counter() - start)
        _native.lib.thrum_renderer_free(renderer)
    start = time.perf_counter()
    fresh = np.empty((600 * 48000, 3), dtype=np.float32)
    fresh.fill(0.5)
    touch = time.perf_counter() - start
    del fresh
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
    cli_times = []
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        output = os.path.join(scratch, "long.wav")
        for _ in range(options.runs):
            start = time.perf_counter()
            subprocess.run([options.cli, "render", "heartbeat", "--loops", "600", "--format", "float", "-o", output],
                           check=True, capture_output=True)
            cli_times.append(time.perf_counter() - start)
    best_python, best_cli = min(python_times), min(cli_times)
    print(f"600 s render: thrum.render {best_python:.2f} s ({600 / best_python:.0f}x real time), "
          f"thrum render {best_cli:.2f} s ({600 / best_cli:.0f}x real time); Python/CLI = {best_python / best_cli:.3f} "
          f"(best of {options.runs}); libthrum into a reused block {min(reused):.2f} s; filling a fresh "
          f"345 MB array {touch:.2f} s")


if __name__ == "__main__":
    main()
