// The engine's render on the timeline: first its peaks for the columns on screen (GET /api/peaks, L, R and
// the haptic channel), drawn at once; then the whole render (GET /api/render, 32-bit float WAV), decoded in
// the page for zooming in, the browser audition and the spectrogram (computed in a worker), once edits pause. The newest
// request wins (older ones are aborted). Also records the timings the benchmark reads (edit → waveform on
// screen).

import { decodeWav } from "./wav.js";

/** Milliseconds without a newer render before the whole render is fetched. */
const WHOLE_PAUSE_MS = 600;

export class RenderPipeline {
  /**
   * @param {import("./api.js").StudioApi} api
   * @param {import("./timeline.js").Timeline} timeline where the render is drawn
   * @param {import("./transport.js").Transport} transport gets each render for the browser audition
   * @param {object} metrics editStart (set by an edit), editToWave[], renders (peaks drawn), wholeRenders, spectrograms, firstDraw, phases
   */
  constructor(api, timeline, transport, metrics) {
    this.api = api;
    this.timeline = timeline;
    this.transport = transport;
    this.metrics = metrics;
    this.sequence = 0;
    this.fitPending = false;
    this.abort = null;
    this.startWorker();
  }

  /** A new spectrogram worker (the one computing for an older render is terminated: it would only take CPU). */
  startWorker() {
    this.worker?.terminate();
    this.spectrogramPending = false;
    this.worker = new Worker("spectrogram-worker.js", { type: "module" });
    this.worker.onmessage = (event) => {
      this.spectrogramPending = false;
      const { sequence, image, secondsPerColumn } = event.data;
      if (sequence !== this.sequence) return;
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext("2d").putImageData(image, 0, 0);
      this.timeline.spectrum = { canvas, secondsPerColumn };
      this.timeline.invalidate();
      this.metrics.spectrograms += 1;
    };
  }

  /** The document is changing: work for its old render (a spectrogram being computed) stops taking CPU. */
  documentChanging() {
    if (this.spectrogramPending) this.startWorker();
  }

  /**
   * Renders the current document when it is `playable`; else says why there is no render. First the
   * engine's peaks of the columns on screen (GET /api/peaks: small, drawn at once), then, once they are on
   * screen, the whole render (GET /api/render, the same samples) for zooming in, the browser audition and
   * the spectrogram. `fit`: fit the timeline to the render once its peaks arrive; a request that a newer
   * one overtakes passes its fit on (a document just opened stays fitted however many edits follow at once).
   */
  async request(playable, hasDocument, fit = false) {
    const { timeline, metrics } = this;
    this.fitPending = this.fitPending || fit;
    this.abort?.abort();
    this.documentChanging();
    if (!playable) {
      this.fitPending = false;
      timeline.render = null;
      timeline.peaks = null;
      timeline.spectrum = null;
      timeline.renderNote = hasDocument ? "the document has errors: not rendered (see Problems)" : "no document";
      timeline.invalidate();
      return;
    }
    const sequence = ++this.sequence;
    const abort = new AbortController();
    this.abort = abort;
    const editStart = metrics.editStart;
    try {
      const fetched = performance.now();
      const range = timeline.peakRange();
      const reply = await this.api.peaks({ channels: "L,R,H", ...range }, abort.signal);
      if (sequence !== this.sequence) return;
      const [L, R, H] = reply.peaks.map((values) => Float32Array.from(values));
      timeline.peaks = {
        start: reply.start, secondsPerColumn: (reply.end - reply.start) / reply.columns,
        seconds: reply.frames / reply.sampleRate, channels: { L, R, H },
      };
      timeline.render = null;
      timeline.spectrum = null;
      if (this.fitPending) timeline.fit();
      this.fitPending = false;
      timeline.invalidate();
      if (metrics.phases) metrics.phases.peaks = performance.now() - fetched;
      metrics.renders += 1;
      requestAnimationFrame(() => requestAnimationFrame(() => {
        // Two frames: the one that drew the waveform has been presented.
        metrics.waveAt = performance.now();
        if (editStart !== undefined && metrics.editStart === editStart) {
          metrics.editToWave.push(performance.now() - editStart);
          metrics.editStart = undefined;
        }
        if (metrics.firstDraw === null) metrics.firstDraw = performance.now();
        // The whole render (17 MB for 30 s) waits for a pause: while a slider moves or keys repeat, each step's
        // peaks come first and the transfer, decode and spectrogram of renders about to be replaced are skipped.
        clearTimeout(this.wholeTimer);
        this.wholeTimer = setTimeout(() => { if (sequence === this.sequence) this.loadWhole(sequence, abort.signal); }, WHOLE_PAUSE_MS);
      }));
    } catch (error) {
      this.failed(error);
    }
  }

  /** The whole render of request `sequence` (GET /api/render): drawn when zoomed in, auditioned, analysed. */
  async loadWhole(sequence, signal) {
    const { timeline, metrics } = this;
    try {
      const fetched = performance.now();
      const bytes = await this.api.render({ channels: "L,R,H" }, signal);
      if (sequence !== this.sequence) return;
      const decoding = performance.now();
      const wav = decodeWav(bytes);
      if (metrics.phases) Object.assign(metrics.phases, { render: decoding - fetched, decode: performance.now() - decoding, bytes: bytes.byteLength });
      const [L, R, H] = wav.channels;
      const render = { sampleRate: wav.sampleRate, channels: { L, R, H }, seconds: wav.frames / wav.sampleRate };
      timeline.render = render;
      timeline.invalidate();
      this.transport.setRender(render);
      metrics.wholeRenders += 1;
      const mono = new Float32Array(L.length);
      for (let i = 0; i < mono.length; i++) mono[i] = (L[i] + (R ?? L)[i]) * 0.5;
      this.spectrogramPending = true;
      this.worker.postMessage({ sequence, samples: mono, sampleRate: wav.sampleRate }, [mono.buffer]);
    } catch (error) {
      this.failed(error);
    }
  }

  /** Shows why there is no render (an aborted request is no failure: a newer one replaced it). */
  failed(error) {
    if (error.name === "AbortError") return;
    const { timeline } = this;
    timeline.render = null;
    timeline.peaks = null;
    timeline.renderNote = `not rendered: ${error.message}`;
    timeline.invalidate();
  }
}
