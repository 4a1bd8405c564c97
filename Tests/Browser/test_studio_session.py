"""A designer's session in Thrum Studio at 1280×720 (issue 39, item 7), end to end in a real headless Chromium:
open a design, select and edit, set a loop region and play it, click a toolbar button then press Space, switch
to another file with unsaved edits (Save), come back, undo, and save under a new name. It asserts each step
against the server and the files, and keeps the screenshots docs/studio.md shows (THRUM_STUDIO_SCREENSHOTS)."""

import json
import subprocess
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import thrum_binary, wait_for
from test_studio import chord, drag, event_parameter, lane_point, load, open_pattern, snap_off, type_into
from test_studio_work import asked, choose_and_open, shot


def parameters(**values):
    return [{"ParameterID": key, "ParameterValue": value} for key, value in values.items()]


DESIGN = {"Version": 1, "Metadata": {"Project": "Thrum Studio screenshot", "Description": "a designed pattern"}, "Pattern": [
    {"Event": {"Time": 0.0, "EventType": "HapticTransient", "EventParameters": parameters(HapticIntensity=1.0, HapticSharpness=0.6)}},
    {"Event": {"Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "click.wav", "EventParameters": parameters(AudioVolume=0.8)}},
    {"Event": {"Time": 0.12, "EventType": "HapticTransient", "EventParameters": parameters(HapticIntensity=0.55, HapticSharpness=0.4)}},
    {"Event": {"Time": 0.3, "EventType": "HapticContinuous", "EventDuration": 1.1,
               "EventParameters": parameters(HapticIntensity=0.8, HapticSharpness=0.25, AttackTime=0.55, ReleaseTime=0.6)}},
    {"Event": {"Time": 0.45, "EventType": "AudioContinuous", "EventDuration": 0.8, "EventParameters": parameters(AudioVolume=0.35, AudioPitch=-0.2)}},
    {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.3, "ParameterCurveControlPoints": [
        {"Time": 0, "ParameterValue": 0.5}, {"Time": 0.5, "ParameterValue": 1.0}, {"Time": 0.8, "ParameterValue": 0.75},
        {"Time": 1.1, "ParameterValue": 0.95}]}},
    {"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0.3, "ParameterCurveControlPoints": [
        {"Time": 0, "ParameterValue": -0.1}, {"Time": 1.1, "ParameterValue": 0.3}]}},
    {"Event": {"Time": 1.55, "EventType": "HapticTransient", "EventParameters": parameters(HapticIntensity=0.9, HapticSharpness=0.8)}},
    {"Event": {"Time": 1.7, "EventType": "HapticTransient", "EventParameters": parameters(HapticIntensity=0.7, HapticSharpness=0.8)}},
]}


def test_a_designers_session(studio, browser, root):
    (root / "designer-demo.ahap").write_text(json.dumps(DESIGN, indent=2))
    load(browser, studio)
    open_pattern(browser, "designer-demo.ahap")
    snap_off(browser)
    # Select the continuous event and make it stronger.
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(3)
    type_into(browser.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']"), "0.85")
    wait_for(lambda: event_parameter(studio.pattern(), 3, "HapticIntensity") == 0.85, message="the edit")
    # Loop the continuous part and play it.
    drag(browser, lane_point(browser, "loop", 0.3), lane_point(browser, "loop", 1.4))
    wait_for(lambda: studio.status()["loop"], message="the loop region")
    browser.find_element(By.ID, "play-button").click()  # the focus stays on the play button …
    html = browser.find_element(By.TAG_NAME, "html")
    wait_for(lambda: "playing" in html.get_attribute("class"), message="playback")
    time.sleep(0.8)
    shot(browser, "studio")
    ActionChains(browser).send_keys(Keys.SPACE).perform()  # … and Space pauses: it does not click Play again
    wait_for(lambda: "playing" not in html.get_attribute("class"), message="Space to pause")
    wait_for(lambda: not studio.status()["playing"], message="the engine to pause")
    # Add a transient with the toolbar, then Space plays (it does not add a second one).
    count = len(studio.pattern()["Pattern"])
    browser.find_element(By.CSS_SELECTOR, "[data-add='HapticTransient']").click()
    wait_for(lambda: len(studio.pattern()["Pattern"]) == count + 1, message="+ Transient")
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    wait_for(lambda: "playing" in html.get_attribute("class"), message="Space to play")
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert len(studio.pattern()["Pattern"]) == count + 1
    # Another file while the edits are unsaved: the question; Save.
    choose_and_open(browser, "heartbeat.ahap")
    wait_for(lambda: asked(browser), message="the question")
    browser.find_element(By.ID, "ask-save").click()
    wait_for(lambda: studio.status()["file"] == "heartbeat.ahap", message="heartbeat to open")
    saved = json.loads((root / "designer-demo.ahap").read_text())
    assert event_parameter(saved, 3, "HapticIntensity") == 0.85 and len(saved["Pattern"]) == count + 1
    assert studio.status()["loop"] is False, "heartbeat has no loop of its own"
    # Back: the loop region and the history come back; undo the added transient; save under a new name.
    open_pattern(browser, "designer-demo.ahap")
    assert studio.status()["loop"] and abs(studio.status()["loopStart"] - 0.3) < 0.01
    chord(browser, [Keys.CONTROL], "z")
    wait_for(lambda: len(studio.pattern()["Pattern"]) == count, message="Ctrl+Z after switching back")
    browser.find_element(By.ID, "save-button").click()
    path = browser.find_element(By.ID, "save-path")
    path.clear()
    path.send_keys("designer-demo-v2.ahap")
    browser.find_element(By.ID, "save-confirm").click()
    wait_for((root / "designer-demo-v2.ahap").exists, message="the new file")
    check = subprocess.run([str(thrum_binary()), "check", str(root / "designer-demo-v2.ahap")], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    browser.find_element(By.ID, "side-tab-json").click()
    time.sleep(0.3)
    shot(browser, "studio-json")
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors
