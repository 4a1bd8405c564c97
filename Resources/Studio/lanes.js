// Drawing of the timeline's lanes (no state of their own): each function draws one lane of `tl`, a Timeline,
// into `tl.context` (the offscreen canvas of the cached lanes).

import { columnPeaks } from "./wav.js";
import { controlRange, effectiveColumns, controlSeconds } from "./model.js";

/** Width of the label gutter and the right margin, in CSS pixels. */
export const GUTTER = 118;
export const RIGHT = 10;

export function drawLoopStrip(tl, lane) {
  const c = tl.context;
  c.fillStyle = tl.colours["--panel"];
  c.fillRect(GUTTER, lane.y, tl.plotWidth + RIGHT, lane.height);
  if (!tl.loopVisible()) return;
  const [a, b] = tl.loopSpan();
  const x0 = tl.x(a), x1 = tl.x(b);
  c.fillStyle = tl.loop.enabled ? "rgba(91,157,255,0.55)" : "rgba(140,150,170,0.35)";
  c.fillRect(x0, lane.y + 3, x1 - x0, lane.height - 6);
  c.fillStyle = tl.loop.enabled ? "#cfe1ff" : "#aab";
  c.fillRect(x0, lane.y + 1, 3, lane.height - 2);
  c.fillRect(x1 - 3, lane.y + 1, 3, lane.height - 2);
}

export function drawRuler(tl, lane, ticks) {
  const c = tl.context;
  c.fillStyle = tl.colours["--panel"];
  c.fillRect(GUTTER, lane.y, tl.plotWidth + RIGHT, lane.height);
  c.strokeStyle = tl.colours["--faint"];
  c.beginPath();
  for (const t of ticks.minors) { const x = Math.round(tl.x(t)) + 0.5; c.moveTo(x, lane.y + lane.height - 4); c.lineTo(x, lane.y + lane.height); }
  for (const t of ticks.major) { const x = Math.round(tl.x(t)) + 0.5; c.moveTo(x, lane.y + lane.height - 9); c.lineTo(x, lane.y + lane.height); }
  c.stroke();
  c.fillStyle = tl.colours["--dim"];
  c.font = "10px 'DejaVu Sans Mono', monospace";
  c.textBaseline = "middle";
  for (const t of ticks.major) c.fillText(t.toFixed(ticks.decimals), tl.x(t) + 3, lane.y + 8);
}

export function drawEventLane(tl, lane) {
  const c = tl.context;
  const k = tl.colours;
  const colour = k[lane.colour];
  const top = lane.y + (lane.key === "HapticTransient" ? 9 : 6), base = lane.y + lane.height - 5, h = base - top;
  for (const item of tl.items) {
    if (item.kind !== "event" || item.type !== lane.key) continue;
    const dt = tl.shifted(item);
    const [a, b] = tl.itemSpan(item);
    const selected = tl.selection.has(item.index);
    const problem = tl.diagnostics.get(item.index);
    const level = Math.min(Math.max(item.intensity, 0), 1);
    if (lane.key === "HapticTransient") {
      const x = Math.round(tl.x(a + dt)) + 0.5;
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
      if (problem) drawProblem(tl, x, top, problem);
      continue;
    }
    const x0 = tl.x(a + dt), x1 = Math.max(tl.x(b + dt), x0 + 2);
    const y = base - level * h;
    c.save();
    c.beginPath();
    if (lane.key === "AudioCustom") {
      c.rect(x0, top, x1 - x0, h);
    } else {
      // envelope: attack up to the level, then hold (sustained) or decay, release tail after the end
      const attack = Math.min(controlSeconds(item.attack), b - a);
      const xa = tl.x(a + dt + attack);
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
    if (lane.key === "AudioCustom") drawFileWave(tl, item, x0, x1, top, h, colour);
    c.restore();
    if (item.type !== "AudioCustom" && item.sustained && item.release > 0) {
      const xr = tl.x(b + dt + controlSeconds(item.release));
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
      const text = lane.key === "AudioCustom" ? (item.path ?? "?") + (tl.audioFiles.get(item.path)?.error ? " (not found)" : "")
        : lane.key === "AudioContinuous" ? `vol ${item.intensity.toFixed(2)}` : `I ${item.intensity.toFixed(2)} · S ${item.sharpness.toFixed(2)}`;
      c.fillText(text, x0 + 5, top + 2, x1 - x0 - 10);
    }
    if (problem) drawProblem(tl, x0 + 2, top, problem);
  }
}

function drawFileWave(tl, item, x0, x1, top, h, colour) {
  const file = tl.audioFiles.get(item.path);
  if (!file || !file.samples) return;
  const columns = Math.max(1, Math.floor(x1 - x0));
  const peaks = columnPeaks(file.samples, file.sampleRate, 0, (tl.itemSpan(item)[1] - item.time) / columns, columns);
  const c = tl.context;
  const mid = top + h / 2;
  c.fillStyle = hexAlpha(colour, 0.85);
  for (let i = 0; i < columns; i++) {
    const lo = peaks[i * 2], hi = peaks[i * 2 + 1];
    c.fillRect(x0 + i, mid - hi * h * 0.45, 1, Math.max(1, (hi - lo) * h * 0.45));
  }
}

function drawProblem(tl, x, y, severity) {
  const c = tl.context;
  c.fillStyle = severity === "error" ? tl.colours["--danger"] : tl.colours["--warning"];
  c.beginPath(); c.moveTo(x, y - 4); c.lineTo(x + 6, y + 7); c.lineTo(x - 6, y + 7); c.closePath(); c.fill();
  c.fillStyle = "#111";
  c.font = "bold 9px sans-serif";
  c.textBaseline = "middle";
  c.fillText("!", x - 1.5, y + 3);
}

export function drawCurveLane(tl, lane) {
  const c = tl.context;
  const [low, high] = controlRange(lane.id);
  const top = lane.y + 6, base = lane.y + lane.height - 6, h = base - top;
  const y = (v) => base - ((Math.min(Math.max(v, low), high) - low) / (high - low)) * h;
  if (low < 0) {
    c.strokeStyle = "rgba(255,255,255,0.08)";
    c.beginPath(); c.moveTo(GUTTER, y(0)); c.lineTo(tl.width, y(0)); c.stroke();
  }
  for (const item of tl.items) {
    if (item.kind === "event" || item.id !== lane.id) continue;
    const dt = tl.shifted(item);
    const selected = tl.selection.has(item.index);
    const colour = tl.colours["--curve"];
    if (item.kind === "parameter") {
      const x = tl.x(item.time + dt);
      c.fillStyle = selected ? "#fff" : colour;
      c.beginPath(); c.moveTo(x, y(item.value) - 5); c.lineTo(x + 5, y(item.value)); c.lineTo(x, y(item.value) + 5); c.lineTo(x - 5, y(item.value)); c.fill();
      continue;
    }
    const points = item.points.map((p, n) => {
      const d = tl.drag;
      if (d?.kind === "point" && d.index === item.index && d.point === n && d.moved) return { time: d.time, value: d.value };
      return { time: p.time + dt, value: p.value };
    });
    c.strokeStyle = selected ? "#fff" : colour;
    c.lineWidth = selected ? 2 : 1.5;
    c.beginPath();
    points.forEach((p, n) => (n ? c.lineTo(tl.x(p.time), y(p.value)) : c.moveTo(tl.x(p.time), y(p.value))));
    c.stroke();
    c.fillStyle = hexAlpha(colour, 0.12);
    if (points.length) {
      c.lineTo(tl.x(points[points.length - 1].time), base); c.lineTo(tl.x(points[0].time), base); c.closePath(); c.fill();
    }
    points.forEach((p, n) => {
      const chosen = tl.selectedPoint?.index === item.index && tl.selectedPoint.point === n;
      c.fillStyle = chosen ? "#fff" : colour;
      c.fillRect(tl.x(p.time) - 3.5, y(p.value) - 3.5, 7, 7);
      if (chosen) { c.strokeStyle = tl.colours["--accent"]; c.lineWidth = 2; c.strokeRect(tl.x(p.time) - 5, y(p.value) - 5, 10, 10); }
    });
    const problem = tl.diagnostics.get(item.index);
    if (problem && points.length) drawProblem(tl, tl.x(points[0].time) + 2, top, problem);
  }
}

export function drawEffective(tl, lane) {
  const c = tl.context;
  const columns = Math.ceil(tl.plotWidth + RIGHT);
  const effective = effectiveColumns(tl.items, tl.viewStart, tl.secondsPerPixel, columns);
  const top = lane.y + 5, base = lane.y + lane.height - 4, h = base - top;
  c.fillStyle = hexAlpha(tl.colours["--intensity"], 0.22);
  c.strokeStyle = tl.colours["--intensity"];
  c.lineWidth = 1.5;
  c.beginPath();
  c.moveTo(GUTTER, base);
  for (let i = 0; i < columns; i++) c.lineTo(GUTTER + i, base - effective.intensity[i] * h);
  c.lineTo(GUTTER + columns, base);
  c.fill();
  c.beginPath();
  for (let i = 0; i < columns; i++) (i ? c.lineTo(GUTTER + i, base - effective.intensity[i] * h) : c.moveTo(GUTTER, base - effective.intensity[0] * h));
  c.stroke();
  c.strokeStyle = tl.colours["--sharpness"];
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

/** The render channels `channels` ([[name, colour variable], …]) of the view, from `tl.viewPeaks`. */
export function drawWave(tl, lane, channels) {
  const c = tl.context;
  const mid = lane.y + lane.height / 2;
  const half = lane.height / 2 - 4;
  c.strokeStyle = "rgba(255,255,255,0.08)";
  c.beginPath(); c.moveTo(GUTTER, mid); c.lineTo(tl.width, mid); c.stroke();
  const columns = Math.ceil(tl.plotWidth + RIGHT);
  const drawn = channels.map(([name, colour]) => [tl.viewPeaks(name, columns), colour]).filter(([peaks]) => peaks);
  if (!drawn.length) {
    c.fillStyle = tl.colours["--faint"];
    c.font = "11px Inter, sans-serif";
    c.fillText(tl.renderNote ?? "no render yet", GUTTER + 10, mid - 8);
    return;
  }
  drawn.forEach(([peaks, colour], n) => {
    c.fillStyle = hexAlpha(tl.colours[colour], n ? 0.55 : 0.9);
    for (let i = 0; i < columns; i++) {
      const lo = peaks[i * 2], hi = peaks[i * 2 + 1];
      if (hi === 0 && lo === 0) continue;
      c.fillRect(GUTTER + i, mid - hi * half, 1, Math.max(1, (hi - lo) * half));
    }
  });
}

export function drawSpectrogram(tl, lane) {
  const c = tl.context;
  if (!tl.spectrum) {
    c.fillStyle = tl.colours["--faint"];
    c.font = "11px Inter, sans-serif";
    c.fillText(tl.render || tl.peaks ? "computing…" : tl.renderNote ?? "no render yet", GUTTER + 10, lane.y + lane.height / 2);
    return;
  }
  const { canvas, secondsPerColumn } = tl.spectrum;
  const t0 = Math.max(0, tl.viewStart);
  const t1 = Math.min(canvas.width * secondsPerColumn, tl.t(GUTTER + tl.plotWidth + RIGHT));
  if (t1 <= t0) return;
  // Scaling the whole spectrogram is the slowest part of a redraw: the lane's pixels are kept for the view
  // and redrawn from them while the spectrogram, the zoom and the lane's size stay (an edit redraws the rest).
  const ratio = tl.ratio || 1;
  const width = Math.max(1, Math.round((tl.x(t1) - tl.x(t0)) * ratio)), height = Math.max(1, Math.round((lane.height - 2) * ratio));
  const key = `${t0} ${t1} ${width} ${height}`;
  if (tl.spectrumView?.source !== tl.spectrum || tl.spectrumView.key !== key) {
    const scaled = document.createElement("canvas");
    scaled.width = width;
    scaled.height = height;
    const s = scaled.getContext("2d");
    s.imageSmoothingEnabled = true;
    s.drawImage(canvas, t0 / secondsPerColumn, 0, (t1 - t0) / secondsPerColumn, canvas.height, 0, 0, width, height);
    tl.spectrumView = { source: tl.spectrum, key, scaled };
  }
  c.drawImage(tl.spectrumView.scaled, tl.x(t0), lane.y + 1, tl.x(t1) - tl.x(t0), lane.height - 2);
}

/** `#rrggbb` with an alpha, as rgba(). */
function hexAlpha(hex, alpha) {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1], 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${alpha})`;
}
