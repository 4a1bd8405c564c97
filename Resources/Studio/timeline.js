// The timeline canvas: one time axis with the loop strip, the ruler, a lane per event type, a lane per
// control parameter, the effective intensity and sharpness, the engine's rendered haptic and audio channels
// and the audio spectrogram. It draws what the controller gives it and reports gestures through `actions`;
// it never changes the document itself. Redraws are coalesced to one per animation frame.

import { columnPeaks } from "./wav.js";
import { controlRange, effectiveColumns, controlSeconds } from "./model.js";

const GUTTER = 118;
const RIGHT = 10;
const EVENT_LANES = [
  { key: "HapticTransient", label: "Transient", colour: "--transient", height: 54 },
  { key: "HapticContinuous", label: "Continuous", colour: "--continuous", height: 62 },
  { key: "AudioContinuous", label: "Audio tone", colour: "--audio-tone", height: 40 },
  { key: "AudioCustom", label: "Audio file", colour: "--audio-file", height: 52 },
];
const SHORT_IDS = {
  HapticIntensityControl: "Intensity ctrl", HapticSharpnessControl: "Sharpness ctrl",
  HapticAttackTimeControl: "Attack ctrl", HapticDecayTimeControl: "Decay ctrl", HapticReleaseTimeControl: "Release ctrl",
  AudioVolumeControl: "Volume ctrl", AudioPanControl: "Pan ctrl", AudioPitchControl: "Pitch ctrl",
  AudioBrightnessControl: "Brightness ctrl", AudioAttackTimeControl: "Audio attack ctrl",
  AudioDecayTimeControl: "Audio decay ctrl", AudioReleaseTimeControl: "Audio release ctrl",
};

export class Timeline {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {object} actions callbacks: select(entries, point, additive), move(entries, seconds), movePoint(index, point, t, value),
   *   add(type, t), addPoint(index, t, value), seek(t, scrubbing), loop(start, end), hover(text)
   */
  constructor(canvas, actions) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.actions = actions;
    this.items = [];
    this.duration = 1;
    this.render = null;           // {sampleRate, channels: {L, R, H}}
    this.spectrum = null;         // {canvas, secondsPerColumn}
    this.audioFiles = new Map();  // path → {samples, sampleRate, seconds} | {error}
    this.diagnostics = new Map(); // entry → "error" | "warning"
    this.selection = new Set();
    this.selectedPoint = null;    // {index, point}
    this.position = 0;
    this.loop = { enabled: false, start: 0, end: 0 };
    this.viewStart = 0;
    this.secondsPerPixel = 0.002;
    this.drag = null;
    this.pending = false;
    this.staticCanvas = document.createElement("canvas");
    this.staticDirty = true;
    this.width = 0;
    this.height = 0;
    this.colours = {};
    this.readColours();
    new ResizeObserver((entries) => this.resize(entries[0])).observe(canvas);
    canvas.addEventListener("pointerdown", (e) => this.pointerDown(e));
    canvas.addEventListener("pointermove", (e) => this.pointerMove(e));
    canvas.addEventListener("pointerup", (e) => this.pointerUp(e));
    canvas.addEventListener("pointercancel", () => { this.drag = null; this.invalidate(); });
    canvas.addEventListener("dblclick", (e) => this.doubleClick(e));
    canvas.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
  }

  readColours() {
    const style = getComputedStyle(document.documentElement);
    for (const name of ["--bg", "--panel", "--panel-2", "--border", "--text", "--dim", "--faint", "--accent", "--danger", "--warning",
      "--transient", "--continuous", "--audio-tone", "--audio-file", "--curve", "--intensity", "--sharpness", "--haptic-wave",
      "--audio-wave", "--playhead", "--loop"]) {
      this.colours[name] = style.getPropertyValue(name).trim() || "#888";
    }
  }

  resize(entry) {
    const ratio = window.devicePixelRatio || 1;
    const box = entry.devicePixelContentBoxSize?.[0];
    const width = box ? box.inlineSize : Math.round(entry.contentRect.width * ratio);
    const height = box ? box.blockSize : Math.round(entry.contentRect.height * ratio);
    if (!width || !height) return;
    this.canvas.width = width;
    this.canvas.height = height;
    this.ratio = ratio;
    const fitted = this.width === 0;
    this.width = width / ratio;
    this.height = height / ratio;
    if (fitted) this.fit();
    this.invalidate();
  }

  /** Plot width in CSS pixels. */
  get plotWidth() { return Math.max(10, this.width - GUTTER - RIGHT); }
  x(t) { return GUTTER + (t - this.viewStart) / this.secondsPerPixel; }
  t(x) { return this.viewStart + (x - GUTTER) * this.secondsPerPixel; }

  /** Shows the whole pattern (and its render's tail). */
  fit() {
    const end = Math.max(this.duration, this.render ? this.render.seconds : 0, 0.05);
    this.secondsPerPixel = (end * 1.04) / this.plotWidth;
    this.viewStart = -end * 0.01;
    this.invalidate();
  }

  /** Zooms by `factor` (> 1 zooms in) around time `centre` (default: the middle of the view). */
  zoom(factor, centre = this.t(GUTTER + this.plotWidth / 2)) {
    const x = this.x(centre);
    this.secondsPerPixel = Math.min(Math.max(this.secondsPerPixel / factor, 1e-6), 10);
    this.viewStart = centre - (x - GUTTER) * this.secondsPerPixel;
    this.invalidate();
  }

  /** Keeps time t in view (used while playing). */
  follow(t) {
    const end = this.t(GUTTER + this.plotWidth);
    if (t > end || t < this.viewStart) { this.viewStart = t - this.plotWidth * this.secondsPerPixel * 0.1; this.invalidate(); }
  }

  /** Schedules a full redraw (data, view or selection changed). */
  invalidate() {
    this.staticDirty = true;
    this.schedule();
  }

  /** Moves the playhead: only the playhead is drawn again, over the cached lanes. */
  movePlayhead(t) {
    if (t === this.position) return;
    this.position = t;
    this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  }

  /** Draws the cached lanes (redrawn into an offscreen canvas when dirty), then the playhead. */
  draw() {
    if (!this.width) return;
    const screen = this.context;
    if (this.staticDirty || this.staticCanvas.width !== this.canvas.width || this.staticCanvas.height !== this.canvas.height) {
      this.staticCanvas.width = this.canvas.width;
      this.staticCanvas.height = this.canvas.height;
      this.context = this.staticCanvas.getContext("2d");
      try { this.drawStatic(); } finally { this.context = screen; }
      this.staticDirty = false;
    }
    screen.setTransform(1, 0, 0, 1, 0, 0);
    screen.drawImage(this.staticCanvas, 0, 0);
    screen.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    const ruler = this.rulerLane ?? { y: 16 };
    const px = Math.round(this.x(this.position)) + 0.5;
    if (px < GUTTER || px > this.width) return;
    screen.strokeStyle = this.colours["--playhead"];
    screen.lineWidth = 1;
    screen.beginPath(); screen.moveTo(px, ruler.y); screen.lineTo(px, this.bottom ?? this.height); screen.stroke();
    screen.fillStyle = this.colours["--playhead"];
    screen.beginPath(); screen.moveTo(px - 6, ruler.y); screen.lineTo(px + 6, ruler.y); screen.lineTo(px, ruler.y + 8); screen.closePath(); screen.fill();
  }

  /** The lanes, top to bottom, with their y and height in CSS pixels. */
  lanes() {
    const curveIds = [...new Set(this.items.filter((i) => i.kind !== "event").map((i) => i.id))];
    const lanes = [{ key: "loop", height: 16 }, { key: "ruler", height: 22 }];
    // Lanes without events shrink to a strip (still a target for double-click to add one).
    const used = new Set(this.items.filter((i) => i.kind === "event").map((i) => i.type));
    for (const lane of EVENT_LANES) lanes.push(used.has(lane.key) ? { ...lane, kind: "events", grow: 0.6 } : { ...lane, kind: "events", height: 26, empty: true });
    for (const id of curveIds) lanes.push({ key: `curve:${id}`, id, label: SHORT_IDS[id] ?? id, colour: "--curve", kind: "curve", height: 42, grow: 0.3 });
    lanes.push({ key: "effective", label: "Effective", sublabel: "intensity · sharpness", height: 58, kind: "effective", grow: 0.8 });
    lanes.push({ key: "haptic", label: "Haptic channel", sublabel: "engine render", height: 62, kind: "wave", grow: 1.2 });
    lanes.push({ key: "audio", label: "Audio L · R", sublabel: "engine render", height: 52, kind: "wave", grow: 1 });
    lanes.push({ key: "spectrogram", label: "Spectrogram", sublabel: "audio, 20 Hz–24 kHz", height: 66, kind: "spectrogram", grow: 1 });
    const fixed = lanes.reduce((sum, lane) => sum + lane.height, 0);
    const spare = this.height - fixed - 4;
    const weight = lanes.reduce((sum, lane) => sum + (lane.grow ?? 0) * lane.height, 0);
    let y = 0;
    for (const lane of lanes) {
      if (lane.grow) lane.height = Math.max(24, lane.height + (spare * lane.grow * lane.height) / weight);
      lane.y = y;
      y += lane.height;
    }
    return lanes;
  }

  laneAt(y) { return this.lanes().find((lane) => y >= lane.y && y < lane.y + lane.height) ?? null; }

  // --- drawing ---------------------------------------------------------------------------------------

  drawStatic() {
    const c = this.context;
    const k = this.colours;
    c.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    c.fillStyle = k["--bg"];
    c.fillRect(0, 0, this.width, this.height);
    const lanes = this.lanes();
    const ticks = this.ticks();
    const bottom = lanes[lanes.length - 1].y + lanes[lanes.length - 1].height;
    this.rulerLane = lanes[1];
    this.bottom = bottom;
    lanes.forEach((lane, n) => {
      if (lane.key === "loop" || lane.key === "ruler") return;
      c.fillStyle = n % 2 ? "rgba(255,255,255,0.018)" : "rgba(255,255,255,0.0)";
      c.fillRect(GUTTER, lane.y, this.plotWidth + RIGHT, lane.height);
    });
    // grid
    c.strokeStyle = "rgba(255,255,255,0.05)";
    c.lineWidth = 1;
    c.beginPath();
    for (const tick of ticks.major) { const x = Math.round(this.x(tick)) + 0.5; c.moveTo(x, lanes[1].y + lanes[1].height); c.lineTo(x, bottom); }
    c.stroke();
    // loop region shading
    if (this.loopVisible()) {
      const [a, b] = this.loopSpan();
      c.fillStyle = this.loop.enabled ? "rgba(91,157,255,0.07)" : "rgba(255,255,255,0.025)";
      c.fillRect(this.x(a), lanes[1].y, this.x(b) - this.x(a), bottom - lanes[1].y);
    }
    // beyond the pattern's end
    const endX = this.x(this.duration);
    if (endX < this.width) {
      c.fillStyle = "rgba(0,0,0,0.22)";
      c.fillRect(Math.max(endX, GUTTER), lanes[1].y + lanes[1].height, this.width - Math.max(endX, GUTTER), bottom);
    }
    c.save();
    c.beginPath();
    c.rect(GUTTER, 0, this.plotWidth + RIGHT, this.height);
    c.clip();
    for (const lane of lanes) this.drawLane(lane, ticks);
    c.restore();
    // gutter labels
    c.fillStyle = k["--panel"];
    c.fillRect(0, 0, GUTTER, this.height);
    c.strokeStyle = k["--border"];
    c.beginPath(); c.moveTo(GUTTER - 0.5, 0); c.lineTo(GUTTER - 0.5, this.height); c.stroke();
    for (const lane of lanes) {
      c.strokeStyle = k["--border"];
      c.beginPath(); c.moveTo(0, Math.round(lane.y + lane.height) - 0.5); c.lineTo(this.width, Math.round(lane.y + lane.height) - 0.5); c.stroke();
      if (!lane.label) continue;
      if (lane.colour) { c.fillStyle = k[lane.colour]; c.fillRect(10, lane.y + lane.height / 2 - (lane.sublabel ? 10 : 4), 3, lane.sublabel ? 20 : 8); }
      c.fillStyle = k["--text"];
      c.font = "500 12px Inter, Cantarell, 'DejaVu Sans', sans-serif";
      c.textBaseline = "middle";
      c.fillText(lane.label, 20, lane.y + lane.height / 2 - (lane.sublabel ? 6 : 0), GUTTER - 26);
      if (lane.sublabel) {
        c.fillStyle = k["--faint"];
        c.font = "10px Inter, Cantarell, 'DejaVu Sans', sans-serif";
        c.fillText(lane.sublabel, 20, lane.y + lane.height / 2 + 8, GUTTER - 26);
      }
    }
    c.fillStyle = k["--faint"];
    c.font = "10px Inter, Cantarell, 'DejaVu Sans', sans-serif";
    c.fillText("LOOP", 20, lanes[0].y + 8);
    c.fillText("SECONDS", 20, lanes[1].y + 11);
  }

  loopVisible() { return this.loop.end > this.loop.start || (this.loop.enabled && this.duration > 0); }
  /** The loop region in pattern seconds ([start, end]; end 0 means the pattern's end). */
  loopSpan() { return [this.loop.start, this.loop.end > 0 ? this.loop.end : this.duration]; }

  ticks() {
    const target = 90 * this.secondsPerPixel;
    const steps = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300];
    const step = steps.find((s) => s >= target) ?? 600;
    const minor = step / 5;
    const end = this.t(GUTTER + this.plotWidth + RIGHT);
    const major = [], minors = [];
    for (let t = Math.ceil(this.viewStart / minor) * minor; t <= end; t += minor) {
      const index = Math.round(t / minor);
      (index % 5 === 0 ? major : minors).push(index * minor);
    }
    const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
    return { major, minors, decimals };
  }

  drawLane(lane, ticks) {
    switch (lane.key) {
      case "loop": return this.drawLoopStrip(lane);
      case "ruler": return this.drawRuler(lane, ticks);
      case "effective": return this.drawEffective(lane);
      case "haptic": return this.drawWave(lane, this.render?.channels.H ? [[this.render.channels.H, "--haptic-wave"]] : null);
      case "audio": return this.drawWave(lane, this.render ? [[this.render.channels.L, "--audio-wave"], [this.render.channels.R, "--audio-tone"]].filter((p) => p[0]) : null);
      case "spectrogram": return this.drawSpectrogram(lane);
      default:
        if (lane.kind === "curve") return this.drawCurveLane(lane);
        return this.drawEventLane(lane);
    }
  }

  drawLoopStrip(lane) {
    const c = this.context;
    c.fillStyle = this.colours["--panel"];
    c.fillRect(GUTTER, lane.y, this.plotWidth + RIGHT, lane.height);
    if (!this.loopVisible()) return;
    const [a, b] = this.loopSpan();
    const x0 = this.x(a), x1 = this.x(b);
    c.fillStyle = this.loop.enabled ? "rgba(91,157,255,0.55)" : "rgba(140,150,170,0.35)";
    c.fillRect(x0, lane.y + 3, x1 - x0, lane.height - 6);
    c.fillStyle = this.loop.enabled ? "#cfe1ff" : "#aab";
    c.fillRect(x0, lane.y + 1, 3, lane.height - 2);
    c.fillRect(x1 - 3, lane.y + 1, 3, lane.height - 2);
  }

  drawRuler(lane, ticks) {
    const c = this.context;
    c.fillStyle = this.colours["--panel"];
    c.fillRect(GUTTER, lane.y, this.plotWidth + RIGHT, lane.height);
    c.strokeStyle = this.colours["--faint"];
    c.beginPath();
    for (const t of ticks.minors) { const x = Math.round(this.x(t)) + 0.5; c.moveTo(x, lane.y + lane.height - 4); c.lineTo(x, lane.y + lane.height); }
    for (const t of ticks.major) { const x = Math.round(this.x(t)) + 0.5; c.moveTo(x, lane.y + lane.height - 9); c.lineTo(x, lane.y + lane.height); }
    c.stroke();
    c.fillStyle = this.colours["--dim"];
    c.font = "10px 'DejaVu Sans Mono', monospace";
    c.textBaseline = "middle";
    for (const t of ticks.major) c.fillText(t.toFixed(ticks.decimals), this.x(t) + 3, lane.y + 8);
  }

  /** Seconds an item occupies on its lane. */
  itemSpan(item) {
    if (item.type === "HapticTransient") return [item.time, item.time];
    if (item.type === "AudioCustom") {
      const file = this.audioFiles.get(item.path);
      const seconds = item.duration > 0 ? item.duration : file?.seconds ?? 0.25;
      return [item.time, item.time + seconds];
    }
    return [item.time, item.time + item.duration];
  }

  /** Where the item is drawn, with the drag offset applied. */
  shifted(item) {
    return this.drag?.kind === "move" && this.selection.has(item.index) ? Math.max(0, item.time + this.drag.delta) - item.time : 0;
  }

  drawEventLane(lane) {
    const c = this.context;
    const k = this.colours;
    const colour = k[lane.colour];
    const top = lane.y + (lane.key === "HapticTransient" ? 9 : 6), base = lane.y + lane.height - 5, h = base - top;
    for (const item of this.items) {
      if (item.kind !== "event" || item.type !== lane.key) continue;
      const dt = this.shifted(item);
      const [a, b] = this.itemSpan(item);
      const selected = this.selection.has(item.index);
      const problem = this.diagnostics.get(item.index);
      const level = Math.min(Math.max(item.intensity, 0), 1);
      if (lane.key === "HapticTransient") {
        const x = Math.round(this.x(a + dt)) + 0.5;
        const y = base - level * h;
        c.strokeStyle = selected ? "#fff" : colour;
        c.lineWidth = selected ? 2 : 1.5;
        c.beginPath(); c.moveTo(x, base); c.lineTo(x, y); c.stroke();
        c.fillStyle = colour;
        c.beginPath(); c.arc(x, y, selected ? 5.5 : 4.5, 0, Math.PI * 2); c.fill();
        if (selected) { c.strokeStyle = "#fff"; c.lineWidth = 1.5; c.stroke(); }
        // sharpness: a short tick whose angle rises with it
        c.strokeStyle = k["--sharpness"];
        c.lineWidth = 1.5;
        c.beginPath(); c.moveTo(x + 6, base); c.lineTo(x + 6, base - 2 - item.sharpness * 10); c.stroke();
        if (problem) this.drawProblem(x, top, problem);
        continue;
      }
      const x0 = this.x(a + dt), x1 = Math.max(this.x(b + dt), x0 + 2);
      const y = base - level * h;
      c.save();
      c.beginPath();
      if (lane.key === "AudioCustom") {
        c.rect(x0, top, x1 - x0, h);
      } else {
        // envelope: attack up to the level, then hold (sustained) or decay, release tail after the end
        const attack = Math.min(controlSeconds(item.attack), b - a);
        const xa = this.x(a + dt + attack);
        c.moveTo(x0, base);
        c.lineTo(xa, y);
        if (item.sustained) c.lineTo(x1, y);
        else c.lineTo(x1, base - level * h * Math.max(0, 1 - (b - a - attack) / Math.max(controlSeconds(item.decay), 1e-3)));
        c.lineTo(x1, base);
        c.closePath();
      }
      c.fillStyle = selected ? hexAlpha(colour, 0.45) : hexAlpha(colour, 0.26);
      c.fill();
      c.strokeStyle = selected ? "#fff" : colour;
      c.lineWidth = selected ? 2 : 1.25;
      c.stroke();
      c.clip();
      if (lane.key === "AudioCustom") this.drawFileWave(item, x0, x1, top, h, colour);
      c.restore();
      if (item.type !== "AudioCustom" && item.sustained && item.release > 0) {
        const xr = this.x(b + dt + controlSeconds(item.release));
        c.setLineDash([3, 3]);
        c.strokeStyle = hexAlpha(colour, 0.7);
        c.lineWidth = 1;
        c.beginPath(); c.moveTo(x1, y); c.lineTo(xr, base); c.stroke();
        c.setLineDash([]);
      }
      if (x1 - x0 > 70) {
        c.fillStyle = k["--text"];
        c.font = "11px Inter, Cantarell, 'DejaVu Sans', sans-serif";
        c.textBaseline = "top";
        const text = lane.key === "AudioCustom" ? (item.path ?? "?") + (this.audioFiles.get(item.path)?.error ? " (not found)" : "")
          : lane.key === "AudioContinuous" ? `vol ${item.intensity.toFixed(2)}` : `I ${item.intensity.toFixed(2)} · S ${item.sharpness.toFixed(2)}`;
        c.fillText(text, x0 + 5, top + 2, x1 - x0 - 10);
      }
      if (problem) this.drawProblem(x0 + 2, top, problem);
    }
  }

  drawFileWave(item, x0, x1, top, h, colour) {
    const file = this.audioFiles.get(item.path);
    if (!file || !file.samples) return;
    const columns = Math.max(1, Math.floor(x1 - x0));
    const peaks = columnPeaks(file.samples, file.sampleRate, 0, (this.itemSpan(item)[1] - item.time) / columns, columns);
    const c = this.context;
    const mid = top + h / 2;
    c.fillStyle = hexAlpha(colour, 0.85);
    for (let i = 0; i < columns; i++) {
      const lo = peaks[i * 2], hi = peaks[i * 2 + 1];
      c.fillRect(x0 + i, mid - hi * h * 0.45, 1, Math.max(1, (hi - lo) * h * 0.45));
    }
  }

  drawProblem(x, y, severity) {
    const c = this.context;
    c.fillStyle = severity === "error" ? this.colours["--danger"] : this.colours["--warning"];
    c.beginPath(); c.moveTo(x, y - 4); c.lineTo(x + 6, y + 7); c.lineTo(x - 6, y + 7); c.closePath(); c.fill();
    c.fillStyle = "#111";
    c.font = "bold 9px sans-serif";
    c.textBaseline = "middle";
    c.fillText("!", x - 1.5, y + 3);
  }

  drawCurveLane(lane) {
    const c = this.context;
    const [low, high] = controlRange(lane.id);
    const top = lane.y + 6, base = lane.y + lane.height - 6, h = base - top;
    const y = (v) => base - ((Math.min(Math.max(v, low), high) - low) / (high - low)) * h;
    if (low < 0) {
      c.strokeStyle = "rgba(255,255,255,0.08)";
      c.beginPath(); c.moveTo(GUTTER, y(0)); c.lineTo(this.width, y(0)); c.stroke();
    }
    for (const item of this.items) {
      if (item.kind === "event" || item.id !== lane.id) continue;
      const dt = this.shifted(item);
      const selected = this.selection.has(item.index);
      const colour = this.colours["--curve"];
      if (item.kind === "parameter") {
        const x = this.x(item.time + dt);
        c.fillStyle = selected ? "#fff" : colour;
        c.beginPath(); c.moveTo(x, y(item.value) - 5); c.lineTo(x + 5, y(item.value)); c.lineTo(x, y(item.value) + 5); c.lineTo(x - 5, y(item.value)); c.fill();
        continue;
      }
      const points = item.points.map((p, n) => {
        const d = this.drag;
        if (d?.kind === "point" && d.index === item.index && d.point === n && d.moved) return { time: d.time, value: d.value };
        return { time: p.time + dt, value: p.value };
      });
      c.strokeStyle = selected ? "#fff" : colour;
      c.lineWidth = selected ? 2 : 1.5;
      c.beginPath();
      points.forEach((p, n) => (n ? c.lineTo(this.x(p.time), y(p.value)) : c.moveTo(this.x(p.time), y(p.value))));
      c.stroke();
      c.fillStyle = hexAlpha(colour, 0.12);
      if (points.length) {
        c.lineTo(this.x(points[points.length - 1].time), base); c.lineTo(this.x(points[0].time), base); c.closePath(); c.fill();
      }
      points.forEach((p, n) => {
        const chosen = this.selectedPoint?.index === item.index && this.selectedPoint.point === n;
        c.fillStyle = chosen ? "#fff" : colour;
        c.fillRect(this.x(p.time) - 3.5, y(p.value) - 3.5, 7, 7);
        if (chosen) { c.strokeStyle = this.colours["--accent"]; c.lineWidth = 2; c.strokeRect(this.x(p.time) - 5, y(p.value) - 5, 10, 10); }
      });
      const problem = this.diagnostics.get(item.index);
      if (problem && points.length) this.drawProblem(this.x(points[0].time) + 2, top, problem);
    }
  }

  drawEffective(lane) {
    const c = this.context;
    const columns = Math.ceil(this.plotWidth + RIGHT);
    const effective = effectiveColumns(this.items, this.viewStart, this.secondsPerPixel, columns);
    const top = lane.y + 5, base = lane.y + lane.height - 4, h = base - top;
    c.fillStyle = hexAlpha(this.colours["--intensity"], 0.22);
    c.strokeStyle = this.colours["--intensity"];
    c.lineWidth = 1.5;
    c.beginPath();
    c.moveTo(GUTTER, base);
    for (let i = 0; i < columns; i++) c.lineTo(GUTTER + i, base - effective.intensity[i] * h);
    c.lineTo(GUTTER + columns, base);
    c.fill();
    c.beginPath();
    for (let i = 0; i < columns; i++) (i ? c.lineTo(GUTTER + i, base - effective.intensity[i] * h) : c.moveTo(GUTTER, base - effective.intensity[0] * h));
    c.stroke();
    c.strokeStyle = this.colours["--sharpness"];
    c.setLineDash([4, 3]);
    c.beginPath();
    let drawing = false;
    for (let i = 0; i < columns; i++) {
      if (!effective.active[i]) { drawing = false; continue; }
      const yy = base - effective.sharpness[i] * h;
      if (drawing) c.lineTo(GUTTER + i, yy); else { c.moveTo(GUTTER + i, yy); drawing = true; }
    }
    c.stroke();
    c.setLineDash([]);
  }

  drawWave(lane, channels) {
    const c = this.context;
    const mid = lane.y + lane.height / 2;
    const half = lane.height / 2 - 4;
    c.strokeStyle = "rgba(255,255,255,0.08)";
    c.beginPath(); c.moveTo(GUTTER, mid); c.lineTo(this.width, mid); c.stroke();
    if (!channels || !this.render) {
      c.fillStyle = this.colours["--faint"];
      c.font = "11px Inter, sans-serif";
      c.fillText(this.renderNote ?? "no render yet", GUTTER + 10, mid - 8);
      return;
    }
    const columns = Math.ceil(this.plotWidth + RIGHT);
    channels.forEach(([samples, colour], n) => {
      const peaks = columnPeaks(samples, this.render.sampleRate, this.viewStart, this.secondsPerPixel, columns);
      c.fillStyle = hexAlpha(this.colours[colour], n ? 0.55 : 0.9);
      for (let i = 0; i < columns; i++) {
        const lo = peaks[i * 2], hi = peaks[i * 2 + 1];
        if (hi === 0 && lo === 0) continue;
        c.fillRect(GUTTER + i, mid - hi * half, 1, Math.max(1, (hi - lo) * half));
      }
    });
  }

  drawSpectrogram(lane) {
    const c = this.context;
    if (!this.spectrum) {
      c.fillStyle = this.colours["--faint"];
      c.font = "11px Inter, sans-serif";
      c.fillText(this.render ? "computing…" : this.renderNote ?? "no render yet", GUTTER + 10, lane.y + lane.height / 2);
      return;
    }
    const { canvas, secondsPerColumn } = this.spectrum;
    const t0 = Math.max(0, this.viewStart);
    const t1 = Math.min(canvas.width * secondsPerColumn, this.t(GUTTER + this.plotWidth + RIGHT));
    if (t1 <= t0) return;
    c.imageSmoothingEnabled = true;
    c.drawImage(canvas, t0 / secondsPerColumn, 0, (t1 - t0) / secondsPerColumn, canvas.height,
      this.x(t0), lane.y + 1, this.x(t1) - this.x(t0), lane.height - 2);
  }

  // --- gestures --------------------------------------------------------------------------------------

  local(event) {
    const rect = this.canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

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
  }

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
      this.drag = { kind: "loop", edge, anchor: t, start: a, end: b, moved: false, x };
      return;
    }
    if (lane.kind === "events" || lane.kind === "curve") {
      const found = this.hit(lane, x, y);
      if (found) {
        const additive = event.shiftKey || event.ctrlKey || event.metaKey;
        if (!this.selection.has(found.item.index) || found.point !== undefined) {
          this.actions.select([found.item.index], found.point !== undefined ? { index: found.item.index, point: found.point } : null, additive);
        }
        if (found.point !== undefined) {
          this.drag = { kind: "point", index: found.item.index, point: found.point, lane, x, y, moved: false, time: 0, value: 0 };
        } else {
          this.drag = { kind: "move", x, delta: 0, moved: false };
        }
      } else {
        if (!event.shiftKey) this.actions.select([], null, false);
        this.drag = null;
      }
      this.invalidate();
      return;
    }
    // ruler and the rendered lanes: seek, and scrub while dragging
    this.drag = { kind: "scrub", x };
    this.actions.seek(Math.max(0, t), false);
  }

  pointerMove(event) {
    const { x, y } = this.local(event);
    const t = this.t(x);
    if (x >= GUTTER) this.actions.hover(`${t.toFixed(3)} s`);
    const d = this.drag;
    if (!d) {
      const lane = this.laneAt(y);
      const over = x >= GUTTER && lane && (lane.key === "loop" || this.hit(lane, x, y));
      this.canvas.style.cursor = lane?.key === "loop" ? "ew-resize" : over ? "grab" : lane && ["ruler", "haptic", "audio", "spectrogram", "effective"].includes(lane.key) ? "text" : "default";
      return;
    }
    if (Math.abs(x - d.x) > 2) d.moved = true;
    if (!d.moved) return;
    if (d.kind === "loop") {
      if (d.edge === "start") d.start = Math.max(0, Math.min(t, d.end - 0.001));
      else if (d.edge === "end") d.end = Math.max(t, d.start + 0.001);
      else { d.start = Math.max(0, Math.min(d.anchor, t)); d.end = Math.max(d.anchor, t); }
      this.loop = { ...this.loop, start: d.start, end: d.end };
    } else if (d.kind === "move") {
      d.delta = (x - d.x) * this.secondsPerPixel;
    } else if (d.kind === "point") {
      const [low, high] = controlRange(d.lane.id);
      const top = d.lane.y + 6, base = d.lane.y + d.lane.height - 6;
      d.time = Math.max(0, t);
      d.value = Math.min(high, Math.max(low, low + ((base - y) / (base - top)) * (high - low)));
    } else if (d.kind === "scrub") {
      this.actions.seek(Math.max(0, t), true);
    }
    this.invalidate();
  }

  pointerUp(event) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (d.kind === "loop" && d.moved) this.actions.loop(d.start, d.end);
    if (d.kind === "move" && d.moved && d.delta !== 0) this.actions.move([...this.selection], d.delta);
    if (d.kind === "point" && d.moved) this.actions.movePoint(d.index, d.point, d.time, d.value);
    if (d.kind === "scrub") this.actions.seek(Math.max(0, this.t(this.local(event).x)), false);
    this.invalidate();
  }

  doubleClick(event) {
    const { x, y } = this.local(event);
    const lane = this.laneAt(y);
    if (!lane || x < GUTTER) return;
    const t = Math.max(0, this.t(x));
    if (lane.kind === "events" && !this.hit(lane, x, y)) this.actions.add(lane.key, t);
    if (lane.kind === "curve") {
      const curve = this.items.find((i) => i.kind === "curve" && i.id === lane.id && i.points.length &&
        t >= i.points[0].time && t <= i.points[i.points.length - 1].time) ??
        this.items.find((i) => i.kind === "curve" && i.id === lane.id);
      if (!curve || this.hit(lane, x, y)?.point !== undefined) return;
      const [low, high] = controlRange(lane.id);
      const top = lane.y + 6, base = lane.y + lane.height - 6;
      this.actions.addPoint(curve.index, t, Math.min(high, Math.max(low, low + ((base - y) / (base - top)) * (high - low))));
    }
  }

  wheel(event) {
    event.preventDefault();
    const { x } = this.local(event);
    if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
      this.viewStart += (event.deltaX || event.deltaY) * this.secondsPerPixel;
      this.invalidate();
      return;
    }
    this.zoom(Math.exp(-event.deltaY * 0.0025), this.t(Math.max(GUTTER, x)));
  }
}

/** `#rrggbb` with an alpha, as rgba(). */
function hexAlpha(hex, alpha) {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1], 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${alpha})`;
}
