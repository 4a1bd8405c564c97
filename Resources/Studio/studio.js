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
import { AudioPanel } from "./panels.js";
import { ComparePanel } from "./compare.js";
import { MeasurePanel } from "./measure.js";
import { SaveDialog } from "./save.js";
import { renderProblems } from "./problems.js";
import { installKeyboard, SHORTCUTS } from "./keyboard.js";
import { Documents } from "./documents.js";
import { Editing } from "./editing.js";
import { installLayout } from "./layout.js";
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
  audioFiles: new Map(),
};
/** Timings the benchmark and the browser tests read. */
const metrics = { editToWave: [], renders: 0, wholeRenders: 0, spectrograms: 0, loadStart: performance.timeOrigin, firstDraw: null };
window.studio = { state, metrics, api };

/** A message at the bottom; `sticky` ones (conversion losses) stay until dismissed. */
function toast(message, error = false, { sticky = false } = {}) {
  const box = $("toast");
  $("toast-text").textContent = message;
  box.className = "toast" + (error ? " error" : "") + (sticky ? " sticky" : "");
  box.hidden = false;
  $("toast-close").hidden = !sticky;
  clearTimeout(toast.timer);
  if (!sticky) toast.timer = setTimeout(() => { box.hidden = true; }, error ? 7000 : 3500);
}
$("toast-close").addEventListener("click", () => { $("toast").hidden = true; });
function fail(error) {
  if (error?.name === "AbortError") return;
  console.error(error);
  toast(error instanceof ApiError || error instanceof Error ? error.message : String(error), true);
}

const timeline = new Timeline($("timeline"), {
  select: (entries, point, additive) => editing.select(entries, point, additive),
  move: (entries, seconds) => commit(model.moveEntries(state.doc, entries, seconds)),
  movePoint: (index, point, t, value) => commit(model.moveCurvePoint(state.doc, index, point, t, value)),
  add: (type, t) => editing.add(type, t),
  addPoint: (index, t, value) => {
    const [doc, point] = model.addCurvePoint(state.doc, index, t, value);
    state.selectedPoint = { index, point };
    commit(doc);
  },
  seek: (t, scrubbing) => transport.seek(t, scrubbing),
  loop: (start, end) => transport.setLoopRegion(start, end),
  hover: (text) => { $("timeline-status").textContent = text; },
  drawCurve: (id, stroke) => editing.drawCurve(id, stroke),
});

const inspector = new Inspector($("entry-select"), $("inspector-body"), {
  select: (indices) => editing.select(indices, null, false),
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
  remove: (indices) => editing.remove(indices),
  duplicate: (indices) => editing.duplicate(indices),
});

const jsonView = new JsonView($("json-text"), $("json-gutter"), $("json-status"), (text) => {
  if (text === state.text) return;
  adoptText(text, { local: true });
  putText(text);
});

const transport = new Transport(api, state, timeline, { toast, fail, refreshStatus: () => documents.refreshStatus() });
window.studio.timeline = timeline;  // for the browser tests: where lanes and times are on the canvas
window.studio.transport = transport;
const comparePanel = new ComparePanel(api, state, transport, { toast, fail });
const measurePanel = new MeasurePanel(api, { toast });
const audioPanel = new AudioPanel(api, state, {
  toast, fail, own: (promise) => own(promise), openSave: (path) => openSave(path), transport,
  adopted: async (reply) => { await afterServerChange(reply); timeline.fit(); requestRender(true); },
  playFromStart: async () => { await transport.seek(0, false); await transport.play(); },
});
const editing = new Editing({
  state, inspector, transport, toast, redraw: () => redraw(), commit: (doc, gesture) => commit(doc, gesture),
  status: (text) => { $("timeline-status").textContent = text; }, gesture: (kind) => gestureId(kind),
});
const documents = new Documents(api, state, {
  toast, fail, own: (promise) => own(promise), openSave: (path) => openSave(path), timeline, transport, inspector, audioPanel,
  opened: (reply, text, view) => showOpened(reply, text, view),
  replaceText: (text) => { adoptText(text); putText(text); },
});

// --- document flow -------------------------------------------------------------------------------------

/** Shows `text` as the document: parses it for the timeline (the last good parse stays drawn when it is not JSON). */
function adoptText(text, { local = false, inspector: withInspector = true } = {}) {
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
  redraw({ inspector: withInspector });
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
    if (d.entry !== null && d.entry !== undefined) editing.select([d.entry], null, false);
    if (d.line) { showSideTab("json"); jsonView.reveal(d.line, d.column); }
  });
  redraw();
}

/** The gesture under way (a slider drag, arrow keys pressed in a row): its edits are one undo step on the server. */
let gesture = null;
function gestureId(kind) {
  if (!gesture || gesture.kind !== kind) gesture = { kind, id: `${kind}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}` };
  clearTimeout(gesture.timer);
  gesture.timer = setTimeout(() => { gesture = null; }, 1000);
  return gesture.id;
}

/**
 * An edit from a control. While a slider is dragged (`final` false) each step is sent and rendered at once,
 * without rebuilding the Inspector under the pointer; the release ends the gesture (one undo step in all).
 */
function edit(doc, final) {
  const id = gestureId("slider");
  if (final) {
    commit(doc, id);
    clearTimeout(gesture?.timer);
    gesture = null;
  } else {
    commit(doc, id, { live: true });
  }
}

/** A change: becomes the document text and one PUT (of `gesture`, if any: one undo step per gesture). */
function commit(doc, gestureName = null, { live = false } = {}) {
  metrics.editStart = performance.now();
  renderer.documentChanging();
  const text = model.formatAHAP(doc);
  state.doc = doc;
  putText(text, gestureName);  // first: the server checks and renders it while the page redraws
  const redrawn = performance.now();
  adoptText(text, { inspector: !live });
  metrics.localRedraw = performance.now() - redrawn;
}

/**
 * Sends `text` to the server, then shows its diagnostics and the new render. In order: at once when no PUT is
 * under way, else after the one before.
 */
function putText(text, gestureName = null) {
  const send = () => own(api.putPattern(text, gestureName));
  const sent = state.putsUnderWay === 0 ? send() : null;
  state.putsUnderWay += 1;
  state.putChain = state.putChain.then(async () => {
    try {
      // A step of a gesture overtaken by a newer edit is not sent: the newest text replaces it anyway.
      if (!sent && gestureName && text !== state.text) return;
      const reply = await (sent ?? send());
      metrics.phases = { put: performance.now() - (metrics.editStart ?? performance.now()), local: metrics.localRedraw };
      if (text !== state.text) return;  // a newer edit follows
      state.revision = reply.revision;
      state.playable = reply.playable;
      setDiagnostics(reply.diagnostics);
      requestRender();
      documents.refreshStatus();
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
  documents.refreshStatus();
}

async function undo() {
  try { await afterServerChange(await own(api.undo())); } catch (error) { if (error.status === 409) toast("Nothing to undo."); else fail(error); }
}
async function redo() {
  try { await afterServerChange(await own(api.redo())); } catch (error) { if (error.status === 409) toast("Nothing to redo."); else fail(error); }
}

/** Shows a document just opened (POST /api/open answered, its text fetched): fitted to the window, or in `view`. */
function showOpened(reply, text, view = null) {
  state.file = reply.file;
  state.format = reply.format;
  state.revision = reply.revision;
  state.playable = reply.playable;
  state.audioFiles = new Map();
  adoptText(text);
  setDiagnostics(reply.diagnostics);
  if (view) {
    timeline.viewStart = view.viewStart;
    timeline.secondsPerPixel = view.secondsPerPixel;
    timeline.invalidate();
  } else {
    timeline.fit();
  }
  requestRender(!view);
}

// --- render, audio files ------------------------------------------------------------------------------

const renderer = new RenderPipeline(api, timeline, transport, metrics);
/** Fetches and draws the engine's render of the document (`fit`: zoom to it). */
function requestRender(fit = false) { renderer.request(state.playable, state.text !== "", fit); }

/** Loads the sound of every AudioCustom event once (for its lane's waveform and length). */
function loadAudioFiles() { loadSounds(api, state.items, documents.folder(), state.audioFiles, redraw); }

// --- save ---------------------------------------------------------------------------------------------

const saveDialog = new SaveDialog(api, {
  toast, fail, currentFile: () => state.file, playable: () => state.playable,
  entryName: (index) => { const item = state.items.find((i) => i.index === index); return item ? model.describe(item).split(",")[0] : `Pattern[${index}]`; },
  saved: async (reply) => { if (reply.file) state.file = reply.file; await documents.loadFiles(); await documents.refreshStatus(); },
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
  for (const [tab, panel] of [["edit", "main-edit"], ["compare", "panel-compare"], ["audio", "panel-audio"], ["measure", "panel-measure"]]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(panel).hidden = tab !== name;
  }
  $("main-edit").style.display = name === "edit" ? "" : "none";
  document.documentElement.classList.toggle("mode-other", name !== "edit");
  if (name === "compare") comparePanel.refresh();
  if (name === "audio") audioPanel.show();
  if (name === "measure") measurePanel.show();
}

installKeyboard({
  undo, redo, save: () => openSave(), duplicate: () => editing.duplicate(),
  toggle: () => transport.toggle(), toggleLoop: () => transport.toggleLoop(), home: () => transport.seek(0, false),
  stopAll: () => transport.stopAll(), remove: () => editing.removeSelection(), selectAll: () => editing.selectAll(),
  copy: () => editing.copy(), cut: () => editing.cut(), paste: () => editing.paste(),
  toggleSnap: () => setSnap(!timeline.snap), toggleDraw: () => setDrawMode(!timeline.drawMode),
  shortcuts: () => $("shortcuts-dialog").showModal(),
  nudge: (dt, dv) => editing.nudge(dt, dv) || (dt !== 0 && (transport.seek(Math.max(0, transport.position + dt * 10), false), true)),
});

function setSnap(on) {
  timeline.snap = on;
  $("snap-button").setAttribute("aria-pressed", String(on));
  try { localStorage.setItem("thrum-studio-snap", on ? "1" : "0"); } catch { /* not kept */ }
}
function setDrawMode(on) {
  timeline.drawMode = on;
  $("draw-button").setAttribute("aria-pressed", String(on));
  $("timeline-status").textContent = on ? "Draw: drag across a curve lane to draw it (D or ✎ Draw to stop)" : "";
}
setSnap(localStorage.getItem("thrum-studio-snap") !== "0");
$("snap-button").addEventListener("click", () => setSnap(!timeline.snap));
$("draw-button").addEventListener("click", () => setDrawMode(!timeline.drawMode));
$("shortcuts-list").replaceChildren(...SHORTCUTS.flatMap(([keys, text]) => [
  Object.assign(document.createElement("kbd"), { textContent: keys }), Object.assign(document.createElement("span"), { textContent: text })]));
$("shortcuts-button").addEventListener("click", () => $("shortcuts-dialog").showModal());
$("shortcuts-close").addEventListener("click", () => $("shortcuts-dialog").close());
installLayout(timeline, jsonView);

// --- wiring -------------------------------------------------------------------------------------------

$("open-button").addEventListener("click", () => { const path = $("file-select").value; if (path) documents.open(path); });
$("file-select").addEventListener("keydown", (event) => { if (event.key === "Enter") $("open-button").click(); });
$("undo-button").addEventListener("click", undo);
$("redo-button").addEventListener("click", redo);
$("save-button").addEventListener("click", () => openSave());
for (const name of ["inspector", "json", "problems"]) $(`side-tab-${name}`).addEventListener("click", () => showSideTab(name));
for (const name of ["edit", "compare", "audio", "measure"]) $(`tab-${name}`).addEventListener("click", () => showMode(name));
for (const b of document.querySelectorAll("[data-add]")) b.addEventListener("click", () => editing.add(b.dataset.add, transport.position));
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
  if (file) { showMode("audio"); audioPanel.upload(file).then(() => documents.loadFiles()).catch(fail); }
});

api.addEventListener("hello", (e) => documents.applyStatus(e.detail.status));
api.addEventListener("status", (e) => documents.applyStatus(e.detail));
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
    if (source === "open") { state.file = (await api.status()).file; await documents.loadFiles(); }
    await afterServerChange(null);
    if (source === "open") { timeline.fit(); requestRender(true); }
  } catch (error) { fail(error); }
}
api.addEventListener("diskChanged", (e) => {
  toast(e.detail.reloaded ? `${e.detail.file} changed on disk: reloaded.` : e.detail.message ?? `${e.detail.file} changed on disk; you have unsaved edits.`, !e.detail.reloaded);
  documents.refreshStatus();
});
api.addEventListener("connection", (e) => {
  if (!e.detail.connected) toast("Lost the connection to `thrum studio`; retrying…", true);
});

async function start() {
  try {
    const status = await api.status();
    documents.applyStatus(status);
    await documents.loadFiles();
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
    documents.offerRecovery();
  } catch (error) {
    fail(error);
    $("file-state").textContent = error.status === 401 ? "Not authorised: open the link `thrum studio` printed (it carries the token)." : error.message;
    $("file-state").className = "file-state error";
  }
}
start();
