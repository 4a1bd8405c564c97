"""Underruns against the machine's own floor. Each cell (period × periods, idle or with the other core busy)
runs, interleaved with the first side rotating: `thrum play` (SCHED_FIFO 70, its default), `thrum play
--priority 0` (normal scheduling), aplay under `chrt -f 70` (the same priority), and the floor: cyclictest at
priority 70 waking once a period, counting the wake-ups later than one period (a player with a buffer of
two periods underruns when it wakes that late). One counter for both players: on the simulated card, the
card's own underrun count; on `pulse`, gaps at the null sink's monitor (runs of ≥ 1 ms of exact zeros
inside the played span of a signal that has none). The PulseAudio server's sink threads run at SCHED_RR 80
(Tools/dev/pulse-null-sink.sh), above both players; each pulse row says the policy it found."""
import array
import os
import re
import shutil
import subprocess
import tempfile
import time

from measure import Series, interleave
from report import Figure, Report
from servers import busy_core

CELLS = [(64, 2), (128, 2), (256, 4)]
PRIORITY = 70
RATE = 48_000
CARD = "sim_scarlett"


def floor(period: int, seconds: int) -> int:
    """Wake-ups later than one period in `seconds` of cyclictest at our priority and the period's interval."""
    interval = round(period / RATE * 1e6)
    done = subprocess.run(["cyclictest", "-q", "--laptop", "-p", str(PRIORITY), "-i", str(interval), "-D", str(seconds),
                           "-h", str(interval)], capture_output=True, text=True)
    match = re.search(r"# Histogram Overflows: *(\d+)", done.stdout)
    if done.returncode != 0 or not match:
        raise RuntimeError(f"cyclictest failed ({done.returncode}): {done.stderr.strip()[-200:]}")
    return int(match.group(1))


def sink_scheduling(env: dict) -> str:
    """The scheduling of the PulseAudio server's null-sink threads, as the kernel reports it (e.g. "SCHED_RR 80")."""
    pid = open(os.path.join(env["PULSE_RUNTIME_PATH"], "pulseaudio.pid")).read().strip()
    found = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        if open(f"/proc/{pid}/task/{tid}/comm").read().strip() == "null-sink":
            fields = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
            priority, policy = int(fields[37]), int(fields[38])  # rt_priority and policy (proc(5), fields 40, 41)
            found.add({0: "SCHED_OTHER", 1: f"SCHED_FIFO {priority}", 2: f"SCHED_RR {priority}"}.get(policy, f"policy {policy}"))
    if not found:
        raise RuntimeError("the PulseAudio server has no null-sink thread")
    return ", ".join(sorted(found))


def card_underruns(folder: str) -> int:
    text = open(os.path.join(folder, f"{CARD}.stats")).read()
    return int(re.search(r"^underruns=(\d+)", text, re.M).group(1))


def monitor_gaps(raw: str, minimum_zeros: int = RATE // 1000) -> int:
    """Gaps in a float32 stereo capture: runs of at least `minimum_zeros` frames whose samples are all exactly
    0, between the first and the last non-zero frame."""
    samples = array.array("f")
    with open(raw, "rb") as f:
        data = f.read()
    samples.frombytes(data[: len(data) // 8 * 8])
    frames = len(samples) // 2
    sounding = [samples[2 * i] != 0 or samples[2 * i + 1] != 0 for i in range(frames)]
    try:
        first, last = sounding.index(True), frames - 1 - sounding[::-1].index(True)
    except ValueError:
        raise RuntimeError("the monitor heard nothing")
    gaps, run = 0, 0
    for frame in range(first, last + 1):
        if sounding[frame]:
            if run >= minimum_zeros:
                gaps += 1
            run = 0
        else:
            run += 1
    return gaps


def cells(report: Report, bins: dict, env: dict, device: str, runs: int, seconds: int, loads: list[bool]) -> None:
    """Every cell on `device` ("card" for the simulated card, "pulse" for the PulseAudio null sink)."""
    folder = tempfile.mkdtemp(prefix=f"thrum-bench-{device}-")
    try:
        pattern = os.path.join(folder, "tone.ahap")
        # A continuous haptic (80 Hz sine at full intensity) and a 440 Hz tone: no exact zeros but at the start.
        open(pattern, "w").write('{"Version": 1, "Pattern": ['
                                 '{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": %d, "EventParameters": '
                                 '[{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}},'
                                 '{"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": %d, "EventParameters": '
                                 '[{"ParameterID": "AudioVolume", "ParameterValue": 0.3}]}}]}' % (seconds, seconds))
        server = f"; server's sink threads {sink_scheduling(env)}" if device == "pulse" else ""
        wav = os.path.join(folder, "tone.wav")
        subprocess.run([bins["thrum"], "render", pattern, "--channels", "L+H,R+H", "--format", "pcm32", "-o", wav],
                       check=True, env=env, capture_output=True)
        for busy in loads:
            for period, periods in CELLS:
                counts = {name: Series() for name in ("thrum", "thrum, normal scheduling", "aplay (chrt -f 70)", "floor")}
                failures: list[str] = []

                def player(name: str, command: list[str]):
                    def go():
                        out = tempfile.mkdtemp(dir=folder)
                        device_name = f"{CARD}:DIR={out}" if device == "card" else "pulse"
                        full = [part.replace("DEVICE", device_name) for part in command]
                        capture = None
                        if device == "pulse":
                            raw = os.path.join(out, "monitor.raw")
                            capture = subprocess.Popen(["parec", "-d", "null.monitor", "--raw", "--format=float32le",
                                                        "--rate=48000", "--channels=2", "--latency-msec=20", raw], env=env)
                            time.sleep(0.3)
                        done = subprocess.run(full, env=env, capture_output=True, text=True, timeout=seconds + 30)
                        if capture:
                            time.sleep(0.3)
                            capture.terminate()
                            capture.wait()
                        if done.returncode != 0:
                            failures.append(f"{name} exited {done.returncode}: {done.stderr.strip()[-160:]}")
                            return
                        counts[name].add(card_underruns(out) if device == "card" else monitor_gaps(os.path.join(out, "monitor.raw")))
                        shutil.rmtree(out, ignore_errors=True)
                    return go

                play = [bins["thrum"], "play", pattern, "--channels", "L+H,R+H", "--device", "DEVICE",
                        "--period", str(period), "--periods", str(periods)]
                aplay = ["chrt", "-f", str(PRIORITY), "aplay", "-q", "-D", "DEVICE", f"--period-size={period}",
                         f"--buffer-size={period * periods}", wav]
                with busy_core(busy):
                    interleave(runs, {
                        "thrum": player("thrum", play),
                        "thrum, normal scheduling": player("thrum, normal scheduling", play + ["--priority", "0"]),
                        "aplay (chrt -f 70)": player("aplay (chrt -f 70)", aplay),
                        "floor": lambda: counts["floor"].add(floor(period, seconds)),
                    })
                where = "the simulated card" if device == "card" else "`pulse`"
                unit = "underruns (the card's count)" if device == "card" else "gaps at the monitor"
                label = f"{period} × {periods} ({period / RATE * 1e3:.1f} ms / {period * periods / RATE * 1e3:.1f} ms)"
                value = " / ".join(counts[n].text("", 0) for n in counts)
                met = not failures and bool(counts["thrum"].values) and counts["thrum"].median <= counts["floor"].median
                if failures:
                    value += "; " + "; ".join(failures)
                report.add(Figure(
                    f"{unit} in {seconds} s on {where}, {label}, {'other core busy' if busy else 'idle'}: "
                    "thrum / thrum at normal scheduling / aplay at the same priority / floor (late wake-ups)",
                    value, "thrum ≤ floor (medians)", met,
                    f"interleaved, {runs} runs each; cyclictest -p {PRIORITY} -i {round(period / RATE * 1e6)} µs{server}"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
