// The JSON text view: the document's AHAP text in a textarea whose long lines wrap, with a line-number gutter
// (each number as tall as its wrapped line, measured in a hidden copy of the text) that marks the lines
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
    const heights = this.lineHeights();
    const parts = [];
    for (let n = 1; n <= heights.length; n++) {
      const mark = this.marks.get(n);
      const style = heights[n - 1] !== LINE_HEIGHT ? ` style="height:${heights[n - 1]}px"` : "";
      parts.push(mark ? `<div class="${mark}" title="${mark}"${style}>${n}</div>` : `<div${style}>${n}</div>`);
    }
    this.gutter.innerHTML = parts.join("") + "<div></div>".repeat(3);
    this.gutter.scrollTop = this.textarea.scrollTop;
  }

  /** The height in pixels of each line of the text as wrapped in the textarea (kept while text and width stay). */
  lineHeights() {
    const text = this.textarea.value;
    const style = getComputedStyle(this.textarea);
    const width = this.textarea.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (this.measured?.text === text && this.measured.width === width) return this.measured.heights;
    if (!this.mirror) {
      this.mirror = document.createElement("div");
      this.mirror.setAttribute("aria-hidden", "true");
      this.mirror.className = "json-mirror";
      document.body.append(this.mirror);
    }
    this.mirror.style.width = `${width}px`;
    this.mirror.style.font = style.font;
    this.mirror.style.tabSize = style.tabSize;
    this.mirror.replaceChildren(...text.split("\n").map((line) => Object.assign(document.createElement("div"), { textContent: line || " " })));
    const heights = [...this.mirror.children].map((line) => line.offsetHeight || LINE_HEIGHT);
    this.measured = { text, width, heights };
    return heights;
  }

  /** Puts the caret at `line`:`column` (1-based) and scrolls there. */
  reveal(line, column = 1) {
    const lines = this.textarea.value.split("\n");
    let offset = 0;
    for (let n = 0; n < Math.min(line - 1, lines.length); n++) offset += lines[n].length + 1;
    offset += Math.max(0, (column ?? 1) - 1);
    this.textarea.focus();
    this.textarea.setSelectionRange(offset, offset + 1);
    const heights = this.lineHeights();
    this.textarea.scrollTop = heights.slice(0, Math.max(0, line - 5)).reduce((sum, h) => sum + h, 0);
    this.gutter.scrollTop = this.textarea.scrollTop;
  }
}
