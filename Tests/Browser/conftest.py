"""Fixtures for the Thrum Studio browser tests: a real `thrum studio` server on a copy of the bundled patterns,
and a real headless Chromium driven by chromium-driver through Selenium (all from Debian).

Run with Tools/ci/test-studio-browser.sh (it builds `thrum`, starts a PulseAudio null sink and runs pytest), or:
    THRUM_BIN=.build/debug/thrum /usr/bin/python3 -m pytest Tests/Browser -v
"""

import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
PATTERNS = REPOSITORY / "Resources" / "Patterns"
SOUNDS = REPOSITORY / "Resources" / "Audio"
VIEWPORT = (1280, 720)


def thrum_binary():
    """The `thrum` executable under test: $THRUM_BIN, else the debug build."""
    return Path(os.environ.get("THRUM_BIN", REPOSITORY / ".build" / "debug" / "thrum"))


def pulse_available():
    """Whether a PulseAudio null sink was started for the tests (Tools/dev/pulse-null-sink.sh start)."""
    return os.environ.get("THRUM_PULSE_TESTS") == "1" and shutil.which("parec") is not None


NO_DEVICE = "thrum-test-no-such-device"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Studio:
    """A running `thrum studio ROOT --no-browser --port N` and a small client for its API (the test's own, not the page's)."""

    def __init__(self, root, device):
        self.root = Path(root)
        self.port = free_port()
        arguments = [str(thrum_binary()), "studio", str(self.root), "--no-browser", "--port", str(self.port)]
        if device:
            arguments += ["--device", device]
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.match(r"Thrum Studio: (http://127\.0\.0\.1:(\d+)/\?token=(\S+))$", line.strip())
        if not match:
            self.process.kill()
            raise RuntimeError(f"thrum studio printed {line!r}; stderr: {self.process.stderr.read()}")
        self.url, self.token = match.group(1), match.group(3)
        self.base = f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None):
        data = body if isinstance(body, (bytes, type(None))) else (body if isinstance(body, str) else json.dumps(body)).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()

    def json(self, method, path, body=None):
        return json.loads(self.request(method, path, body)[1])

    def pattern(self):
        """The server's current document, parsed."""
        return json.loads(self.request("GET", "/api/pattern")[1])

    def status(self):
        return self.json("GET", "/api/status")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def root(tmp_path):
    """A studio folder holding copies of the bundled patterns, click.wav and a pattern with an error."""
    folder = tmp_path / "studio"
    folder.mkdir()
    for pattern in PATTERNS.glob("*.ahap"):
        shutil.copy(pattern, folder / pattern.name)
    shutil.copy(SOUNDS / "click.wav", folder / "click.wav")
    (folder / "broken.ahap").write_text(BROKEN_AHAP)
    return folder


# An unknown EventType (lower-case h) at Pattern[1]: `thrum check` reports it with its line and column.
BROKEN_AHAP = """{
  "Version": 1.0,
  "Pattern": [
    { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.5,
      "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.7 } ] } },
    { "Event": { "Time": 0.3, "EventType": "hapticTransient", "EventParameters": [] } }
  ]
}
"""


@pytest.fixture
def studio(root):
    if not thrum_binary().exists():
        pytest.skip(f"no thrum binary at {thrum_binary()} (build it: swift build --product thrum, or set THRUM_BIN)")
    # With the null sink the engine plays in real time into PulseAudio. Without it the studio gets a device that does
    # not exist, so the page auditions in the browser (ALSA's `null` PCM is not paced: its render thread would spin).
    server = Studio(root, "pulse" if pulse_available() else NO_DEVICE)
    yield server
    server.stop()


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    options = Options()
    options.binary_location = chromium
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "--autoplay-policy=no-user-gesture-required",
                     "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
    yield driver
    driver.quit()


def wait_for(condition, timeout=15, interval=0.05, message="condition"):
    """Polls `condition()` until it returns a truthy value; fails with `message` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except (urllib.error.URLError, KeyError, IndexError, ValueError) as error:
            last = error
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {message} (last: {last!r})")
