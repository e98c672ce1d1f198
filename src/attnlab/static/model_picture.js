// The Real model view's step picture: the beat on screen laid out by model_layout.beatLayout
// (a pure function of the trace, the size, the beat and the focus) and painted by draw.js and
// model_strips.js, nothing else; animated on a new beat, scrolled to the followed row on a long
// text. Before a trace it says what the view waits for. A panel: {el, update(state), dispose()},
// plus what the Export menu saves (`picture`, `frames`) and `resize` for the view's observer.

import { h } from "./dom.js";
import { draw, drawMessage } from "./draw.js";
import { beatLayout, pictureHeight } from "./model_layout.js";
import { modelName } from "./model_settings.js";
import { changes } from "./model_state.js";
import { paintStrips } from "./model_strips.js";
import { createMotion, fitCanvas } from "./picture.js";
import { say } from "./words.js";

const ANIMATION_MS = 1500;

/**
 * Paint a beat's layout at animation time `t`, and say on the canvas what it shows (its
 * description, beat, focus row and ray: the tests and screen readers read these).
 */
function paintBeat(canvas, ctx, shapes, { t, size, focus }) {
  draw(ctx, shapes.shapes, t, size);
  paintStrips(ctx, shapes.shapes, t);
  canvas.setAttribute("aria-label", shapes.description);
  canvas.dataset.beat = shapes.beat;
  canvas.dataset.focus = String(focus);
  const row = shapes.rows[focus];
  if (row) canvas.dataset.focusRow = JSON.stringify({ y: row.y, h: row.h });
  if (shapes.ray) canvas.dataset.rayTo = String(shapes.ray.to);
  else delete canvas.dataset.rayTo;
}

/** Every beat laid out at one size, the tallest beat's (the GIF's frames). */
function framesOf(trace, beats, width, words) {
  const box = { width, height: Math.max(...beats.map((b) => Math.max(240, pictureHeight(trace.tokens.length, width, b.key)))) };
  return { size: box, shapes: beats.map((_, b) => beatLayout(trace, box, b, trace.focus, words).shapes) };
}

/** Weights handed in alone: this beat needs Q, K and V, and the picture says so. */
function paintNeedsQKV(canvas, ctx, { size, key, title, words }) {
  const message = say(words, "maps.needs_qkv", { title: title ?? key });
  drawMessage(ctx, message, size);
  canvas.setAttribute("aria-label", message);
  canvas.dataset.beat = key;
}

/**
 * @param {{beat: () => number, beats: () => {key: string, title: string}[]}} steps the view's steps
 */
export function picturePanel(steps) {
  const memo = changes();
  const canvas = h("canvas", { role: "img", "data-words-label": "model.canvas.name" });
  const el = h("div", { class: "canvas-wrap rm-picture" }, [canvas]);
  const size = { width: 0, height: 0, ratio: 1 };
  const motion = createMotion(ANIMATION_MS, paint); // the step's animation: paint() reads motion.t
  let state = null;
  let laid = { trace: null, key: "", out: null }; // the last layout: animation frames only redraw it
  const trace = () => state?.trace ?? null;
  const beatKey = () => steps.beats()[steps.beat()]?.key;

  function layoutNow() {
    const t = trace();
    const key = `${size.width}x${size.height}:${steps.beat()}:${t.focus}`;
    if (laid.trace !== t || laid.key !== key) laid = { trace: t, key, out: beatLayout(t, size, steps.beat(), t.focus, state.words) };
    return laid.out;
  }

  /** Fit the canvas to its column and the beat; true when that changed its size and painted. */
  function resize() {
    const width = Math.max(300, Math.floor(el.clientWidth) || 300);
    const room = Math.floor(el.ownerDocument.defaultView.innerHeight * 0.78); // .rm-picture's max-height
    const height = Math.max(240, pictureHeight(trace()?.tokens.length ?? 6, width, beatKey() ?? "tokens", room));
    if (!fitCanvas(canvas, size, width, height)) return false;
    paint();
    return true;
  }

  function tell(key, values) {
    return say(state?.words, key, values);
  }

  function paint() {
    const ctx = canvas.getContext("2d");
    const t = trace();
    if (!ctx || !size.width) return;
    if (!t) return drawMessage(ctx, state?.error ? state.error.message : state?.status || tell("model.loading", { model: modelName(state?.words, state?.name) }), size);
    if (t.drawn_beats && !t.drawn_beats.includes(beatKey())) return paintNeedsQKV(canvas, ctx, { size, key: beatKey(), title: steps.beats()[steps.beat()]?.title, words: state.words });
    try {
      paintBeat(canvas, ctx, layoutNow(), { t: motion.t, size, focus: t.focus });
    } catch (err) {
      drawMessage(ctx, tell("canvas.failed", { error: err instanceof Error ? err.message : String(err) }), size);
    }
  }

  /** A long text's picture scrolls: bring the focus row into view when it is out of sight. */
  function showFocusRow() {
    if (!trace()) return;
    const row = layoutNow().rows[trace().focus];
    if (row && (row.y < el.scrollTop || row.y + row.h > el.scrollTop + el.clientHeight)) el.scrollTop = Math.max(0, row.y - el.clientHeight / 2);
  }

  /** A new beat: the picture fits it, and its shapes come in. */
  function animate() {
    motion.cancel();
    resize();
    showFocusRow();
    motion.run();
  }

  function update(next) {
    state = next;
    memo.next(next);
    if (memo.changed("trace")) {
      if (!next.trace) laid = { trace: null, key: "", out: null };
      motion.t = 1;
      if (!resize()) paint(); // a new size paints already: once is enough
      showFocusRow();
    } else if (!next.trace && memo.changed("status", "error", "words", "name")) paint();
  }

  return {
    el, update, resize, animate, paint,
    dispose: motion.cancel,
    /** The beat on screen laid out at the canvas's size (the Export menu's PNG and SVG). */
    picture: () => (trace() && size.width ? { ...layoutNow(), size: { width: size.width, height: size.height }, title: tell("model.canvas.name") } : null),
    /** Every beat's shapes at one size (the Export menu's GIF). */
    frames: () => (trace() && size.width ? framesOf(trace(), steps.beats(), size.width, state.words) : null),
    /** Paint a finished beat on another canvas (the Export menu's PNG and GIF). */
    paintFinished: (ctx, shapes, box) => {
      draw(ctx, shapes, 1, box);
      paintStrips(ctx, shapes, 1);
    },
  };
}
