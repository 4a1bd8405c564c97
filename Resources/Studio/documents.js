// Documents without lost work: opening another file, reloading or closing the page with unsaved edits asks
// first (Save / Discard / Cancel); each file's undo history and transport come back when it is opened again
// (kept by the server), its zoom and selection too (kept here); and unsaved edits left by a studio that stopped
// (the server's recovery file, GET /api/recovery) are offered back when the page starts. Also the file menu
// and the top bar's file state.

const $ = (id) => document.getElementById(id);

/** Asks `message` in the Save / Discard / Cancel dialog. @returns {Promise<"save"|"discard"|"cancel">} */
export function ask(message, { title = "Unsaved edits", save = "Save", discard = "Discard", cancel = "Cancel" } = {}) {
  const dialog = $("ask-dialog");
  $("ask-title").textContent = title;
  $("ask-message").textContent = message;
  const buttons = { save: $("ask-save"), discard: $("ask-discard"), cancel: $("ask-cancel") };
  for (const [name, label] of Object.entries({ save, discard, cancel })) {
    buttons[name].textContent = label ?? "";
    buttons[name].hidden = !label;
  }
  return new Promise((resolve) => {
    const answer = (value) => {
      for (const b of Object.values(buttons)) b.onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(value);
    };
    for (const [name, b] of Object.entries(buttons)) b.onclick = () => answer(name);
    dialog.onclose = () => answer("cancel");  // Esc
    dialog.showModal();
    (save ? buttons.save : buttons.discard).focus();
  });
}

export class Documents {
  /**
   * @param {object} hooks toast(text, error), fail(error), own(promise), opened(reply, text, view) (show a newly
   *   opened document, in `view` when it was open before), replaceText(text) (an edit: PUT), openSave(path), timeline, transport, inspector, audioPanel
   */
  constructor(api, state, hooks) {
    this.api = api;
    this.state = state;
    this.hooks = hooks;
    this.views = new Map();  // file → {viewStart, secondsPerPixel, selection}
    window.addEventListener("beforeunload", (event) => {
      if (!this.dirty) return;
      event.preventDefault();
      event.returnValue = "";  // the browser asks whether to leave
    });
  }

  get dirty() { return !!this.state.status?.dirty; }

  /** What to call the document in a question. */
  get name() { return this.state.file ?? "the untitled document"; }

  /**
   * Before the document is replaced: true when it may go (no unsaved edits, saved, or discarded). "Save" saves
   * to its file; without one (or when the save needs an answer) the Save dialog opens and the switch is off.
   */
  async mayLeave(action) {
    if (!this.dirty) return true;
    const answer = await ask(`${this.name} has unsaved edits. Save them before ${action}?`);
    if (answer === "cancel") return false;
    if (answer === "discard") return true;
    if (!this.state.file) { this.hooks.openSave(); return false; }
    try {
      const reply = await this.api.save({});
      this.hooks.toast(`Saved ${reply.written.join(", ")}`);
      return true;
    } catch (error) {
      this.hooks.toast(`${error.message} — save it here first, then open the other file again.`, true);
      this.hooks.openSave();
      return false;
    }
  }

  /** Opens `path` (asking first about unsaved edits); its zoom and selection come back when it was open before. */
  async open(path) {
    const { state, hooks } = this;
    if (!(await this.mayLeave(`opening ${path}`))) {
      $("file-select").value = state.file ?? "";
      return false;
    }
    this.rememberView();
    try {
      const reply = await hooks.own(this.api.open(path));
      const { text } = await this.api.pattern();
      const view = this.views.get(reply.file);
      state.selection = new Set(view?.selection ?? []);
      state.selectedPoint = null;
      hooks.opened(reply, text, view);
      await this.refreshStatus();
      return true;
    } catch (error) { hooks.fail(error); return false; }
  }

  rememberView() {
    const { state, hooks } = this;
    if (!state.file) return;
    const { viewStart, secondsPerPixel } = hooks.timeline;
    this.views.set(state.file, { viewStart, secondsPerPixel, selection: [...state.selection] });
  }

  /** Offers back the unsaved edits a stopped studio left in its recovery file. */
  async offerRecovery() {
    let recovery;
    try { ({ recovery } = await this.api.json("GET", "/api/recovery")); } catch { return; }
    if (!recovery) return;
    if (this.state.text === recovery.text) { await this.api.json("DELETE", "/api/recovery"); return; }
    const when = new Date(recovery.savedAt).toLocaleString();
    const answer = await ask(`The studio stopped before unsaved edits to ${recovery.file ?? "an untitled document"} were saved ` +
      `(kept at ${when}). Restore them?`, { title: "Recover unsaved edits", save: "Restore", discard: "Discard", cancel: null });
    if (answer === "save") {
      if (recovery.file && !(await this.open(recovery.file))) return;
      this.hooks.replaceText(recovery.text);
      this.hooks.toast(`Restored the unsaved edits to ${recovery.file ?? "the untitled document"}: save them to keep them.`);
    }
    await this.api.json("DELETE", "/api/recovery");
  }

  async refreshStatus() {
    try { this.applyStatus(await this.api.status()); } catch (error) { this.hooks.fail(error); }
  }

  applyStatus(status) {
    const { state } = this;
    state.status = status;
    if (status.file !== undefined) state.file = status.file;
    const fileState = $("file-state");
    const name = status.file ?? (state.text ? "untitled (not saved)" : "no pattern open");
    fileState.textContent = status.diskChanged ? `${name} — changed on disk; you have unsaved edits (saving asks first)`
      : status.dirty ? `${name} — unsaved edits` : name;
    fileState.title = fileState.textContent;
    fileState.className = "file-state" + (status.diskChanged ? " error" : status.dirty ? " dirty" : "");
    $("undo-button").disabled = !status.canUndo;
    $("redo-button").disabled = !status.canRedo;
    this.hooks.transport.applyStatus(status);
    document.title = `${status.dirty ? "● " : ""}${status.file ?? "Thrum Studio"} — Thrum Studio`;
    const select = $("file-select");
    if (status.file && select.value !== status.file && [...select.options].some((o) => o.value === status.file)) select.value = status.file;
  }

  /** The folder of the open file, relative to the root ("" for the root itself). */
  folder() {
    const file = this.state.file ?? "";
    return file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  }

  /** Fills the file menu (the open file chosen) and the sound lists. */
  async loadFiles() {
    const { state, hooks } = this;
    const reply = await this.api.files();
    state.files = reply.files ?? [];
    const select = $("file-select");
    const patterns = state.files.filter((f) => f.kind === "pattern");
    select.replaceChildren(...patterns.map((f) => new Option(f.path, f.path, false, f.path === state.file)));
    if (!patterns.length) select.append(new Option("(no patterns in this folder)", ""));
    const folder = this.folder();
    hooks.inspector.sounds = state.files.filter((f) => f.kind === "sound" && f.path.startsWith(folder)).map((f) => f.path.slice(folder.length));
    hooks.audioPanel.setSounds(state.files.filter((f) => f.kind === "sound").map((f) => f.path));
  }
}
