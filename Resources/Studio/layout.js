// The layout's moving part: the splitter between the timeline and the side panel. Drag it (or focus it and
// press ← →) to widen the side panel; the width is kept for the next visit (localStorage).

const $ = (id) => document.getElementById(id);
const KEY = "thrum-studio-side-width";
/** The side panel's narrowest width and the timeline's, in CSS pixels. */
const SIDE_MIN = 280;
const TIMELINE_MIN = 480;

/** Wires the splitter; `jsonView`'s gutter is measured again when the width changes (its lines wrap). */
export function installLayout(timeline, jsonView) {
  const splitter = $("side-splitter");
  const side = document.querySelector(".side");
  const set = (width) => {
    const widest = Math.max(SIDE_MIN, window.innerWidth - TIMELINE_MIN);
    const value = Math.round(Math.min(widest, Math.max(SIDE_MIN, width)));
    side.style.width = `${value}px`;
    splitter.setAttribute("aria-valuenow", String(value));
    splitter.setAttribute("aria-valuemax", String(widest));
    jsonView.renderGutter();
    return value;
  };
  const saved = Number(localStorage.getItem(KEY));
  if (saved) set(saved);
  const keep = (value) => { try { localStorage.setItem(KEY, String(value)); } catch { /* not kept */ } };
  splitter.addEventListener("pointerdown", (event) => {
    splitter.setPointerCapture(event.pointerId);
    const move = (e) => set(window.innerWidth - e.clientX);
    const up = (e) => {
      keep(set(window.innerWidth - e.clientX));
      splitter.removeEventListener("pointermove", move);
      splitter.removeEventListener("pointerup", up);
    };
    splitter.addEventListener("pointermove", move);
    splitter.addEventListener("pointerup", up);
  });
  splitter.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    event.stopPropagation();  // not a nudge
    keep(set(side.getBoundingClientRect().width + (event.key === "ArrowLeft" ? 20 : -20)));
  });
  window.addEventListener("resize", () => set(side.getBoundingClientRect().width));
}
