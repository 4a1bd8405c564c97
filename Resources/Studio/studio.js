// Thrum Studio's page: the controller. It owns the document state (the AHAP text as the server holds it),
// sends every edit to the server (PUT /api/pattern: one undo step each, undo/redo on the server), draws
// the engine's render and diagnostics, and wires the keyboard. See docs/studio.md and docs/studio-api.md.

import { StudioApi, ApiError } from "./api.js";
import { loadSounds } from "./sounds.js";
import * as model from "./model.js";
import { Timeline } from "./timeline.js";
import { Inspector } from "./inspector.js";
import { JsonView } from "./jsonview.js";
import { Transport } from "./transport.js";
import { ComparePanel, AudioPanel } from "./panels.js";
import { SaveDialog } from "./save.js";
import { renderProblems } from "./problems.js";
import { installKeyboard } from "./keyboard.js";
import { RenderPipeline } from "./render.js";

const $ = (id) => document.getElementById(id);

const token = new URLSearchParams(location.search).get("token") ?? "";
if (token) history.replaceState(null, "", location.pathname);  // the cookie carries it from now on
const api = new StudioApi(token);

/** Everything the page knows about the document. */
const state = {
  file: null, format: "ahap", text: "", doc: null, items: [], revision: 0, playable: false,
  diagnostics: [], byEntry: new Map(), selection: new Set(), selectedPoint: null,
  status: null, files: [], ownRequests: 0, deferredEvent: null, putChain: Promise.resolve(), putsUnderWay: 0,
  audioFiles: new Map(), nudgeTimer: null,
};
/** Timings the benchmark and the browser tests read. */
const metrics = { editToWave: [], renders: 0, wholeRenders: 0, spectrograms: 0, loadStart: performance.timeOrigin, firstDraw: null };
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
  toast, fail, own: (promise) => own(promise), adopted: (reply) => afterServerChange(reply), openSave: (path) => openSave(path),
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
  renderProblems($("problem-list"), state.diagnostics, (d) => {
    if (d.entry !== null && d.entry !== undefined) select([d.entry], null, false);
    if (d.line) { showSideTab("json"); jsonView.reveal(d.line, d.column); }
  });
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
  renderer.documentChanging();
  const text = model.formatAHAP(doc);
  state.doc = doc;
  putText(text);  // first: the server checks and renders it while the page redraws
  adoptText(text);
}

/**
 * Sends `text` to the server, then shows its diagnostics and the new render. In order: at once when no PUT is
 * under way, else after the one before.
 */
function putText(text) {
  const send = () => own(api.putPattern(text));
  const sent = state.putsUnderWay === 0 ? send() : null;
  state.putsUnderWay += 1;
  state.putChain = state.putChain.then(async () => {
    try {
      const reply = await (sent ?? send());
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
      state.putsUnderWay -= 1;
    }
  });
}

/** After undo, redo, analysis or a change made elsewhere: fetch the server's text and show it. */
async function afterServerChange(reply) {
  if (reply?.revision) state.revision = Math.max(state.revision, reply.revision);
  const { text, revision } = await api.pattern();
  state.revision = Math.max(state.revision, revision || reply?.revision || 0);
  if (reply && "playable" in reply) state.playable = reply.playable;
  adoptText(text);
  if (reply?.diagnostics) setDiagnostics(reply.diagnostics);
  else {
    const check = await api.json("GET", "/api/diagnostics");
    state.playable = check.playable;
    setDiagnostics(check.diagnostics);
  }
  requestRender();
  refreshStatus();
}

async function undo() {
  try { await afterServerChange(await own(api.undo())); } catch (error) { if (error.status === 409) toast("Nothing to undo."); else fail(error); }
}
async function redo() {
  try { await afterServerChange(await own(api.redo())); } catch (error) { if (error.status === 409) toast("Nothing to redo."); else fail(error); }
}

async function openFile(path) {
  try {
    const reply = await own(api.open(path));
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

const renderer = new RenderPipeline(api, timeline, transport, metrics);
/** Fetches and draws the engine's render of the document (`fit`: zoom to it). */
function requestRender(fit = false) { renderer.request(state.playable, state.text !== "", fit); }

/** The folder of the open file, relative to the root ("" for the root itself). */
function patternFolder() {
  const file = state.file ?? "";
  return file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
}

/** Loads the sound of every AudioCustom event once (for its lane's waveform and length). */
function loadAudioFiles() { loadSounds(api, state.items, patternFolder(), state.audioFiles, redraw); }

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

const saveDialog = new SaveDialog(api, {
  toast, fail, currentFile: () => state.file, playable: () => state.playable,
  saved: async () => { await loadFiles(); refreshStatus(); },
});
const openSave = (path) => saveDialog.open(path);

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

installKeyboard({
  undo, redo, save: () => openSave(), duplicate: () => duplicate([...state.selection]),
  toggle: () => transport.toggle(), toggleLoop: () => transport.toggleLoop(), home: () => transport.seek(0, false),
  stopAll: () => transport.stopAll(),
  remove: () => {
    if (!state.selectedPoint) return removeEntries([...state.selection]);
    const { index, point } = state.selectedPoint;
    state.selectedPoint = null;
    commit(model.deleteCurvePoint(state.doc, index, point));
  },
  nudge: (dt, dv) => nudge(dt, dv) || (dt !== 0 && (transport.seek(Math.max(0, transport.position + dt * 10), false), true)),
});

// --- wiring -------------------------------------------------------------------------------------------

$("open-button").addEventListener("click", () => { const path = $("file-select").value; if (path) openFile(path); });
$("file-select").addEventListener("keydown", (event) => { if (event.key === "Enter") $("open-button").click(); });
$("undo-button").addEventListener("click", undo);
$("redo-button").addEventListener("click", redo);
$("save-button").addEventListener("click", () => openSave());
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
/**
 * A request of this page that changes the document (PUT, undo, redo, open, analysis). While one is under way,
 * `document` messages wait: the answer's revision then tells whether the change was ours.
 */
async function own(promise) {
  state.ownRequests += 1;
  try {
    const reply = await promise;
    if (reply?.revision) state.revision = Math.max(state.revision, reply.revision);
    return reply;
  } finally {
    state.ownRequests -= 1;
    if (state.ownRequests === 0 && state.deferredEvent) {
      const detail = state.deferredEvent;
      state.deferredEvent = null;
      documentChanged(detail);
    }
  }
}

api.addEventListener("document", (e) => documentChanged(e.detail));

/** A `document` message: shows a change made elsewhere (another page, a script, a reload from disk). */
async function documentChanged(detail) {
  const { revision, source } = detail;
  if (state.ownRequests > 0) {
    if (!state.deferredEvent || state.deferredEvent.revision < revision) state.deferredEvent = detail;
    return;
  }
  if (revision <= state.revision) return;
  try {
    if (source === "open") { state.file = (await api.status()).file; await loadFiles(); }
    await afterServerChange(null);
    if (source === "open") requestRender(true);
  } catch (error) { fail(error); }
}
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
