"""thrum.render equals `thrum render … --format float` sample for sample; patterns load as the CLI loads them."""
import json
import re
import struct
import wave

import numpy as np
import pytest

import thrum
from conftest import REPOSITORY, cli_render


def test_version_is_thrums():
    text = (REPOSITORY / "Sources/Thrum/ThrumVersion.swift").read_text()
    assert thrum.__version__ == re.search(r'static let string = "([^"]+)"', text).group(1)


def test_render_once_equals_the_cli(tmp_path):
    pattern = thrum.Pattern.load("heartbeat")
    samples = thrum.render(pattern, sample_rate=48000, channels="L,R,H", loops=1, rate=1.0)
    expected = cli_render(tmp_path, "heartbeat", "--sample-rate", "48000", "--channels", "L,R,H")
    assert samples.dtype == np.float32 and samples.shape == expected.shape
    assert np.array_equal(samples.view(np.uint32), expected.view(np.uint32))
    assert np.abs(samples[:, 2]).max() > 0.1  # the haptic channel carries the heartbeat


@pytest.mark.parametrize("name, options, cli_options", [
    ("heartbeat", dict(loops=3, rate=1.5, sample_rate=44100, channels="M+H"),
     ["--loops", "3", "--rate", "1.5", "--sample-rate", "44100", "--channels", "M+H"]),
    ("click-with-sound", dict(channels="L+H,R+H", seek=0.005), ["--channels", "L+H,R+H", "--seek", "0.005"]),
    ("crescendo", dict(loop=True, loop_end=0.3, duration=1.25, profile="lra"),
     ["--loop", "--loop-end", "0.3", "--duration", "1.25", "--profile", "lra"]),
    ("drum-roll", dict(sample_rate=96000, voices=4), ["--sample-rate", "96000", "--voices", "4"]),
])
def test_render_options_equal_the_cli(tmp_path, name, options, cli_options):
    samples = thrum.render(thrum.Pattern.load(name), **options)
    expected = cli_render(tmp_path, name, *cli_options)
    assert samples.shape == expected.shape
    assert np.array_equal(samples.view(np.uint32), expected.view(np.uint32))


def test_empty_render_has_the_channels(tmp_path):
    samples = thrum.render(thrum.Pattern.load("click-with-sound"), channels="L+H,R+H", seek=0.05)
    assert samples.shape == cli_render(tmp_path, "click-with-sound", "--channels", "L+H,R+H", "--seek", "0.05").shape
    assert samples.shape == (0, 2)


def test_long_render_spans_many_blocks(tmp_path):
    # 20 s: hundreds of the CLI's 4096-frame blocks and several of the package's 65536-frame reads.
    pattern = thrum.Pattern.load("heartbeat")
    samples = thrum.render(pattern, loops=20)
    expected = cli_render(tmp_path, "heartbeat", "--loops", "20")
    assert samples.shape == expected.shape == (20 * 48000, 3)
    assert np.array_equal(samples.view(np.uint32), expected.view(np.uint32))


def test_render_into_a_reused_array_equals_the_cli(tmp_path):
    expected = cli_render(tmp_path, "heartbeat", "--loops", "2", "--channels", "M+H")
    out = np.full((len(expected) + 1000, 1), np.nan, dtype=np.float32)
    pattern = thrum.Pattern.load("heartbeat")
    for _ in range(2):  # the second render overwrites the first in the same memory
        samples = thrum.render(pattern, loops=2, channels="M+H", out=out)
        assert np.shares_memory(samples, out) and samples.shape == expected.shape
        assert np.array_equal(samples.view(np.uint32), expected.view(np.uint32))
    exact = np.empty_like(expected)
    assert np.array_equal(thrum.render(pattern, loops=2, channels="M+H", out=exact), expected)


@pytest.mark.parametrize("out, message", [
    (np.empty((24000, 3), dtype=np.float32), "out= has room for 24000 frames and the render is longer"),
    (np.empty((96000, 3), dtype=np.float64), "out= takes a writable C-contiguous float32 array of shape (frames, 3)"),
    (np.empty((96000, 2), dtype=np.float32), "out= takes a writable C-contiguous float32 array of shape (frames, 3)"),
    (np.empty((3, 96000), dtype=np.float32).T, "out= takes a writable C-contiguous float32 array of shape (frames, 3)"),
])
def test_render_into_an_unfit_array_raises(out, message):
    # heartbeat lasts 1 s (Pattern.duration; test_duration_is_the_patterns): more than 24000 frames at 48 kHz.
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.render(thrum.Pattern.load("heartbeat"), out=out)
    assert str(raised.value).startswith(message) and raised.value.status == 64


def test_from_json_str_and_dict_render_as_the_file(tmp_path):
    path = REPOSITORY / "Resources/Patterns/heartbeat.ahap"
    text = path.read_text()
    from_file = thrum.render(thrum.Pattern.load(str(path)))
    assert np.array_equal(thrum.render(thrum.Pattern.from_json(text)), from_file)
    assert np.array_equal(thrum.render(thrum.Pattern.from_json(json.loads(text))), from_file)
    assert thrum.Pattern.from_json(text).duration == thrum.Pattern.load(str(path)).duration


def test_duration_is_the_patterns():
    # One transient at 0.25 s and a continuous event from 0.5 s lasting 0.75 s: 1.25 s.
    pattern = thrum.Pattern.from_json({"Version": 1, "Pattern": [
        {"Event": {"EventType": "HapticTransient", "Time": 0.25}},
        {"Event": {"EventType": "HapticContinuous", "Time": 0.5, "EventDuration": 0.75}}]})
    assert pattern.duration == pytest.approx(1.25)


def test_a_sound_and_a_pattern_playing_it_last_as_long_as_the_sound(tmp_path):
    # 4,800 frames at 48 kHz: 100 ms (the length comes from the file written here, not from libthrum).
    sound = tmp_path / "tap.wav"
    with wave.open(str(sound), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(48000)
        out.writeframes(struct.pack("<h", 1000) * 4800)
    assert thrum.Pattern.load(str(sound)).duration == pytest.approx(0.1)
    ahap = tmp_path / "tap.ahap"
    ahap.write_text(json.dumps({"Version": 1, "Pattern": [
        {"Event": {"EventType": "AudioCustom", "Time": 0.25, "EventWaveformPath": "tap.wav"}}]}))
    assert thrum.Pattern.load(str(ahap)).duration == pytest.approx(0.35)


def test_write_ahap_and_haptic_round_trip(tmp_path):
    pattern = thrum.Pattern.load("heartbeat")
    copy = tmp_path / "copy.ahap"
    assert pattern.write(copy) == []
    assert np.array_equal(thrum.render(thrum.Pattern.load(str(copy))), thrum.render(pattern))
    haptic = tmp_path / "copy.haptic"
    pattern.write(haptic)
    assert thrum.check(str(haptic)) == []
    assert thrum.Pattern.load(str(haptic)).duration > 0


def test_haptic_text_loads_as_the_file(tmp_path):
    haptic = tmp_path / "beat.haptic"
    thrum.Pattern.load("heartbeat").write(haptic)
    from_text = thrum.Pattern.from_haptic(haptic.read_text())
    assert np.array_equal(thrum.render(from_text), thrum.render(thrum.Pattern.load(str(haptic))))
