"""Offline steps (no sound server): render throughput against sox, analysis against sox, render cost
against voices and actuators, the allocation counters, and batches of 1,000 files."""
import ctypes
import glob
import json
import os
import shutil
import subprocess
import tempfile
import time

from measure import Series, interleave, run_timed, timed_side
from report import Figure, Report

PERIOD_US = 256 / 48_000 * 1e6  # one 256-frame period at 48 kHz, µs


def throughput_ahap() -> str:
    """600 s of haptics: twenty consecutive 30 s HapticContinuous events (intensity 1, sharpness 0.5)."""
    events = [{"Event": {"Time": i * 30, "EventType": "HapticContinuous", "EventDuration": 30, "EventParameters": [
        {"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}
        for i in range(20)]
    return json.dumps({"Version": 1.0, "Pattern": events})


def throughput(report: Report, bins: dict, runs: int) -> None:
    """`thrum render` (600 s, L,R,H float WAV), the library as a process (`thrum-bench library-render`) and
    `sox … synth 600 sine 170` writing a file of the same size, interleaved; wall time per process."""
    folder = tempfile.mkdtemp(prefix="thrum-bench-throughput-")
    try:
        pattern = os.path.join(folder, "600s.ahap")
        open(pattern, "w").write(throughput_ahap())
        out = os.path.join(folder, "out.wav")
        series = {"thrum render": Series(), "library": Series(), "sox": Series()}
        sizes = {}

        def side(name: str, command: list[str]):
            def go():
                run = run_timed(command)
                if run.status != 0:
                    raise RuntimeError(f"{name} exited {run.status}: {run.stderr.strip()[-200:]}")
                series[name].add(run.wall)
                sizes[name] = os.path.getsize(out)
                os.unlink(out)  # before the next side starts, so no write-back of it overlaps the next
            return go

        interleave(runs, {
            "thrum render": side("thrum render", [bins["thrum"], "render", pattern, "--duration", "600", "-o", out]),
            "library": side("library", [bins["bench"], "library-render", pattern, out]),
            "sox": side("sox", ["sox", "-n", "-r", "48000", "-c", "3", "-e", "floating-point", "-b", "32", out,
                                "synth", "600", "sine", "170"]),
        })
        if max(sizes.values()) - min(sizes.values()) > 4096:
            report.note(f"throughput: file sizes differ: {sizes}")
        thrum, library, sox = (series[k].median for k in ("thrum render", "library", "sox"))
        how = f"processes interleaved, first side rotating, {runs} runs each; files on {folder.split('/')[1]}"
        report.add(Figure("600 s of haptics to a 3-ch 48 kHz float WAV, wall time: `thrum render` / library (`thrum-bench library-render`) / `sox synth 600 sine 170`",
                          f"{series['thrum render'].text('s', 2)} / {series['library'].text('s', 2)} / {series['sox'].text('s', 2)}", how=how))
        report.add(Figure("`thrum render` ÷ sox (medians)", f"{thrum / sox:.2f}×", "≤ 0.35×", thrum / sox <= 0.35, how))
        report.add(Figure("library ÷ sox (medians)", f"{library / sox:.2f}×", "≤ 0.5×", library / sox <= 0.5, how))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def analysis(report: Report, bins: dict, runs: int) -> None:
    """`thrum analyze` of 60 s of 48 kHz 16-bit stereo to AHAP against `sox FILE -n stats`, both processes."""
    folder = tempfile.mkdtemp(prefix="thrum-bench-analysis-")
    try:
        sound = os.path.join(folder, "60s.wav")
        subprocess.run(["sox", "-n", "-r", "48000", "-c", "2", "-b", "16", sound, "synth", "60", "pinknoise",
                        "tremolo", "3", "90", "vol", "0.5"], check=True)
        series = {"thrum": Series(), "sox": Series()}
        interleave(runs, {
            "thrum": timed_side(series["thrum"], "thrum", [bins["thrum"], "analyze", sound, "-o", os.path.join(folder, "out.ahap")]),
            "sox": timed_side(series["sox"], "sox", ["sox", sound, "-n", "stats"])})
        speed = 60 / series["thrum"].median
        report.add(Figure("analyse 60 s of 48 kHz 16-bit stereo (pink noise, 3 Hz tremolo): `thrum analyze -o OUT.ahap` / `sox FILE -n stats`, wall time per process",
                          f"{series['thrum'].text('s', 3)} / {series['sox'].text('s', 3)}", how=f"processes interleaved, {runs} runs each"))
        report.add(Figure("`thrum analyze` speed (60 s ÷ median wall time, process start included)", f"{speed:.0f}× real time",
                          "≥ 200×", speed >= 200, "as above"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def scale(report: Report, bins: dict, runs: int) -> None:
    """Render cost per 256-frame period against voices and actuators (`thrum-bench scale`, in-process)."""
    rows: dict[tuple, dict[str, Series]] = {}
    for _ in range(runs):
        done = subprocess.run([bins["bench"], "scale"], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"thrum-bench scale exited {done.returncode}: {done.stderr.strip()[-200:]}")
        for line in done.stdout.splitlines():
            if line.startswith("json: "):
                row = json.loads(line[6:])
                key = (row["kind"], row["count"], row["voices"], row["channels"])
                series = rows.setdefault(key, {"mean": Series(), "p99": Series()})
                series["mean"].add(row["mean_us"])
                series["p99"].add(row["p99_us"])
    how = f"`thrum-bench scale`: offline engine, 2000 periods after 50 warm-up, {runs} runs (median of the runs' means and p99s)"
    for (kind, count, voices, channels), series in sorted(rows.items()):
        mean = series["mean"].median
        if kind == "voices":
            name = f"render cost per 256-frame period, {count} voice{'s' if count > 1 else ''} (L+H,R+H): mean / p99"
        else:
            name = f"render cost per 256-frame period, {count} actuators ({channels} channels, H:a0…), 16 voices: mean / p99"
        target, met = ("≤ 5 % of the period (mean)", mean / PERIOD_US <= 0.05) if (kind, count) == ("voices", 64) else ("—", None)
        report.add(Figure(name, f"{series['mean'].text('µs', 1)} / {series['p99'].text('µs', 1)} = "
                                f"{mean / PERIOD_US * 100:.2f} % of 5.33 ms", target, met, how))


def counters(report: Report, bins: dict) -> None:
    """The allocation and retain counters on the render thread (`thrum-bench alloc`, `storm`): all 0."""
    for command in (["alloc"], ["storm", "--seconds", "3"]):
        done = subprocess.run([bins["bench"]] + command, capture_output=True, text=True)
        values = [line.split("|")[1:3] for line in done.stdout.splitlines() if line.startswith("| ")]
        for figure, value in values:
            report.add(Figure(figure.strip(), value.strip(), "0", done.returncode == 0, f"`thrum-bench {' '.join(command)}`"))
        if not values:
            raise RuntimeError(f"thrum-bench {command[0]} printed no figure (exit {done.returncode}): {done.stderr.strip()[-200:]}")


def batch(report: Report, bins: dict, runs: int) -> None:
    """1,000 AHAP files to .haptic, and 1,000 short sounds to AHAP: one `thrum` process per file through
    `xargs -P 2` (both cores) against one process calling libthrum 1,000 times (ctypes)."""
    library = ctypes.CDLL(bins["libthrum"])
    library.thrum_convert.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p,
                                      ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                                      ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
    library.thrum_analyze.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t,
                                      ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
    library.thrum_free.argtypes = [ctypes.c_void_p]
    folder = tempfile.mkdtemp(prefix="thrum-bench-batch-")
    try:
        patterns = sorted(glob.glob(os.path.join(bins["root"], "Resources/Patterns/*.ahap")))
        ahaps = []
        for i in range(1000):
            path = os.path.join(folder, f"p{i:04}.ahap")
            shutil.copyfile(patterns[i % len(patterns)], path)
            ahaps.append(path)
        seed = os.path.join(folder, "seed.wav")
        subprocess.run(["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", seed, "synth", "1", "pinknoise", "tremolo", "5", "90"], check=True)
        sounds = []
        for i in range(1000):
            path = os.path.join(folder, f"s{i:04}.wav")
            os.link(seed, path)
            sounds.append(path)
        def library_call(function, *arguments) -> int:
            """A libthrum call whose last two arguments are `char **warnings, char **error`, both freed."""
            warnings, error = ctypes.c_void_p(), ctypes.c_void_p()
            status = function(*arguments, ctypes.byref(warnings), ctypes.byref(error))
            library.thrum_free(warnings)
            library.thrum_free(error)
            return status

        work = {
            "convert": (ahaps, ".haptic", lambda src, dst: library_call(
                library.thrum_convert, (ctypes.c_char_p * 1)(src.encode()), 1, dst.encode(), None, 0)),
            "analyze": (sounds, ".ahap", lambda src, dst: library_call(
                library.thrum_analyze, src.encode(), dst.encode(), None, 0)),
        }
        for verb, (inputs, extension, call) in work.items():
            listing = os.path.join(folder, f"{verb}.list")
            open(listing, "w").write("\n".join(inputs) + "\n")
            series = {"xargs": Series(), "one process": Series()}

            def clean():
                for path in glob.glob(os.path.join(folder, f"*{extension}")):
                    if path not in inputs:
                        os.unlink(path)

            def by_xargs():
                clean()
                start = time.monotonic()
                subprocess.run(["xargs", "-P", "2", "-a", listing, "-I", "{}", bins["thrum"], verb, "{}", "-o", "{}" + extension],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                series["xargs"].add(time.monotonic() - start)

            def by_library():
                clean()
                start = time.monotonic()
                for source in inputs:
                    status = call(source, source + extension)
                    if status != 0:
                        raise RuntimeError(f"libthrum {verb} of {source} returned {status}")
                series["one process"].add(time.monotonic() - start)

            interleave(runs, {"xargs": by_xargs, "one process": by_library})
            clean()
            what = "AHAP files (the bundled patterns, copied) to .haptic" if verb == "convert" else "1 s mono pink-noise WAVs to AHAP"
            report.add(Figure(f"batch `{verb}` of 1,000 {what}: `xargs -P 2 thrum {verb}` (a process per file, both cores) / one process calling libthrum's `thrum_{verb}` 1,000 times (ctypes, one core)",
                              f"{series['xargs'].text('s', 2)} / {series['one process'].text('s', 2)}",
                              how=f"interleaved, {runs} runs each"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
