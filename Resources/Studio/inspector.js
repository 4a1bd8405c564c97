// The inspector: the event list (a keyboard- and screen-reader-friendly way to select) and the fields of
// the selected entry. Sliders preview while dragged and commit when released; number fields commit on change.

import { parametersFor, hasDuration, describe, controlSeconds, controlRange } from "./model.js";

const CONTROL_IDS = [
  "HapticIntensityControl", "HapticSharpnessControl", "HapticAttackTimeControl", "HapticDecayTimeControl",
  "HapticReleaseTimeControl", "AudioVolumeControl", "AudioPanControl", "AudioPitchControl", "AudioBrightnessControl",
  "AudioAttackTimeControl", "AudioDecayTimeControl", "AudioReleaseTimeControl",
];
const TYPE_COLOURS = { HapticTransient: "--transient", HapticContinuous: "--continuous", AudioContinuous: "--audio-tone", AudioCustom: "--audio-file" };

let fieldCounter = 0;

/**
 * A number field for `min`…`max` in steps of `step`, showing `value`; a typed number calls `change(v, true)`
 * with v clamped to the range (an emptied field is not 0 and changes nothing).
 */
function numberField(value, min, max, step, change) {
  const number = document.createElement("input");
  number.type = "number";
  number.min = String(min); number.max = String(max); number.step = String(step);
  number.value = String(round(value));
  number.addEventListener("change", () => {
    if (number.value.trim() === "") return;
    const v = Number(number.value);
    if (Number.isFinite(v)) change(Math.min(max, Math.max(min, v)), true);
  });
  return number;
}

export class Inspector {
  /**
   * @param {HTMLSelectElement} list the event list
   * @param {HTMLElement} body where the fields go
   * @param {object} actions select(indices), parameter(index, id, value, final), field(index, field, value, final),
   *   curveField(index, field, value), point(index, point, time, value), deletePoint(index, point), remove(indices), duplicate(indices)
   */
  constructor(list, body, actions) {
    this.list = list;
    this.body = body;
    this.actions = actions;
    this.sounds = [];
    // While a slider is held its row stays (a rebuilt row would drop the drag); the release redraws.
    this.dragging = false;
    body.addEventListener("pointerdown", (event) => { if (event.target.type === "range") this.dragging = true; });
    document.addEventListener("pointerup", () => { this.dragging = false; }, true);
    list.addEventListener("change", () => {
      const indices = [...list.selectedOptions].map((o) => Number(o.value));
      this.actions.select(indices);
    });
  }

  /** Redraws the list and the fields for `items`, the selection and the diagnostics by entry. */
  update(items, selection, selectedPoint, diagnosticsByEntry) {
    // Rebuild only what changed, so a field being typed in is not replaced under the caret.
    const listKey = JSON.stringify([items, [...selection], [...diagnosticsByEntry.keys()]]);
    const chosenItems = items.filter((i) => selection.has(i.index));
    const bodyKey = JSON.stringify([chosenItems, selectedPoint, chosenItems.map((i) => diagnosticsByEntry.get(i.index) ?? []), this.sounds, items.length > 0]);
    if (listKey !== this.listKey) { this.listKey = listKey; this.updateList(items, selection, diagnosticsByEntry); }
    if (bodyKey === this.bodyKey || this.dragging) return;
    this.bodyKey = bodyKey;
    const active = document.activeElement;
    const focusedField = active && this.body.contains(active) ? active.dataset.field : null;
    this.updateBody(items, selection, selectedPoint, diagnosticsByEntry);
    if (focusedField) this.body.querySelector(`[data-field="${focusedField}"]`)?.focus();
  }

  updateList(items, selection, diagnosticsByEntry) {
    // Rows are changed in place (a 30 s pattern has hundreds: rebuilding them all costs a layout per edit).
    const options = this.list.options;
    while (options.length > items.length) options[options.length - 1].remove();
    items.forEach((item, n) => {
      const option = options[n] ?? this.list.appendChild(document.createElement("option"));
      const problems = diagnosticsByEntry.get(item.index) ?? [];
      const text = (problems.length ? "⚠ " : "") + listLabel(item);
      if (option.value !== String(item.index)) option.value = String(item.index);
      if (option.textContent !== text) { option.textContent = text; option.title = describe(item); }
      if (option.selected !== selection.has(item.index)) option.selected = selection.has(item.index);
    });
    this.list.multiple = true;
  }

  updateBody(items, selection, selectedPoint, diagnosticsByEntry) {
    const chosen = items.filter((i) => selection.has(i.index));
    this.body.replaceChildren();
    if (chosen.length === 0) {
      this.body.append(note(items.length
        ? "Select an event on the timeline or in the list. Double-click a lane to add one; drag to move; Delete removes."
        : "Open a pattern, or add an event with the + buttons."));
    } else if (chosen.length > 1) {
      this.body.append(title(`${chosen.length} entries selected`, "--accent"));
      this.body.append(note("Drag one of them, or use ← → (Shift: 100 ms), to move them together."));
      this.body.append(this.buttons(chosen.map((i) => i.index)));
    } else {
      const item = chosen[0];
      this.single(item, selectedPoint?.index === item.index ? selectedPoint.point : null, diagnosticsByEntry.get(item.index) ?? []);
    }
  }

  single(item, point, problems) {
    const index = item.index;
    if (item.kind === "event") {
      this.body.append(title(describe(item).split(" at ")[0], TYPE_COLOURS[item.type] ?? "--dim"));
      for (const d of problems) this.body.append(diagnostic(d));
      this.body.append(this.numberRow("Time (s)", "Time", item.time, 0, 3600, 0.001, (v, final) => this.actions.field(index, "Time", v, final)));
      if (hasDuration(item.type)) {
        const label = item.type === "AudioCustom" ? "Duration (s, 0 = file)" : "Duration (s)";
        this.body.append(this.sliderRow(label, "EventDuration", item.duration, 0, Math.max(2, item.duration * 2), 0.001,
          (v, final) => this.actions.field(index, "EventDuration", v, final)));
      }
      if (item.type === "AudioCustom") this.body.append(this.soundRow(index, item.path));
      for (const [id, label, min, max, fallback] of parametersFor(item.type)) {
        const value = this.parameterValue(item, id, fallback);
        const row = this.sliderRow(label, id, value, min, max, 0.01, (v, final) => this.actions.parameter(index, id, v, final));
        if (id.endsWith("Time")) row.title = `${label}: ${formatSeconds(controlSeconds(value))} (t(x) = 0.001 × 5120^x s)`;
        this.body.append(row);
      }
      if (item.type === "HapticContinuous" || item.type === "AudioContinuous") {
        this.body.append(this.checkRow("Sustained", "Sustained", item.sustained, (on) => this.actions.parameter(index, "Sustained", on ? 1 : 0, true)));
      }
    } else if (item.kind === "curve") {
      this.body.append(title(`Curve · ${item.id}`, "--curve"));
      for (const d of problems) this.body.append(diagnostic(d));
      this.body.append(this.selectRow("Parameter", "ParameterID", item.id, CONTROL_IDS, (v) => this.actions.curveField(index, "ParameterID", v)));
      this.body.append(this.numberRow("Start (s)", "Time", item.time, 0, 3600, 0.001, (v, final) => final && this.actions.curveField(index, "Time", v)));
      if (point !== null && item.points[point]) {
        const p = item.points[point];
        const [low, high] = controlRange(item.id);
        this.body.append(note(`Point ${point + 1} of ${item.points.length}`));
        this.body.append(this.numberRow("Point time (s)", "PointTime", p.time, 0, 3600, 0.001, (v, final) => final && this.actions.point(index, point, v, p.value)));
        this.body.append(this.sliderRow("Point value", "PointValue", p.value, low, high, 0.01, (v, final) => final && this.actions.point(index, point, p.time, v)));
        const remove = button("Delete point", () => this.actions.deletePoint(index, point), "Delete the selected curve point");
        remove.disabled = item.points.length < 2;
        this.body.append(wrap("inspector-actions", remove));
      } else {
        this.body.append(note(`${item.points.length} points. Click a point to edit it, drag it to move it, double-click the lane to add one.`));
      }
    } else {
      this.body.append(title(`Parameter · ${item.id}`, "--curve"));
      for (const d of problems) this.body.append(diagnostic(d));
      this.body.append(this.numberRow("Time (s)", "Time", item.time, 0, 3600, 0.001, (v, final) => final && this.actions.curveField(index, "Time", v)));
      this.body.append(this.numberRow("Value", "ParameterValue", item.value, -1, 1, 0.01, (v, final) => final && this.actions.curveField(index, "ParameterValue", v)));
    }
    this.body.append(this.buttons([index]));
  }

  parameterValue(item, id, fallback) {
    const known = { HapticIntensity: item.intensity, AudioVolume: item.intensity, HapticSharpness: item.sharpness,
      AttackTime: item.attack, DecayTime: item.decay, ReleaseTime: item.release };
    return known[id] ?? item.parameters?.[id] ?? fallback;
  }

  buttons(indices) {
    return wrap("inspector-actions",
      button("Duplicate", () => this.actions.duplicate(indices), "Duplicate the selection (Ctrl+D)"),
      button("Delete", () => this.actions.remove(indices), "Delete the selection (Delete)"));
  }

  sliderRow(label, field, value, min, max, step, change) {
    const id = `field-${++fieldCounter}`;
    const row = wrap("param-row");
    const name = document.createElement("label");
    name.htmlFor = id;
    name.textContent = label;
    const slider = document.createElement("input");
    slider.type = "range";
    slider.id = id;
    slider.min = String(min); slider.max = String(max); slider.step = String(step);
    slider.value = String(value);
    slider.dataset.field = field;
    const number = numberField(value, min, max, step, change);
    number.setAttribute("aria-label", `${label} value`);
    number.dataset.field = `${field}#n`;
    slider.addEventListener("input", () => { number.value = String(round(Number(slider.value))); change(Number(slider.value), false); });
    slider.addEventListener("change", () => change(Number(slider.value), true));
    row.append(name, slider, number);
    return row;
  }

  numberRow(label, field, value, min, max, step, change) {
    const id = `field-${++fieldCounter}`;
    const row = wrap("param-row");
    const name = document.createElement("label");
    name.htmlFor = id;
    name.textContent = label;
    const number = numberField(value, min, max, step, change);
    number.id = id;
    number.dataset.field = field;
    row.append(name, document.createElement("span"), number);
    return row;
  }

  checkRow(label, field, checked, change) {
    const id = `field-${++fieldCounter}`;
    const row = wrap("param-row check");
    const name = document.createElement("label");
    name.htmlFor = id;
    name.textContent = label;
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = checked;
    box.dataset.field = field;
    box.addEventListener("change", () => change(box.checked));
    row.append(name, box);
    return row;
  }

  selectRow(label, field, value, options, change) {
    const id = `field-${++fieldCounter}`;
    const row = wrap("param-row check");
    const name = document.createElement("label");
    name.htmlFor = id;
    name.textContent = label;
    const select = document.createElement("select");
    select.id = id;
    select.dataset.field = field;
    for (const option of options.includes(value) ? options : [value, ...options]) select.append(new Option(option, option, false, option === value));
    select.addEventListener("change", () => change(select.value));
    row.append(name, select);
    return row;
  }

  soundRow(index, path) {
    const options = this.sounds.includes(path) || !path ? this.sounds : [path, ...this.sounds];
    return this.selectRow("Sound file", "EventWaveformPath", path ?? "", options.length ? options : [""],
      (v) => this.actions.field(index, "EventWaveformPath", v, true));
  }
}

function round(v) { return Math.round(v * 10000) / 10000; }

/** A short row of the event list (time first, so rows line up): "0.140 s  Transient  I 0.60 · S 0.30". */
export function listLabel(item) {
  const t = `${item.time.toFixed(3)} s`;
  if (item.kind === "event") {
    const names = { HapticTransient: "Transient", HapticContinuous: "Continuous", AudioContinuous: "Tone", AudioCustom: "Audio" };
    const length = hasDuration(item.type) && item.duration > 0 ? ` ${item.duration.toFixed(2)} s` : "";
    const level = item.type.startsWith("Audio") ? `vol ${item.intensity.toFixed(2)}` : `I ${item.intensity.toFixed(2)} · S ${item.sharpness.toFixed(2)}`;
    const file = item.type === "AudioCustom" ? ` ${item.path ?? "?"}` : "";
    return `${t}  ${names[item.type] ?? item.type}${file}${length}  ${level}`;
  }
  if (item.kind === "curve") return `${t}  Curve ${item.id.replace(/Control$/, "")}  ${item.points.length} pts`;
  return `${t}  ${item.id.replace(/Control$/, "")} = ${item.value}`;
}
function formatSeconds(s) { return s < 1 ? `${(s * 1000).toFixed(s < 0.01 ? 1 : 0)} ms` : `${s.toFixed(2)} s`; }

function wrap(className, ...children) {
  const div = document.createElement("div");
  div.className = className;
  div.append(...children);
  return div;
}

function note(text) {
  const p = document.createElement("p");
  p.className = "inspector-note";
  p.textContent = text;
  return p;
}

function title(text, colour) {
  const div = wrap("inspector-title");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = `var(${colour})`;
  const span = document.createElement("span");
  span.textContent = text;
  div.append(swatch, span);
  return div;
}

function button(text, onClick, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (label) { b.setAttribute("aria-label", label); b.title = label; }
  b.addEventListener("click", onClick);
  return b;
}

function diagnostic(d) {
  const div = wrap(`diag-inline ${d.severity}`);
  div.setAttribute("role", "note");
  div.textContent = `${d.severity}: ${d.message}${d.suggestion ? ` — ${d.suggestion}` : ""}`;
  return div;
}
