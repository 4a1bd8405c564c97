// The timeline's pointer gestures, mixed into Timeline: select (click, Shift+click, a box dragged over an empty
// spot), move events and curve points, set the loop region, seek and scrub, double-click to add, draw a
// parameter curve freehand (Draw mode), zoom and scroll. Times snap to the ruler's grid and to the other events'
// starts and ends while Snap is on (hold Alt to bypass it). Gestures report through `this.actions`.

import { controlRange } from "./model.js";
import { GUTTER } from "./lanes.js";

/** How near (CSS pixels) a time must come to another event's edge to snap to it. */
const SNAP_PIXELS = 6;

export const Gestures = {
  local(event) {
    const rect = this.canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  },

  /**
   * `t` snapped (when Snap is on and Alt is not held): to the start or end of an item not in `exclude` within
   * a few pixels, else to the nearest line of the ruler's minor grid.
   */
  snapTime(t, alt, exclude = new Set()) {
    if (!this.snap || alt) return t;
    let best = null, bestDistance = SNAP_PIXELS * this.secondsPerPixel;
    for (const item of this.items) {
      if (exclude.has(item.index)) continue;
      const edges = item.kind === "curve" ? item.points.map((p) => p.time) : item.kind === "event" ? this.itemSpan(item) : [item.time];
      for (const edge of edges) {
        const distance = Math.abs(edge - t);
        if (distance < bestDistance) { best = edge; bestDistance = distance; }
      }
    }
    if (best !== null) return best;
    const minor = this.ticks().step / 5;
    return Math.round(Math.round(t / minor) * minor * 1e6) / 1e6;
  },

  /** The item (and curve point) under (x, y) in `lane`, or null. */
  hit(lane, x, y) {
    if (!lane) return null;
    if (lane.kind === "curve") {
      const [low, high] = controlRange(lane.id);
      const top = lane.y + 6, base = lane.y + lane.height - 6, h = base - top;
      const yOf = (v) => base - ((Math.min(Math.max(v, low), high) - low) / (high - low)) * h;
      for (const item of this.items) {
        if (item.id !== lane.id) continue;
        if (item.kind === "parameter" && Math.abs(this.x(item.time) - x) < 6) return { item };
        if (item.kind !== "curve") continue;
        for (let n = 0; n < item.points.length; n++) {
          const p = item.points[n];
          if (Math.abs(this.x(p.time) - x) < 6 && Math.abs(yOf(p.value) - y) < 8) return { item, point: n };
        }
      }
      for (const item of this.items) {
        if (item.kind === "curve" && item.id === lane.id && item.points.length &&
          x >= this.x(item.points[0].time) - 3 && x <= this.x(item.points[item.points.length - 1].time) + 3) return { item };
      }
      return null;
    }
    if (lane.kind !== "events") return null;
    let best = null, bestDistance = Infinity;
    for (const item of this.items) {
      if (item.kind !== "event" || item.type !== lane.key) continue;
      const [a, b] = this.itemSpan(item);
      const distance = lane.key === "HapticTransient" ? Math.abs(this.x(a) - x)
        : x >= this.x(a) - 2 && x <= Math.max(this.x(b), this.x(a) + 2) + 2 ? 0 : Infinity;
      if (distance < 7 && distance <= bestDistance) { best = item; bestDistance = distance; }
    }
    return best ? { item: best } : null;
  },

  /** The value of a curve lane at height y. */
  laneValue(lane, y) {
    const [low, high] = controlRange(lane.id);
    const top = lane.y + 6, base = lane.y + lane.height - 6;
    return Math.min(high, Math.max(low, low + ((base - y) / (base - top)) * (high - low)));
  },

  pointerDown(event) {
    if (event.button !== 0) return;
    this.canvas.focus();
    const { x, y } = this.local(event);
    if (x < GUTTER) return;
    const lane = this.laneAt(y);
    if (!lane) return;
    this.canvas.setPointerCapture(event.pointerId);
    const t = this.t(x);
    if (lane.key === "loop") {
      const [a, b] = this.loopSpan();
      const visible = this.loopVisible();
      let edge = null;
      if (visible && Math.abs(this.x(a) - x) < 6) edge = "start";
      else if (visible && Math.abs(this.x(b) - x) < 6) edge = "end";
      this.drag = { kind: "loop", edge, anchor: this.snapTime(Math.max(0, t), event.altKey), start: a, end: b, moved: false, x };
      return;
    }
    if (this.drawMode && lane.kind === "curve") {
      this.drag = { kind: "draw", lane, x, moved: false, stroke: [{ time: Math.max(0, t), value: this.laneValue(lane, y) }] };
      return;
    }
    if (lane.kind === "events" || lane.kind === "curve") {
      const found = this.hit(lane, x, y);
      const additive = event.shiftKey || event.ctrlKey || event.metaKey;
      if (found) {
        if (!this.selection.has(found.item.index) || found.point !== undefined) {
          this.actions.select([found.item.index], found.point !== undefined ? { index: found.item.index, point: found.point } : null, additive);
        }
        if (found.point !== undefined) {
          this.drag = { kind: "point", index: found.item.index, point: found.point, lane, x, y, moved: false, time: 0, value: 0 };
        } else {
          this.drag = { kind: "move", x, delta: 0, moved: false, anchor: found.item.time };
        }
      } else {
        // An empty spot: a box selection once the pointer moves (a click alone clears the selection).
        this.drag = { kind: "box", x, y, x1: x, y1: y, additive, moved: false };
      }
      this.invalidate();
      return;
    }
    // ruler and the rendered lanes: seek, and scrub while dragging
    this.drag = { kind: "scrub", x };
    this.actions.seek(Math.max(0, t), false);
  },

  pointerMove(event) {
    const { x, y } = this.local(event);
    const t = this.t(x);
    if (x >= GUTTER) this.actions.hover(`${t.toFixed(3)} s`);
    const d = this.drag;
    if (!d) {
      const lane = this.laneAt(y);
      const over = x >= GUTTER && lane && (lane.key === "loop" || this.hit(lane, x, y));
      this.canvas.style.cursor = lane?.key === "loop" ? "ew-resize" : this.drawMode && lane?.kind === "curve" ? "crosshair"
        : over ? "grab" : lane && ["ruler", "haptic", "audio", "spectrogram", "effective"].includes(lane.key) ? "text" : "default";
      return;
    }
    if (Math.abs(x - d.x) > 2 || (d.kind === "box" && Math.abs(y - d.y) > 2)) d.moved = true;
    if (!d.moved) return;
    const snapped = this.snapTime(Math.max(0, t), event.altKey, this.selection);
    if (d.kind === "loop") {
      if (d.edge === "start") d.start = Math.max(0, Math.min(snapped, d.end - 0.001));
      else if (d.edge === "end") d.end = Math.max(snapped, d.start + 0.001);
      else { d.start = Math.max(0, Math.min(d.anchor, snapped)); d.end = Math.max(d.anchor, snapped); }
      this.loop = { ...this.loop, start: d.start, end: d.end };
    } else if (d.kind === "move") {
      const raw = (x - d.x) * this.secondsPerPixel;
      d.delta = this.snapTime(Math.max(0, d.anchor + raw), event.altKey, this.selection) - d.anchor;
    } else if (d.kind === "point") {
      d.time = this.snapTime(Math.max(0, t), event.altKey, new Set([d.index]));
      d.value = this.laneValue(d.lane, y);
    } else if (d.kind === "scrub") {
      this.actions.seek(Math.max(0, t), true);
    } else if (d.kind === "box") {
      d.x1 = x;
      d.y1 = y;
    } else if (d.kind === "draw") {
      const last = d.stroke[d.stroke.length - 1];
      if (t > last.time) d.stroke.push({ time: t, value: this.laneValue(d.lane, y) });
      this.schedule();
      return;
    }
    this.invalidate();
  },

  pointerUp(event) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (d.kind === "loop" && d.moved) this.actions.loop(d.start, d.end);
    if (d.kind === "move" && d.moved && d.delta !== 0) this.actions.move([...this.selection], d.delta);
    if (d.kind === "point" && d.moved) this.actions.movePoint(d.index, d.point, d.time, d.value);
    if (d.kind === "scrub") this.actions.seek(Math.max(0, this.t(this.local(event).x)), false);
    if (d.kind === "box") {
      if (d.moved) this.actions.select(this.itemsInBox(d), null, d.additive);
      else if (!d.additive) this.actions.select([], null, false);
    }
    if (d.kind === "draw" && d.stroke.length > 1) this.actions.drawCurve(d.lane.id, d.stroke);
    this.invalidate();
  },

  /** The indices of the items inside the box of drag `d` (on the event and curve lanes it crosses). */
  itemsInBox(d) {
    const [t0, t1] = [this.t(Math.min(d.x, d.x1)), this.t(Math.max(d.x, d.x1))];
    const [y0, y1] = [Math.min(d.y, d.y1), Math.max(d.y, d.y1)];
    const found = new Set();
    for (const lane of this.lanes()) {
      if (lane.y + lane.height < y0 || lane.y > y1) continue;
      for (const item of this.items) {
        if (lane.kind === "events" && item.kind === "event" && item.type === lane.key) {
          const [a, b] = this.itemSpan(item);
          if (b >= t0 && a <= t1) found.add(item.index);
        } else if (lane.kind === "curve" && item.kind !== "event" && item.id === lane.id) {
          const times = item.kind === "curve" ? item.points.map((p) => p.time) : [item.time];
          if (times.some((time) => time >= t0 && time <= t1)) found.add(item.index);
        }
      }
    }
    return [...found];
  },

  /** The box being dragged and the stroke being drawn, over the lanes (on the screen canvas). */
  drawOverlay(c) {
    const d = this.drag;
    if (d?.kind === "box" && d.moved) {
      c.fillStyle = "rgba(91,157,255,0.12)";
      c.strokeStyle = this.colours["--accent"];
      c.lineWidth = 1;
      const [x, y, w, h] = [Math.min(d.x, d.x1), Math.min(d.y, d.y1), Math.abs(d.x1 - d.x), Math.abs(d.y1 - d.y)];
      c.fillRect(x, y, w, h);
      c.strokeRect(x + 0.5, y + 0.5, w, h);
    }
    if (d?.kind === "draw") {
      const [low, high] = controlRange(d.lane.id);
      const top = d.lane.y + 6, base = d.lane.y + d.lane.height - 6;
      c.strokeStyle = "#fff";
      c.lineWidth = 2;
      c.beginPath();
      d.stroke.forEach((p, n) => {
        const y = base - ((p.value - low) / (high - low)) * (base - top);
        if (n) c.lineTo(this.x(p.time), y); else c.moveTo(this.x(p.time), y);
      });
      c.stroke();
    }
  },

  doubleClick(event) {
    const { x, y } = this.local(event);
    const lane = this.laneAt(y);
    if (!lane || x < GUTTER || this.drawMode) return;
    const t = this.snapTime(Math.max(0, this.t(x)), event.altKey);
    if (lane.kind === "events" && !this.hit(lane, x, y)) this.actions.add(lane.key, t);
    if (lane.kind === "curve") {
      const curve = this.items.find((i) => i.kind === "curve" && i.id === lane.id && i.points.length &&
        t >= i.points[0].time && t <= i.points[i.points.length - 1].time) ??
        this.items.find((i) => i.kind === "curve" && i.id === lane.id);
      if (!curve || this.hit(lane, x, y)?.point !== undefined) return;
      this.actions.addPoint(curve.index, t, this.laneValue(lane, y));
    }
  },

  wheel(event) {
    event.preventDefault();
    const { x } = this.local(event);
    if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
      this.viewStart += (event.deltaX || event.deltaY) * this.secondsPerPixel;
      this.invalidate();
      return;
    }
    this.zoom(Math.exp(-event.deltaY * 0.0025), this.t(Math.max(GUTTER, x)));
  },
};
