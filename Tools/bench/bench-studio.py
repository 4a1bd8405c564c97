#!/usr/bin/python3
"""Thrum Studio benchmark (not a test): page load, edit → re-rendered waveform on screen for a 30 s pattern
(goal ≤ 100 ms), position latency, and the server's CPU and RSS idle and playing. Real `thrum studio`, real
headless Chromium (Selenium), a PulseAudio null sink as the device when one runs (Tools/dev/pulse-null-sink.sh).

    Tools/bench/bench-studio.py                 # THRUM_BIN, else .build/release/thrum, else .build/debug/thrum
    Tools/bench/bench-studio.py --runs 20
    Tools/bench/bench-studio.py --resources DIR # serve the page (and patterns) of another Resources folder, e.g. an
                                          # older version's, to measure before and after a change of the page

Prints a Markdown table of figures (median, 95th percentile, min–max over the runs).

Edit → waveform: an intensity typed in the Inspector (the page's `metrics.editStart`) until two animation frames
after the engine's new peaks (GET /api/peaks) are drawn (`metrics.editToWave`). Each edit is made when the page
has finished with the one before (whole render fetched and decoded, spectrogram drawn), as a designer edits;
a second series makes the next edit as soon as the waveform is on screen.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "Tests" / "Browser"))
from conftest import NO_DEVICE, Studio, thrum_binary, pulse_available, wait_for  # noqa: E402


def long_pattern(seconds=30.0):
    """A 30 s design: a continuous bed in 2 s events, a transient every 125 ms, an intensity curve per
    second, and an audio tone per 2 s, so every lane and both rendered channels carry signal."""
    pattern = []
    for n in range(int(seconds / 2)):
        t = 2.0 * n
        pattern.append({"Event": {"Time": t, "EventType": "HapticContinuous", "EventDuration": 1.9, "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}})
        pattern.append({"Event": {"Time": t + 0.5, "EventType": "AudioContinuous", "EventDuration": 1.0, "EventParameters": [
            {"ParameterID": "AudioVolume", "ParameterValue": 0.3}, {"ParameterID": "AudioPitch", "ParameterValue": (n % 5) / 5 - 0.4}]}})
    for n in range(int(seconds * 8)):
        pattern.append({"Event": {"Time": n / 8, "EventType": "HapticTransient", "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 0.4 + 0.6 * ((n % 4) == 0)},
            {"ParameterID": "HapticSharpness", "ParameterValue": 0.7}]}})
    for n in range(int(seconds)):
        pattern.append({"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": float(n), "ParameterCurveControlPoints": [
            {"Time": 0, "ParameterValue": 1}, {"Time": 0.5, "ParameterValue": 0.4}, {"Time": 0.99, "ParameterValue": 1}]}})
    return {"Version": 1, "Pattern": pattern}


def edit_intensity(driver, value):
    """Types `value` into the Inspector's intensity field of the selected event, as a change."""
    driver.execute_script("""const f = document.querySelector("input[aria-label='Intensity value']");
        f.value = String(arguments[0]); f.dispatchEvent(new Event('change'));""", value)


def live_edits(driver, runs):
    """Slider steps while the slider is held (an `input` event, no release; a step 0.15 s after the waveform of
    the one before) and arrow-key nudges of the selected event (tapped: 0.25 s after the waveform of the one
    before), each until two frames after its new waveform is drawn (`metrics.waveAt`, a page that records it)."""
    rows = []
    slider = "document.querySelector(\"#inspector-body input[type='range'][data-field='HapticIntensity']\")"
    steps = []
    for run in range(runs):
        start = driver.execute_script(f"""const s = {slider}; window.__t0 = performance.now();
            s.value = String(arguments[0]); s.dispatchEvent(new Event('input', {{bubbles: true}})); return window.__t0""", 0.2 + 0.05 * (run % 10))
        try:
            wait_for(lambda: (driver.execute_script("return window.studio.metrics.waveAt") or 0) > start, timeout=3, message="a waveform while held")
        except AssertionError:
            steps = None
            break
        steps.append(driver.execute_script("return window.studio.metrics.waveAt") - start)
        time.sleep(0.15)
    driver.execute_script(f"{slider}.dispatchEvent(new Event('change', {{bubbles: true}}))")
    time.sleep(0.5)
    rows.append(("slider held and moved → new waveform (a step of the drag)",
                 summary(steps) if steps else "none until the release (the page previewed the drag locally)"))
    nudges = []
    for run in range(runs):
        start = driver.execute_script("""const c = document.getElementById('timeline'); c.focus(); window.__t0 = performance.now();
            c.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true, cancelable: true})); return window.__t0""",
                                      "ArrowRight" if run % 2 == 0 else "ArrowLeft")
        try:
            wait_for(lambda: (driver.execute_script("return window.studio.metrics.waveAt") or 0) > start, timeout=3, message="the nudge's waveform")
        except AssertionError:
            nudges = None
            break
        nudges.append(driver.execute_script("return window.studio.metrics.waveAt") - start)
        time.sleep(0.25)
    rows.append(("arrow-key nudge → new waveform", summary(nudges) if nudges else "not measured (the page does not record waveAt)"))
    return rows


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_share(pid, seconds=5.0):
    before, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - before) / (time.monotonic() - start)


def p95(values):
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * 95 // 100) - 1)]


def summary(values, unit="ms"):
    """Median, p95 and range of `values`."""
    if not values:
        return "—"
    return (f"{statistics.median(values):.1f} {unit} (p95 {p95(values):.1f}; {min(values):.1f}–{max(values):.1f}, "
            f"n = {len(values)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--resources", help="a Resources folder whose Studio page to serve (THRUM_RESOURCES)")
    arguments = parser.parse_args()
    if arguments.resources:
        os.environ["THRUM_RESOURCES"] = str(Path(arguments.resources).resolve())
    if "THRUM_BIN" not in os.environ:
        release = REPOSITORY / ".build" / "release" / "thrum"
        if release.exists():
            os.environ["THRUM_BIN"] = str(release)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    folder = Path(tempfile.mkdtemp(prefix="thrum-bench-studio-"))
    (folder / "long.ahap").write_text(json.dumps(long_pattern(), indent=1))
    device = "pulse" if pulse_available() else NO_DEVICE
    studio = Studio(folder, device)
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,720", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    rows = []
    try:
        idle_cpu = cpu_share(studio.process.pid)
        idle_rss = rss_mb(studio.process.pid)
        loads, ready = [], []
        for _ in range(min(arguments.runs, 5)):
            started = time.monotonic()
            driver.get(studio.url)
            wait_for(lambda: driver.execute_script("return window.studio && window.studio.metrics.ready"), message="page ready")
            loads.append((time.monotonic() - started) * 1000)
            ready.append(driver.execute_script("return window.studio.metrics.ready"))
        rows.append(("page load: navigation → page ready (status, files, settings fetched)", summary(ready)))
        rows.append(("page load as the driver sees it (get → ready)", summary(loads)))
        started = driver.execute_script("return performance.now()")
        driver.execute_script("document.getElementById('file-select').value = 'long.ahap'; document.getElementById('open-button').click()")
        wait_for(lambda: driver.execute_script("return window.studio.metrics.firstDraw"), timeout=120, message="first render")
        first = driver.execute_script("return window.studio.metrics.firstDraw") - started
        rows.append(("open the 30 s pattern → its render on screen", f"{first:.0f} ms"))
        # Edits through the inspector's intensity field, one at a time, each made when the page has finished
        # with the one before (its whole render decoded and its spectrogram drawn), as a designer edits.
        driver.execute_script("const s = document.getElementById('entry-select'); s.options[0].selected = true; s.dispatchEvent(new Event('change'))")
        phases = []
        for run in range(arguments.runs):
            count, spectrograms = driver.execute_script("return [window.studio.metrics.editToWave.length, window.studio.metrics.spectrograms]")
            edit_intensity(driver, 0.3 + 0.05 * (run % 10))
            wait_for(lambda: driver.execute_script("return window.studio.metrics.editToWave.length") > count, timeout=60, message="re-render")
            wait_for(lambda: driver.execute_script("return window.studio.metrics.spectrograms") > spectrograms, timeout=60, message="the spectrogram")
            phases.append(driver.execute_script("return window.studio.metrics.phases"))
            time.sleep(0.2)
        edit = driver.execute_script("return window.studio.metrics.editToWave")
        rows.append(("edit → re-rendered waveform on screen, 30 s pattern (goal ≤ 100 ms)", summary(edit)))
        rows.append(("  of which the edit in the page and PUT /api/pattern answered (check)", summary([p["put"] for p in phases if p])))
        rows.append(("    (the page's own redraw of the edit, inside that)", summary([p["local"] for p in phases if p and p.get("local") is not None])))
        rows.append(("  of which GET /api/peaks (engine render + peaks of the columns on screen)", summary([p["peaks"] for p in phases if p and "peaks" in p])))
        # After the waveform is on screen the page fetches the whole render (audition, spectrogram, zoom).
        rows.append(("then GET /api/render (kept render as WAV + transfer)", summary([p["render"] for p in phases if p and "render" in p])))
        rows.append(("then WAV decode in the page", summary([p["decode"] for p in phases if p and "decode" in p])))
        size = phases[-1].get("bytes", 0) if phases and phases[-1] else 0
        rows.append(("whole render size (L,R,H float, 48 kHz)", f"{size / 1e6:.1f} MB"))
        # Back to back: the next edit as soon as the waveform of the one before is on screen (the page is still
        # fetching and decoding its whole render and drawing its spectrogram).
        for run in range(arguments.runs):
            count = driver.execute_script("return window.studio.metrics.editToWave.length")
            edit_intensity(driver, 0.35 + 0.05 * (run % 10))
            wait_for(lambda: driver.execute_script("return window.studio.metrics.editToWave.length") > count, timeout=60, message="re-render")
        rows.append(("edits back to back (the next one as soon as the waveform is on screen)",
                     summary(driver.execute_script("return window.studio.metrics.editToWave")[len(edit):])))
        rows += live_edits(driver, arguments.runs)
        if device == "pulse":
            driver.execute_script("window.studio.metrics.positions = []")
            studio.json("POST", "/api/transport", {"action": "play", "position": 0})
            time.sleep(1)
            playing_cpu = cpu_share(studio.process.pid)
            playing_rss = rss_mb(studio.process.pid)
            positions = driver.execute_script("return window.studio.metrics.positions")
            gaps = [b[0] - a[0] for a, b in zip(positions, positions[1:]) if a[2] and b[2]]
            rows.append(("position messages while playing: interval", summary(gaps)))
            # Seek latency: POST seek → the first pushed position at the new place, seen by the page.
            seeks = []
            for target in [5.0, 12.0, 20.0, 8.0, 25.0]:
                driver.execute_script("window.studio.metrics.positions = []")
                sent = driver.execute_script("return performance.now()")
                studio.json("POST", "/api/transport", {"action": "seek", "position": target})
                arrived = wait_for(lambda: next((p[0] for p in driver.execute_script("return window.studio.metrics.positions")
                                                  if abs(p[1] - target) < 0.3), None), message="seeked position")
                seeks.append(arrived - sent)
            rows.append(("seek → position at the new place pushed to the page", summary(seeks)))
            studio.json("POST", "/api/transport", {"action": "stop"})
            rows.append(("server CPU (share of one core) / RSS idle", f"{idle_cpu * 100:.1f} % / {idle_rss:.0f} MB"))
            rows.append(("server CPU / RSS playing (page open)", f"{playing_cpu * 100:.1f} % / {playing_rss:.0f} MB"))
        else:
            rows.append(("position figures", "skipped: no PulseAudio null sink (Tools/dev/pulse-null-sink.sh start)"))
            rows.append(("server CPU (share of one core) / RSS idle, no device", f"{idle_cpu * 100:.1f} % / {idle_rss:.0f} MB"))
    finally:
        driver.quit()
        studio.stop()
    print(f"Thrum Studio benchmark — {thrum_binary()}, device {device}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print("| measure | figure |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
