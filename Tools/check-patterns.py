#!/usr/bin/env python3
"""Checks the bundled AHAP patterns against Core Haptics' rules and prints each one's duration.

Stop-gap until `thrum check` lands (the AHAP codec is not merged yet); it follows
DECISIONS.md "AHAP leniency": anything Core Haptics rejects is an error, anything it
tolerates (clamping, ignored keys, the 16-point curve limit, the 30 s cap, ...) is a warning.
    Tools/check-patterns.py                      every Resources/Patterns/*.ahap
    Tools/check-patterns.py FILE... [--resources DIR]...
Duration is Core Haptics' CHHapticPattern.duration: the latest of event Time + EventDuration
(+ release tail for a sustained event with ReleaseTime), Parameter Time, curve Time + point Time.
Exit status: 0 when there are no errors and no warnings, 1 otherwise.
"""
import glob, json, math, os, sys

EVENT_TYPES = {"HapticTransient", "HapticContinuous", "AudioContinuous", "AudioCustom"}
ENVELOPE = {"AttackTime": (0, 1), "DecayTime": (0, 1), "ReleaseTime": (0, 1), "Sustained": (0, 1)}
HAPTIC_PARAMS = {"HapticIntensity": (0, 1), "HapticSharpness": (0, 1), **ENVELOPE}
AUDIO_PARAMS = {"AudioVolume": (0, 1), "AudioPan": (-1, 1), "AudioPitch": (-1, 1), "AudioBrightness": (0, 1), **ENVELOPE}
CURVE_IDS = {"HapticIntensityControl": (0, 1), "HapticSharpnessControl": (-1, 1), "AudioVolumeControl": (0, 1),
             "AudioPanControl": (-1, 1), "AudioPitchControl": (-1, 1), "AudioBrightnessControl": (-1, 1)}
DYNAMIC_IDS = {**CURVE_IDS, **{k: (-1, 1) for k in (
    "HapticAttackTimeControl", "HapticDecayTimeControl", "HapticReleaseTimeControl",
    "AudioAttackTimeControl", "AudioDecayTimeControl", "AudioReleaseTimeControl")}}
EVENT_KEYS = {"Time", "EventType", "EventDuration", "EventParameters", "EventWaveformPath",
              "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled"}


class Report:
    def __init__(self, name):
        self.name, self.errors, self.warnings = name, [], []
    def error(self, where, msg): self.errors.append(f"{self.name}: error: {where}: {msg}")
    def warn(self, where, msg): self.warnings.append(f"{self.name}: warning: {where}: {msg}")


def no_duplicates(rep):
    def hook(pairs):
        seen = {}
        for k, v in pairs:
            if k in seen: rep.warn("JSON", f"duplicate key {k!r}; the last one wins")
            seen[k] = v
        return seen
    return hook


def number(rep, where, v, required=True):
    if isinstance(v, bool) or v is None:
        if required: rep.error(where, f"expected a number, found {type(v).__name__}")
        return None
    if isinstance(v, str):
        try:
            f = float(v)
        except ValueError:
            rep.error(where, f"expected a number, found string {v!r}"); return None
        rep.warn(where, f"number given as a string {v!r}"); return f
    if not isinstance(v, (int, float)) or not math.isfinite(v):
        rep.error(where, f"expected a number, found {type(v).__name__}"); return None
    return float(v)


def in_range(rep, where, v, lo, hi):
    if v is not None and not lo <= v <= hi:
        rep.warn(where, f"value {v} outside {lo}…{hi}; Core Haptics clamps it")


def check_file(path, roots):
    rep = Report(os.path.relpath(path))
    try:
        doc = json.loads(open(path, encoding="utf-8").read(), object_pairs_hook=no_duplicates(rep))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        rep.error("JSON", str(e)); return rep, None
    if not isinstance(doc, dict):
        rep.error("top level", "not a dictionary"); return rep, None
    for k in doc:
        if k not in ("Version", "Pattern", "Metadata"): rep.warn("top level", f"unknown key {k!r} is ignored")
    v = number(rep, "Version", doc.get("Version"), required=False) if "Version" in doc else None
    if v is None: rep.warn("Version", "missing; 1.0 assumed")
    elif not 1.0 <= v <= 1.1: rep.warn("Version", f"{v} is outside 1.0–1.1; Core Haptics rejects it (notSupported)")
    meta = doc.get("Metadata")
    if not isinstance(meta, dict) or meta.get("Project") != "Thrum" or not meta.get("Created") or not meta.get("Description"):
        rep.warn("Metadata", "bundled patterns need Metadata with Project \"Thrum\", Created and Description")
    pattern = doc.get("Pattern")
    if not isinstance(pattern, list) or not pattern:
        rep.error("Pattern", "missing or empty [invalidPatternDictionary]"); return rep, None

    duration = 0.0
    folder = os.path.dirname(os.path.abspath(path))
    for n, entry in enumerate(pattern):
        w = f"Pattern[{n}]"
        if not isinstance(entry, dict) or not ({"Event", "Parameter", "ParameterCurve"} & set(entry)):
            rep.warn(w, "entry is not an Event, Parameter or ParameterCurve; ignored"); continue
        for k in entry:
            if k not in ("Event", "Parameter", "ParameterCurve"): rep.warn(w, f"unknown key {k!r} is ignored")
        if "Event" in entry:
            ev, we = entry["Event"], w + ".Event"
            for k in ev:
                if k not in EVENT_KEYS: rep.warn(we, f"unknown key {k!r} is ignored")
            et = ev.get("EventType")
            if et not in EVENT_TYPES:
                rep.error(we + ".EventType", f"{et!r} is not a known EventType [invalidEventType]"); continue
            if "Time" not in ev:
                rep.error(we, "no Time [invalidEventTime]"); continue
            t = number(rep, we + ".Time", ev["Time"])
            if t is None: continue
            if t < 0: rep.error(we + ".Time", "negative [invalidEventTime]")
            d = number(rep, we + ".EventDuration", ev["EventDuration"]) if "EventDuration" in ev else 0.0
            d = d or 0.0
            if d < 0: rep.error(we + ".EventDuration", "negative [invalidEventDuration]")
            allowed = AUDIO_PARAMS if et.startswith("Audio") else HAPTIC_PARAMS
            values = {}
            for m, p in enumerate(ev.get("EventParameters", [])):
                wp = f"{we}.EventParameters[{m}]"
                if not isinstance(p, dict) or "ParameterID" not in p or "ParameterValue" not in p:
                    rep.error(wp, "needs ParameterID and ParameterValue [badParameterEntry]"); continue
                pid = p["ParameterID"]
                if pid not in allowed:
                    rep.error(wp, f"{pid!r} is not a parameter of {et} [invalidParameterType]"); continue
                if pid in values: rep.warn(wp, f"{pid} given twice; the last one wins")
                pv = number(rep, wp + ".ParameterValue", p["ParameterValue"])
                in_range(rep, wp + ".ParameterValue", pv, *allowed[pid])
                values[pid] = pv
            sustained = values.get("Sustained", 1.0) != 0.0
            if et in ("HapticContinuous", "AudioContinuous") and sustained and d <= 0:
                rep.error(we, "sustained continuous event needs EventDuration > 0 [invalidEventDuration]")
            if et == "HapticContinuous" and d > 30:
                rep.warn(we + ".EventDuration", f"{d} s is longer than 30 s; Core Haptics caps it at 30 s")
            if et == "AudioCustom":
                wf = ev.get("EventWaveformPath")
                if not isinstance(wf, str) or not wf:
                    rep.error(we, "AudioCustom needs EventWaveformPath [badEventEntry]")
                elif wf.startswith("/"):
                    rep.error(we + ".EventWaveformPath", "absolute paths are rejected")
                else:
                    found = escaped = False
                    for base in [folder] + roots:
                        cand = os.path.realpath(os.path.join(base, wf))
                        if os.path.isfile(cand):
                            if cand.startswith(os.path.realpath(base) + os.sep): found = True; break
                            escaped = True
                    if escaped and not found:
                        rep.error(we + ".EventWaveformPath", f"{wf!r} escapes the pattern folder and {roots}")
                    elif not found:
                        rep.error(we + ".EventWaveformPath", f"{wf!r} not found in the pattern folder or {roots}")
                d = 0.0   # AHAP audio events are re-created without a duration (behaviour §2.4)
            end = t + d
            if "ReleaseTime" in values and sustained and et in ("HapticContinuous", "AudioContinuous"):
                end += max(0.0, 0.02 * 2 ** (8 * values["ReleaseTime"]) - 0.04)
            duration = max(duration, end)
        if "Parameter" in entry:
            p, wp = entry["Parameter"], w + ".Parameter"
            if "ParameterID" not in p or "Time" not in p:
                rep.error(wp, "needs ParameterID and Time [badParameterEntry]"); continue
            if p["ParameterID"] not in DYNAMIC_IDS:
                rep.error(wp, f"{p['ParameterID']!r} is not a dynamic parameter [invalidParameterType]"); continue
            t = number(rep, wp + ".Time", p["Time"])
            if "ParameterValue" not in p: rep.warn(wp, "no ParameterValue; Core Haptics uses 0")
            else: in_range(rep, wp + ".ParameterValue", number(rep, wp + ".ParameterValue", p["ParameterValue"]), *DYNAMIC_IDS[p["ParameterID"]])
            if t is not None: duration = max(duration, t)
        if "ParameterCurve" in entry:
            c, wc = entry["ParameterCurve"], w + ".ParameterCurve"
            pid = c.get("ParameterID")
            if pid not in CURVE_IDS:
                rep.error(wc, f"{pid!r} is not allowed in a curve [invalidParameterType]"); continue
            if "Time" not in c:
                rep.error(wc, "no Time [badParameterEntry]"); continue
            t = number(rep, wc + ".Time", c["Time"])
            pts = c.get("ParameterCurveControlPoints")
            if not isinstance(pts, list) or not pts:
                rep.error(wc, "no ParameterCurveControlPoints"); continue
            if len(pts) > 16: rep.warn(wc, f"{len(pts)} points; Core Haptics limits curves to 16")
            last = None
            for m, q in enumerate(pts):
                wq = f"{wc}.ParameterCurveControlPoints[{m}]"
                if "Time" not in q or "ParameterValue" not in q:
                    rep.error(wq, "needs Time and ParameterValue"); continue
                qt = number(rep, wq + ".Time", q["Time"])
                in_range(rep, wq + ".ParameterValue", number(rep, wq + ".ParameterValue", q["ParameterValue"]), *CURVE_IDS[pid])
                if qt is None: continue
                if qt < 0: rep.error(wq + ".Time", "negative")
                if last is not None and qt < last: rep.warn(wq + ".Time", "points out of order")
                if m == 0 and t and qt == t:
                    rep.warn(wq + ".Time", "first point time equals the curve's Time; looks like absolute times (point times are relative)")
                last = qt
                if t is not None: duration = max(duration, t + qt)
    return rep, duration


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files, roots, i = [], [], 0
    while i < len(argv):
        if argv[i] == "--resources": roots.append(argv[i + 1]); i += 2
        else: files.append(argv[i]); i += 1
    if not files:
        files = sorted(glob.glob(os.path.join(root, "Resources/Patterns/*.ahap")))
        roots = roots or [os.path.join(root, "Resources/Audio")]
    total_e = total_w = 0
    for f in files:
        rep, dur = check_file(f, roots)
        for line in rep.errors + rep.warnings: print(line)
        total_e += len(rep.errors); total_w += len(rep.warnings)
        if dur is not None: print(f"{rep.name}: duration {round(dur, 9):g} s")
    print(f"checked {len(files)} files: {total_e} errors, {total_w} warnings")
    return 0 if total_e == total_w == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
