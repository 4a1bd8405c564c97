// The Save dialog: a path in the studio folder and a format (AHAP, .haptic, the split AHAP pair). The server
// writes atomically; when the target changed on disk since it was opened, or another file has that name, the
// dialog asks before overwriting (POST /api/save answers 409 with a `conflict`, then again with `overwrite`).

const $ = (id) => document.getElementById(id);

export class SaveDialog {
  /** @param {object} hooks toast(text, error, options), fail(error), currentFile(), playable(), saved(reply), entryName(index) */
  constructor(api, hooks) {
    this.api = api;
    this.hooks = hooks;
    this.overwrite = false;
    $("save-form").addEventListener("submit", (event) => { event.preventDefault(); this.save(); });
    $("save-cancel").addEventListener("click", () => $("save-dialog").close());
    $("save-path").addEventListener("input", () => this.reset());
    for (const radio of document.querySelectorAll('input[name="save-format"]')) radio.addEventListener("change", () => this.reset());
  }

  /** Forgets an overwrite answer: the next Save asks again. */
  reset() {
    this.overwrite = false;
    this.createFolder = null;
    $("save-confirm").textContent = "Save";
    $("save-message").textContent = "";
  }

  /** Opens the dialog for `path` (default: the open file, else untitled.ahap). */
  open(path) {
    const file = path ?? this.hooks.currentFile() ?? "untitled.ahap";
    $("save-path").value = file;
    const format = file.endsWith(".haptic") ? "haptic" : "ahap";
    for (const radio of document.querySelectorAll('input[name="save-format"]')) radio.checked = radio.value === format;
    this.reset();
    if (!this.hooks.playable()) $("save-message").textContent = "The document has errors: fix them first (see Problems).";
    $("save-dialog").showModal();
    $("save-path").focus();
  }

  async save() {
    const path = $("save-path").value.trim();
    const format = document.querySelector('input[name="save-format"]:checked').value;
    try {
      if (this.createFolder) await this.api.json("POST", "/api/folder", { path: this.createFolder });
      const reply = await this.api.save({ path, format, overwrite: this.overwrite });
      $("save-dialog").close();
      this.announce(reply);
      await this.hooks.saved(reply);
    } catch (error) {
      const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
      if (error.status === 409 && (error.body.conflict === "changedOnDisk" || error.body.conflict === "exists")) {
        $("save-message").textContent = error.body.conflict === "changedOnDisk"
          ? `${path} changed on disk since you opened it. Overwrite it with your version?`
          : `${path} already exists. Replace it?`;
        $("save-confirm").textContent = "Overwrite";
        this.overwrite = true;
      } else if (error.status === 404 && folder && !this.createFolder) {
        $("save-message").textContent = `There is no folder ${folder}/ in the studio folder. Create it and save there?`;
        $("save-confirm").textContent = "Create folder and save";
        this.createFolder = folder;
      } else {
        $("save-message").textContent = error.message;
      }
    }
  }

  /**
   * Says what was written; with conversion losses, every one of them (the events they concern named), in a
   * message that stays until dismissed.
   */
  announce(reply) {
    const losses = reply.losses ?? [];
    const written = `Saved ${reply.written.join(", ")}`;
    if (!losses.length) { this.hooks.toast(written); return; }
    const lines = losses.map((loss) => `• ${loss.entry !== null && loss.entry !== undefined ? `${this.hooks.entryName(loss.entry)}: ` : ""}${loss.message}`);
    this.hooks.toast(`${written} — ${losses.length} conversion loss${losses.length === 1 ? "" : "es"}:\n${lines.join("\n")}`, false, { sticky: true });
  }
}
