"""Thrum Studio in a real browser (issue 25, "Tests and figures"): headless Chromium through chromium-driver and
Selenium against a real `thrum studio`. Expected values come from the pattern files on disk and from the
`thrum check` / `thrum render` command line, never from the page itself."""

import json
import math
import struct
import subprocess
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import png
from conftest import NO_DEVICE, VIEWPORT, pulse_available, thrum_binary, wait_for, Studio

needs_pulse = pytest.mark.skipif(not pulse_available(), reason="the engine needs a paced device: run Tools/ci/test-studio-browser.sh (PulseAudio null sink)")


def load(driver, studio):
    driver.get(studio.url)
    wait_for(lambda: "studio-ready" in driver.find_element(By.TAG_NAME, "html").get_attribute("class"), message="the page to start")


def open_pattern(driver, name, rendered=True):
    """Opens `name` the way a user does: the file menu, then Open."""
    Select(driver.find_element(By.ID, "file-select")).select_by_value(name)
    driver.find_element(By.ID, "open-button").click()
    wait_for(lambda: driver.execute_script("return window.studio.state.file") == name, message=f"{name} to open")
    if rendered:
        wait_for(lambda: driver.execute_script("return window.studio.metrics.renders") >= 1, message="the render's peaks")
        wait_for(lambda: driver.execute_script("return window.studio.metrics.wholeRenders") >= 1, message="the whole render")


def press(driver, *keys):
    """Sends keys with the timeline focused (as after clicking it), not a text field."""
    driver.execute_script("document.getElementById('timeline').focus()")
    ActionChains(driver).send_keys(*keys).perform()


def chord(driver, modifiers, key):
    driver.execute_script("document.getElementById('timeline').focus()")
    chain = ActionChains(driver)
    for modifier in modifiers:
        chain = chain.key_down(modifier)
    chain = chain.send_keys(key)
    for modifier in reversed(modifiers):
        chain = chain.key_up(modifier)
    chain.perform()


def type_into(field, text):
    """Replaces a field's text as a user does (select all, type) and presses Enter."""
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text, Keys.ENTER)


def event_parameter(document, index, parameter):
    event = document["Pattern"][index]["Event"]
    return next(p["ParameterValue"] for p in event.get("EventParameters", []) if p["ParameterID"] == parameter)


def canvas_box(driver):
    return driver.execute_script("const r = document.getElementById('timeline').getBoundingClientRect();"
                                 "return [Math.ceil(r.left), Math.ceil(r.top), Math.floor(r.right), Math.floor(r.bottom)]")


def read_float_wav(path):
    """The channels of a 32-bit float WAV file (format 3 or extensible) as lists of floats."""
    data = open(path, "rb").read()
    assert data[:4] in (b"RIFF", b"RF64") and data[8:12] == b"WAVE", f"{path} is not a WAV file"
    position, channels = 12, None
    while position + 8 <= len(data):
        kind, size = struct.unpack("<4sI", data[position:position + 8])
        body = data[position + 8:position + 8 + size]
        if kind == b"fmt ":
            channels = struct.unpack("<H", body[2:4])[0]
            assert struct.unpack("<H", body[14:16])[0] == 32, "not 32-bit samples"
        elif kind == b"data":
            samples = struct.unpack(f"<{len(body) // 4}f", body[:len(body) // 4 * 4])
            return [samples[c::channels] for c in range(channels)]
        position += 8 + size + (size & 1)
    raise AssertionError(f"{path} has no data chunk")


def test_page_loads_with_the_token_and_draws_the_timeline(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    time.sleep(0.3)  # two animation frames and the spectrogram
    width, height, rows = png.decode(browser.get_screenshot_as_png())
    assert (width, height) == VIEWPORT
    left, top, right, bottom = canvas_box(browser)
    assert right - left > 600 and bottom - top > 500, "the timeline gets most of a 1280×720 window"
    colours = set(png.pixels(rows, left, top, right, bottom))
    assert len(colours) > 50, f"the timeline looks blank: {len(colours)} colours"
    # The engine's haptic render (pink) and the two transients (blue) are on screen.
    pink = sum(1 for r, g, b in png.pixels(rows, left, top, right, bottom) if r > 200 and 100 < g < 180 and 130 < b < 200)
    blue = sum(1 for r, g, b in png.pixels(rows, left, top, right, bottom) if r < 140 and 150 < g < 210 and b > 230)
    assert pink > 40, f"no rendered haptic waveform on screen ({pink} pink pixels)"
    assert blue > 10, f"no transient markers on screen ({blue} blue pixels)"
    # Every file the page asks for is served (the tab icon too): nothing in the console at error level.
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"the console shows errors: {errors}"


def test_a_request_without_the_token_is_refused(studio):
    import urllib.error
    import urllib.request
    with pytest.raises(urllib.error.HTTPError) as refusal:
        urllib.request.urlopen(studio.base + "/api/status", timeout=10)
    assert refusal.value.code == 401


@needs_pulse
def test_space_starts_playback_and_the_playhead_moves(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    press(browser, "l")
    wait_for(lambda: studio.status()["loop"] is True, message="L to turn the loop on")
    press(browser, Keys.SPACE)
    wait_for(lambda: studio.status()["playing"] is True, message="Space to start playback")
    readout = lambda: float(browser.find_element(By.ID, "position-readout").text.split()[0])
    first = readout()
    time.sleep(0.4)
    positions = [readout()]
    time.sleep(0.4)
    positions.append(readout())
    assert positions[0] != first or positions[1] != positions[0], f"the playhead did not move: {first}, {positions}"
    press(browser, Keys.SPACE)
    wait_for(lambda: studio.status()["playing"] is False, message="Space to pause")


def test_an_intensity_edit_reaches_the_server_and_undo_restores_it(studio, browser, root):
    original = event_parameter(json.loads((root / "heartbeat.ahap").read_text()), 1, "HapticIntensity")
    assert original == 0.6
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    type_into(browser.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']"), "0.3")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == 0.3, message="the edit in GET /api/pattern")
    assert event_parameter(studio.pattern(), 0, "HapticIntensity") == 1.0, "the other transient is untouched"
    chord(browser, [Keys.CONTROL], "z")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == original, message="Ctrl+Z to restore it")
    chord(browser, [Keys.CONTROL, Keys.SHIFT], "z")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == 0.3, message="Ctrl+Shift+Z to redo it")


def test_an_edit_redraws_the_engine_waveform_where_the_edit_is(studio, browser, root):
    transients = [{"Event": {"Time": t, "EventType": "HapticTransient", "EventParameters": [
        {"ParameterID": "HapticIntensity", "ParameterValue": 0.3}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}
        for t in (0.2, 1.0, 1.8)]
    (root / "three.ahap").write_text(json.dumps({"Version": 1, "Pattern": transients}, indent=2))
    load(browser, studio)
    open_pattern(browser, "three.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    time.sleep(0.3)
    lane = browser.execute_script("const l = window.studio.timeline.lanes().find(l => l.key === 'haptic'); return [Math.ceil(l.y), Math.floor(l.y + l.height)]")
    left, top, right = canvas_box(browser)[:3]
    x = lambda t: left + round(browser.execute_script("return window.studio.timeline.x(arguments[0])", t))
    columns = lambda rows: [tuple(png.pixels(rows, c, top + lane[0] + 2, c + 1, top + lane[1] - 2)) for c in range(x(0), right)]
    before = columns(png.decode(browser.get_screenshot_as_png())[2])
    renders = browser.execute_script("return window.studio.metrics.renders")
    type_into(browser.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']"), "1")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == 1, message="the edit to reach the server")
    wait_for(lambda: browser.execute_script("return window.studio.metrics.renders") > renders, message="the new render")
    time.sleep(0.3)
    after = columns(png.decode(browser.get_screenshot_as_png())[2])
    changed = [x(0) + n for n, (a, b) in enumerate(zip(before, after)) if a != b]
    assert len(changed) >= 2, "the haptic waveform was not redrawn after the edit"
    assert x(1.0) - 2 <= min(changed) and max(changed) < x(1.8) - 2, f"pixels changed away from the edit at 1.0 s: {changed}"


def test_save_writes_a_file_thrum_check_passes(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    type_into(browser.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']"), "0.25")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == 0.25, message="the edit")
    browser.find_element(By.ID, "save-button").click()
    path = browser.find_element(By.ID, "save-path")
    path.clear()
    path.send_keys("edited.ahap")
    browser.find_element(By.ID, "save-confirm").click()
    target = root / "edited.ahap"
    wait_for(target.exists, message="edited.ahap to be written")
    check = subprocess.run([str(thrum_binary()), "check", str(target)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert event_parameter(json.loads(target.read_text()), 1, "HapticIntensity") == 0.25
    assert not browser.find_element(By.ID, "save-dialog").get_attribute("open")


def test_saving_over_a_file_changed_on_disk_asks_first(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "tap.ahap")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(0)
    type_into(browser.find_element(By.CSS_SELECTOR, "input[aria-label='Intensity value']"), "0.2")
    wait_for(lambda: studio.status()["dirty"], message="unsaved edits")
    outside = (root / "tap.ahap").read_text().replace("\"Version\"", "\"Version\"", 1) + "\n"
    (root / "tap.ahap").write_text(outside)  # another program saves the file
    wait_for(lambda: studio.status()["diskChanged"], message="the server to notice the change on disk")
    wait_for(lambda: "changed on disk" in browser.find_element(By.ID, "file-state").text, message="the page to say so")
    browser.find_element(By.ID, "save-button").click()
    browser.find_element(By.ID, "save-confirm").click()
    wait_for(lambda: "changed on disk" in browser.find_element(By.ID, "save-message").text, message="the question")
    assert (root / "tap.ahap").read_text() == outside, "nothing is written before the answer"
    browser.find_element(By.ID, "save-confirm").click()  # now labelled Overwrite
    wait_for(lambda: event_parameter(json.loads((root / "tap.ahap").read_text()), 0, "HapticIntensity") == 0.2, message="the overwrite")


def test_a_file_changed_on_disk_reloads_when_there_are_no_unsaved_edits(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "tap.ahap")
    document = json.loads((root / "tap.ahap").read_text())
    document["Pattern"][0]["Event"]["Time"] = 0.25
    (root / "tap.ahap").write_text(json.dumps(document, indent=2))
    wait_for(lambda: browser.execute_script("return window.studio.state.items[0].time") == 0.25, message="the page to reload the file")
    assert '"Time": 0.25' in browser.find_element(By.ID, "json-text").get_attribute("value")


def test_diagnostics_are_shown_at_the_event_and_at_their_line_and_column(studio, browser, root):
    report = json.loads(subprocess.run([str(thrum_binary()), "check", "--json", str(root / "broken.ahap")],
                                       capture_output=True, text=True).stdout)
    expected = report["files"][0]["diagnostics"]
    errors = [d for d in expected if d["severity"] == "error"]
    assert errors, "the fixture has an error thrum check finds"
    load(browser, studio)
    open_pattern(browser, "broken.ahap", rendered=False)
    wait_for(lambda: browser.find_element(By.ID, "problem-count").text == str(len(expected)), message="the problem count")
    # At the event: the event list marks Pattern[1], and its inspector shows the message.
    options = Select(browser.find_element(By.ID, "entry-select")).options
    assert options[1].text.startswith("⚠") and not options[0].text.startswith("⚠")
    Select(browser.find_element(By.ID, "entry-select")).select_by_index(1)
    assert errors[0]["message"] in browser.find_element(By.ID, "inspector-body").text
    # At line:column in the JSON view.
    browser.find_element(By.ID, "side-tab-problems").click()
    browser.find_element(By.CSS_SELECTOR, "#problem-list button").click()
    text = browser.find_element(By.ID, "json-text").get_attribute("value")
    caret = browser.execute_script("return document.getElementById('json-text').selectionStart")
    lines = text.split("\n")
    line, column = errors[0]["line"], errors[0]["column"]
    assert caret == sum(len(l) + 1 for l in lines[:line - 1]) + column - 1
    marked = browser.execute_script("return [...document.querySelectorAll('#json-gutter .error')].map(e => Number(e.textContent))")
    assert line in marked


def test_every_control_has_a_name_and_the_page_fits_1280_by_720(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    unnamed = browser.execute_script("""
        const named = (e) => (e.getAttribute('aria-label') || '').trim() || (e.labels && [...e.labels].some(l => l.textContent.trim()))
            || (e.getAttribute('aria-labelledby') && document.getElementById(e.getAttribute('aria-labelledby'))?.textContent.trim())
            || (e.tagName === 'BUTTON' && e.textContent.trim()) || (e.title || '').trim();
        return [...document.querySelectorAll('button, input, select, textarea, canvas[tabindex]')]
            .filter(e => e.type !== 'hidden' && !named(e)).map(e => e.outerHTML.slice(0, 120));""")
    assert unnamed == []
    overflow = browser.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert overflow[0] <= VIEWPORT[0] and overflow[1] <= VIEWPORT[1], f"the page scrolls at 1280×720: {overflow}"
    outside = browser.execute_script("""
        return [...document.querySelectorAll('header button, header select, .transport button, .transport input')]
            .filter(e => { const r = e.getBoundingClientRect(); return r.right > innerWidth || r.bottom > innerHeight || r.width === 0; })
            .map(e => e.id || e.textContent);""")
    assert outside == []


@needs_pulse
def test_sound_reaches_the_pulseaudio_null_sink(studio, browser, root, tmp_path):
    channels = studio.status()["channels"]
    oracle = tmp_path / "oracle.wav"
    subprocess.run([str(thrum_binary()), "render", str(root / "rumble.ahap"), "--channels", channels, "-o", str(oracle)],
                   check=True, capture_output=True)
    expected_peak = max(max(abs(s) for s in channel) for channel in read_float_wav(oracle))
    assert expected_peak > 0.05
    capture = tmp_path / "monitor.raw"
    recorder = subprocess.Popen(["parec", "--device=null.monitor", "--format=float32le", "--rate=48000", "--channels=2",
                                 "--raw", str(capture)])
    try:
        time.sleep(0.5)
        load(browser, studio)
        open_pattern(browser, "rumble.ahap")
        press(browser, Keys.SPACE)
        wait_for(lambda: studio.status()["playing"], message="playback")
        wait_for(lambda: not studio.status()["playing"], timeout=30, message="the pattern to end")
        time.sleep(0.3)
    finally:
        recorder.terminate()
        recorder.wait(timeout=10)
    data = capture.read_bytes()
    samples = struct.unpack(f"<{len(data) // 4}f", data[:len(data) // 4 * 4])
    peak = max((abs(s) for s in samples), default=0)
    energy = math.sqrt(sum(s * s for s in samples) / max(1, len(samples)))
    assert energy > 0, "nothing reached the null sink"
    assert 0.8 * expected_peak <= peak <= expected_peak * 1.01 + 1e-6, f"captured peak {peak}, thrum render's {expected_peak}"


def test_without_a_device_the_page_auditions_in_the_browser(root, browser):
    if not thrum_binary().exists():
        pytest.skip(f"no thrum binary at {thrum_binary()}")
    server = Studio(root, NO_DEVICE)
    try:
        assert server.status()["deviceError"], "the bogus device is reported"
        load(browser, server)
        open_pattern(browser, "heartbeat.ahap")
        wait_for(lambda: "Browser audition" in browser.find_element(By.ID, "output-summary").text, message="the browser audition")
        # Space plays the engine's render with WebAudio: the playhead moves although the server plays nothing.
        press(browser, "l")
        press(browser, Keys.SPACE)
        readout = lambda: float(browser.find_element(By.ID, "position-readout").text.split()[0])
        seen = {readout()}
        for _ in range(8):
            time.sleep(0.1)
            seen.add(readout())
        assert len(seen) >= 3, f"the browser audition's playhead did not move: {sorted(seen)}"
        assert server.status()["playing"] is False
    finally:
        server.stop()


def lane_point(driver, key, t, fraction=0.5):
    """Viewport coordinates of time `t` in the lane `key`, `fraction` of the way down it."""
    return driver.execute_script("""
        const timeline = window.studio.timeline, lane = timeline.lanes().find(l => l.key === arguments[0]);
        const box = document.getElementById('timeline').getBoundingClientRect();
        return [Math.round(box.left + timeline.x(arguments[1])), Math.round(box.top + lane.y + lane.height * arguments[2])];""", key, t, fraction)


def pointer(driver):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.actions.interaction import POINTER_MOUSE
    return ActionBuilder(driver, mouse=PointerInput(POINTER_MOUSE, "mouse"))


def drag(driver, start, end):
    actions = pointer(driver)
    actions.pointer_action.move_to_location(*start).pointer_down()
    for step in range(1, 6):
        actions.pointer_action.move_to_location(start[0] + (end[0] - start[0]) * step // 5, start[1] + (end[1] - start[1]) * step // 5)
    actions.pointer_action.pointer_up()
    actions.perform()


def snap_off(driver):
    """Turns Snap off (these tests place things to the pixel; snapping has tests of its own)."""
    button = driver.find_element(By.ID, "snap-button")
    if button.get_attribute("aria-pressed") == "true":
        button.click()
    assert button.get_attribute("aria-pressed") == "false"


def test_timeline_gestures_move_add_and_delete_events(studio, browser, root):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    snap_off(browser)
    times = lambda: [e["Event"]["Time"] for e in studio.pattern()["Pattern"] if "Event" in e]
    assert times() == [0.0, 0.14]
    # Drag the second transient 0.2 s later (to within a pixel's worth of time).
    seconds_per_pixel = browser.execute_script("return window.studio.timeline.secondsPerPixel")
    start = lane_point(browser, "HapticTransient", 0.14, 0.8)
    end = lane_point(browser, "HapticTransient", 0.34, 0.8)
    drag(browser, start, end)
    wait_for(lambda: len(times()) == 2 and abs(times()[1] - 0.34) <= 2 * seconds_per_pixel, message="the dragged transient in GET /api/pattern")
    # Double-click the empty continuous lane at 0.5 s: a HapticContinuous event appears there.
    x, y = lane_point(browser, "HapticContinuous", 0.5)
    actions = pointer(browser)
    actions.pointer_action.move_to_location(x, y).double_click()
    actions.perform()
    added = lambda: [e["Event"] for e in studio.pattern()["Pattern"] if e.get("Event", {}).get("EventType") == "HapticContinuous"]
    wait_for(lambda: len(added()) == 1 and abs(added()[0]["Time"] - 0.5) <= 2 * seconds_per_pixel, message="the added event")
    # It is selected: Delete removes it again.
    press(browser, Keys.DELETE)
    wait_for(lambda: added() == [], message="Delete to remove the event")
    assert len(times()) == 2


def test_a_loop_region_dragged_on_the_loop_strip_reaches_the_engine(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    snap_off(browser)
    seconds_per_pixel = browser.execute_script("return window.studio.timeline.secondsPerPixel")
    drag(browser, lane_point(browser, "loop", 0.2), lane_point(browser, "loop", 0.6))
    status = wait_for(lambda: (s := studio.status())["loop"] and s, message="the loop region")
    assert abs(status["loopStart"] - 0.2) <= 2 * seconds_per_pixel
    assert abs(status["loopEnd"] - 0.6) <= 2 * seconds_per_pixel
    assert browser.find_element(By.ID, "loop-button").get_attribute("aria-pressed") == "true"


def test_editing_the_json_text_replaces_the_document(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    browser.find_element(By.ID, "side-tab-json").click()
    text = browser.find_element(By.ID, "json-text")
    value = text.get_attribute("value")
    assert '"ParameterValue": 0.6' in value
    # Select the 0.6 of the second transient and type over it, as a user does.
    start = value.index('"ParameterValue": 0.6') + len('"ParameterValue": ')
    browser.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(arguments[1], arguments[2])", text, start, start + 3)
    text.send_keys("0.45")
    wait_for(lambda: event_parameter(studio.pattern(), 1, "HapticIntensity") == 0.45, message="the typed value in GET /api/pattern")
    # A syntax error is kept for editing and reported with its line.
    text.send_keys(",,")
    wait_for(lambda: studio.status()["playable"] is False, message="the broken text to be refused for playing")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#json-gutter .error"), message="the error line marked")


def test_rate_and_output_settings_reach_the_engine(studio, browser):
    load(browser, studio)
    open_pattern(browser, "heartbeat.ahap")
    slider = browser.find_element(By.ID, "rate-slider")
    slider.send_keys(Keys.HOME)  # the slider's minimum: 2^-2 = 0.25×
    wait_for(lambda: abs(studio.status()["rate"] - 0.25) < 1e-9, message="the rate slider's minimum to reach the engine")
    assert browser.find_element(By.ID, "rate-readout").text == "0.25×"
    browser.find_element(By.ID, "output-button").click()
    channels = browser.find_element(By.ID, "channels-input")
    wait_for(lambda: channels.get_attribute("value") == studio.status()["channels"], message="the dialog to show the settings")
    type_into(channels, "M,H")  # Enter submits the dialog
    wait_for(lambda: studio.status()["channels"] == "M,H", message="the channel map to reach the engine")


def test_compare_lists_each_export_with_its_losses_and_plays_them(studio, browser):
    expected = None
    load(browser, studio)
    open_pattern(browser, "click-with-sound.ahap")
    expected = studio.json("GET", "/api/compare")["exports"]
    browser.find_element(By.ID, "tab-compare").click()
    cards = wait_for(lambda: len(c := browser.find_elements(By.CSS_SELECTOR, "#compare-list > li")) == len(expected) and c, message="the export cards")
    for card, export in zip(cards, expected):
        assert export["label"] in card.text
        listed = card.find_elements(By.CSS_SELECTOR, "ul > li")
        assert len(listed) == len(export["losses"]), f"{export['export']}: {card.text}"
    if pulse_available():
        browser.find_element(By.ID, "compare-all").click()
        wait_for(lambda: studio.status()["playing"], message="the compare run to play")
        ActionChains(browser).send_keys(Keys.ESCAPE).perform()
        wait_for(lambda: not studio.status()["playing"], message="Esc to stop everything")


def test_from_audio_analyses_a_sound_and_makes_it_the_document(studio, browser):
    load(browser, studio)
    browser.find_element(By.ID, "tab-audio").click()
    Select(browser.find_element(By.ID, "audio-select")).select_by_value("click.wav")
    wait_for(lambda: "transients" in browser.find_element(By.ID, "analysis-status").text, timeout=30, message="the analysis")
    # A setting changed: the analysis runs again by itself.
    before = browser.find_element(By.ID, "analysis-status").text
    browser.find_element(By.ID, "analysis-onsetSensitivity").send_keys(Keys.HOME)  # sensitivity 0: no onsets
    wait_for(lambda: browser.find_element(By.ID, "analysis-status").text.startswith("0 transients"), timeout=30,
             message=f"a re-analysis with no onsets (was: {before})")
    browser.find_element(By.ID, "analysis-play").click()
    document = wait_for(lambda: (d := studio.pattern()) and any(e.get("Event", {}).get("EventType") == "AudioCustom" for e in d["Pattern"]) and d,
                        timeout=30, message="the analysis as the document")
    audio = [e["Event"] for e in document["Pattern"] if e.get("Event", {}).get("EventType") == "AudioCustom"]
    assert audio[0]["EventWaveformPath"].endswith("click.wav")
    assert not any(e.get("Event", {}).get("EventType") == "HapticTransient" for e in document["Pattern"])


def test_dragging_a_curve_point_changes_its_time_and_value(studio, browser, root):
    curve = json.loads((root / "parameter-curve.ahap").read_text())["Pattern"][1]["ParameterCurve"]
    assert curve["ParameterCurveControlPoints"][1] == {"Time": 0.5, "ParameterValue": 1.0}
    load(browser, studio)
    open_pattern(browser, "parameter-curve.ahap")
    snap_off(browser)
    lane = browser.execute_script("const l = window.studio.timeline.lanes().find(l => l.key === 'curve:HapticIntensityControl');"
                                  "return [l.y + 6, l.y + l.height - 6]")  # the value axis: 1 at the top, 0 at the bottom
    seconds_per_pixel = browser.execute_script("return window.studio.timeline.secondsPerPixel")
    value_per_pixel = 1 / (lane[1] - lane[0])
    drag(browser, lane_point(browser, "curve:HapticIntensityControl", 0.5, (6 / (lane[1] - lane[0] + 12))),
         lane_point(browser, "curve:HapticIntensityControl", 0.7, 0.5))
    point = lambda: studio.pattern()["Pattern"][1]["ParameterCurve"]["ParameterCurveControlPoints"][1]
    wait_for(lambda: point()["Time"] != 0.5, message="the dragged point in GET /api/pattern")
    assert abs(point()["Time"] - 0.7) <= 2 * seconds_per_pixel
    assert abs(point()["ParameterValue"] - 0.5) <= 3 * value_per_pixel
