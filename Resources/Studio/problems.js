// The Problems list: every diagnostic of the checker (the same as `thrum check`), each a button that selects
// its event and shows its line and column in the JSON view.

/**
 * Fills `list` (a <ul>) with `diagnostics`; `pick(diagnostic)` is called when one is chosen.
 * @param {HTMLElement} list
 * @param {Array<{severity: string, message: string, suggestion?: string, line?: number, column?: number, path?: string, entry?: number}>} diagnostics
 * @param {(diagnostic: object) => void} pick
 */
export function renderProblems(list, diagnostics, pick) {
  list.replaceChildren();
  if (diagnostics.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No problems: the checker (as `thrum check`) found nothing.";
    list.append(li);
  }
  for (const d of diagnostics) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const part = (className, text) => Object.assign(document.createElement("span"), { className, textContent: text });
    b.append(
      part(`sev ${["error", "warning", "note"].includes(d.severity) ? d.severity : "note"}`, d.severity),
      part("msg", d.message + (d.suggestion ? ` — ${d.suggestion}` : "")),
      part("where", `${d.line ? `line ${d.line}:${d.column ?? 1} · ` : ""}${d.path ?? ""}`));
    b.setAttribute("aria-label", `${d.severity}: ${d.message}${d.line ? `, line ${d.line} column ${d.column ?? 1}` : ""}`);
    b.addEventListener("click", () => pick(d));
    li.append(b);
    list.append(li);
  }
}
