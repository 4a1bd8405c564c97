// Editing the selection (no drawing of its own): select, add, delete, duplicate, nudge with the arrow keys,
// copy / cut / paste (across documents: the clipboard outlives the open file and is shared by the studio's tabs
// through localStorage), and a freehand stroke turned into a parameter curve's breakpoints. Every change goes
// through `ctx.commit(doc, gesture)`: one PUT, one undo step per gesture.

import * as model from "./model.js";

const CLIPBOARD_KEY = "thrum-studio-clipboard";
/** Largest distance (in the lane's value units) a simplified freehand curve may stray from the stroke. */
export const DRAW_TOLERANCE = 0.02;
/** Most control points of one ParameterCurve (Core Haptics carries 16). */
const MAX_CURVE_POINTS = 16;

/**
 * The points of `points` ([{time, value}], time ascending) that keep the polyline within `tolerance` of every
 * point (Ramer–Douglas–Peucker, distance measured along the value axis).
 */
export function simplify(points, tolerance = DRAW_TOLERANCE) {
  if (points.length <= 2) return points.slice();
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    const pa = points[a], pb = points[b];
    let worst = -1, distance = tolerance;
    for (let i = a + 1; i < b; i++) {
      const span = pb.time - pa.time;
      const expected = span > 0 ? pa.value + (pb.value - pa.value) * (points[i].time - pa.time) / span : pa.value;
      const d = Math.abs(points[i].value - expected);
      if (d > distance) { distance = d; worst = i; }
    }
    if (worst > 0) { keep[worst] = 1; stack.push([a, worst], [worst, b]); }
  }
  return points.filter((_, i) => keep[i]);
}

export class Editing {
  /**
   * @param {object} ctx state, commit(doc, gesture), redraw(), toast(text, error), status(text), inspector,
   *   transport (position), gesture(kind) (the id of the gesture under way, new after a pause)
   */
  constructor(ctx) {
    this.ctx = ctx;
    this.clipboard = null;
  }

  get state() { return this.ctx.state; }

  select(entries, point, additive) {
    const state = this.state;
    if (additive) for (const e of entries) state.selection.has(e) && !point ? state.selection.delete(e) : state.selection.add(e);
    else state.selection = new Set(entries);
    state.selectedPoint = point;
    this.ctx.redraw();
    const chosen = state.items.filter((i) => state.selection.has(i.index));
    this.ctx.status(chosen.length === 1 ? model.describe(chosen[0]) : chosen.length ? `${chosen.length} selected` : "");
  }

  selectAll() { this.select(this.state.items.map((i) => i.index), null, false); return true; }

  add(type, t) {
    const state = this.state;
    if (type === "Curve") {
      const [doc, index] = model.addCurve(state.doc, t);
      state.selection = new Set([index]);
      return this.ctx.commit(doc);
    }
    let path;
    if (type === "AudioCustom") {
      path = this.ctx.inspector.sounds[0];
      if (!path) { this.ctx.toast("No sound file in the studio folder: drop a WAV on the page first.", true); return; }
    }
    const [doc, index] = model.addEvent(state.doc, type, t, path);
    state.selection = new Set([index]);
    state.selectedPoint = null;
    this.ctx.commit(doc);
  }

  /** Delete (the key): the selected curve point, else the selection. */
  removeSelection() {
    const state = this.state;
    if (!state.selectedPoint) return this.remove([...state.selection]);
    const { index, point } = state.selectedPoint;
    state.selectedPoint = null;
    this.ctx.commit(model.deleteCurvePoint(state.doc, index, point));
  }

  /** Removes the entries at `indices`. */
  remove(indices) {
    const state = this.state;
    if (!indices.length) return;
    state.selection = new Set();
    state.selectedPoint = null;
    this.ctx.commit(model.deleteEntries(state.doc, indices));
  }

  duplicate(indices = [...this.state.selection]) {
    if (!indices.length) return;
    const doc = model.clone(this.state.doc);
    const first = doc.Pattern.length;
    doc.Pattern.push(...indices.map((i) => model.clone(doc.Pattern[i])));
    const copies = indices.map((_, n) => first + n);
    this.state.selection = new Set(copies);
    this.ctx.commit(model.moveEntries(doc, copies, 0.1));
  }

  /**
   * Arrow keys: move the selection in time (←/→) or change its level (↑/↓), sent at once; keys pressed in a
   * row (held down) are one gesture, one undo step. False when nothing is selected.
   */
  nudge(dt, dv) {
    const state = this.state;
    if (!state.doc || state.selection.size === 0) return false;
    let doc = state.doc;
    if (state.selectedPoint && dv) {
      const { index, point } = state.selectedPoint;
      const p = state.items.find((i) => i.index === index)?.points[point];
      if (p) doc = model.moveCurvePoint(doc, index, point, p.time + dt, p.value + dv);
    } else if (dt) {
      doc = model.moveEntries(doc, [...state.selection], dt);
    } else {
      for (const item of state.items.filter((i) => state.selection.has(i.index) && i.kind === "event")) {
        const id = item.type.startsWith("Audio") ? "AudioVolume" : "HapticIntensity";
        doc = model.setEventParameter(doc, item.index, id, Math.min(1, Math.max(0, item.intensity + dv)));
      }
    }
    this.ctx.commit(doc, this.ctx.gesture("nudge"));
    return true;
  }

  // --- clipboard ----------------------------------------------------------------------------------------

  /** The selected Pattern entries with their times made relative to the earliest of them. */
  copy() {
    const state = this.state;
    const indices = [...state.selection].sort((a, b) => a - b);
    if (!indices.length || !state.doc) { this.ctx.toast("Select events or curves to copy."); return false; }
    const entries = indices.map((i) => model.clone(state.doc.Pattern[i]));
    const times = entries.map((e) => (e.Event ?? e.Parameter ?? e.ParameterCurve)?.Time ?? 0);
    const origin = Math.min(...times);
    for (const entry of entries) {
      const body = entry.Event ?? entry.Parameter ?? entry.ParameterCurve;
      if (body) body.Time = model.roundTime((body.Time ?? 0) - origin);
    }
    this.clipboard = { entries, from: state.file };
    try { localStorage.setItem(CLIPBOARD_KEY, JSON.stringify(this.clipboard)); } catch { /* storage full or off: memory only */ }
    this.ctx.status(`Copied ${entries.length} entr${entries.length === 1 ? "y" : "ies"}`);
    return true;
  }

  cut() {
    if (this.copy()) this.remove([...this.state.selection]);
    return true;
  }

  /** Pastes the clipboard at the playhead; the pasted entries become the selection. */
  paste() {
    let clipboard = this.clipboard;
    try { clipboard = JSON.parse(localStorage.getItem(CLIPBOARD_KEY)) ?? clipboard; } catch { /* memory copy */ }
    if (!clipboard?.entries?.length) { this.ctx.toast("Nothing to paste: copy events first (Ctrl+C)."); return false; }
    const doc = model.clone(this.state.doc ?? { Version: 1, Pattern: [] });
    if (!Array.isArray(doc.Pattern)) doc.Pattern = [];
    const at = this.ctx.transport.position;
    const first = doc.Pattern.length;
    for (const entry of model.clone(clipboard.entries)) {
      const body = entry.Event ?? entry.Parameter ?? entry.ParameterCurve;
      if (body) body.Time = model.roundTime((body.Time ?? 0) + at);
      doc.Pattern.push(entry);
    }
    this.state.selection = new Set(clipboard.entries.map((_, n) => first + n));
    this.state.selectedPoint = null;
    this.ctx.commit(doc);
    return true;
  }

  // --- freehand ------------------------------------------------------------------------------------------

  /**
   * A stroke drawn on the lane of control `id` ([{time, value}], absolute seconds): simplified to breakpoints
   * and written into the curve of that control it overlaps (its points inside the stroke replaced), or a new curve.
   */
  drawCurve(id, stroke) {
    const points = simplify(stroke).map((p) => ({ time: model.roundTime(p.time), value: model.roundValue(p.value) }));
    const [t0, t1] = [points[0].time, points[points.length - 1].time];
    const doc = model.clone(this.state.doc ?? { Version: 1, Pattern: [] });
    if (!Array.isArray(doc.Pattern)) doc.Pattern = [];
    const target = this.state.items.find((i) => i.kind === "curve" && i.id === id && i.points.length &&
      i.points[0].time <= t1 && i.points[i.points.length - 1].time >= t0);
    let index;
    let all = points;
    if (target) {
      index = target.index;
      all = [...target.points.filter((p) => p.time < t0 || p.time > t1), ...points].sort((a, b) => a.time - b.time);
    } else {
      doc.Pattern.push({ ParameterCurve: { ParameterID: id } });
      index = doc.Pattern.length - 1;
    }
    // At most 16 points per curve (Core Haptics' limit): longer ones continue in further curves, each
    // starting at the last point of the one before.
    const chunks = [];
    for (let n = 0; n === 0 || n < all.length - 1; n += MAX_CURVE_POINTS - 1) chunks.push(all.slice(n, n + MAX_CURVE_POINTS));
    const selection = [];
    chunks.forEach((chunk, n) => {
      if (n > 0) doc.Pattern.push({ ParameterCurve: { ParameterID: id } });
      const at = n === 0 ? index : doc.Pattern.length - 1;
      const curve = doc.Pattern[at].ParameterCurve;
      curve.Time = chunk[0].time;
      curve.ParameterCurveControlPoints = chunk.map((p) => ({ Time: model.roundTime(p.time - chunk[0].time), ParameterValue: p.value }));
      selection.push(at);
    });
    this.state.selection = new Set(selection);
    this.state.selectedPoint = null;
    this.ctx.commit(doc);
    this.ctx.status(`Drawn: ${points.length} breakpoints from ${stroke.length} samples`);
  }
}
