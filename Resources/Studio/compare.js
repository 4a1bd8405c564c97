// The Compare panel: the document as each export (merged AHAP, the split pair, `.haptic`), each with the
// engine's render of its haptic channel drawn under the original's, the columns where they differ shaded, a
// marker at each event that loses something, the RMS of the difference, and what each conversion loses,
// grouped by what is lost and naming the events. Play one export, or all back to back.

import { decodeWav } from "./wav.js";
import { describe } from "./model.js";

const $ = (id) => document.getElementById(id);
/** The rate of the small render the RMS figures come from (the haptic channel is far below 4 kHz). */
const RMS_RATE = 8000;

/** The RMS of `samples`, and of their difference from `reference` (over the longer of the two). */
export function rmsFigures(samples, reference) {
  const n = Math.max(samples.length, reference.length);
  let signal = 0, difference = 0;
  for (let i = 0; i < n; i++) {
    const a = reference[i] ?? 0, b = samples[i] ?? 0;
    signal += a * a;
    difference += (b - a) * (b - a);
  }
  return { signal: Math.sqrt(signal / Math.max(1, n)), difference: Math.sqrt(difference / Math.max(1, n)) };
}

export class ComparePanel {
  constructor(api, state, transport, hooks) {
    this.api = api;
    this.state = state;
    this.transport = transport;
    this.hooks = hooks;
    this.exports = [];
    $("compare-all").addEventListener("click", () => this.play(this.exports.filter((e) => e.playable !== false).map((e) => e.export)));
    $("compare-stop").addEventListener("click", () => transport.stopAll());
    document.addEventListener("studio-export", (e) => this.highlight(e.detail));
  }

  /** "Transient at 0.140 s" for entry `index` of the document. */
  entryName(index) {
    const item = this.state.items.find((i) => i.index === index);
    return item ? describe(item).split(",")[0] : `Pattern[${index}]`;
  }

  async refresh() {
    const list = $("compare-list");
    try {
      const reply = await this.api.compare();
      this.exports = reply.exports ?? [];
    } catch (error) {
      list.replaceChildren(Object.assign(document.createElement("li"), { textContent: error.message }));
      return;
    }
    list.replaceChildren(...this.exports.map((entry) => this.card(entry)));
    this.drawWaves();
  }

  card(entry) {
    const li = document.createElement("li");
    li.dataset.export = entry.export;
    const heading = document.createElement("h3");
    const name = document.createElement("span");
    name.textContent = entry.label;
    const play = document.createElement("button");
    play.type = "button";
    play.textContent = "▶ Play";
    play.setAttribute("aria-label", `Play the ${entry.label} export`);
    play.disabled = entry.playable === false;
    play.addEventListener("click", () => this.play([entry.export]));
    heading.append(name, play);
    const canvas = document.createElement("canvas");
    canvas.className = "compare-wave";
    canvas.setAttribute("aria-label", `The ${entry.label} export's haptic channel under the original's`);
    const figure = document.createElement("p");
    figure.className = "compare-figure";
    li.append(heading, canvas, figure);
    const losses = entry.losses ?? [];
    if (losses.length === 0) {
      li.append(Object.assign(document.createElement("p"), { className: "lossless", textContent: "Nothing lost: plays as designed." }));
      return li;
    }
    // One line per kind of loss, naming the events it concerns.
    const groups = new Map();
    for (const loss of losses) {
      const message = typeof loss === "string" ? loss : loss.message;
      if (!groups.has(message)) groups.set(message, []);
      if (loss.entry !== null && loss.entry !== undefined) groups.get(message).push(loss.entry);
    }
    const ul = document.createElement("ul");
    ul.setAttribute("aria-label", `What the ${entry.label} export loses`);
    for (const [message, entries] of groups) {
      const item = document.createElement("li");
      const names = [...new Set(entries)].map((e) => this.entryName(e));
      const shown = names.slice(0, 6).join("; ") + (names.length > 6 ? `; and ${names.length - 6} more` : "");
      item.textContent = names.length ? `${message} — ${names.length} event${names.length === 1 ? "" : "s"}: ${shown}` : message;
      item.dataset.entries = entries.join(",");
      ul.append(item);
    }
    li.append(ul);
    return li;
  }

  /** Each export's haptic channel under the original's, the difference shaded, the losing events marked. */
  async drawWaves() {
    const cards = [...document.querySelectorAll("#compare-list > li")];
    const width = Math.max(100, Math.floor(cards[0]?.querySelector("canvas")?.clientWidth ?? 300));
    const seconds = Math.max(0.05, this.state.status?.duration ?? 1) * 1.02;
    const peaksOf = (exportName) => this.api.peaks({ channels: "H", start: 0, end: seconds, columns: width, exportName })
      .then((r) => Float32Array.from(r.peaks[0]));
    const samplesOf = (exportName) => this.api.render({ channels: "H", sampleRate: RMS_RATE, exportName })
      .then((bytes) => decodeWav(bytes).channels[0]);
    let original, originalSamples;
    try { [original, originalSamples] = await Promise.all([peaksOf("ahap"), samplesOf("ahap")]); } catch { return; }
    for (const li of cards) {
      const entry = this.exports.find((e) => e.export === li.dataset.export);
      if (!entry || entry.playable === false) continue;
      try {
        const [peaks, samples] = await Promise.all([peaksOf(entry.export), samplesOf(entry.export)]);
        const markers = (entry.losses ?? []).filter((l) => l.entry !== null && l.entry !== undefined)
          .map((l) => this.state.items.find((i) => i.index === l.entry)?.time).filter((t) => t !== undefined);
        const differing = this.paint(li.querySelector("canvas"), original, peaks, seconds, markers);
        const rms = rmsFigures(samples, originalSamples);
        li.dataset.differingColumns = String(differing);
        li.querySelector(".compare-figure").textContent = entry.export === "ahap" ? "The original." :
          `Haptic difference ${rms.difference.toFixed(3)} RMS against a ${rms.signal.toFixed(3)} RMS signal` +
          (differing ? ` (shaded where they differ)` : " (the same on screen)");
      } catch (error) {
        li.querySelector(".compare-figure").textContent = `not rendered: ${error.message}`;
      }
    }
  }

  /** Draws one card's waveforms; returns how many columns differ. */
  paint(canvas, original, peaks, seconds, markers) {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    canvas.width = width * ratio;
    canvas.height = height * ratio;
    const c = canvas.getContext("2d");
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    const columns = original.length / 2;
    const scale = Math.max(1e-6, ...original.map(Math.abs), ...peaks.map(Math.abs));
    const mid = height / 2, half = height / 2 - 8;
    let differing = 0;
    for (let i = 0; i < columns; i++) {
      const [lo, hi, elo, ehi] = [original[2 * i], original[2 * i + 1], peaks[2 * i], peaks[2 * i + 1]];
      if (Math.abs(lo - elo) > scale * 0.05 || Math.abs(hi - ehi) > scale * 0.05) {
        differing += 1;
        c.fillStyle = "rgba(255,107,107,0.28)";
        c.fillRect(i, 0, 1, height);
      }
      c.fillStyle = "rgba(143,184,255,0.55)";
      c.fillRect(i, mid - (hi / scale) * half, 1, Math.max(1, ((hi - lo) / scale) * half));
      c.fillStyle = "rgba(255,143,163,0.9)";
      c.fillRect(i, mid - (ehi / scale) * half, 1, 1);
      c.fillRect(i, mid - (elo / scale) * half, 1, 1);
    }
    c.fillStyle = "#ff6b6b";
    for (const t of markers) {
      const x = (t / seconds) * columns;
      c.beginPath(); c.moveTo(x - 5, 0); c.lineTo(x + 5, 0); c.lineTo(x, 8); c.closePath(); c.fill();
    }
    return differing;
  }

  async play(exports) {
    if (this.transport.mode === "browser") {
      // Browser audition: fetch each export's render and play them one after another.
      this.hooks.toast("Comparing in the browser: each export's render in turn.");
      for (const name of exports) {
        try {
          const wav = decodeWav(await this.api.render({ channels: "L,R,H", exportName: name }));
          const [L, R, H] = wav.channels;
          this.highlight(name);
          this.transport.audition.setRender({ sampleRate: wav.sampleRate, channels: { L, R, H } });
          this.transport.audition.play(0);
          await new Promise((resolve) => { this.transport.audition.onEnded = resolve; });
        } catch (error) { this.hooks.fail(error); break; }
      }
      this.transport.audition.onEnded = () => this.transport.showPlaying(false);
      this.highlight(null);
      return;
    }
    try {
      const reply = await this.api.playCompare(exports, 0.5);
      const names = reply.schedule.map((s) => s.export).join(", then ");
      this.hooks.toast(`Playing ${names}. Esc stops.`);
    } catch (error) { this.hooks.fail(error); }
  }

  highlight(name) {
    for (const li of document.querySelectorAll("#compare-list > li")) li.classList.toggle("active", li.dataset.export === name);
  }
}
