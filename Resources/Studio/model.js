// The pattern model for the studio page (no DOM): reads an AHAP document (the parsed JSON object) into
// timeline items, applies edits to a copy, formats it back to JSON text and computes the effective intensity
// and sharpness for display. The engine stays the authority: the page shows its diagnostics and its render.

export const EVENT_TYPES = ["HapticTransient", "HapticContinuous", "AudioContinuous", "AudioCustom"];

/** Parameters the inspector edits, by event type: [ParameterID, label, min, max, default]. */
const HAPTIC_PARAMETERS = [
  ["HapticIntensity", "Intensity", 0, 1, 0.75],
  ["HapticSharpness", "Sharpness", 0, 1, 0.5],
];
const AUDIO_PARAMETERS = [
  ["AudioVolume", "Volume", 0, 1, 0.75],
  ["AudioPitch", "Pitch", -1, 1, 0],
  ["AudioPan", "Pan", -1, 1, 0],
  ["AudioBrightness", "Brightness", 0, 1, 0.5],
];
const TIME_PARAMETERS = [
  ["AttackTime", "Attack", 0, 1, 0],
  ["DecayTime", "Decay", 0, 1, 0],
  ["ReleaseTime", "Release", 0, 1, 0],
];

/** The editable parameters of an event type, in inspector order. */
export function parametersFor(type) {
  switch (type) {
    case "HapticTransient": return HAPTIC_PARAMETERS;
    case "HapticContinuous": return [...HAPTIC_PARAMETERS, ...TIME_PARAMETERS];
    case "AudioContinuous": return [...AUDIO_PARAMETERS, ...TIME_PARAMETERS];
    case "AudioCustom": return [...AUDIO_PARAMETERS, ...TIME_PARAMETERS];
    default: return [];
  }
}

/** Whether an event type has an EventDuration. */
export function hasDuration(type) {
  return type === "HapticContinuous" || type === "AudioContinuous" || type === "AudioCustom";
}

/** Seconds of an AHAP time control value x (0…1): t(x) = 0.001 × 5120^x, as Thrum's envelopes use. */
export function controlSeconds(x) {
  return 0.001 * Math.pow(5120, Math.min(Math.max(x, 0), 1));
}

const num = (value, fallback) => (typeof value === "number" && Number.isFinite(value) ? value : fallback);

/** Rounds a time to 0.1 ms and a value to 1e-4, so edits never write 0.30000000000000004. */
export function roundTime(t) { return Math.round(Math.max(0, t) * 10000) / 10000; }
export function roundValue(v) { return Math.round(v * 10000) / 10000; }

/** The value of an event parameter, or its default when the event does not set it. */
export function eventParameter(event, id, fallback) {
  const list = Array.isArray(event.EventParameters) ? event.EventParameters : [];
  const entry = list.find((p) => p && p.ParameterID === id);
  return entry ? num(entry.ParameterValue, fallback) : fallback;
}

/**
 * The timeline items of a document, one per Pattern entry that the page can draw.
 * @returns {Array<object>} items with `index` (into Pattern), `kind` ("event"|"parameter"|"curve") and the entry's values
 */
export function itemsOf(doc) {
  const pattern = doc && Array.isArray(doc.Pattern) ? doc.Pattern : [];
  const items = [];
  pattern.forEach((entry, index) => {
    if (!entry || typeof entry !== "object") return;
    if (entry.Event && typeof entry.Event === "object") {
      const e = entry.Event;
      const type = String(e.EventType ?? "");
      // The lane it is drawn in: its type, or for a misspelt one the type it resembles (its diagnostic says so).
      const lane = EVENT_TYPES.find((t) => t.toLowerCase() === type.toLowerCase()) ?? "HapticTransient";
      items.push({
        index, kind: "event", type: lane, written: type, time: num(e.Time, 0), duration: num(e.EventDuration, 0),
        intensity: eventParameter(e, type.startsWith("Audio") ? "AudioVolume" : "HapticIntensity", 0.75),
        sharpness: eventParameter(e, "HapticSharpness", 0.5),
        attack: eventParameter(e, "AttackTime", 0), decay: eventParameter(e, "DecayTime", 0),
        release: eventParameter(e, "ReleaseTime", 0), sustained: eventParameter(e, "Sustained", 1) >= 0.5,
        path: typeof e.EventWaveformPath === "string" ? e.EventWaveformPath : null,
      });
    } else if (entry.Parameter && typeof entry.Parameter === "object") {
      const p = entry.Parameter;
      items.push({ index, kind: "parameter", id: String(p.ParameterID ?? ""), time: num(p.Time, 0), value: num(p.ParameterValue, 0) });
    } else if (entry.ParameterCurve && typeof entry.ParameterCurve === "object") {
      const c = entry.ParameterCurve;
      const start = num(c.Time, 0);
      const points = (Array.isArray(c.ParameterCurveControlPoints) ? c.ParameterCurveControlPoints : [])
        .map((p) => ({ time: start + num(p?.Time, 0), value: num(p?.ParameterValue, 0) }));
      items.push({ index, kind: "curve", id: String(c.ParameterID ?? ""), time: start, points });
    }
  });
  return items;
}

/** A short human name for an item, for the event list and screen readers. */
export function describe(item) {
  const t = `${item.time.toFixed(3)} s`;
  if (item.kind === "event") {
    const names = { HapticTransient: "Transient", HapticContinuous: "Continuous", AudioContinuous: "Tone", AudioCustom: "Audio file" };
    const name = names[item.type] ?? item.type;
    const extra = item.type === "AudioCustom" ? ` ${item.path ?? "?"}` : "";
    const length = hasDuration(item.type) && item.type !== "AudioCustom" ? `, ${item.duration.toFixed(3)} s long` : "";
    const level = item.type.startsWith("Audio") ? `volume ${item.intensity.toFixed(2)}` : `intensity ${item.intensity.toFixed(2)}, sharpness ${item.sharpness.toFixed(2)}`;
    return `${name}${extra} at ${t}${length}, ${level}`;
  }
  if (item.kind === "curve") return `Curve ${item.id} at ${t}, ${item.points.length} points`;
  return `Parameter ${item.id} = ${item.value} at ${t}`;
}

/**
 * The pattern's length in seconds: the latest event end, curve point or parameter step; AudioCustom events
 * count their file's length when `audioSeconds(path)` knows it.
 */
export function durationOf(items, audioSeconds = () => null) {
  let end = 0;
  for (const item of items) {
    if (item.kind === "event") {
      let length = item.duration;
      if (item.type === "AudioCustom") length = item.duration > 0 ? item.duration : audioSeconds(item.path) ?? 0;
      end = Math.max(end, item.time + length);
    } else if (item.kind === "curve") {
      for (const p of item.points) end = Math.max(end, p.time);
    } else {
      end = Math.max(end, item.time);
    }
  }
  return end;
}

/** The value of a control at time t: steps and curves in time order, curves linear between their points. */
export function controlAt(items, id, t, initial) {
  let value = initial;
  let latest = -Infinity;
  for (const item of items) {
    if (item.id !== id) continue;
    if (item.kind === "parameter" && item.time <= t && item.time >= latest) { value = item.value; latest = item.time; }
    if (item.kind === "curve" && item.points.length && item.points[0].time <= t && item.points[0].time >= latest) {
      latest = item.points[0].time;
      const points = item.points;
      value = points[points.length - 1].value;
      for (let i = 0; i + 1 < points.length; i++) {
        if (t < points[i + 1].time) {
          const span = points[i + 1].time - points[i].time;
          value = span > 0 ? points[i].value + (points[i + 1].value - points[i].value) * (t - points[i].time) / span : points[i + 1].value;
          break;
        }
      }
    }
  }
  return value;
}

/**
 * Effective intensity (event × HapticIntensityControl) and sharpness (event + HapticSharpnessControl for
 * continuous events), clamped to 0…1, of the strongest haptic event sounding in each column — the same
 * definition `thrum plot` draws. Transients count for 20 ms.
 * @returns {{intensity: Float32Array, sharpness: Float32Array, active: Uint8Array}}
 */
export function effectiveColumns(items, start, secondsPerColumn, columns) {
  const intensity = new Float32Array(columns);
  const sharpness = new Float32Array(columns);
  const active = new Uint8Array(columns);
  const best = new Float32Array(columns).fill(-1);
  const controls = items.filter((i) => i.kind !== "event");
  // Each event fills only the columns it covers (a 30 s pattern with hundreds of events stays cheap).
  for (const e of items) {
    if (e.kind !== "event" || (e.type !== "HapticTransient" && e.type !== "HapticContinuous")) continue;
    const end = e.type === "HapticTransient" ? e.time + 0.02 : e.time + e.duration;
    const first = Math.max(0, Math.floor((e.time - start) / secondsPerColumn));
    const last = Math.min(columns - 1, Math.floor((end - start) / secondsPerColumn));
    for (let column = first; column <= last; column++) {
      const from = start + column * secondsPerColumn;
      const t = Math.min(Math.max(from, e.time), from + secondsPerColumn);
      const i = Math.min(Math.max(e.intensity * controlAt(controls, "HapticIntensityControl", t, 1), 0), 1);
      if (i <= best[column]) continue;
      best[column] = i;
      intensity[column] = i;
      active[column] = 1;
      sharpness[column] = e.type === "HapticTransient" ? e.sharpness
        : Math.min(Math.max(e.sharpness + controlAt(controls, "HapticSharpnessControl", t, 0), 0), 1);
    }
  }
  return { intensity, sharpness, active };
}

/** A deep copy of a document, for edits. */
export function clone(doc) { return JSON.parse(JSON.stringify(doc)); }

/** Sets (or adds) an event parameter on the Pattern entry at `index` of a copy. */
export function setEventParameter(doc, index, id, value) {
  const next = clone(doc);
  const event = next.Pattern[index].Event;
  if (!Array.isArray(event.EventParameters)) event.EventParameters = [];
  const entry = event.EventParameters.find((p) => p && p.ParameterID === id);
  if (entry) entry.ParameterValue = roundValue(value);
  else event.EventParameters.push({ ParameterID: id, ParameterValue: roundValue(value) });
  return next;
}

/** Sets a top-level field of the event at `index` (Time, EventDuration, EventWaveformPath) on a copy. */
export function setEventField(doc, index, field, value) {
  const next = clone(doc);
  next.Pattern[index].Event[field] = typeof value === "number" ? roundTime(value) : value;
  return next;
}

/** Moves the entries at `indices` by `delta` seconds (never before 0) on a copy; curves move with their points. */
export function moveEntries(doc, indices, delta) {
  const next = clone(doc);
  for (const index of indices) {
    const entry = next.Pattern[index];
    const body = entry.Event ?? entry.Parameter ?? entry.ParameterCurve;
    if (body) body.Time = roundTime(num(body.Time, 0) + delta);
  }
  return next;
}

/** Removes the entries at `indices` from a copy. */
export function deleteEntries(doc, indices) {
  const next = clone(doc);
  const drop = new Set(indices);
  next.Pattern = next.Pattern.filter((_, i) => !drop.has(i));
  return next;
}

/** Adds an event of `type` at time `t` to a copy; returns [document, index of the new entry]. */
export function addEvent(doc, type, t, waveformPath) {
  const next = clone(doc ?? { Version: 1, Pattern: [] });
  if (!Array.isArray(next.Pattern)) next.Pattern = [];
  const event = { Time: roundTime(t), EventType: type };
  if (type === "HapticTransient") {
    event.EventParameters = [{ ParameterID: "HapticIntensity", ParameterValue: 0.8 }, { ParameterID: "HapticSharpness", ParameterValue: 0.5 }];
  } else if (type === "HapticContinuous") {
    event.EventDuration = 0.5;
    event.EventParameters = [{ ParameterID: "HapticIntensity", ParameterValue: 0.6 }, { ParameterID: "HapticSharpness", ParameterValue: 0.3 }];
  } else if (type === "AudioContinuous") {
    event.EventDuration = 0.5;
    event.EventParameters = [{ ParameterID: "AudioVolume", ParameterValue: 0.5 }];
  } else if (type === "AudioCustom") {
    event.EventWaveformPath = waveformPath;
    event.EventParameters = [{ ParameterID: "AudioVolume", ParameterValue: 0.75 }];
  }
  next.Pattern.push({ Event: event });
  return [next, next.Pattern.length - 1];
}

/** Adds an intensity-control curve at `t` (1 → 0.5 → 1 over 0.5 s) to a copy; returns [document, index]. */
export function addCurve(doc, t, id = "HapticIntensityControl") {
  const next = clone(doc ?? { Version: 1, Pattern: [] });
  if (!Array.isArray(next.Pattern)) next.Pattern = [];
  next.Pattern.push({ ParameterCurve: { ParameterID: id, Time: roundTime(t), ParameterCurveControlPoints: [
    { Time: 0, ParameterValue: 1 }, { Time: 0.25, ParameterValue: 0.5 }, { Time: 0.5, ParameterValue: 1 }] } });
  return [next, next.Pattern.length - 1];
}

/** Moves curve point `point` of the curve at `index` to absolute time `t` and `value` on a copy (kept between its neighbours). */
export function moveCurvePoint(doc, index, point, t, value) {
  const next = clone(doc);
  const curve = next.Pattern[index].ParameterCurve;
  const points = curve.ParameterCurveControlPoints;
  const start = num(curve.Time, 0);
  let relative = t - start;
  const before = point > 0 ? num(points[point - 1].Time, 0) : 0;
  const after = point + 1 < points.length ? num(points[point + 1].Time, Infinity) : Infinity;
  relative = point === 0 ? num(points[0].Time, 0) : Math.min(Math.max(relative, before), after);
  points[point].Time = roundTime(relative);
  points[point].ParameterValue = roundValue(value);
  return next;
}

/** Inserts a point at absolute time `t` with `value` into the curve at `index` of a copy; returns [document, point index]. */
export function addCurvePoint(doc, index, t, value) {
  const next = clone(doc);
  const curve = next.Pattern[index].ParameterCurve;
  const points = curve.ParameterCurveControlPoints;
  const relative = roundTime(t - num(curve.Time, 0));
  let at = points.findIndex((p) => num(p.Time, 0) > relative);
  if (at < 0) at = points.length;
  points.splice(at, 0, { Time: relative, ParameterValue: roundValue(value) });
  return [next, at];
}

/** Removes point `point` of the curve at `index` from a copy (a curve keeps at least one point). */
export function deleteCurvePoint(doc, index, point) {
  const next = clone(doc);
  const points = next.Pattern[index].ParameterCurve.ParameterCurveControlPoints;
  if (points.length > 1) points.splice(point, 1);
  return next;
}

/** The range of values a control parameter takes, for drawing its lane. */
export function controlRange(id) {
  // Intensity and volume controls multiply (0…1); the others add to the event's value (−1…1).
  return /IntensityControl|VolumeControl/.test(id) ? [0, 1] : [-1, 1];
}

/**
 * Formats a document as AHAP JSON the way the bundled patterns are written: two-space indents, objects whose
 * values are all scalars on one line (parameters, control points).
 */
export function formatAHAP(value, indent = "") {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return "[\n" + value.map((v) => inner + formatAHAP(v, inner)).join(",\n") + "\n" + indent + "]";
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  if (keys.every((k) => value[k] === null || typeof value[k] !== "object")) {
    return "{ " + keys.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(value[k])}`).join(", ") + " }";
  }
  return "{\n" + keys.map((k) => `${inner}${JSON.stringify(k)}: ${formatAHAP(value[k], inner)}`).join(",\n") + "\n" + indent + "}";
}

/** A canonical string of a document (keys sorted), to tell whether two documents say the same. */
export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
}
