// The lesson's picture: the canvas of the beat on screen (layout.js lays the trace out, draw.js
// paints it, a step animated by picture.js's motion) and the banner for a refusal that names
// no control. Its size follows the room (a ResizeObserver), the beat's own height, and, while
// presenting, the room present.css gives it (lesson_room.js: the room and what a click picks).
// A click reads a cell ("cell") and, while the lab asks, answers it ("guess").
// A panel: {el, keys, update(state, key), dispose()}, with resize(), animate(), shapes() for
// the view (present.js, the step view and the Export menu). Its parts: the beat's canvas (its
// size, painting and animation, and what a point on it hits) and the banner.

import { h } from "./dom.js";
import { draw, drawMessage } from "./draw.js";
import { layout, layoutFitted } from "./layout.js";
import { pictureHit, pictureRoom } from "./lesson_room.js";
import { createMotion, fitCanvas } from "./picture.js";
import { createScope } from "./scope.js";
import { say } from "./words.js";

const ANIMATION_MS = 1500;

/** The height the beat on screen needs at `width` (never less than `height`). */
function beatHeight(trace, width, height, beat, words) {
  if (!trace) return height;
  try {
    return layoutFitted(trace, { width, height }, beat, trace.focus, words).height;
  } catch {
    return height;
  }
}

/**
 * The canvas says what it shows: its description, and its beat, focus and ray as data. While
 * Predict first waits for a guess (`withheld`, the lesson's predict.score_label), the Score
 * beat's name keeps its best match back.
 */
function annotate(canvas, out, focus, withheld) {
  canvas.setAttribute("aria-label", (out.beat === "score" && withheld) || out.description);
  canvas.dataset.beat = out.beat;
  canvas.dataset.focus = String(focus);
  if (out.ray) {
    canvas.dataset.rayFrom = String(out.ray.from);
    canvas.dataset.rayTo = String(out.ray.to);
  } else {
    delete canvas.dataset.rayFrom;
    delete canvas.dataset.rayTo;
  }
}

/** The room the canvas' wrapper `el` gives it now, for `n` tokens (lesson_room.js). */
function roomOf(el, presenting, n) {
  const box = { width: Math.floor(el.clientWidth), height: Math.floor(el.clientHeight) };
  return pictureRoom({ presenting, box, windowHeight: el.ownerDocument.defaultView?.innerHeight ?? 800, n });
}

/** The banner: what went wrong where no control is named (or the lesson could not be read). */
function banner() {
  const el = h("p", { class: "banner", role: "alert", hidden: true });
  const tell = (message) => {
    el.hidden = !message;
    el.textContent = message;
  };
  return {
    el,
    tell,
    /** An error of the sentence, mode or focus shows by its control, not here. */
    update(error) {
      const elsewhere = error && !["sentence", "mode", "focus"].includes(error.field ?? null);
      tell(elsewhere ? error.message ?? "" : "");
    },
  };
}

/**
 * The canvas of the beat on screen in its wrapper: sized to the room and the beat's own height,
 * painted (a step animated by `motion`), and read at a point.
 * @param {{beat: () => number, presenting: () => boolean}} host
 */
function beatCanvas({ beat, presenting }) {
  const canvas = h("canvas", { role: "img", "data-words-label": "canvas.lesson" });
  const el = h("div", { class: "canvas-wrap" }, [canvas]);
  const size = { width: 0, height: 0, ratio: 1 };
  let zoom = 1; // CSS pixels per layout pixel: below 1 only while presenting in a small room
  let baseHeight = 0; // the canvas height the window gives; a beat that needs more grows it
  /** @type {Record<string, any>} */
  let state = { trace: null };
  const words = () => state.words ?? {};
  const motion = createMotion(ANIMATION_MS, paint); // the step's animation: paint() reads motion.t
  const shapes = (box = size) => layout(state.trace, box, beat(), state.trace.focus, words());
  const neededHeight = (width, height) => beatHeight(state.trace, width, height, beat(), words());

  function resize() {
    const room = roomOf(el, presenting(), state.trace?.tokens.length ?? 4);
    if (!room) return;
    zoom = room.zoom;
    if (presenting()) {
      if (fitCanvas(canvas, size, room.width, room.height, zoom)) paint();
      return;
    }
    baseHeight = room.height;
    if (fitCanvas(canvas, size, room.width, neededHeight(room.width, room.height))) paint();
  }

  function paint() {
    const ctx = canvas.getContext("2d");
    if (!ctx || !size.width) return;
    const { trace, error } = state;
    if (!trace) {
      drawMessage(ctx, error ? error.message : say(state.words, "lesson.loading"), size);
      return;
    }
    try {
      if (!presenting()) {
        // the beat's own height (presenting, the room sets the size and the zoom)
        const need = neededHeight(size.width, baseHeight || size.height);
        if (need !== size.height) fitCanvas(canvas, size, size.width, need);
      }
      const out = shapes();
      draw(ctx, out.shapes, motion.t, size);
      annotate(canvas, out, trace.focus, state.asking ? trace.predict?.score_label : null);
    } catch (err) {
      drawMessage(ctx, say(state.words, "canvas.failed", { error: err instanceof Error ? err.message : String(err) }), size);
    }
  }

  /** What a click picks (pictureHit) in the picture as it is laid out now; null with no lesson. */
  function hit(e) {
    if (!state.trace) return null;
    const box = canvas.getBoundingClientRect();
    try {
      const out = shapes({ width: box.width / zoom, height: box.height / zoom });
      return pictureHit(out, (e.clientX - box.left) / zoom, (e.clientY - box.top) / zoom);
    } catch {
      return null;
    }
  }

  return {
    el, canvas, size, shapes, resize, paint, hit,
    /** @param {Record<string, any>} next the view's state */
    use(next) {
      state = next;
    },
    /** A new context or mode redraws at once, in the same beat. */
    finish() {
      motion.t = 1;
    },
    animate: () => motion.run(),
    dispose: motion.cancel,
  };
}

/**
 * @param {{model: any, commit: (changes: Record<string, any>) => void, beat: () => number,
 *   presenting: () => boolean}} host `beat` the beat on screen; `presenting` whether present.js is on
 */
export function picturePanel({ model, commit, beat, presenting }) {
  const scope = createScope();
  const picture = beatCanvas({ beat, presenting });
  const note = banner();
  const el = h("div", { class: "picture" }, [picture.el, note.el]);
  scope.add(picture.dispose);

  /** A click on the picture: a cell is read (the lab listens), a token answers the lab's question. */
  scope.listen(picture.canvas, "click", (e) => {
    const hit = picture.hit(e);
    if (hit?.cell) commit({ cell: hit.cell });
    if (hit && model.get("asking") && hit.token !== null) commit({ guess: hit.token });
  });
  const observer = new ResizeObserver(() => picture.resize());
  observer.observe(picture.el);
  scope.add(() => observer.disconnect());

  return {
    el,
    keys: ["lesson", "error", "words"],
    /** @param {Record<string, any>} state the view's state @param {string} [changed] */
    update(state, changed) {
      picture.use(state);
      if (changed === "error") {
        note.update(state.error);
        if (!state.trace) picture.paint();
        return;
      }
      if (changed === "lesson" && state.trace) {
        picture.finish();
        picture.resize();
      }
      picture.paint();
    },
    /** The lesson could not be shown: the message in the banner, the picture's own words. */
    fail(message) {
      note.tell(message);
      picture.paint();
    },
    resize: picture.resize,
    animate: picture.animate,
    /** The shapes on screen and the canvas' size (the Export menu's picture and frames). */
    shapes: picture.shapes,
    size: picture.size,
    dispose: () => scope.dispose(),
  };
}
