// The page's keys (docs/studio.md, "Keyboard"). They act on the transport and the selection wherever the focus
// is — after a click on a toolbar button, in the event list, on a slider — except while the user types in a text
// field, a drop-down, the JSON view or a dialog: Space never repeats the last button, it plays or pauses. Sliders
// keep their own arrows, Home, End and Page keys; the event list keeps ↑/↓ to move through it.

/** The shortcut sheet (`?`): [keys, what they do]. */
export const SHORTCUTS = [
  ["Space", "play / pause"],
  ["L", "loop on / off"],
  ["Home", "back to the start"],
  ["← →", "move the selection 10 ms (Shift: 100 ms); nothing selected: seek 0.1 s (Shift: 1 s)"],
  ["↑ ↓", "raise / lower the selection's intensity or volume, or the selected curve point (in the event list: Alt+↑ ↓)"],
  ["Delete, Backspace", "delete the selection (also from the event list)"],
  ["Ctrl+A", "select every event"],
  ["Ctrl+C, Ctrl+X, Ctrl+V", "copy, cut, paste at the playhead (across documents)"],
  ["Ctrl+D", "duplicate the selection"],
  ["Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y", "undo, redo (each document keeps its own history)"],
  ["Ctrl+S", "save"],
  ["G", "snap to the grid and to other events on / off (hold Alt while dragging to bypass it)"],
  ["D", "draw a parameter curve freehand on its lane on / off"],
  ["drag on an empty spot", "box selection (Shift adds)"],
  ["Esc", "stop everything (playback, a compare run, the browser audition); close a dialog"],
  ["?", "this sheet"],
];

/** Whether keys typed into `element` belong to it (text entry, a drop-down), not to the page. */
export function isTextField(element) {
  if (!element) return false;
  if (element.isContentEditable || element.tagName === "TEXTAREA") return true;
  if (element.tagName === "SELECT") return !element.multiple && !(element.size > 1);
  return element.tagName === "INPUT" && !["range", "checkbox", "radio", "button", "submit", "file"].includes(element.type);
}

/**
 * Listens for the page's keys.
 * @param {object} actions undo, redo, save, duplicate, toggle, toggleLoop, home, stopAll, remove, selectAll,
 *   copy, cut, paste, toggleSnap, toggleDraw, shortcuts, and nudge(seconds, level) (arrows: ←/→ 10 ms, Shift
 *   100 ms; ↑/↓ 0.05, Shift 0.1)
 */
export function installKeyboard(actions) {
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    const key = event.key;
    const target = event.target;
    if (key === "Escape") { actions.stopAll(); return; }
    if (isTextField(target)) return;
    const slider = target.type === "range";
    const list = target.tagName === "SELECT";
    const control = event.ctrlKey || event.metaKey;
    const handled = () => { event.preventDefault(); return true; };
    if (control) {
      const letter = key.toLowerCase();
      if (letter === "z") return handled() && (event.shiftKey ? actions.redo() : actions.undo());
      if (letter === "y") return handled() && actions.redo();
      if (letter === "s") return handled() && actions.save();
      if (letter === "d") return handled() && actions.duplicate();
      if (letter === "a") return handled() && actions.selectAll();
      if (letter === "c") return handled() && actions.copy();
      if (letter === "x") return handled() && actions.cut();
      if (letter === "v") return handled() && actions.paste();
      return;
    }
    // Space plays or pauses whatever has the focus: never the click of the last button (its keyup is cancelled too).
    if (key === " ") return handled() && actions.toggle();
    if (key === "?") return handled() && actions.shortcuts();
    if (event.altKey && list && (key === "ArrowUp" || key === "ArrowDown")) {
      return handled() && actions.nudge(0, (key === "ArrowUp" ? 1 : -1) * (event.shiftKey ? 0.1 : 0.05));
    }
    if (event.altKey) return;
    const letter = key.length === 1 ? key.toLowerCase() : "";
    if (letter === "l") return handled() && actions.toggleLoop();
    if (letter === "g") return handled() && actions.toggleSnap();
    if (letter === "d") return handled() && actions.toggleDraw();
    if (slider && /^(Home|End|Page|Arrow)/.test(key)) return;
    if (key === "Home") return handled() && actions.home();
    if (key === "Delete" || key === "Backspace") return handled() && actions.remove();
    const step = event.shiftKey ? 0.1 : 0.01;
    const level = event.shiftKey ? 0.1 : 0.05;
    const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, level], ArrowDown: [0, -level] };
    if (!arrows[key] || (list && (key === "ArrowUp" || key === "ArrowDown"))) return;
    event.preventDefault();
    actions.nudge(...arrows[key]);
  });
  // A button activates on Space's keyup: the keydown above already played or paused.
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && !isTextField(event.target) && !document.querySelector("dialog[open]")) event.preventDefault();
  });
}
