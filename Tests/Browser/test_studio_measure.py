"""The Measure panel in headless Chromium (issue 37): a designer names the output and the sensor's input, runs
the measurement on the simulated card's LRA loop (Tools/dev/simcard `sim_lra`: 170 Hz, Q 8), reads the figures
and the drawn response, and saves the profile. Expected values come from the simulated actuator's physics."""

import json
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import NO_DEVICE, REPOSITORY, Studio, thrum_binary, wait_for
from test_studio import load
from test_studio_work import shot


@pytest.fixture
def loop_studio(root, tmp_path, monkeypatch):
    """A studio whose process sees the simulated cards (its own output stays on no device)."""
    if not thrum_binary().exists():
        pytest.skip(f"no thrum binary at {thrum_binary()} (build it: swift build --product thrum, or set THRUM_BIN)")
    plugin = subprocess.run([str(REPOSITORY / "Tools/dev/simcard/build.sh")], check=True, capture_output=True,
                            text=True).stdout.strip()
    (tmp_path / "card").mkdir()
    monkeypatch.setenv("THRUM_SIMCARD_PLUGIN", plugin)
    monkeypatch.setenv("THRUM_SIMCARD_DIR", str(tmp_path / "card"))
    monkeypatch.setenv("ALSA_CONFIG_PATH", f"/usr/share/alsa/alsa.conf:{REPOSITORY / 'Tools/dev/simcard/profiles.conf'}")
    server = Studio(root, NO_DEVICE)
    yield server
    server.stop()


def test_measure_an_actuator_read_its_response_and_save_its_profile(loop_studio, root, browser):
    load(browser, loop_studio)
    browser.find_element(By.ID, "tab-measure").click()
    assert browser.find_element(By.ID, "panel-measure").is_displayed()
    # Measuring without an input says what is missing and runs nothing.
    browser.find_element(By.ID, "measure-run").click()
    assert "input" in browser.find_element(By.ID, "measure-status").text
    for field, value in [("measure-output", "sim_lra"), ("measure-input", "sim_lra"), ("measure-channels", "0,H")]:
        browser.find_element(By.ID, field).send_keys(value)
    duration = browser.find_element(By.ID, "measure-duration")
    duration.clear()
    duration.send_keys("1")
    browser.find_element(By.ID, "measure-run").click()
    wait_for(lambda: browser.find_element(By.ID, "measure-status").text == "Measured.", timeout=60,
             message="the measurement's answer")
    figures = browser.find_element(By.ID, "measure-figures").text
    resonance = float(figures.split("Resonance")[1].split("Hz")[0])
    assert abs(resonance / 170 - 1) <= 0.02, figures
    # The response is drawn: the canvas has the accent colour's line in it.
    drawn = browser.execute_script("""
        const c = document.getElementById('measure-canvas'), g = c.getContext('2d');
        const d = g.getImageData(0, 0, c.width, c.height).data; let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 2] > 200 && d[i] < 140) n++;
        return n;""")
    assert drawn > 200, drawn
    shot(browser, "measure")
    path = browser.find_element(By.ID, "measure-profile-path")
    path.clear()
    path.send_keys("profiles/lra.json")
    browser.find_element(By.ID, "measure-save").click()
    wait_for(lambda: (root / "profiles" / "lra.json").exists(), message="the saved profile")
    profile = json.loads((root / "profiles" / "lra.json").read_text())
    assert profile["name"] == "lra"
    wait_for(lambda: "Saved profiles/lra.json" in browser.find_element(By.ID, "toast-text").text, message="the toast")
