"""Thrum Studio as a designer's daily tool (issue 39), in a real headless Chromium against a real `thrum studio`:
no lost work (the question before another file replaces unsaved edits, a reload, recovery after a crash, undo
history and the loop region per file), keys wherever the focus is, edits sent while a slider moves, snap, box
selection, copy/paste across files, freehand curves, Compare's waveforms, the save messages, From audio's
warnings, and the layout at 1280×720 and 1920×1080. Each test fails without the change it is named after.
Expected values come from the files on disk, the server's API and the test's own gestures.

Set THRUM_STUDIO_SCREENSHOTS=DIR to keep the screenshots the tests look at (docs/images are made from them)."""

import json
import os
import struct
import time
import wave

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import png
from conftest import NO_DEVICE, Studio, pulse_available, wait_for
from test_studio import drag, event_parameter, lane_point, load, open_pattern, press, chord, pointer, snap_off, type_into


def shot(driver, name):
    """Keeps a screenshot in $THRUM_STUDIO_SCREENSHOTS (when set); returns the decoded pixels."""
    data = driver.get_screenshot_as_png()
    folder = os.environ.get("THRUM_STUDIO_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{name}.png"), "wb") as f:
            f.write(data)
    return png.decode(data)


def asked(driver):
    """The text of the open question dialog, or None."""
    return driver.execute_script("const d = document.getElementById('ask-dialog'); return d.open ? d.textContent : null")


def edit_first_intensity(driver, studio, value):
    Select(driver.find_element(By.ID, "entry-select")).select_by_index(0)
    type_into(driver.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']"), value)
    wait_for(lambda: event_parameter(studio.pattern(), 0, "HapticIntensity") == float(value), message="the edit")
    wait_for(lambda: studio.status()["dirty"], message="unsaved edits")
    wait_for(lambda: "unsaved" in driver.find_element(By.ID, "file-state").text, message="the page to know")


def choose_and_open(driver, name):
    Select(driver.find_element(By.ID, "file-select")).select_by_value(name)
    driver.find_element(By.ID, "open-button").click()


def long_pattern(seconds=30):
    transients = [{"Event": {"Time": float(t), "EventType": "HapticTransient", "EventParameters": [
        {"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}
        for t in range(seconds + 1)]
    return json.dumps({"Version": 1, "Pattern": transients}, indent=2)


# 1 Never lose work

def test_opening_another_file_with_unsaved_edits_asks_and_undo_history_comes_back(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    edit_first_intensity(browser, studio, "0.33")
    choose_and_open(browser, "tap.ahap")
    question = wait_for(lambda: asked(browser), message="the question about unsaved edits")
    assert "heartbeat.ahap" in question and "unsaved" in question
    shot(browser, "studio-unsaved-question")
    browser.find_element(By.ID, "ask-cancel").click()
    time.sleep(0.3)
    assert studio.status()["file"] == "heartbeat.ahap" and event_parameter(studio.pattern(), 0, "HapticIntensity") == 0.33
    choose_and_open(browser, "tap.ahap")
    wait_for(lambda: asked(browser), message="the question again")
    browser.find_element(By.ID, "ask-discard").click()
    wait_for(lambda: studio.status()["file"] == "tap.ahap", message="tap.ahap to open after Discard")
    # Back to heartbeat: its history comes back, the discarded edit as the newest undo step.
    open_pattern(browser, "heartbeat.ahap")
    original = event_parameter(json.loads((root / "heartbeat.ahap").read_text()), 0, "HapticIntensity")
    assert event_parameter(studio.pattern(), 0, "HapticIntensity") == original
    assert browser.find_element(By.ID, "undo-button").is_enabled()
    chord(browser, [Keys.CONTROL], "z")
    wait_for(lambda: event_parameter(studio.pattern(), 0, "HapticIntensity") == 0.33, message="Ctrl+Z to bring the edit back")


def test_save_in_the_question_saves_then_opens_the_other_file(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    edit_first_intensity(browser, studio, "0.44")
    choose_and_open(browser, "tap.ahap")
    wait_for(lambda: asked(browser), message="the question")
    browser.find_element(By.ID, "ask-save").click()
    wait_for(lambda: studio.status()["file"] == "tap.ahap", message="tap.ahap to open after saving")
    assert event_parameter(json.loads((root / "heartbeat.ahap").read_text()), 0, "HapticIntensity") == 0.44


def test_reloading_with_unsaved_edits_asks_first(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    edit_first_intensity(browser, studio, "0.5")
    prevented = browser.execute_script("""const e = new Event('beforeunload', {cancelable: true});
        window.dispatchEvent(e); return e.defaultPrevented;""")
    assert prevented, "leaving the page with unsaved edits is not questioned"
    # Saved, nothing is asked.
    browser.find_element(By.ID, "save-button").click()
    browser.find_element(By.ID, "save-confirm").click()
    wait_for(lambda: not studio.status()["dirty"], message="the save")
    wait_for(lambda: "unsaved" not in browser.find_element(By.ID, "file-state").text, message="the page to know")
    assert not browser.execute_script("""const e = new Event('beforeunload', {cancelable: true});
        window.dispatchEvent(e); return e.defaultPrevented;""")


def test_unsaved_edits_are_offered_back_after_the_studio_crashed(root, browser):
    server = Studio(root, NO_DEVICE)
    try:
        load(browser, server)
        open_pattern(browser, "heartbeat.ahap", rendered=False)
        edit_first_intensity(browser, server, "0.21")
        text = server.request("GET", "/api/pattern")[1].decode()
        wait_for((root / ".thrum-studio" / "recovery.json").exists, message="the recovery file")
    finally:
        server.process.kill()
        server.process.wait()
    server = Studio(root, NO_DEVICE)
    try:
        browser.get(server.url)
        question = wait_for(lambda: asked(browser), message="the offer to recover")
        assert "heartbeat.ahap" in question
        browser.find_element(By.ID, "ask-save").click()  # Restore
        wait_for(lambda: server.status()["file"] == "heartbeat.ahap" and server.status()["dirty"], message="the edits restored")
        assert server.request("GET", "/api/pattern")[1].decode() == text
    finally:
        server.stop()


def test_a_loop_region_stays_with_its_file(studio, browser, root):
    (root / "long.ahap").write_text(long_pattern())
    load(browser, studio)
    open_pattern(browser, "long.ahap")
    snap_off(browser)
    drag(browser, lane_point(browser, "loop", 12), lane_point(browser, "loop", 14))
    wait_for(lambda: studio.status()["loop"], message="the loop region")
    browser.find_element(By.ID, "zoom-in").click()
    zoom = browser.execute_script("return [window.studio.timeline.viewStart, window.studio.timeline.secondsPerPixel]")
    open_pattern(browser, "heartbeat.ahap")
    status = studio.status()
    assert (status["loop"], status["loopStart"], status["loopEnd"]) == (False, 0, 0)
    wait_for(lambda: browser.find_element(By.ID, "loop-button").get_attribute("aria-pressed") == "false", message="Loop to go dark")
    open_pattern(browser, "long.ahap")
    wait_for(lambda: browser.find_element(By.ID, "loop-button").get_attribute("aria-pressed") == "true", message="long's loop back")
    assert abs(studio.status()["loopStart"] - 12) < 0.2
    time.sleep(0.5)
    assert browser.execute_script("return [window.studio.timeline.viewStart, window.studio.timeline.secondsPerPixel]") == zoom, "the zoom came back too"


# 2 Keyboard

def test_space_after_a_toolbar_button_plays_instead_of_clicking_it_again(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    count = len(studio.pattern()["Pattern"])
    browser.find_element(By.CSS_SELECTOR, "[data-add='HapticTransient']").click()
    wait_for(lambda: len(studio.pattern()["Pattern"]) == count + 1, message="the added transient")
    assert browser.switch_to.active_element.get_attribute("data-add") == "HapticTransient", "the button keeps the focus"
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    wait_for(lambda: "playing" in browser.find_element(By.TAG_NAME, "html").get_attribute("class"), message="Space to play")
    time.sleep(0.5)
    assert len(studio.pattern()["Pattern"]) == count + 1, "Space added another transient"
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    wait_for(lambda: "playing" not in browser.find_element(By.TAG_NAME, "html").get_attribute("class"), message="Space to pause")


def test_delete_and_nudges_work_from_the_event_list(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    assert browser.switch_to.active_element.get_attribute("id") == "entry-select"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait_for(lambda: abs(studio.pattern()["Pattern"][1]["Event"]["Time"] - 0.15) < 1e-9, message="→ to move it 10 ms")
    ActionChains(browser).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
    wait_for(lambda: abs(event_parameter(studio.pattern(), 1, "HapticIntensity") - 0.65) < 1e-9, message="Alt+↑ to raise it")
    count = len(studio.pattern()["Pattern"])
    ActionChains(browser).send_keys(Keys.DELETE).perform()
    wait_for(lambda: len(studio.pattern()["Pattern"]) == count - 1, message="Delete in the event list")
    assert [e["Event"]["Time"] for e in studio.pattern()["Pattern"] if "Event" in e] == [0.0], "the selected transient went"


def test_question_mark_shows_the_shortcut_sheet(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap", rendered=False)
    press(browser, "?")
    wait_for(lambda: browser.find_element(By.ID, "shortcuts-dialog").get_attribute("open"), message="the sheet")
    text = browser.find_element(By.ID, "shortcuts-list").text
    for key in ["Space", "Ctrl+C", "Delete", "Esc"]:
        assert key in text
    shot(browser, "studio-shortcuts")
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: not browser.find_element(By.ID, "shortcuts-dialog").get_attribute("open"), message="Esc to close it")


# 3 Edits felt at once

def test_a_slider_drag_is_sent_while_it_moves_and_is_one_undo_step(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    slider = browser.find_element(By.CSS_SELECTOR, "#inspector-body input[type='range'][data-field='HapticIntensity']")
    box = slider.rect
    y = box["y"] + box["height"] / 2
    actions = pointer(browser)
    actions.pointer_action.move_to_location(int(box["x"] + box["width"] * 0.6), int(y)).pointer_down()
    for fraction in (0.5, 0.4, 0.3):
        actions.pointer_action.move_to_location(int(box["x"] + box["width"] * fraction), int(y))
    actions.perform()
    # Still held down: the server already has (and renders) a lower intensity.
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") < 0.45, message="the drag sent before the release")
    release = pointer(browser)
    release.pointer_action.move_to_location(int(box["x"] + box["width"] * 0.2), int(y)).pointer_up()
    release.perform()
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") < 0.3, message="the released value")
    chord(browser, [Keys.CONTROL], "z")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == 0.6, message="one Ctrl+Z undoes the whole drag")


def test_an_arrow_key_nudge_is_sent_at_once_and_keys_in_a_row_are_one_undo_step(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    press(browser, Keys.ARROW_RIGHT)
    pressed = time.monotonic()
    wait_for(lambda: abs(studio.pattern()["Pattern"][1]["Event"]["Time"] - 0.15) < 1e-9, timeout=0.3,
             message="the nudge on the server within 0.3 s (it waited for a 350 ms pause)")
    assert time.monotonic() - pressed < 0.35
    press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_for(lambda: abs(studio.pattern()["Pattern"][1]["Event"]["Time"] - 0.17) < 1e-9, message="three nudges")
    chord(browser, [Keys.CONTROL], "z")
    wait_for(lambda: studio.pattern()["Pattern"][1]["Event"]["Time"] == 0.14, message="one Ctrl+Z for the keys in a row")


# 5 Timeline craft

def test_snap_to_the_grid_and_to_other_events_and_alt_bypasses_it(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    times = lambda: [e["Event"]["Time"] for e in studio.pattern()["Pattern"] if "Event" in e]
    minor = browser.execute_script("return window.studio.timeline.ticks().step / 5")
    spp = browser.execute_script("return window.studio.timeline.secondsPerPixel")
    drag(browser, lane_point(browser, "HapticTransient", 0.14, 0.8), lane_point(browser, "HapticTransient", 0.14 + minor * 2.3, 0.8))
    wait_for(lambda: times()[1] != 0.14, message="the drag")
    assert abs(times()[1] / minor - round(times()[1] / minor)) < 1e-6, f"{times()[1]} is not on the {minor} s grid"
    # Near the other transient's time: onto it exactly.
    drag(browser, lane_point(browser, "HapticTransient", times()[1], 0.8), lane_point(browser, "HapticTransient", 3 * spp, 0.8))
    wait_for(lambda: times()[1] == 0.0, message="the transient to snap onto the other one at 0")
    # Alt held: where the pointer is.
    start, end = lane_point(browser, "HapticTransient", 0.0, 0.8), lane_point(browser, "HapticTransient", 0.0 + minor * 2.3, 0.8)
    actions = pointer(browser)
    actions.key_action.key_down(Keys.ALT)
    actions.pointer_action.move_to_location(*start).pointer_down()
    for step in range(1, 6):
        actions.pointer_action.move_to_location(start[0] + (end[0] - start[0]) * step // 5, end[1])
    actions.pointer_action.pointer_up()
    for _ in range(7):  # Alt stays down through the pointer's seven actions (the two devices act tick by tick)
        actions.key_action.pause(0)
    actions.key_action.key_up(Keys.ALT)
    actions.perform()
    moved = wait_for(lambda: max(times()) > 0 and max(times()), message="the Alt drag")
    assert abs(moved - minor * 2.3) <= 2 * spp and abs(moved / minor - round(moved / minor)) > 1e-3


def test_box_selection_copy_and_paste_into_another_file(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    # A box over both transients, started on an empty spot of their lane.
    drag(browser, lane_point(browser, "HapticTransient", 0.5, 0.2), lane_point(browser, "HapticTransient", -0.005, 0.9))
    wait_for(lambda: browser.execute_script("return window.studio.state.selection.size") == 2, message="the box selection")
    chord(browser, [Keys.CONTROL], "c")
    copied = [e["Event"] for e in studio.pattern()["Pattern"] if "Event" in e]
    open_pattern(browser, "tap.ahap")
    before = len(studio.pattern()["Pattern"])
    browser.execute_script("return window.studio.transport.seek(0.5, false)")
    chord(browser, [Keys.CONTROL], "v")
    pasted = wait_for(lambda: len(p := studio.pattern()["Pattern"]) == before + 2 and p[before:], message="the paste")
    assert [e["Event"]["Time"] for e in pasted] == [round(0.5 + c["Time"] - copied[0]["Time"], 4) for c in copied]
    assert [e["Event"]["EventParameters"] for e in pasted] == [c["EventParameters"] for c in copied]


def test_freehand_drawing_becomes_a_curve_of_few_breakpoints(studio, browser):
    load(browser, studio)
    open_pattern(browser, "parameter-curve.ahap")
    press(browser, "d")
    assert browser.find_element(By.ID, "draw-button").get_attribute("aria-pressed") == "true"
    lane = browser.execute_script("const l = window.studio.timeline.lanes().find(l => l.key === 'curve:HapticIntensityControl');"
                                  "return [l.y + 6, l.y + l.height - 6]")
    fraction = lambda value: (6 + (1 - value) * (lane[1] - lane[0])) / (lane[1] - lane[0] + 12)
    # A ramp down from 1 to 0.2 over 0.1…0.4 s, then flat: drawn in 30 small steps.
    stroke = [(0.1 + 0.3 * n / 20, 1 - 0.8 * n / 20) for n in range(21)] + [(0.4 + 0.02 * n, 0.2) for n in range(1, 10)]
    points = [lane_point(browser, "curve:HapticIntensityControl", t, fraction(v)) for t, v in stroke]
    actions = pointer(browser)
    actions.pointer_action.move_to_location(*points[0]).pointer_down()
    for p in points[1:]:
        actions.pointer_action.move_to_location(*p)
    actions.pointer_action.pointer_up()
    actions.perform()
    curves = lambda: [e["ParameterCurve"] for e in studio.pattern()["Pattern"] if "ParameterCurve" in e]
    drawn = wait_for(lambda: [c for c in curves() if any(abs(c["Time"] + p["Time"] - 0.4) < 0.02 and abs(p["ParameterValue"] - 0.2) < 0.05
                                                          for p in c["ParameterCurveControlPoints"])], message="the drawn curve")
    curve = drawn[0]
    assert all(len(c["ParameterCurveControlPoints"]) <= 16 for c in curves())
    assert 3 <= len(curve["ParameterCurveControlPoints"]) <= 8, curve
    assert studio.status()["playable"]


def test_compare_draws_each_export_under_the_original_and_names_the_losing_events(studio, browser):
    load(browser, studio)
    open_pattern(browser, "click-with-sound.ahap")
    expected = studio.json("GET", "/api/compare")["exports"]
    browser.find_element(By.ID, "tab-compare").click()
    wait_for(lambda: all(li.find_element(By.CSS_SELECTOR, ".compare-figure").text
                         for li in browser.find_elements(By.CSS_SELECTOR, "#compare-list > li")), message="each export's waveform")
    for card, export in zip(browser.find_elements(By.CSS_SELECTOR, "#compare-list > li"), expected):
        lines = [li.text for li in card.find_elements(By.CSS_SELECTOR, "ul > li")]
        assert len(lines) == len(set(lines)), f"a loss sentence repeats: {lines}"
        for loss in export["losses"]:
            if loss.get("entry") is not None:
                assert any(loss["message"] in line and " at " in line for line in lines), f"{loss['message']} names no event"
        if export["export"] != "ahap":
            assert "RMS" in card.find_element(By.CSS_SELECTOR, ".compare-figure").text
    # The canvas is not blank: the original's waveform is drawn.
    width, height, rows = shot(browser, "studio-compare")
    box = browser.execute_script("const r = document.querySelector('#compare-list canvas').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]")
    blue = sum(1 for r, g, b in png.pixels(rows, int(box[0]), int(box[1]), int(box[2]), int(box[3])) if b > 120 and b > r + 30)
    assert blue > 30, f"no waveform in the compare card ({blue} blue pixels)"


# 6 Layout

@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_control_is_on_screen_and_no_field_cuts_its_value(studio, browser, size):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    browser.set_window_size(*size)
    load(browser, studio)
    open_pattern(browser, "rumble.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(0)
    field = browser.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']")
    browser.execute_script("arguments[0].value = '0.4968'", field)
    width, height, _ = shot(browser, f"studio-layout-{size[0]}")
    assert (width, height) == size
    outside = browser.execute_script("""
        return [...document.querySelectorAll('button, input, select, textarea, output, canvas, [role=separator]')]
            .filter(e => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
            .filter(e => { const r = e.getBoundingClientRect();
                return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5 || r.width < 1; })
            .map(e => (e.id || e.getAttribute('aria-label') || e.textContent).slice(0, 40));""")
    assert outside == [], f"controls outside the {size} viewport: {outside}"
    cut = browser.execute_script("""
        return [...document.querySelectorAll('#inspector-body input[type=number], .topbar button, .transport button')]
            .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
            .map(e => e.getAttribute('aria-label') || e.textContent);""")
    assert cut == [], f"fields or buttons cut their text: {cut}"
    # The number field shows all of 0.4968 (text width measured with the field's own font).
    shown = browser.execute_script("""const f = arguments[0], s = getComputedStyle(f), c = document.createElement('canvas').getContext('2d');
        c.font = s.font; return [c.measureText(f.value).width, f.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 16];""", field)
    assert shown[0] <= shown[1], f"0.4968 needs {shown[0]:.0f} px, the field shows {shown[1]:.0f}"
    rows = browser.execute_script("""const l = document.getElementById('entry-select'), s = getComputedStyle(l), c = document.createElement('canvas').getContext('2d');
        c.font = s.font; return [...l.options].map(o => [o.text, c.measureText(o.text).width, l.clientWidth - 24]);""")
    assert all(w <= room for _, w, room in rows), f"event list rows cut: {[r for r in rows if r[1] > r[2]]}"


def test_the_side_panel_is_resizable(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap", rendered=False)
    side = lambda: browser.execute_script("return document.querySelector('.side').getBoundingClientRect().width")
    before = side()
    splitter = browser.find_element(By.ID, "side-splitter").rect
    x, y = int(splitter["x"] + 3), int(splitter["y"] + 200)
    drag(browser, (x, y), (x - 200, y))
    wait_for(lambda: abs(side() - (before + 200)) <= 4, message="the side panel 200 px wider")
    timeline_width = browser.execute_script("return document.getElementById('timeline').getBoundingClientRect().width")
    assert timeline_width >= 480


# Smaller problems (issue 39, "Why" §6)

def test_saving_into_a_missing_folder_offers_to_create_it(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap", rendered=False)
    browser.find_element(By.ID, "save-button").click()
    path = browser.find_element(By.ID, "save-path")
    path.clear()
    path.send_keys("designs/2027/beat.ahap")
    browser.find_element(By.ID, "save-confirm").click()
    wait_for(lambda: "Create it" in browser.find_element(By.ID, "save-message").text, message="the offer to create the folder")
    assert not (root / "designs").exists()
    browser.find_element(By.ID, "save-confirm").click()
    wait_for((root / "designs" / "2027" / "beat.ahap").exists, message="the file in the new folder")


def test_the_save_message_lists_every_loss_stays_and_the_menu_shows_the_new_file(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "click-with-sound.ahap")
    expected = next(e for e in studio.json("GET", "/api/compare")["exports"] if e["export"] == "haptic")["losses"]
    assert len(expected) >= 2
    browser.find_element(By.ID, "save-button").click()
    path = browser.find_element(By.ID, "save-path")
    path.clear()
    path.send_keys("click-with-sound.haptic")
    browser.find_element(By.CSS_SELECTOR, "input[name='save-format'][value='haptic']").click()
    browser.find_element(By.ID, "save-confirm").click()
    wait_for((root / "click-with-sound.haptic").exists, message="the .haptic file")
    toast = wait_for(lambda: (t := browser.find_element(By.ID, "toast")).is_displayed() and t, message="the message")
    for loss in expected:
        assert loss["message"] in toast.text
    wait_for(lambda: Select(browser.find_element(By.ID, "file-select")).first_selected_option.text == "click-with-sound.haptic",
             message="the file menu to show the new file")
    shot(browser, "studio-save-losses")
    time.sleep(4)
    assert toast.is_displayed(), "the message with losses vanished by itself"
    browser.find_element(By.ID, "toast-close").click()
    assert not toast.is_displayed()


def test_a_silent_sound_warns_and_the_analysis_view_has_a_playhead(studio, browser, root):
    with wave.open(str(root / "silence.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(48000)
        out.writeframes(struct.pack("<h", 0) * 24000)
    load(browser, studio)
    browser.find_element(By.ID, "tab-audio").click()
    Select(browser.find_element(By.ID, "audio-select")).select_by_value("silence.wav")
    wait_for(lambda: "silent" in browser.find_element(By.ID, "analysis-status").text, timeout=30, message="the silence warning")
    Select(browser.find_element(By.ID, "audio-select")).select_by_value("click.wav")
    wait_for(lambda: "transients" in browser.find_element(By.ID, "analysis-status").text
             and "silent" not in browser.find_element(By.ID, "analysis-status").text, timeout=30, message="click.wav analysed")
    with wave.open(str(root / "click.wav"), "rb") as sound:
        middle = sound.getnframes() / sound.getframerate() / 2
    browser.execute_script(f"window.studio.transport.engineAnchor = {{position: {middle}, at: performance.now()}};"
                           f"window.studio.transport.audition.paused = {middle}")
    canvas = browser.find_element(By.ID, "analysis-canvas").rect
    assert browser.execute_script("return window.studio.transport.position") == pytest.approx(middle)

    def playhead_columns():
        _, _, rows = shot(browser, "studio-from-audio")
        return [x for x in range(int(canvas["x"]), int(canvas["x"] + canvas["width"]))
                if all(v > 240 for v in list(png.pixels(rows, x, int(canvas["y"] + 20), x + 1, int(canvas["y"] + 21)))[0])]
    # The page draws the playhead on its next animation frames; a loaded machine may take a moment.
    columns = wait_for(lambda: playhead_columns(), timeout=5, message="a playhead on the analysis view")
    # Halfway through the sound is halfway across the view (the analysis lasts as long as the sound).
    assert abs((columns[0] - canvas["x"]) / canvas["width"] - 0.5) < 0.02, columns
    # Making it the document re-fits the timeline to the new document.
    browser.find_element(By.ID, "analysis-play").click()
    wait_for(lambda: browser.execute_script("return window.studio.state.file") is None, message="the analysis as the document")
    browser.find_element(By.ID, "tab-edit").click()
    # Fitted: the whole sound in view, and the view no wider than the sound (or the 50 ms shortest view) plus margins.
    def view():
        return browser.execute_script("""const t = window.studio.timeline;
            return {duration: t.duration, rendered: (t.render ?? t.peaks)?.seconds ?? 0, start: t.viewStart,
                    span: t.secondsPerPixel * t.plotWidth}""")

    def fitted(v):
        end = max(v["duration"], v["rendered"])
        return end > 0 and v["start"] <= 0 and v["start"] + v["span"] >= end and v["span"] <= max(end, 0.05) * 1.1
    try:
        wait_for(lambda: fitted(view()), message="the timeline fitted to the analysed sound")
    except AssertionError as failure:
        raise AssertionError(f"{failure}: the view is {view()}") from None
