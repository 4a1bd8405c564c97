"""MPEG haptics files through libthrum (issue 41): a `.hjif` and a `.hmpg` that `thrum convert` wrote load,
check and render in Python exactly as `thrum render` renders them (the command line is the oracle), and a
broken one is a ThrumError naming the byte."""
import numpy as np
import pytest

import thrum
from conftest import read_float_wav, run_cli


@pytest.mark.parametrize("extension", ["hjif", "hmpg"])
def test_mpeg_files_render_as_the_command_line_renders_them(tmp_path, extension):
    path = tmp_path / f"heartbeat.{extension}"
    assert run_cli("convert", "heartbeat", "-o", str(path)).returncode == 0
    oracle = tmp_path / "cli.wav"
    run = run_cli("render", str(path), "--format", "float", "-o", str(oracle))
    assert run.returncode == 0, run.stderr
    expected, _ = read_float_wav(oracle)
    rendered = thrum.render(thrum.Pattern.load(str(path)))
    assert np.array_equal(rendered, expected)
    assert np.abs(rendered).max() > 0.5  # the heartbeat's haptic channel, not silence
    assert [d for d in thrum.check(str(path)) if d.severity == "error"] == []


def test_a_broken_hmpg_is_an_error_naming_the_byte(tmp_path):
    path = tmp_path / "broken.hmpg"
    path.write_bytes(b"\x00\x00\x00\x00\x00\x00\x00\x16\xff\xff")
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Pattern.load(str(path))
    assert "byte" in str(raised.value)
