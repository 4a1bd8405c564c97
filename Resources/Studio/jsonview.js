// The JSON text view: the document's AHAP text in a textarea with a line-number gutter that marks the lines
// diagnostics point at. Typing hands the text to the controller after a short pause (one PUT, one undo step).

const LINE_HEIGHT = 18;

export class JsonView {
  /**
   * @param {HTMLTextAreaElement} textarea
   * @param {HTMLElement} gutter
   * @param {HTMLElement} status
   * @param {(text: string) => void} onText called 400 ms after the last keystroke
   */
  constructor(textarea, gutter, status, onText) {
    this.textarea = textarea;
    this.gutter = gutter;
    this.status = status;
    this.onText = onText;
    this.timer = null;
    this.marks = new Map();
    textarea.addEventListener("input", () => {
      this.renderGutter();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), 400);
    });
    textarea.addEventListener("blur", () => this.flush());
    textarea.addEventListener("scroll", () => { this.gutter.scrollTop = textarea.scrollTop; });
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey) {
        event.preventDefault();
        document.execCommand("insertText", false, "  ");
      }
    });
  }

  /** Whether the user has typed something not handed over yet. */
  get editing() { return this.timer !== null; }

  flush() {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.onText(this.textarea.value);
  }

  /** Shows `text` unless the user is typing in the view. */
  setText(text) {
    if (this.editing || this.textarea.value === text) return;
    const scroll = this.textarea.scrollTop;
    this.textarea.value = text;
    this.textarea.scrollTop = scroll;
    this.renderGutter();
  }

  /** Marks the lines of `diagnostics` (those with a line) and says how many there are. */
  setDiagnostics(diagnostics) {
    this.marks = new Map();
    for (const d of diagnostics) {
      if (!d.line) continue;
      const previous = this.marks.get(d.line);
      if (previous !== "error") this.marks.set(d.line, d.severity === "error" ? "error" : "warning");
    }
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const first = diagnostics.find((d) => d.line);
    this.status.className = "json-status" + (errors ? " error" : "");
    this.status.textContent = diagnostics.length === 0 ? "No problems."
      : `${errors} error${errors === 1 ? "" : "s"}, ${diagnostics.length - errors} other` +
        (first ? ` — line ${first.line}:${first.column ?? 1}: ${first.message}` : "");
    this.renderGutter();
  }

  renderGutter() {
    if (this.textarea.offsetParent === null) return;  // hidden: drawn when the JSON tab is shown
    const lines = this.textarea.value.split("\n").length;
    const parts = [];
    for (let n = 1; n <= lines; n++) {
      const mark = this.marks.get(n);
      parts.push(mark ? `<div class="${mark}" title="${mark}">${n}</div>` : `<div>${n}</div>`);
    }
    this.gutter.innerHTML = parts.join("") + "<div></div>".repeat(3);
    this.gutter.scrollTop = this.textarea.scrollTop;
  }

  /** Puts the caret at `line`:`column` (1-based) and scrolls there. */
  reveal(line, column = 1) {
    const lines = this.textarea.value.split("\n");
    let offset = 0;
    for (let n = 0; n < Math.min(line - 1, lines.length); n++) offset += lines[n].length + 1;
    offset += Math.max(0, (column ?? 1) - 1);
    this.textarea.focus();
    this.textarea.setSelectionRange(offset, offset + 1);
    this.textarea.scrollTop = Math.max(0, (line - 5) * LINE_HEIGHT);
    this.gutter.scrollTop = this.textarea.scrollTop;
  }
}
