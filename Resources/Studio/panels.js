// The From-audio panel (a sound analysed into haptics, re-analysed at once as settings change, drawn over
// the sound's waveform).

import { decodeWav, columnPeaks } from "./wav.js";
import { itemsOf, effectiveColumns } from "./model.js";

const $ = (id) => document.getElementById(id);
/** A sound whose peak is below this (−90 dBFS) is taken as silent. */
const SILENCE = 10 ** (-90 / 20);

/** Settings the From-audio panel shows as sliders: [key, label, min, max, step]. */
const FIELDS = [
  ["onsetSensitivity", "Onset sensitivity", 0, 1, 0.01],
  ["minimumOnsetInterval", "Min onset gap (s)", 0.01, 2, 0.01],
  ["attack", "Attack (s)", 0, 0.1, 0.0005],
  ["hold", "Hold (s)", 0, 0.2, 0.001],
  ["release", "Release (s)", 0.001, 2, 0.001],
  ["bandLow", "Band low (Hz)", 20, 1000, 1],
  ["bandHigh", "Band high (Hz)", 40, 20000, 10],
  ["gain", "Gain (dB)", -40, 40, 0.5],
  ["floor", "Floor (dB)", -120, -10, 1],
  ["breakpointsPerSecond", "Breakpoints / s", 1, 500, 1],
  ["tolerance", "Tolerance", 0.001, 0.5, 0.001],
  ["sharpnessLow", "Sharpness 0 at (Hz)", 20, 2000, 1],
  ["sharpnessHigh", "Sharpness 1 at (Hz)", 40, 20000, 10],
];

export class AudioPanel {
  constructor(api, state, hooks) {
    this.api = api;
    this.state = state;
    this.hooks = hooks;
    this.presets = null;
    this.settings = {};
    this.sound = null;       // {path, samples, sampleRate, seconds}
    this.result = null;      // the analysis answer
    this.timer = null;
    this.sequence = 0;
    this.adoptedFor = null;
    $("audio-select").addEventListener("change", () => this.chooseSound($("audio-select").value));
    $("preset-select").addEventListener("change", () => this.choosePreset($("preset-select").value));
    $("analyze-button").addEventListener("click", () => this.analyse());
    $("analysis-play").addEventListener("click", () => this.adoptAndPlay());
    $("analysis-save").addEventListener("click", () => this.adoptAndSave());
    $("audio-upload").addEventListener("change", () => {
      const file = $("audio-upload").files[0];
      if (file) this.upload(file).catch(hooks.fail);
    });
    new ResizeObserver(() => this.draw()).observe($("analysis-canvas"));
    this.playhead = null;
    this.choice = 0;
    requestAnimationFrame(() => this.followPlayhead());
  }

  /** The transport's playhead over the sound while the panel shows (the adopted result plays from 0). */
  followPlayhead() {
    requestAnimationFrame(() => this.followPlayhead());
    const canvas = $("analysis-canvas");
    if (!this.base || canvas.offsetParent === null) return;
    const t = this.hooks.transport.position;
    if (t === this.playhead) return;
    this.playhead = t;
    const c = canvas.getContext("2d");
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.putImageData(this.base, 0, 0);
    const ratio = window.devicePixelRatio || 1;
    const x = Math.round((t / this.seconds) * canvas.width) + 0.5;
    c.strokeStyle = "#ffffff";
    c.lineWidth = ratio;
    c.beginPath(); c.moveTo(x, 0); c.lineTo(x, canvas.height); c.stroke();
  }

  setSounds(paths) {
    const select = $("audio-select");
    const current = select.value;
    select.replaceChildren(...paths.map((p) => new Option(p, p, false, p === current)));
    if (!paths.length) select.append(new Option("(no sounds in this folder: open or drop a WAV)", ""));
  }

  async show() {
    if (!this.presets) {
      try {
        const reply = await this.api.presets();
        this.presets = reply.presets;
        const names = Object.keys(this.presets).sort((a, b) => (b === "general") - (a === "general"));
        $("preset-select").replaceChildren(...names.map((name) => new Option(name, name)));
        this.choosePreset(names[0], false);
      } catch (error) { this.hooks.fail(error); return; }
    }
    if (!this.sound && $("audio-select").value) this.chooseSound($("audio-select").value);
  }

  choosePreset(name, analyse = true) {
    this.settings = { ...this.presets[name] };
    const box = $("analysis-settings");
    box.replaceChildren(...FIELDS.map(([key, label, min, max, step]) => {
      const row = document.createElement("div");
      row.className = "param-row";
      const id = `analysis-${key}`;
      row.innerHTML = `<label for="${id}"></label><input type="range" id="${id}"><input type="number">`;
      row.querySelector("label").textContent = label;
      const [slider, number] = row.querySelectorAll("input");
      for (const input of [slider, number]) Object.assign(input, { min, max, step, value: this.settings[key] });
      number.setAttribute("aria-label", `${label} value`);
      const set = (value) => { this.settings[key] = Number(value); slider.value = value; number.value = value; this.schedule(); };
      slider.addEventListener("input", () => set(slider.value));
      number.addEventListener("change", () => set(number.value));
      return row;
    }));
    if (analyse) this.schedule();
  }

  /** Loads and analyses a sound; a load overtaken by a newer choice is dropped (the last choice wins). */
  async chooseSound(path) {
    if (!path) return;
    const choice = ++this.choice;
    try {
      const wav = decodeWav(await this.api.file(path));
      if (choice !== this.choice) return;
      const samples = new Float32Array(wav.frames);
      for (const channel of wav.channels) for (let i = 0; i < wav.frames; i++) samples[i] += channel[i] / wav.channels.length;
      let peak = 0;
      for (const channel of wav.channels) for (let i = 0; i < wav.frames; i++) peak = Math.max(peak, Math.abs(channel[i]));
      this.sound = { path, samples, sampleRate: wav.sampleRate, seconds: wav.frames / wav.sampleRate, peak };
      this.result = null;
      this.draw();
      this.analyse();
    } catch (error) { this.hooks.fail(error); }
  }

  /** Stores a chosen or dropped sound under the root (asking before replacing one), then analyses it. */
  async upload(file) {
    const bytes = await file.arrayBuffer();
    let reply;
    try {
      reply = await this.api.uploadFile(file.name, bytes);
    } catch (error) {
      if (error.status !== 409 || !confirm(`${file.name} already exists in the studio folder. Replace it?`)) throw error;
      reply = await this.api.uploadFile(file.name, bytes, true);
    }
    const select = $("audio-select");
    if (![...select.options].some((o) => o.value === reply.path)) select.append(new Option(reply.path, reply.path));
    select.value = reply.path;
    await this.show();
    await this.chooseSound(reply.path);
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.analyse(), 200);
  }

  request(adopt) {
    return { path: this.sound.path, preset: $("preset-select").value, settings: this.settings, adopt };
  }

  async analyse() {
    if (!this.sound) return;
    const sequence = ++this.sequence;
    const started = performance.now();
    try {
      const reply = await this.api.analysis(this.request(false));
      if (sequence !== this.sequence) return;
      this.result = reply;
      this.adoptedFor = null;
      const items = itemsOf(reply.pattern);
      const transients = items.filter((i) => i.type === "HapticTransient").length;
      const warnings = [...(reply.warnings ?? [])];
      if (this.sound.peak < SILENCE) warnings.unshift(`${this.sound.path} is silent (peak ${this.sound.peak === 0 ? "0" : `${(20 * Math.log10(this.sound.peak)).toFixed(0)} dBFS`}): there is nothing to make haptics from`);
      $("analysis-status").textContent = `${transients} transients, ${items.length} entries, analysed in ${Math.round(performance.now() - started)} ms` +
        (warnings.length ? ` — ⚠ ${warnings.join("; ")}` : "");
      $("analysis-status").classList.toggle("warning", warnings.length > 0);
      this.draw();
    } catch (error) {
      $("analysis-status").textContent = error.message;
    }
  }

  /** Makes the analysis the document (one undo step) unless it already is. */
  async adopt() {
    const key = JSON.stringify(this.request(true));
    if (this.adoptedFor === key) return;
    const reply = await this.hooks.own(this.api.analysis(this.request(true)));
    this.adoptedFor = key;
    await this.hooks.adopted(reply);
  }

  /** Plays the sound with its haptics from the start, on the engine or in the browser. */
  async adoptAndPlay() {
    if (!this.sound) return;
    try {
      await this.adopt();
      await this.hooks.playFromStart();
    } catch (error) { this.hooks.fail(error); }
  }

  async adoptAndSave() {
    if (!this.sound) return;
    try {
      await this.adopt();
      this.hooks.openSave(this.sound.path.replace(/\.[^./]+$/, "") + ".ahap");
    } catch (error) { this.hooks.fail(error); }
  }

  draw() {
    const canvas = $("analysis-canvas");
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (!width || !height) return;
    canvas.width = width * ratio;
    canvas.height = height * ratio;
    const c = canvas.getContext("2d");
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    c.clearRect(0, 0, width, height);
    this.base = null;
    if (!this.sound) {
      c.fillStyle = "#6b7383";
      c.font = "13px sans-serif";
      c.fillText("Choose a sound to analyse.", 16, 24);
      return;
    }
    const seconds = Math.max(this.sound.seconds, this.result?.duration ?? 0, 0.01);
    const columns = Math.floor(width);
    const peaks = columnPeaks(this.sound.samples, this.sound.sampleRate, 0, seconds / columns, columns);
    const mid = height / 2;
    c.fillStyle = "rgba(143,184,255,0.45)";
    for (let i = 0; i < columns; i++) c.fillRect(i, mid - peaks[i * 2 + 1] * mid * 0.9, 1, Math.max(1, (peaks[i * 2 + 1] - peaks[i * 2]) * mid * 0.9));
    if (this.result) {
      const items = itemsOf(this.result.pattern);
      const effective = effectiveColumns(items, 0, seconds / columns, columns);
      c.strokeStyle = "#ffd166";
      c.lineWidth = 2;
      c.beginPath();
      for (let i = 0; i < columns; i++) c.lineTo(i, height - 6 - effective.intensity[i] * (height - 12));
      c.stroke();
      c.strokeStyle = "#5fe0f0";
      c.setLineDash([4, 3]);
      c.lineWidth = 1.5;
      c.beginPath();
      for (let i = 0; i < columns; i++) if (effective.active[i]) c.lineTo(i, height - 6 - effective.sharpness[i] * (height - 12));
      c.stroke();
      c.setLineDash([]);
      c.fillStyle = "#6cb6ff";
      for (const item of items.filter((i) => i.type === "HapticTransient")) {
        const x = (item.time / seconds) * width;
        c.fillRect(x - 1, height - 6 - item.intensity * (height - 12), 2, item.intensity * (height - 12));
      }
      c.font = "11px sans-serif";
      c.fillStyle = "#ffd166"; c.fillText("intensity", 10, 16);
      c.fillStyle = "#5fe0f0"; c.fillText("sharpness", 70, 16);
      c.fillStyle = "#6cb6ff"; c.fillText("transients", 136, 16);
    }
    this.seconds = seconds;
    this.base = c.getImageData(0, 0, canvas.width, canvas.height);
    this.playhead = null;
  }
}
