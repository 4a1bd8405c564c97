// The Save dialog: a path in the studio folder and a format (AHAP, .haptic, the split AHAP pair). The server
// writes atomically; when the target changed on disk since it was opened, or another file has that name, the
// dialog asks before overwriting (POST /api/save answers 409 with a `conflict`, then again with `overwrite`).

const $ = (id) => document.getElementById(id);

export class SaveDialog {
  /** @param {object} hooks toast(text), fail(error), currentFile(), playable(), saved() */
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
      const reply = await this.api.save({ path, format, overwrite: this.overwrite });
      $("save-dialog").close();
      const losses = reply.losses?.length
        ? ` — ${reply.losses.length} conversion loss${reply.losses.length === 1 ? "" : "es"}: ${reply.losses[0].message}` : "";
      this.hooks.toast(`Saved ${reply.written.join(", ")}${losses}`);
      await this.hooks.saved();
    } catch (error) {
      if (error.status === 409 && (error.body.conflict === "changedOnDisk" || error.body.conflict === "exists")) {
        $("save-message").textContent = error.body.conflict === "changedOnDisk"
          ? `${path} changed on disk since you opened it. Overwrite it with your version?`
          : `${path} already exists. Replace it?`;
        $("save-confirm").textContent = "Overwrite";
        this.overwrite = true;
      } else {
        $("save-message").textContent = error.message;
      }
    }
  }
}
