"""thrum.check returns what `thrum check` prints, finding for finding."""
import pytest

import thrum
from conftest import REPOSITORY, run_cli


def test_clean_file_has_no_findings():
    assert thrum.check(str(REPOSITORY / "Resources/Patterns/heartbeat.ahap")) == []


def test_findings_are_the_cli_lines(tmp_path):
    bad = tmp_path / "bad.ahap"
    bad.write_text('{\n  "Version": 1,\n  "Pattern": [\n'
                   '    {"Event": {"EventType": "HapticTransient", "Time": "soon"}},\n'
                   '    {"Event": {"EventType": "HapticContinuous", "Time": 0, "EventDuration": 1,\n'
                   '               "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 7}]}}\n'
                   '  ]\n}\n')
    found = thrum.check(str(bad))
    printed = run_cli("check", str(bad)).stdout.strip().splitlines()[:-1]  # the last line is the summary
    assert [str(d) for d in found] == printed
    assert found[0] == thrum.Diagnostic(str(bad), 4, found[0].column, found[0].message, "error")
    assert found[0].column and found[0].column > 1
    assert any(d.severity == "error" for d in found)


def test_strict_promotes_warnings(tmp_path):
    warned = tmp_path / "warned.ahap"
    warned.write_text('{"Version": 1, "Pattern": [{"Event": {"EventType": "HapticTransient", "Time": 0,'
                      ' "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 7}]}}]}')
    relaxed = thrum.check(str(warned))
    strict = thrum.check(str(warned), strict=True)
    assert relaxed and all(d.severity == "warning" for d in relaxed)
    assert [d.severity for d in strict] == ["error"] * len(relaxed)
    assert [str(d) for d in strict] == run_cli("check", "--strict", str(warned)).stdout.strip().splitlines()[:-1]


def test_bad_check_option_raises():
    with pytest.raises(thrum.ThrumError) as raised:
        thrum.check(str(REPOSITORY / "Resources/Patterns/heartbeat.ahap"), voices=0)
    assert raised.value.status == 64
