// Thrum Studio's page: the controller. It owns the document state (the AHAP text as the server holds it),
// sends every edit to the server (PUT /api/pattern: one undo step each, undo/redo on the server), draws
// the engine's render and diagnostics, and wires the keyboard. See docs/studio.md and docs/studio-api.md.

import { StudioApi, ApiError } from "./api.js";
import { decodeWav } from "./wav.js";
import * as model from "./model.js";
import { Timeline } from "./timeline.js";
import { Inspector } from "./inspector.js";
import { JsonView } from "./jsonview.js";
import { Transport } from "./transport.js";
import { ComparePanel, AudioPanel } from "./panels.js";

const $ = (id) => document.getElementById(id);

const token = new URLSearchParams(location.search).get("token") ?? "";
if (token) history.replaceState(null, "", location.pathname);  // the cookie carries it from now on
const api = new StudioApi(token);

/** Everything the page knows about the document. */
const state = {
  file: null, format: "ahap", text: "", doc: null, items: [], revision: 0, playable: false,
  diagnostics: [], byEntry: new Map(), selection: new Set(), selectedPoint: null,
  status: null, files: [], pendingPuts: 0, putChain: Promise.resolve(), renderSeq: 0, renderAbort: null,
  audioFiles: new Map(), nudgeTimer: null,
};
/** Timings the benchmark and the browser tests read. */
const metrics = { editToWave: [], renders: 0, loadStart: performance.timeOrigin, firstDraw: null };
window.studio = { state, metrics, api };

function toast(message, error = false) {
  const box = $("toast");
  box.textContent = message;
  box.className = "toast" + (error ? " error" : "");
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, error ? 7000 : 3500);
}
function fail(error) {
  if (error?.name === "AbortError") return;
  console.error(error);
  toast(error instanceof ApiError || error instanceof Error ? error.message : String(error), true);
}

const timeline = new Timeline($("timeline"), {
  select: (entries, point, additive) => select(entries, point, additive),
  move: (entries, seconds) => commit(model.moveEntries(state.doc, entries, seconds)),
  movePoint: (index, point, t, value) => commit(model.moveCurvePoint(state.doc, index, point, t, value)),
  add: (type, t) => addEvent(type, t),
  addPoint: (index, t, value) => {
    const [doc, point] = model.addCurvePoint(state.doc, index, t, value);
    state.selectedPoint = { index, point };
    commit(doc);
  },
  seek: (t, scrubbing) => transport.seek(t, scrubbing),
  loop: (start, end) => transport.setLoopRegion(start, end),
  hover: (text) => { $("timeline-status").textContent = text; },
});

const inspector = new Inspector($("entry-select"), $("inspector-body"), {
  select: (indices) => select(indices, null, false),
  parameter: (index, id, value, final) => edit(model.setEventParameter(state.doc, index, id, value), final),
  field: (index, field, value, final) => edit(model.setEventField(state.doc, index, field, value), final),
  curveField: (index, field, value) => {
    const doc = model.clone(state.doc);
    const body = doc.Pattern[index].ParameterCurve ?? doc.Pattern[index].Parameter;
    body[field] = typeof value === "number" ? (field === "Time" ? model.roundTime(value) : model.roundValue(value)) : value;
    commit(doc);
  },
  point: (index, point, t, value) => commit(model.moveCurvePoint(state.doc, index, point, t, value)),
  deletePoint: (index, point) => { state.selectedPoint = null; commit(model.deleteCurvePoint(state.doc, index, point)); },
  remove: (indices) => removeEntries(indices),
  duplicate: (indices) => duplicate(indices),
});

const jsonView = new JsonView($("json-text"), $("json-gutter"), $("json-status"), (text) => {
  if (text === state.text) return;
  adoptText(text, { local: true });
  putText(text);
});

const transport = new Transport(api, state, timeline, { toast, fail, refreshStatus: () => refreshStatus() });
window.studio.timeline = timeline;  // for the browser tests: where lanes and times are on the canvas
const comparePanel = new ComparePanel(api, state, transport, { toast, fail });
const audioPanel = new AudioPanel(api, state, {
  toast, fail, adopted: (reply) => afterServerChange(reply), openSave: (path) => openSave(path),
  playFromStart: async () => { await transport.seek(0, false); await transport.play(); },
});

// --- document flow -------------------------------------------------------------------------------------

/** Shows `text` as the document: parses it for the timeline (the last good parse stays drawn when it is not JSON). */
function adoptText(text, { local = false } = {}) {
  state.text = text;
  try {
    state.doc = JSON.parse(text);
    state.items = model.itemsOf(state.doc);
  } catch {
    // Not JSON (yet): the server's diagnostics say where; the timeline keeps the last parse.
  }
  const maxIndex = Array.isArray(state.doc?.Pattern) ? state.doc.Pattern.length : 0;
  state.selection = new Set([...state.selection].filter((i) => i < maxIndex));
  if (state.selectedPoint && !state.selection.has(state.selectedPoint.index)) state.selectedPoint = null;
  if (!local) jsonView.setText(text);
  loadAudioFiles();
  redraw();
}

/** Redraws the timeline, inspector and readouts from `state`. */
function redraw({ inspector: withInspector = true } = {}) {
  timeline.items = state.items;
  timeline.duration = model.durationOf(state.items, (path) => state.audioFiles.get(path)?.seconds ?? null);
  timeline.selection = state.selection;
  timeline.selectedPoint = state.selectedPoint;
  timeline.diagnostics = new Map([...state.byEntry].map(([entry, list]) => [entry, list.some((d) => d.severity === "error") ? "error" : "warning"]));
  timeline.audioFiles = state.audioFiles;
  timeline.invalidate();
  if (withInspector) inspector.update(state.items, state.selection, state.selectedPoint, state.byEntry);
  transport.showDuration(Math.max(timeline.duration, state.status?.duration ?? 0));
}

/** Takes the server's diagnostics: the Problems list, the JSON gutter, the markers at the events. */
function setDiagnostics(diagnostics) {
  state.diagnostics = Array.isArray(diagnostics) ? diagnostics : [];
  state.byEntry = new Map();
  for (const d of state.diagnostics) {
    if (d.entry === null || d.entry === undefined) continue;
    if (!state.byEntry.has(d.entry)) state.byEntry.set(d.entry, []);
    state.byEntry.get(d.entry).push(d);
  }
  jsonView.setDiagnostics(state.diagnostics);
  const errors = state.diagnostics.filter((d) => d.severity === "error").length;
  const badge = $("problem-count");
  badge.hidden = state.diagnostics.length === 0;
  badge.textContent = String(state.diagnostics.length);
  badge.className = "badge" + (errors ? "" : " warn");
  const list = $("problem-list");
  list.replaceChildren();
  if (state.diagnostics.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No problems: the checker (as `thrum check`) found nothing.";
    list.append(li);
  }
  for (const d of state.diagnostics) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.innerHTML = `<span class="sev ${d.severity}"></span><span class="msg"></span><span class="where"></span>`;
    b.querySelector(".sev").textContent = d.severity;
    b.querySelector(".msg").textContent = d.message + (d.suggestion ? ` — ${d.suggestion}` : "");
    b.querySelector(".where").textContent = `${d.line ? `line ${d.line}:${d.column ?? 1} · ` : ""}${d.path ?? ""}`;
    b.setAttribute("aria-label", `${d.severity}: ${d.message}${d.line ? `, line ${d.line} column ${d.column ?? 1}` : ""}`);
    b.addEventListener("click", () => {
      if (d.entry !== null && d.entry !== undefined) select([d.entry], null, false);
      if (d.line) { showSideTab("json"); jsonView.reveal(d.line, d.column); }
    });
    li.append(b);
    list.append(li);
  }
  redraw();
}

/** An edit from a control: previewed while dragging (`final` false), sent to the server when released. */
function edit(doc, final) {
  if (final) commit(doc);
  else { state.doc = doc; state.items = model.itemsOf(doc); redraw({ inspector: false }); }  // keep the slider being dragged
}

/** A finished edit: becomes the document text and one PUT (one undo step on the server). */
function commit(doc) {
  metrics.editStart = performance.now();
  const text = model.formatAHAP(doc);
  state.doc = doc;
  adoptText(text);
  putText(text);
}

/** Sends `text` to the server (in order), then shows its diagnostics and the new render. */
function putText(text) {
  state.pendingPuts += 1;
  state.putChain = state.putChain.then(async () => {
    try {
      const reply = await api.putPattern(text);
      metrics.phases = { put: performance.now() - (metrics.editStart ?? performance.now()) };
      if (text !== state.text) return;  // a newer edit follows
      state.revision = reply.revision;
      state.playable = reply.playable;
      setDiagnostics(reply.diagnostics);
      requestRender();
      refreshStatus();
    } catch (error) {
      fail(error);
    } finally {
      state.pendingPuts -= 1;
    }
  });
}

/** After undo, redo, analysis or a change made elsewhere: fetch the server's text and show it. */
async function afterServerChange(reply) {
  const { text, revision } = await api.pattern();
  state.revision = Math.max(state.revision, revision || reply?.revision || 0);
  if (reply && "playable" in reply) state.playable = reply.playable;
  adoptText(text);
  if (reply?.diagnostics) setDiagnostics(reply.diagnostics);
  else {
    const check = await currentDiagnostics(text, revision);
    if (check) { state.playable = check.playable; setDiagnostics(check.diagnostics); }
  }
  requestRender();
  refreshStatus();
}

/**
 * The diagnostics of the server's document (`GET /api/diagnostics`). A server without that endpoint is asked
 * with a PUT of the same text (an equal body changes nothing), only while the revision is still the one read.
 */
async function currentDiagnostics(text, revision) {
  try {
    return await api.json("GET", "/api/diagnostics");
  } catch (error) {
    if (error.status !== 404) throw error;
  }
  if ((await api.status()).revision !== revision) return null;
  return api.putPattern(text);
}

async function undo() {
  try { await afterServerChange(await api.undo()); } catch (error) { if (error.status === 409) toast("Nothing to undo."); else fail(error); }
}
async function redo() {
  try { await afterServerChange(await api.redo()); } catch (error) { if (error.status === 409) toast("Nothing to redo."); else fail(error); }
}

async function openFile(path) {
  try {
    const reply = await api.open(path);
    state.selection = new Set();
    state.selectedPoint = null;
    state.file = reply.file;
    state.format = reply.format;
    state.revision = reply.revision;
    state.playable = reply.playable;
    state.audioFiles = new Map();
    const { text } = await api.pattern();
    adoptText(text);
    setDiagnostics(reply.diagnostics);
    timeline.fit();
    requestRender(true);
    refreshStatus();
  } catch (error) { fail(error); }
}

// --- render, audio files ------------------------------------------------------------------------------

/** The spectrogram is computed in a worker; the newest render's image is drawn. */
const spectrumWorker = new Worker("spectrogram-worker.js", { type: "module" });
spectrumWorker.onmessage = (event) => {
  const { sequence, image, secondsPerColumn } = event.data;
  if (sequence !== state.renderSeq) return;
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  canvas.getContext("2d").putImageData(image, 0, 0);
  timeline.spectrum = { canvas, secondsPerColumn };
  timeline.invalidate();
};

/** Fetches the engine's render of the document (the newest request wins) and draws it. */
async function requestRender(fit = false) {
  state.renderAbort?.abort();
  if (!state.playable) {
    timeline.render = null;
    timeline.spectrum = null;
    timeline.renderNote = state.text ? "the document has errors: not rendered (see Problems)" : "no document";
    timeline.invalidate();
    return;
  }
  const seq = ++state.renderSeq;
  const abort = new AbortController();
  state.renderAbort = abort;
  const editStart = metrics.editStart;
  try {
    const fetched = performance.now();
    const bytes = await api.render({ channels: "L,R,H" }, abort.signal);
    if (seq !== state.renderSeq) return;
    const decoding = performance.now();
    const wav = decodeWav(bytes);
    if (metrics.phases) Object.assign(metrics.phases, { render: decoding - fetched, decode: performance.now() - decoding, bytes: bytes.byteLength });
    const [L, R, H] = wav.channels;
    const render = { sampleRate: wav.sampleRate, channels: { L, R, H }, seconds: wav.frames / wav.sampleRate };
    timeline.render = render;
    timeline.spectrum = null;
    if (fit) timeline.fit();
    timeline.invalidate();
    transport.setRender(render);
    metrics.renders += 1;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      // Two frames: the one that drew the waveform has been presented.
      if (editStart !== undefined && metrics.editStart === editStart) {
        metrics.editToWave.push(performance.now() - editStart);
        metrics.editStart = undefined;
      }
      if (metrics.firstDraw === null) metrics.firstDraw = performance.now();
    }));
    const mono = new Float32Array(L.length);
    for (let i = 0; i < mono.length; i++) mono[i] = (L[i] + (R ?? L)[i]) * 0.5;
    spectrumWorker.postMessage({ sequence: seq, samples: mono, sampleRate: wav.sampleRate }, [mono.buffer]);
  } catch (error) {
    if (error.name === "AbortError") return;
    timeline.render = null;
    timeline.renderNote = `not rendered: ${error.message}`;
    timeline.invalidate();
  }
}

/** The folder of the open file, relative to the root ("" for the root itself). */
function patternFolder() {
  const file = state.file ?? "";
  return file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
}

/** Loads the sound of every AudioCustom event once (for its lane's waveform and length). */
function loadAudioFiles() {
  for (const item of state.items) {
    if (item.type !== "AudioCustom" || !item.path || state.audioFiles.has(item.path)) continue;
    state.audioFiles.set(item.path, { loading: true });
    api.file(patternFolder() + item.path).then((bytes) => {
      const wav = decodeWav(bytes);
      const samples = new Float32Array(wav.frames);
      for (const channel of wav.channels) for (let i = 0; i < wav.frames; i++) samples[i] += channel[i] / wav.channels.length;
      state.audioFiles.set(item.path, { samples, sampleRate: wav.sampleRate, seconds: wav.frames / wav.sampleRate });
    }).catch((error) => {
      state.audioFiles.set(item.path, { error: error.message });
    }).finally(redraw);
  }
}

// --- editing helpers ------------------------------------------------------------------------------------

function select(entries, point, additive) {
  if (additive) for (const e of entries) state.selection.has(e) && !point ? state.selection.delete(e) : state.selection.add(e);
  else state.selection = new Set(entries);
  state.selectedPoint = point;
  redraw();
  const chosen = state.items.filter((i) => state.selection.has(i.index));
  $("timeline-status").textContent = chosen.length === 1 ? model.describe(chosen[0]) : chosen.length ? `${chosen.length} selected` : "";
}

function addEvent(type, t) {
  if (type === "Curve") {
    const [doc, index] = model.addCurve(state.doc, t);
    state.selection = new Set([index]);
    return commit(doc);
  }
  let path;
  if (type === "AudioCustom") {
    path = inspector.sounds[0];
    if (!path) { toast("No sound file in the studio folder: drop a WAV on the page first.", true); return; }
  }
  const [doc, index] = model.addEvent(state.doc, type, t, path);
  state.selection = new Set([index]);
  state.selectedPoint = null;
  commit(doc);
}

function removeEntries(indices) {
  if (!indices.length) return;
  state.selection = new Set();
  state.selectedPoint = null;
  commit(model.deleteEntries(state.doc, indices));
}

function duplicate(indices) {
  const doc = model.clone(state.doc);
  const copies = indices.map((i) => model.clone(doc.Pattern[i]));
  const first = doc.Pattern.length;
  doc.Pattern.push(...copies);
  const moved = model.moveEntries(doc, copies.map((_, n) => first + n), 0.1);
  state.selection = new Set(copies.map((_, n) => first + n));
  commit(moved);
}

/** Arrow keys: move the selection in time (←/→) or change its level (↑/↓); sent once the keys rest. */
function nudge(dt, dv) {
  if (!state.doc || state.selection.size === 0) return false;
  let doc = state.doc;
  if (state.selectedPoint && dv) {
    const { index, point } = state.selectedPoint;
    const item = state.items.find((i) => i.index === index);
    const p = item?.points[point];
    if (p) doc = model.moveCurvePoint(doc, index, point, p.time + dt, p.value + dv);
  } else if (dt) {
    doc = model.moveEntries(doc, [...state.selection], dt);
  } else {
    for (const item of state.items.filter((i) => state.selection.has(i.index) && i.kind === "event")) {
      const id = item.type.startsWith("Audio") ? "AudioVolume" : "HapticIntensity";
      doc = model.setEventParameter(doc, item.index, id, Math.min(1, Math.max(0, item.intensity + dv)));
    }
  }
  edit(doc, false);
  clearTimeout(state.nudgeTimer);
  state.nudgeTimer = setTimeout(() => commit(state.doc), 350);
  return true;
}

// --- status, files ------------------------------------------------------------------------------------

async function refreshStatus() {
  try {
    const status = await api.status();
    applyStatus(status);
  } catch (error) { fail(error); }
}

function applyStatus(status) {
  state.status = status;
  if (status.file !== undefined) state.file = status.file;
  const fileState = $("file-state");
  const name = status.file ?? (state.text ? "untitled (not saved)" : "no pattern open");
  fileState.textContent = status.diskChanged ? `${name} — changed on disk; you have unsaved edits (saving asks first)`
    : status.dirty ? `${name} — unsaved edits` : name;
  fileState.className = "file-state" + (status.diskChanged ? " error" : status.dirty ? " dirty" : "");
  $("undo-button").disabled = !status.canUndo;
  $("redo-button").disabled = !status.canRedo;
  transport.applyStatus(status);
  document.title = `${status.dirty ? "● " : ""}${status.file ?? "Thrum Studio"} — Thrum Studio`;
}

async function loadFiles() {
  const reply = await api.files();
  state.files = reply.files ?? [];
  const select = $("file-select");
  const patterns = state.files.filter((f) => f.kind === "pattern");
  select.replaceChildren(...patterns.map((f) => new Option(f.path, f.path, false, f.path === state.file)));
  if (!patterns.length) select.append(new Option("(no patterns in this folder)", ""));
  const folder = patternFolder();
  inspector.sounds = state.files.filter((f) => f.kind === "sound" && f.path.startsWith(folder)).map((f) => f.path.slice(folder.length));
  audioPanel.setSounds(state.files.filter((f) => f.kind === "sound").map((f) => f.path));
}

// --- save ---------------------------------------------------------------------------------------------

let saveOverwrite = false;
function openSave(path) {
  const dialog = $("save-dialog");
  const file = path ?? state.file ?? "untitled.ahap";
  $("save-path").value = file;
  const format = file.endsWith(".haptic") ? "haptic" : "ahap";
  for (const radio of document.querySelectorAll('input[name="save-format"]')) radio.checked = radio.value === format;
  $("save-message").textContent = state.playable ? "" : "The document has errors: fix them first (see Problems).";
  $("save-confirm").textContent = "Save";
  saveOverwrite = false;
  dialog.showModal();
  $("save-path").focus();
}

async function doSave() {
  const path = $("save-path").value.trim();
  const format = document.querySelector('input[name="save-format"]:checked').value;
  try {
    const reply = await api.save({ path, format, overwrite: saveOverwrite });
    $("save-dialog").close();
    const losses = reply.losses?.length ? ` — ${reply.losses.length} conversion loss${reply.losses.length === 1 ? "" : "es"}: ${reply.losses[0].message}` : "";
    toast(`Saved ${reply.written.join(", ")}${losses}`);
    await loadFiles();
    refreshStatus();
  } catch (error) {
    if (error.status === 409 && (error.body.conflict === "changedOnDisk" || error.body.conflict === "exists")) {
      $("save-message").textContent = error.body.conflict === "changedOnDisk"
        ? `${path} changed on disk since you opened it. Overwrite it with your version?`
        : `${path} already exists. Replace it?`;
      $("save-confirm").textContent = "Overwrite";
      saveOverwrite = true;
    } else {
      $("save-message").textContent = error.message;
    }
  }
}

// --- tabs, keyboard -----------------------------------------------------------------------------------

function showSideTab(name) {
  for (const [tab, panel] of [["inspector", "inspector"], ["json", "json-panel"], ["problems", "problems"]]) {
    $(`side-tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(panel).hidden = tab !== name;
  }
  if (name === "json") jsonView.renderGutter();
}

function showMode(name) {
  for (const [tab, panel] of [["edit", "main-edit"], ["compare", "panel-compare"], ["audio", "panel-audio"]]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(panel).hidden = tab !== name;
  }
  $("main-edit").style.display = name === "edit" ? "" : "none";
  document.documentElement.classList.toggle("mode-other", name !== "edit");
  if (name === "compare") comparePanel.refresh();
  if (name === "audio") audioPanel.show();
}

function isTextField(element) {
  if (!element) return false;
  if (element.tagName === "TEXTAREA" || element.tagName === "SELECT") return true;
  return element.tagName === "INPUT" && !["range", "checkbox", "radio", "button"].includes(element.type);
}

document.addEventListener("keydown", (event) => {
  if (document.querySelector("dialog[open]")) return;
  const typing = isTextField(event.target);
  const control = event.ctrlKey || event.metaKey;
  if (event.key === "Escape") { transport.stopAll(); return; }
  const key = event.key;
  const sliderKey = event.target.type === "range" && /^(Home|End|Page|Arrow)/.test(key);  // a slider's own keys
  if (typing || sliderKey) return;
  if (control && (key === "z" || key === "Z")) { event.preventDefault(); event.shiftKey ? redo() : undo(); return; }
  if (control && (key === "y" || key === "Y")) { event.preventDefault(); redo(); return; }
  if (control && (key === "s" || key === "S")) { event.preventDefault(); openSave(); return; }
  if (control && (key === "d" || key === "D")) { event.preventDefault(); duplicate([...state.selection]); return; }
  if (control || event.altKey) return;
  if (key === " " && event.target.tagName !== "BUTTON") { event.preventDefault(); transport.toggle(); return; }
  if (key === "l" || key === "L") { event.preventDefault(); transport.toggleLoop(); return; }
  if (key === "Home") { event.preventDefault(); transport.seek(0, false); return; }
  if (key === "Delete" || key === "Backspace") {
    event.preventDefault();
    if (state.selectedPoint) { const { index, point } = state.selectedPoint; state.selectedPoint = null; commit(model.deleteCurvePoint(state.doc, index, point)); }
    else removeEntries([...state.selection]);
    return;
  }
  const step = event.shiftKey ? 0.1 : 0.01;
  const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, event.shiftKey ? 0.1 : 0.05], ArrowDown: [0, event.shiftKey ? -0.1 : -0.05] };
  if (arrows[key] && (event.target === document.body || event.target === $("timeline") || event.target.tagName === "BUTTON")) {
    event.preventDefault();
    if (!nudge(...arrows[key]) && arrows[key][0]) transport.seek(Math.max(0, transport.position + arrows[key][0] * 10), false);
  }
});

// --- wiring -------------------------------------------------------------------------------------------

$("open-button").addEventListener("click", () => { const path = $("file-select").value; if (path) openFile(path); });
$("file-select").addEventListener("keydown", (event) => { if (event.key === "Enter") $("open-button").click(); });
$("undo-button").addEventListener("click", undo);
$("redo-button").addEventListener("click", redo);
$("save-button").addEventListener("click", () => openSave());
$("save-form").addEventListener("submit", (event) => { event.preventDefault(); doSave(); });
$("save-cancel").addEventListener("click", () => $("save-dialog").close());
$("save-path").addEventListener("input", () => { saveOverwrite = false; $("save-confirm").textContent = "Save"; $("save-message").textContent = ""; });
for (const radio of document.querySelectorAll('input[name="save-format"]')) radio.addEventListener("change", () => { saveOverwrite = false; $("save-confirm").textContent = "Save"; });
for (const name of ["inspector", "json", "problems"]) $(`side-tab-${name}`).addEventListener("click", () => showSideTab(name));
for (const name of ["edit", "compare", "audio"]) $(`tab-${name}`).addEventListener("click", () => showMode(name));
for (const b of document.querySelectorAll("[data-add]")) b.addEventListener("click", () => addEvent(b.dataset.add, transport.position));
$("zoom-in").addEventListener("click", () => timeline.zoom(1.5));
$("zoom-out").addEventListener("click", () => timeline.zoom(1 / 1.5));
$("zoom-fit").addEventListener("click", () => timeline.fit());

// Drop a WAV anywhere: it is stored under the root and opened in "From audio".
let dragDepth = 0;
document.addEventListener("dragenter", (e) => { if (e.dataTransfer?.types.includes("Files")) { dragDepth++; $("drop-hint").hidden = false; } });
document.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; $("drop-hint").hidden = true; } });
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  dragDepth = 0;
  $("drop-hint").hidden = true;
  const file = e.dataTransfer?.files?.[0];
  if (file) { showMode("audio"); audioPanel.upload(file).then(loadFiles).catch(fail); }
});

api.addEventListener("hello", (e) => applyStatus(e.detail.status));
api.addEventListener("status", (e) => applyStatus(e.detail));
api.addEventListener("position", (e) => {
  metrics.positions = (metrics.positions ?? []).slice(-600);
  metrics.positions.push([performance.now(), e.detail.position, e.detail.playing]);
  transport.onPosition(e.detail);
});
api.addEventListener("document", async (e) => {
  const { revision, source } = e.detail;
  if (revision <= state.revision) return;
  if (source === "edit" && state.pendingPuts > 0) return;  // our own PUT; its answer follows
  try {
    if (source === "open") { state.file = (await api.status()).file; await loadFiles(); }
    await afterServerChange(null);
    if (source === "open") requestRender(true);
  } catch (error) { fail(error); }
});
api.addEventListener("diskChanged", (e) => {
  toast(e.detail.reloaded ? `${e.detail.file} changed on disk: reloaded.` : e.detail.message ?? `${e.detail.file} changed on disk; you have unsaved edits.`, !e.detail.reloaded);
  refreshStatus();
});
api.addEventListener("connection", (e) => {
  if (!e.detail.connected) toast("Lost the connection to `thrum studio`; retrying…", true);
});

async function start() {
  try {
    const status = await api.status();
    applyStatus(status);
    await loadFiles();
    await transport.loadSettings();
    if (status.file || status.revision > 0) {
      await afterServerChange(null);
      requestRender(true);
    } else {
      const first = state.files.find((f) => f.kind === "pattern");
      if (first) $("file-select").value = first.path;
      setDiagnostics([]);
    }
    api.connect();
    document.documentElement.classList.remove("studio-loading");
    document.documentElement.classList.add("studio-ready");
    metrics.ready = performance.now();
  } catch (error) {
    fail(error);
    $("file-state").textContent = error.status === 401 ? "Not authorised: open the link `thrum studio` printed (it carries the token)." : error.message;
    $("file-state").className = "file-state error";
  }
}
start();
