"""Onsets as they happen (issue 40 §2): Engine(on_onset=...), Player.id counted per engine, labels in the onset
log, on the simulated card `sim_hda` (Tools/dev/simcard; real ALSA, paced like hardware). The expected onsets
come from the pattern (three transients 50 ms apart) and the log the engine writes, not from the callback code.
Each run is its own Python process, whose ALSA configuration holds the simulated cards."""
import json

from test_measure import run


def test_onsets_reach_the_callable_while_playing_with_per_engine_ids_and_labels(tmp_path):
    log = tmp_path / "onsets.jsonl"
    found = run(tmp_path, f"""
import threading
pattern = thrum.Pattern.from_json({{"Version": 1, "Pattern": [
    {{"Event": {{"Time": t, "EventType": "HapticTransient", "EventParameters": [
        {{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}}]}}}} for t in (0.0, 0.05, 0.1)]}})
thrum.render(pattern)  # players made elsewhere in the process do not change an engine's numbers
thrum.render(pattern)
got, arrived = [], []
lock = threading.Lock()
def on_onset(onset):
    with lock:
        got.append(onset)
        arrived.append(thrum.monotonic_now())
with thrum.Engine(device="sim_hda", channels="L+H,R+H", onset_log={str(log)!r}, on_onset=on_onset) as engine:
    first = engine.player(pattern, label="trial-1")
    second = engine.player(pattern)
    first.start()
    assert first.wait(5)
    second.start(at=engine.time + 0.1)
    assert second.wait(5)
    deadline = thrum.monotonic_now() + 2
    while len(got) < 6 and thrum.monotonic_now() < deadline:
        pass
    before_close = len(got)
    ids = [first.id, second.id]
closed = thrum.monotonic_now()
print(json.dumps(dict(ids=ids, before_close=before_close, late=[a > closed for a in arrived],
    onsets=[dict(player=o.player, label=o.label, pattern=o.pattern, event=o.event, type=o.type, frame=o.frame,
                 engine_time=o.engine_time, dac_time=o.dac_time, pattern_time=o.pattern_time) for o in got])))
""")
    assert found["ids"] == [1, 2]
    assert found["before_close"] == 6, "the onsets did not arrive while the engine played"
    assert not any(found["late"])
    onsets = found["onsets"]
    assert [(o["player"], o["event"]) for o in onsets] == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert [o["label"] for o in onsets] == ["trial-1"] * 3 + [None] * 3
    assert all(o["type"] == "HapticTransient" and o["pattern"] == "<json>" for o in onsets)
    # Three transients 50 ms apart: 2400 frames at 48 kHz.
    for player in (1, 2):
        frames = [o["frame"] for o in onsets if o["player"] == player]
        assert [b - a for a, b in zip(frames, frames[1:])] == [2400, 2400]
    # The log holds the same onsets, numbered per engine, the label on the labelled player's lines only.
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(line["player"], line["event"], line["stream_frame"]) for line in lines] == [
        (o["player"], o["event"], o["frame"]) for o in onsets]
    assert [line.get("label") for line in lines] == ["trial-1"] * 3 + [None] * 3
    for line, onset in zip(lines, onsets):
        assert onset["dac_time"] is not None and abs(line["dac_time"] - onset["dac_time"]) < 1e-6


def test_the_onset_iterator_yields_each_onset_as_it_plays_and_ends_when_the_engine_closes(tmp_path):
    log = tmp_path / "onsets.jsonl"
    found = run(tmp_path, f"""
import threading
pattern = thrum.Pattern.from_json({{"Version": 1, "Pattern": [
    {{"Event": {{"Time": t, "EventType": "HapticTransient"}}}} for t in (0.0, 0.05, 0.1)]}})
engine = thrum.Engine(device="sim_hda", channels="L+H,R+H", onset_log={str(log)!r})
onsets = engine.onsets()
player = engine.player(pattern, label="block-1")
player.start()
got, arrived = [], []
def close_later():
    player.wait(5)
    threading.Event().wait(0.3)
    engine.close()
closer = threading.Thread(target=close_later)
closer.start()
for onset in onsets:  # ends when the engine closes
    got.append(onset)
    arrived.append(thrum.monotonic_now())
closer.join()
quiet = list(thrum.Engine(device="sim_hda", channels="L+H,R+H").onsets(timeout=0.2))
print(json.dumps(dict(quiet=len(quiet), arrived=arrived,
    onsets=[dict(player=o.player, label=o.label, event=o.event, frame=o.frame, dac_time=o.dac_time) for o in got])))
""")
    assert found["quiet"] == 0, "an engine that plays nothing yielded onsets"
    onsets = found["onsets"]
    assert [(o["player"], o["event"], o["label"]) for o in onsets] == [(1, 0, "block-1"), (1, 1, "block-1"), (1, 2, "block-1")]
    frames = [o["frame"] for o in onsets]
    assert [b - a for a, b in zip(frames, frames[1:])] == [2400, 2400]  # 50 ms at 48 kHz
    # Each arrived once its frame had left the DAC (not after the fact): 50 ms apart, give or take the engine's
    # onset thread, and the log (written at close) holds the same frames.
    assert all(a >= o["dac_time"] for a, o in zip(found["arrived"], onsets))
    assert found["arrived"][2] - found["arrived"][0] > 0.05
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["stream_frame"] for line in lines] == frames
