// The online-softmax canvas of the Cheaper attention section, as shapes (pure: no DOM, no
// arithmetic of attention): /api/cheaper's `online` answer and a step → bars, labels, a caption.
//
// Step k < steps.length shows tile k done: every key seen so far as a bar of exp(s − m) (the
// answer's `seen`, at most 1, the current tile's keys violet, earlier ones blue-grey), the keys
// not yet read as empty dashed boxes, the tile framed. Step steps.length is the end: the bars
// are the final weights, the Softmax step's exact weights outlined over them. draw with
// `drawCheaper(ctx, shapes)`.

import { COLORS } from "./colors.js";
import { decodeNumber, num } from "./format.js";

export const CHEAPER_COLORS = Object.freeze({ current: COLORS.violet, earlier: COLORS.ropeBefore, frame: COLORS.grid, text: COLORS.ink, exact: COLORS.pair });

export const CAPTION_FONT = "600 13px system-ui, sans-serif";
const LINE = 16; // the caption's line height
const LABEL_ROOM = 22; // below the caption's last baseline: a full-height bar's number label

/** Split `text` at spaces into lines no wider than `width` by `measure` (a word wider stays whole). */
export function wrapCaption(text, width, measure) {
  const lines = [];
  for (const word of text.split(" ")) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && measure(last) <= width) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  return lines;
}

/** A bold 13 px character's width when there is no canvas to measure with (tests, no context). */
const estimate = (s) => s.length * 7.6;

/**
 * @param {{steps: any[], weights: any[], exact_weights: any[], end_caption: string}} online
 * @param {string[]} tokens
 * @param {number} step 0 … steps.length
 * @param {{width: number, height: number, measure?: (s: string) => number}} size measure: a
 *   string's width in the caption's font (the canvas's measureText), to wrap the caption
 * @returns {{type: string, [k: string]: any}[]}
 */
export function cheaperShapes(online, tokens, step, { width, height, measure = estimate }) {
  const n = tokens.length;
  const left = 16;
  const end = step >= online.steps.length;
  const tile = end ? null : online.steps[step];
  const caption = wrapCaption(end ? online.end_caption : tile.caption, width - 2 * left, measure);
  const top = 18 + LINE * (caption.length - 1) + LABEL_ROOM;
  const bottom = height - 28;
  const slot = (width - 2 * left) / n;
  const barW = Math.max(6, slot * 0.56);
  const span = bottom - top;
  const x = (j) => left + slot * j + (slot - barW) / 2;
  const shapes = caption.map((line, i) => ({ type: "text", x: left, y: 18 + LINE * i, text: line, color: CHEAPER_COLORS.text, align: "left", bold: true, caption: true }));
  if (tile) {
    shapes.push({ type: "frame", x: left + slot * tile.start + 2, y: top - 6, w: slot * (tile.stop - tile.start) - 4, h: span + 6, color: CHEAPER_COLORS.frame });
  }
  for (let j = 0; j < n; j++) {
    shapes.push({ type: "text", x: x(j) + barW / 2, y: height - 10, text: tokens[j], color: CHEAPER_COLORS.text, align: "center" });
    if (end) {
      const w = decodeNumber(online.weights[j]);
      const e = decodeNumber(online.exact_weights[j]);
      shapes.push({ type: "bar", x: x(j), y: bottom - span * w, w: barW, h: span * w, color: CHEAPER_COLORS.current, key: j });
      shapes.push({ type: "outline", x: x(j) - 2, y: bottom - span * e, w: barW + 4, h: span * e, color: CHEAPER_COLORS.exact, key: j });
      shapes.push({ type: "text", x: x(j) + barW / 2, y: bottom - span * Math.max(w, e) - 6, text: num(w), color: CHEAPER_COLORS.text, align: "center" });
    } else if (j < tile.stop) {
      const e = decodeNumber(tile.seen[j]);
      const color = j >= tile.start ? CHEAPER_COLORS.current : CHEAPER_COLORS.earlier;
      shapes.push({ type: "bar", x: x(j), y: bottom - span * e, w: barW, h: span * e, color, key: j });
    } else {
      shapes.push({ type: "empty", x: x(j), y: top, w: barW, h: span, color: CHEAPER_COLORS.earlier, key: j });
    }
  }
  return shapes;
}

/**
 * Paint `shapes` on a 2-D context (the drawer only calls ctx).
 * @param {CanvasRenderingContext2D} ctx
 * @param {{type: string, [k: string]: any}[]} shapes
 */
export function drawCheaper(ctx, shapes) {
  for (const sh of shapes) {
    ctx.save();
    if (sh.type === "bar") {
      ctx.fillStyle = sh.color;
      ctx.fillRect(sh.x, sh.y, sh.w, sh.h);
    } else if (sh.type === "outline" || sh.type === "frame" || sh.type === "empty") {
      ctx.strokeStyle = sh.color;
      ctx.lineWidth = sh.type === "outline" ? 2 : 1;
      if (sh.type === "empty") ctx.setLineDash([4, 3]);
      ctx.strokeRect(sh.x, sh.y, sh.w, sh.h);
    } else if (sh.type === "text") {
      ctx.fillStyle = sh.color;
      ctx.font = sh.bold ? CAPTION_FONT : "13px system-ui, sans-serif";
      ctx.textAlign = sh.align;
      ctx.fillText(sh.text, sh.x, sh.y);
    }
    ctx.restore();
  }
}
