// The steps' controls, shared by the toy lesson (lesson.js) and the Real model view (model.js):
// Previous / Next, a pill per step, Play / Pause (one step every stepMs, stopping on the last),
// the arrow keys to step (and PageDown / PageUp, what a presentation clicker sends, while
// pageKeys() says so: a page's own PageDown scrolls it) and the space bar to play.
//
// The view builds the buttons (step_view.js); createStepper wires them. The step itself lives in the
// widget's model ("beat"): the stepper reads it with current() and asks for another with
// commit(b), so the picture, the words and the URL follow the model. It takes its clock as
// options, so Node's tests drive it with plain EventTargets and a fake clock.

/** Where the keys belong to the control (typing, choosing), not to the steps. */
export const TYPING = "input, select, textarea, [contenteditable]";

/**
 * Wire the step buttons and return the stepper's verbs.
 * @param {{
 *   count: number | (() => number),
 *   current: () => number,
 *   commit: (b: number) => void,
 *   stepMs: number | (() => number),
 *   buttons: {prev: Element, next: Element, play: Element, pills?: Element[]},
 *   keysSkip?: string,
 *   setTimeout?: (f: () => void, ms: number) => any,
 *   clearTimeout?: (timer: any) => void,
 *   keysActive?: () => boolean,
 *   pageKeys?: () => boolean,
 *   playLabel?: (playing: boolean) => string,
 * }} options `playLabel`: the play button's words while playing or not (the page's words); `count`: how many steps (a function when they arrive later); `keysSkip`: a
 *   selector for the elements whose keys onKey leaves alone; `keysActive`: false while the
 *   view is hidden, so its keys belong to whatever shows; `playLabel`: the play button's words
 *   while playing or not (the page's words)
 */
export function createStepper({
  count,
  current,
  commit,
  stepMs,
  buttons: { prev, next, play, pills = [] },
  keysSkip = TYPING,
  keysActive = () => true,
  pageKeys = () => false,
  playLabel = () => "",
  setTimeout: later = (f, ms) => globalThis.setTimeout(f, ms),
  clearTimeout: cancel = (timer) => globalThis.clearTimeout(timer),
}) {
  let playing = false;
  let timer = 0;
  const total = typeof count === "function" ? count : () => count;

  /** Go to step b (clamped); a learner's step stops the playing, the player's own does not. */
  function goTo(b, { fromPlay = false } = {}) {
    if (!fromPlay) stop();
    const to = Math.min(total() - 1, Math.max(0, b));
    if (to < 0) return;
    if (to !== current()) commit(to);
  }
  function schedule() {
    cancel(timer);
    if (!playing) return;
    timer = later(() => {
      if (current() >= total() - 1) stop();
      else goTo(current() + 1, { fromPlay: true });
      schedule();
    }, typeof stepMs === "function" ? stepMs() : stepMs); // a function: the Play speed, read at each step
  }
  /** Play from here, or from the first step when already on the last. */
  function start() {
    playing = true;
    play.textContent = playLabel(true);
    if (current() >= total() - 1) goTo(0, { fromPlay: true });
    schedule();
  }
  function stop() {
    playing = false;
    cancel(timer);
    play.textContent = playLabel(false);
  }
  const toggle = () => (playing ? stop() : start());

  /** Mark the current step's pill, and Previous / Next as unusable at either end. */
  function show() {
    const b = current();
    pills.forEach((pill, k) => (k === b ? pill.setAttribute("aria-current", "step") : pill.removeAttribute("aria-current")));
    // aria-disabled, not disabled: a button that keeps the keyboard focus at either end
    prev.setAttribute("aria-disabled", String(b === 0));
    next.setAttribute("aria-disabled", String(b >= total() - 1));
  }

  /** Arrow keys (and PageDown / PageUp while pageKeys()) step and space plays, unless a control
   * wants the key. */
  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !keysActive()) return;
    const target = typeof e.target?.closest === "function" ? e.target : null; // an element
    if (target?.closest(keysSkip)) return;
    const page = pageKeys();
    if (e.key === "ArrowRight" || (page && e.key === "PageDown")) goTo(current() + 1);
    else if (e.key === "ArrowLeft" || (page && e.key === "PageUp")) goTo(current() - 1);
    else if (e.key === " " && !target?.closest("button, a, summary")) toggle();
    else return;
    e.preventDefault();
  }

  prev.addEventListener("click", () => goTo(current() - 1));
  next.addEventListener("click", () => goTo(current() + 1));
  play.addEventListener("click", toggle);
  pills.forEach((pill, b) => pill.addEventListener("click", () => goTo(b)));
  return { goTo, start, stop, toggle, show, onKey, isPlaying: () => playing };
}
