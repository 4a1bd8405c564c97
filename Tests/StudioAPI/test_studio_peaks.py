"""Thrum Studio's `GET /api/peaks` (docs/studio-api.md), driven from outside against a real `thrum studio`: each
column's least and greatest sample, per channel, checked against the same columns computed here from the WAV of
`GET /api/render` (itself checked sample for sample against `thrum render` in test_studio_api.py), and its
refusals. The peaks follow an edit where the edit is, and nowhere else.

Run: /usr/bin/python3 -m pytest Tests/StudioAPI -v   (THRUM_BIN=path/to/thrum; default .build/debug/thrum)
"""

import json
import math
import struct

import pytest

from test_studio_api import Studio, root  # noqa: F401 (root is a fixture)


@pytest.fixture
def studio(root):  # noqa: F811
    # No device: peaks and renders are offline; a device that does not exist leaves the studio without one.
    server = Studio(root, "--device", "thrum-test-no-such-device")
    yield server
    server.stop()


def wav_channels(data):
    """The channels of a 32-bit float WAV (as GET /api/render sends it) as tuples of floats, and its rate."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    position, channels, rate = 12, None, None
    while position + 8 <= len(data):
        kind, size = struct.unpack("<4sI", data[position:position + 8])
        body = data[position + 8:position + 8 + size]
        if kind == b"fmt ":
            channels, rate = struct.unpack("<HI", body[2:8])
        elif kind == b"data":
            samples = struct.unpack(f"<{len(body) // 4}f", body)
            return [samples[c::channels] for c in range(channels)], rate
        position += 8 + size + (size & 1)
    raise AssertionError("no data chunk")


def expected_peaks(samples, rate, start, end, columns):
    """The documented columns: column n covers frames floor((start + n*w)*rate) up to floor((start + (n+1)*w)*rate),
    at least one, w = (end - start)/columns; its values are min(0, least) and max(0, greatest)."""
    width = (end - start) / columns
    values = []
    for n in range(columns):
        first = math.floor((start + n * width) * rate)
        last = max(math.floor((start + (n + 1) * width) * rate), first + 1)
        window = samples[first:min(last, len(samples))]
        values += [min([0.0, *window]), max([0.0, *window])]
    return values


def as_float32(values):
    return [struct.unpack("<f", struct.pack("<f", v))[0] for v in values]


@pytest.mark.parametrize("query", ["columns=500", "start=0.05&end=0.3&columns=640", "start=0.1&end=0.1005&columns=64",
                                   "start=0&end=3&columns=300"])
def test_peaks_are_the_columns_of_the_render(studio, query):
    studio.json("POST", "/api/open", {"path": "click-with-sound.ahap"})
    status, _, wav = studio.call("GET", "/api/render")
    assert status == 200
    channels, rate = wav_channels(wav)
    answer = studio.json("GET", "/api/peaks?" + query)
    fields = dict(part.split("=") for part in query.split("&"))
    start, columns = float(fields.get("start", 0)), int(fields["columns"])
    end = float(fields.get("end", len(channels[0]) / rate))
    assert (answer["start"], answer["end"], answer["columns"]) == (start, end, columns)
    assert (answer["sampleRate"], answer["frames"], answer["channels"]) == (rate, len(channels[0]), 3)
    assert answer["revision"] == studio.json("GET", "/api/status")["revision"]
    for n, samples in enumerate(channels):
        assert as_float32(answer["peaks"][n]) == expected_peaks(samples, rate, start, end, columns), f"channel {n}"
    if end > len(channels[0]) / rate:
        assert answer["peaks"][2][-2:] == [0, 0], "past the end of the render"
    # The haptic channel is not silent in the whole render: the comparison compared something.
    if query == "columns=500":
        assert max(answer["peaks"][2]) > 0.1


def test_peaks_take_the_render_options(studio):
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    _, _, wav = studio.call("GET", "/api/render?channels=L%2BH,R%2BH&sampleRate=44100")
    channels, rate = wav_channels(wav)
    answer = studio.json("GET", "/api/peaks?channels=L%2BH,R%2BH&sampleRate=44100&columns=200")
    assert answer["channels"] == 2 and answer["sampleRate"] == rate == 44100
    end = len(channels[0]) / rate
    for n, samples in enumerate(channels):
        assert as_float32(answer["peaks"][n]) == expected_peaks(samples, rate, 0, end, 200)


def test_peaks_follow_an_edit_where_it_is(studio):
    document = {"Version": 1, "Pattern": [
        {"Event": {"Time": t, "EventType": "HapticTransient", "EventParameters": [
            {"ParameterID": "HapticIntensity", "ParameterValue": 0.4}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}
        for t in (0.2, 1.0, 1.8)]}
    (studio.root / "three.ahap").write_text(json.dumps(document))
    studio.json("POST", "/api/open", {"path": "three.ahap"})
    query = "/api/peaks?start=0&end=2.4&columns=240"  # 10 ms columns
    before = studio.json("GET", query)
    document["Pattern"][1]["Event"]["EventParameters"][0]["ParameterValue"] = 1.0
    studio.json("PUT", "/api/pattern", json.dumps(document))
    after = studio.json("GET", query)
    assert after["revision"] == before["revision"] + 1
    changed = [n // 2 for n, (a, b) in enumerate(zip(before["peaks"][2], after["peaks"][2])) if a != b]
    assert changed, "the edit changed nothing in the haptic peaks"
    assert 100 <= min(changed) and max(changed) < 180, f"columns changed outside 1.0 s … 1.8 s: {changed}"
    assert max(after["peaks"][2][200:260]) > 1.5 * max(before["peaks"][2][200:260])


def test_peaks_refusals(studio):
    assert studio.call("GET", "/api/peaks")[0] == 409, "no document open"
    assert studio.call("GET", "/api/peaks", token=False)[0] == 401
    assert studio.call("GET", "/api/peaks", headers={"Authorization": "Bearer " + "0" * 32}, token=False)[0] == 401
    studio.json("POST", "/api/open", {"path": "heartbeat.ahap"})
    assert studio.call("GET", "/api/peaks")[0] == 200
    for query in ["columns=0", "columns=20001", "columns=1.5", "columns=many", "start=-1", "start=86401", "start=nan",
                  "end=inf", "start=0.5&end=0.5", "start=0.5&end=0.2", "channels=Q,Z", "sampleRate=12", "export=mp3"]:
        status, _, body = studio.call("GET", "/api/peaks?" + query)
        assert status == 400 and json.loads(body)["error"], query
    assert studio.call("POST", "/api/peaks")[0] == 405
    studio.json("PUT", "/api/pattern", '{"Version": 1, "Pattern": [')
    assert studio.call("GET", "/api/peaks")[0] == 409, "a document with errors is not rendered"
    assert studio.call("GET", "/api/status")[0] == 200
