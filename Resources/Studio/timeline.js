// The timeline canvas: one time axis with the loop strip, the ruler, a lane per event type, a lane per
// control parameter, the effective intensity and sharpness, the engine's rendered haptic and audio channels
// and the audio spectrogram. It draws what the controller gives it and reports gestures through `actions`;
// it never changes the document itself. Redraws are coalesced to one per animation frame.

import { columnPeaks, regroupPeaks } from "./wav.js";
import { Gestures } from "./gestures.js";
import { GUTTER, RIGHT, drawLoopStrip, drawRuler, drawEventLane, drawCurveLane, drawEffective, drawWave, drawSpectrogram } from "./lanes.js";

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
   *   add(type, t), addPoint(index, t, value), seek(t, scrubbing), loop(start, end), hover(text), drawCurve(id, stroke)
   */
  constructor(canvas, actions) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.actions = actions;
    this.items = [];
    this.duration = 1;
    this.render = null;           // {sampleRate, channels: {L, R, H}, seconds}: the whole render (GET /api/render)
    this.peaks = null;            // {start, secondsPerColumn, seconds, channels: {L, R, H}}: GET /api/peaks, until the whole render
    this.keptPeaks = new Map();   // channel name → {source, view, peaks}: the last columns drawn of each render channel
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
    this.snap = true;             // snap times to the grid and to other events (gestures.js)
    this.drawMode = false;        // drag on a curve lane draws it freehand
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
    const end = Math.max(this.duration, (this.render ?? this.peaks)?.seconds ?? 0, 0.05);
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

  /**
   * The columns of the render lanes on screen, for GET /api/peaks: from the first whole column at or after
   * time 0 to the right edge, so that each column asked for is one column drawn.
   */
  peakRange() {
    const columns = Math.ceil(this.plotWidth + RIGHT);
    const skipped = Math.max(0, Math.ceil(-this.viewStart / this.secondsPerPixel - 1e-9));
    const start = this.viewStart + skipped * this.secondsPerPixel;
    const count = Math.max(1, columns - skipped);
    return { start, end: start + count * this.secondsPerPixel, columns: count };
  }

  /**
   * Least and greatest value of each of `columns` screen columns from the left edge of the plot, of render
   * channel `name` (L, R or H): from the whole render when it is here, else from its peaks; null without either.
   */
  viewPeaks(name, columns) {
    const source = this.render ?? this.peaks;
    const view = `${name} ${this.viewStart} ${this.secondsPerPixel} ${columns}`;
    // An edit redraws every lane; the render it changes is still the old one until the new one comes.
    const kept = this.keptPeaks.get(name);
    if (kept?.source === source && kept.view === view) return kept.peaks;
    let peaks = null;
    if (this.render) {
      const samples = this.render.channels[name];
      if (samples) peaks = columnPeaks(samples, this.render.sampleRate, this.viewStart, this.secondsPerPixel, columns);
    } else if (this.peaks?.channels[name]) {
      peaks = regroupPeaks(this.peaks.channels[name], this.peaks.start, this.peaks.secondsPerColumn, this.viewStart, this.secondsPerPixel, columns);
    }
    this.keptPeaks.set(name, { source, view, peaks });
    return peaks;
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
    this.drawOverlay(screen);
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
    return { major, minors, decimals, step };
  }

  drawLane(lane, ticks) {
    switch (lane.key) {
      case "loop": return drawLoopStrip(this, lane);
      case "ruler": return drawRuler(this, lane, ticks);
      case "effective": return drawEffective(this, lane);
      case "haptic": return drawWave(this, lane, [["H", "--haptic-wave"]]);
      case "audio": return drawWave(this, lane, [["L", "--audio-wave"], ["R", "--audio-tone"]]);
      case "spectrogram": return drawSpectrogram(this, lane);
      default:
        if (lane.kind === "curve") return drawCurveLane(this, lane);
        return drawEventLane(this, lane);
    }
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
}

Object.assign(Timeline.prototype, Gestures);
