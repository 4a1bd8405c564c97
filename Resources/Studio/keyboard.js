// The page's keys (docs/studio.md, "Keyboard"): Space, L, Home, arrows, Delete, Esc, Ctrl+Z / Ctrl+Shift+Z /
// Ctrl+Y, Ctrl+S, Ctrl+D. They act on the page, never while the user types in a field, in the JSON view or in
// a dialog; sliders keep their own Home/End/Page/arrow keys and buttons their Space.

function isTextField(element) {
  if (!element) return false;
  if (element.tagName === "TEXTAREA" || element.tagName === "SELECT") return true;
  return element.tagName === "INPUT" && !["range", "checkbox", "radio", "button"].includes(element.type);
}

/**
 * Listens for the page's keys.
 * @param {object} actions undo, redo, save, duplicate, toggle, toggleLoop, home, stopAll, remove, and
 *   nudge(seconds, level) (arrows: ←/→ 10 ms, Shift 100 ms; ↑/↓ 0.05, Shift 0.1)
 */
export function installKeyboard(actions) {
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    const key = event.key;
    if (key === "Escape") { actions.stopAll(); return; }
    const sliderKey = event.target.type === "range" && /^(Home|End|Page|Arrow)/.test(key);
    if (isTextField(event.target) || sliderKey) return;
    const control = event.ctrlKey || event.metaKey;
    const handled = () => { event.preventDefault(); return true; };
    if (control) {
      const letter = key.toLowerCase();
      if (letter === "z") return handled() && (event.shiftKey ? actions.redo() : actions.undo());
      if (letter === "y") return handled() && actions.redo();
      if (letter === "s") return handled() && actions.save();
      if (letter === "d") return handled() && actions.duplicate();
      return;
    }
    if (event.altKey) return;
    if (key === " " && event.target.tagName !== "BUTTON") return handled() && actions.toggle();
    if (key === "l" || key === "L") return handled() && actions.toggleLoop();
    if (key === "Home") return handled() && actions.home();
    if (key === "Delete" || key === "Backspace") return handled() && actions.remove();
    const step = event.shiftKey ? 0.1 : 0.01;
    const level = event.shiftKey ? 0.1 : 0.05;
    const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, level], ArrowDown: [0, -level] };
    const onPage = event.target === document.body || event.target.tagName === "CANVAS" || event.target.tagName === "BUTTON";
    if (arrows[key] && onPage) { event.preventDefault(); actions.nudge(...arrows[key]); }
  });
}
