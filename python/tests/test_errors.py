"""Every error path raises thrum.ThrumError with the CLI's one-line message (the CLI is the oracle)."""
import pytest

import thrum
from conftest import REPOSITORY, cli_error, cli_failure, run_cli


@pytest.fixture
def beat():
    return thrum.Pattern.load("heartbeat")


def test_missing_pattern_file():
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Pattern.load("no-such-pattern.ahap")
    message, status = cli_failure("render", "no-such-pattern.ahap", "-o", "/tmp/never.wav")
    assert (str(raised.value), raised.value.status) == (message, status)
    assert str(raised.value) == "cannot open 'no-such-pattern.ahap': no such file (check the path)"


def test_pattern_with_errors(tmp_path):
    bad = tmp_path / "bad.ahap"
    bad.write_text('{"Version": 1, "Pattern": [{"Event": {"EventType": "HapticTransient", "Time": -1}}]}')
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Pattern.load(str(bad))
    message, status = cli_failure("render", str(bad), "-o", str(tmp_path / "x.wav"))
    assert (str(raised.value), raised.value.status) == (message, status)


@pytest.mark.parametrize("text", ["{", "[]", '{"Version": 1, "Pattern": [{"Event": {"EventType": "Buzz", "Time": 0}}]}'])
def test_bad_json(text):
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Pattern.from_json(text)
    assert str(raised.value).startswith("<json>:")
    assert raised.value.status == 65  # EX_DATAERR, as `thrum render` of a bad file (test_pattern_with_errors)


def test_bad_haptic_text():
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Pattern.from_haptic("{}")
    assert str(raised.value).startswith("<haptic>")


@pytest.mark.parametrize("options, cli_options", [
    (dict(sample_rate=10), ["--sample-rate", "10"]),
    (dict(channels="L,X"), ["--channels", "L,X"]),
    (dict(loop=True), ["--loop"]),
    (dict(rate=0), ["--rate", "0"]),
    (dict(loops=2, loop=True, duration=1), ["--loops", "2", "--loop", "--duration", "1"]),
    (dict(loop_end=0.5), ["--loop-end", "0.5"]),
    (dict(profile="no-such-profile.json"), ["--profile", "no-such-profile.json"]),
    (dict(layout="toaster"), ["--layout", "toaster"]),
    (dict(voices=0), ["--voices", "0"]),
])
def test_bad_render_options(beat, tmp_path, options, cli_options):
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.render(beat, **options)
    message, status = cli_failure("render", "heartbeat", "-o", str(tmp_path / "x.wav"), *cli_options)
    assert (str(raised.value), raised.value.status) == (message, status)


def test_render_longer_than_600_s_needs_duration(tmp_path):
    path = tmp_path / "beat.ahap"  # a file both name alike (a bundled name resolves to each one's own copy)
    path.write_bytes((REPOSITORY / "Resources/Patterns/heartbeat.ahap").read_bytes())
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.render(thrum.Pattern.load(str(path)), loops=601)
    assert str(raised.value) == cli_error("render", str(path), "--loops", "601", "-o", str(tmp_path / "x.wav"))


def test_check_missing_file_raises_66():
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.check("no-such.ahap")
    assert raised.value.status == 66
    assert str(raised.value) == "cannot open 'no-such.ahap': no such file (check the path)"


def test_convert_errors(tmp_path):
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.convert("no-such.haptic", tmp_path / "out.ahap")
    assert raised.value.status == 66
    assert str(raised.value) == cli_error("convert", "no-such.haptic", "-o", str(tmp_path / "out.ahap"))
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.convert("heartbeat.ahap", tmp_path / "out.txt", to="mp3")
    assert raised.value.status == 64


def test_analyze_errors(tmp_path):
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.analyze("no-such.wav", tmp_path / "out.ahap")
    assert raised.value.status == 66
    assert str(raised.value) == cli_error("analyze", "no-such.wav", "-o", str(tmp_path / "out.ahap"))
    assert not (tmp_path / "out.ahap").exists()


def test_write_errors(beat, tmp_path):
    with pytest.raises(thrum.ThrumError) as raised:
        beat.write(tmp_path / "out.mp3")
    assert raised.value.status == 64
    with pytest.raises(thrum.ThrumError) as raised:
        beat.write(tmp_path / "missing-folder" / "out.ahap")
    assert raised.value.status == 74


def test_engine_on_a_missing_device():
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Engine(device="thrum_no_such_device", channels="L,R")
    message, status = cli_failure("play", "heartbeat", "-d", "thrum_no_such_device", "--channels", "L,R")
    assert (str(raised.value), raised.value.status) == (message, status)


def test_onset_log_in_a_missing_folder(tmp_path):
    log = tmp_path / "missing-folder" / "onsets.jsonl"
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Engine(device="thrum_no_such_device", onset_log=log)
    message, status = cli_failure("play", "heartbeat", "-d", "thrum_no_such_device", "--onset-log", str(log))
    assert (str(raised.value), raised.value.status) == (message, status)
    assert status == 73


def test_start_at_is_a_player_call_not_an_engine_option():
    with pytest.raises(TypeError, match="start_at"):
        thrum.Engine(device="thrum_no_such_device", start_at=1)


def test_engine_options_are_checked():
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.Engine(device="default", period=3)
    message, status = cli_failure("play", "heartbeat", "--period", "3")
    assert (str(raised.value), raised.value.status) == (message, status)
    with pytest.raises(TypeError, match="watch"):
        thrum.Engine(device="default", watch=True)


def test_the_cli_agrees_on_a_clean_check(tmp_path):
    result = run_cli("check", "--json", str(tmp_path / "none.ahap"))
    assert result.returncode == 66
