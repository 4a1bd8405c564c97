"""Generated edge cases for the MPEG haptics oracle tests (HJIF documents and AHAP patterns), and the
comparison of an .hjif written by Thrum with the reference Decoder's decoding of Thrum's .hmpg."""
import math


def document(perceptions, timescale=1000):
    """An HJIF document holding `perceptions` (each a list of channels, each a list of bands)."""
    return {
        "version": "2023", "profile": "Main", "level": 2, "date": "2026-12-06", "description": "generated",
        "timescale": timescale, "avatars": [], "syncs": [],
        "perceptions": [{
            "id": p, "avatar_id": 0, "description": "", "perception_modality": "Vibrotactile",
            "reference_devices": [], "effect_library": [],
            "channels": [{"id": c, "description": "", "gain": 1.0, "mixing_coefficient": 1.0, "body_part_mask": 0,
                          "bands": bands} for c, bands in enumerate(channels)],
        } for p, channels in enumerate(perceptions)],
    }


def vectorial(effects, lower=40, upper=300):
    return {"band_type": "VectorialWave", "lower_frequency_limit": lower, "upper_frequency_limit": upper,
            "effects": effects}


def effect(position, keyframes, signal="Sine", phase=0.0):
    """A Basis effect; `keyframes` are (relative position, amplitude or None, frequency or None)."""
    frames = []
    for at, amplitude, frequency in keyframes:
        frame = {"relative_position": at}
        if amplitude is not None:
            frame["amplitude_modulation"] = amplitude
        if frequency is not None:
            frame["frequency_modulation"] = frequency
        frames.append(frame)
    return {"effect_type": "Basis", "position": position, "phase": phase, "base_signal": signal, "keyframes": frames}


def ramp(position, length, frequency, peak=0.8, to=None):
    """A sine that rises, holds and falls over `length` ticks, at `frequency` (a chirp to `to`)."""
    return effect(position, [(0, 0.0, frequency), (length // 5, peak, None), (length * 4 // 5, peak, None),
                             (length, 0.0, to if to is not None else frequency)])


def overlapping():
    # Two effects of one band sounding together, and a third starting inside them.
    return document([[[vectorial([ramp(0, 400, 120), ramp(150, 400, 180, 0.5), ramp(300, 100, 90, 0.3)])]]])


def many_channels():
    return document([[[vectorial([ramp(50 * c, 300, 60 + 25 * c, 0.4 + 0.05 * c)])] for c in range(8)]])


def long_file():
    # 70 s: past Thrum's 30 s event length twice, with effects across the seams.
    return document([[[vectorial([ramp(t, 3000, 100 + (t // 1000) % 100, 0.7) for t in range(0, 70000, 9500)])]]])


def tiny_timescale():
    # 10 ticks per second: one tick is 100 ms.
    return document([[[vectorial([ramp(1, 10, 150), ramp(15, 5, 80, 0.5)])]]], timescale=10)


def huge_timescale():
    # 1 000 000 ticks per second (µs).
    return document([[[vectorial([ramp(5000, 250000, 200, to=90), ramp(400000, 100000, 60)])]]], timescale=1000000)


def signals_and_transients():
    shapes = ["Square", "Triangle", "SawToothUp", "SawToothDown"]
    waves = [effect(200 * k, [(0, 0.0, 80), (20, 0.6, None), (150, 0.6, None), (170, 0.0, None)], shape)
             for k, shape in enumerate(shapes)]
    transient = {"band_type": "Transient", "lower_frequency_limit": 0, "upper_frequency_limit": 1000,
                 "effects": [effect(900 + 60 * k, [(0, 0.9 - 0.2 * k, 90)]) for k in range(3)]}
    return document([[[vectorial(waves, 0, 1000), transient]]])


HJIF_CASES = {f.__name__: f for f in (overlapping, many_channels, long_file, tiny_timescale, huge_timescale,
                                      signals_and_transients)}


def ahap(events, curves=()):
    return {"Version": 1.0, "Pattern": [{"Event": e} for e in events] + [{"ParameterCurve": c} for c in curves]}


def continuous(time, duration, intensity, sharpness):
    return {"Time": time, "EventType": "HapticContinuous", "EventDuration": duration,
            "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": intensity},
                                {"ParameterID": "HapticSharpness", "ParameterValue": sharpness}]}


def transient(time, intensity, sharpness):
    return {"Time": time, "EventType": "HapticTransient",
            "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": intensity},
                                {"ParameterID": "HapticSharpness", "ParameterValue": sharpness}]}


def ahap_overlapping():
    events = [continuous(0.0, 0.6, 0.8, 0.2), continuous(0.25, 0.5, 0.6, 0.9), transient(0.3, 1.0, 0.5),
              transient(0.31, 0.7, 1.0)]
    return ahap(events)


def ahap_long():
    events = [continuous(t * 2.0, 1.2, 0.5 + 0.05 * (t % 8), (t % 5) / 4) for t in range(24)]
    events += [transient(t * 2.0 + 1.5, 0.9, (t % 3) / 2) for t in range(24)]
    return ahap(events)


def ahap_chirp():
    curve = {"ParameterID": "HapticSharpnessControl", "Time": 0.0,
             "ParameterCurveControlPoints": [{"Time": 0.0, "ParameterValue": -0.5}, {"Time": 1.0, "ParameterValue": 0.5}]}
    return ahap([continuous(0.0, 1.0, 1.0, 0.5)], [curve])


AHAP_CASES = {"overlapping": ahap_overlapping, "long": ahap_long, "chirp": ahap_chirp}


def assert_same_document(written, decoded):
    """`decoded` (the reference Decoder's HJIF of Thrum's .hmpg) is `written` (Thrum's HJIF) within the
    stream's quantisation: the same structure, positions and frequencies, amplitudes within 1 %."""
    for key in ("timescale",):
        assert written[key] == decoded[key], key
    assert len(written["perceptions"]) == len(decoded["perceptions"])
    for p, (wp, dp) in enumerate(zip(written["perceptions"], decoded["perceptions"])):
        assert len(wp["channels"]) == len(dp["channels"]), f"perception {p}"
        for c, (wc, dc) in enumerate(zip(wp["channels"], dp["channels"])):
            assert math.isclose(wc.get("gain", 1), dc.get("gain", 1), rel_tol=0.01), f"channel {p}.{c} gain"
            assert len(wc["bands"]) == len(dc["bands"]), f"channel {p}.{c}"
            for b, (wb, db) in enumerate(zip(wc["bands"], dc["bands"])):
                where = f"perceptions[{p}].channels[{c}].bands[{b}]"
                assert wb["band_type"] == db["band_type"], where
                assert len(wb["effects"]) == len(db["effects"]), where
                for e, (we, de) in enumerate(zip(wb["effects"], db["effects"])):
                    assert we["position"] == de["position"], f"{where}.effects[{e}]"
                    assert len(we["keyframes"]) == len(de["keyframes"]), f"{where}.effects[{e}]"
                    for k, (wk, dk) in enumerate(zip(we["keyframes"], de["keyframes"])):
                        at = f"{where}.effects[{e}].keyframes[{k}]: {wk} vs {dk}"
                        assert wk.get("relative_position") == dk.get("relative_position"), at
                        assert wk.get("frequency_modulation") == dk.get("frequency_modulation"), at
                        assert abs(wk.get("amplitude_modulation", 0) - dk.get("amplitude_modulation", 0)) <= 0.01, at
