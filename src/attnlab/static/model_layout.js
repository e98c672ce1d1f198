// The Real model view's pictures as plain data: one head's six beats, the heads grid's small
// heatmaps and the Compare panel's cosine plot.
//
// Pure: no DOM, no canvas, no clock (tested in Node). The shapes are layout.js's kinds (rect,
// text, line, ray) so draw.js paints them. A real head has up to 128 tokens and 32-wide (q, k, v)
// or 384-wide (the layer's input) vectors, so the picture is a column of token rows, a vector a
// strip of small coloured cells, and only the focus token's numbers are printed. Every number
// printed comes from the /api/model/trace answer; this module only places and formats them.
// Row i, column j of a matrix is query token i attending to key token j.
//
// It writes no sentence of its own: each beat's heading and description (the canvas's accessible
// name), the Score beat's formula and the Parallel beat's pair are the trace's captions
// (words/captions.py); the subtitles and column headings are the page's words (model.canvas.*,
// words/page.py), templates filled with the trace's tokens and numbers.

import { COLORS, MODEL_COLORS, heat, inkOn, rgb } from "./colors.js";
import { num } from "./format.js";
import { argmax, beatKeys } from "./layout.js";
import { LEGEND_HEIGHT, MASKED, legendShapes } from "./matrix_picture.js";
import { say } from "./words.js";

export { argmax, beatKeys }; // the lesson's, re-exported for the Real model's callers

const PAD = 12;
const HEAD = 58; // the title, the subtitle and the column headings above the rows
const MONO = true;


/** The largest |x| in nested arrays (a colour scale's reach); 1 when everything is 0. @param {any} a */
export function absMax(a) {
  let m = 0;
  const walk = (x) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (Number.isFinite(x)) m = Math.max(m, Math.abs(x));
  };
  walk(a);
  return m > 0 ? m : 1;
}

/**
 * A colour scale's reach that a few outliers cannot wash out: the 98th percentile of |x| (a real
 * model's vectors carry a handful of huge entries; scaled to those, every other cell is white).
 * Entries beyond it get the deepest colour. @param {any} a
 */
export function reachOf(a) {
  const xs = [];
  const walk = (x) => (Array.isArray(x) ? x.forEach(walk) : Number.isFinite(x) && xs.push(Math.abs(x)));
  walk(a);
  if (!xs.length) return 1;
  xs.sort((p, q) => p - q);
  const r = xs[Math.min(xs.length - 1, Math.floor(0.98 * xs.length))];
  return r > 0 ? r : absMax(a);
}

/** #rrggbb mixed with white: f = 0 white, 1 the colour. */
function tint(color, f) {
  const c = rgb(color);
  const g = Math.min(1, Math.max(0, f));
  return "#" + c.map((v) => Math.round(255 + (v - 255) * g).toString(16).padStart(2, "0")).join("");
}

/**
 * A vector entry's colour: teal above 0, orange below, white at 0, deeper as |x| nears `reach`.
 * @param {number} x
 * @param {number} reach
 */
export function diverging(x, reach) {
  if (!Number.isFinite(x)) return MODEL_COLORS.missing;
  const f = Math.sqrt(Math.min(1, Math.abs(x) / reach)); // sqrt: small entries stay visible
  return tint(x >= 0 ? COLORS.positive : COLORS.negative, f);
}

/** The first few and the last entry of a vector, as the seed writes vectors: [1.37, -1.04, …, 0.2]. */
export function shortVec(xs, head = 4) {
  if (xs.length <= head + 1) return "[" + xs.map((x) => num(x)).join(", ") + "]";
  return "[" + xs.slice(0, head).map((x) => num(x)).join(", ") + ", …, " + num(xs[xs.length - 1]) + "]";
}

/** A token row's height in CSS pixels: roomy for a short text, compact for 128 tokens. @param {number} n */
export function rowHeight(n) {
  return n <= 10 ? 28 : n <= 24 ? 22 : n <= 48 ? 17 : 14;
}

function labelWidth(width) {
  return Math.round(Math.min(120, Math.max(64, width * 0.16)));
}

const PARALLEL_EXTRA = 8 + 58 + LEGEND_HEIGHT + 8; // under the heading: the pair's lines, the legend

/**
 * The side of one cell of the Parallel beat's n × n matrix: as wide as the picture allows, and
 * no taller than `room` (the picture's visible height), so the whole matrix and the followed
 * token's row are on screen at once.
 */
function cellSide(n, width, room = Infinity) {
  const across = (width - 2 * PAD - labelWidth(width)) / n;
  const down = (room - HEAD - PARALLEL_EXTRA) / n;
  const fit = Math.min(across, down);
  return Math.min(44, fit >= 8 ? Math.floor(fit) : Math.max(1, fit));
}

/**
 * The canvas height a beat needs for n tokens at this width: the rows never get squeezed,
 * a long text gets a tall picture (the page scrolls it).
 * @param {number} n
 * @param {number} width
 * @param {string} beat the beat's key
 */
export function pictureHeight(n, width, beat, room = Infinity) {
  if (beat === "parallel") return HEAD + n * cellSide(n, width, room) + PARALLEL_EXTRA;
  return HEAD + n * rowHeight(n) + (beat === "blend" ? 76 : 16);
}

/**
 * One vector as a strip of equal cells from x to x + w: a "strip" shape holding one colour per
 * entry (a 384-wide vector is one shape, not 384 rects; model.js paints it as a scaled image).
 */
function strip(out, xs, x, y, w, h, reach, at) {
  out.push({ kind: "strip", x, y, w, h, colors: xs.map((v) => diverging(v, reach)), at });
}

/**
 * The shapes of one beat of a real head.
 * @param {Record<string, any>} trace the decoded /api/model/trace answer (format.decodeLesson)
 * @param {{width: number, height: number}} size CSS pixels (height from pictureHeight)
 * @param {number | string} beat an index into the trace's beats (its narration), or a key
 * @param {number} focus the query row followed
 * @param {Record<string, string> | null} [words] the page's words by key (/api/presets "words");
 *   a subtitle or heading whose key is missing is left empty
 * @returns {{beat: string, shapes: any[], description: string, ray: {from: number, to: number} | null,
 *   rows: {index: number, y: number, h: number}[]}}
 */
export function beatLayout(trace, size, beat, focus, words = null) {
  const key = typeof beat === "number" ? beatKeys(trace)[beat] : beat;
  if (!DRAW[key]) throw new RangeError(`unknown beat ${beat}`);
  const captions = trace.captions?.beats?.[key];
  if (captions?.heading === undefined) throw new TypeError(`the trace has no captions for the ${key} beat`);
  const n = trace.tokens.length;
  if (!(focus >= 0 && focus < n)) throw new RangeError(`focus ${focus} is outside 0..${n - 1}`);
  const W = size.width;
  const r = rowHeight(n);
  const LW = labelWidth(W);
  const G = {
    trace, W, H: size.height, n, r, LW, x0: PAD + LW, x1: W - PAD, focus,
    who: trace.tokens[focus], fs: Math.max(10, Math.min(13, r - 5)), heading: captions.heading,
    say: (k, values) => say(words, `model.canvas.${k}`, values),
  };
  const out = { beat: key, shapes: [], description: captions.description, ray: null, rows: [] };
  out.shapes.push({ kind: "rect", x: 0, y: 0, w: W, h: size.height, fill: COLORS.paper });
  DRAW[key](G, out);
  return out;
}

const DRAW = { tokens: tokensBeat, project: projectBeat, score: scoreBeat, softmax: softmaxBeat, blend: blendBeat, parallel: parallelBeat };

/** The beat's heading (the trace's caption, words/captions.py) and a line about this head's numbers. */
function titles(G, out, subtitle, title = G.heading) {
  const small = G.W < 560 ? 1 : 0; // a phone: a size smaller, then squeezed to fit
  out.shapes.push({ kind: "text", x: PAD, y: 18, text: title, size: 14 - small, weight: "700", color: COLORS.ink, maxWidth: G.W - 2 * PAD });
  out.shapes.push({ kind: "text", x: PAD, y: 37, text: subtitle, size: 12 - small, color: COLORS.muted, maxWidth: G.W - 2 * PAD });
}

function heading(G, out, x, text, align = "left") {
  out.shapes.push({ kind: "text", x, y: HEAD - 6, text, size: 11, weight: "600", color: COLORS.muted, align });
}

/** The token labels down the left, the focus row marked in violet. */
function rowLabels(G, out) {
  const { trace, n, r, x0, x1, focus } = G;
  for (let j = 0; j < n; j++) {
    const y = HEAD + j * r;
    out.rows.push({ index: j, y, h: r });
    if (j === focus) out.shapes.push({ kind: "rect", x: PAD - 4, y: y - 1, w: x1 - PAD + 8, h: r, fill: COLORS.violetSoft, radius: 3 });
    out.shapes.push({
      kind: "text", x: x0 - 8, y: y + r / 2 + G.fs * 0.36, text: trace.tokens[j], size: G.fs, align: "right",
      weight: j === focus ? "700" : "400", color: j === focus ? COLORS.violet : COLORS.ink, maxWidth: G.LW - 10,
    });
  }
}

const rowY = (G, j) => HEAD + j * G.r + 1;
const textY = (G, j) => HEAD + j * G.r + G.r / 2 + G.fs * 0.36;

function tokensBeat(G, out) {
  const { trace, n, focus } = G;
  const d = trace.embeddings[0].length;
  titles(G, out, G.say("tokens", { token: G.who, vector: shortVec(trace.embeddings[focus]) }));
  heading(G, out, G.x0, G.say("tokens_head", { d }));
  rowLabels(G, out);
  const reach = reachOf(trace.embeddings);
  for (let j = 0; j < n; j++) strip(out.shapes, trace.embeddings[j], G.x0, rowY(G, j), G.x1 - G.x0, G.r - 4, reach, (0.6 * j) / n);
}

function projectBeat(G, out) {
  const { trace, n, focus } = G;
  titles(G, out, G.say("project", { token: G.who, query: shortVec(trace.queries[focus]), key: shortVec(trace.keys[focus]) }));
  rowLabels(G, out);
  const gap = 14;
  const w = (G.x1 - G.x0 - 2 * gap) / 3;
  ["queries", "keys", "values"].forEach((name, c) => {
    const x = G.x0 + c * (w + gap);
    heading(G, out, x, G.say(`project_${name}`));
    const reach = reachOf(trace[name]);
    for (let j = 0; j < n; j++) strip(out.shapes, trace[name][j], x, rowY(G, j), w, G.r - 4, reach, 0.15 + 0.25 * c);
  });
}

function scoreBeat(G, out) {
  const { trace, n, focus } = G;
  const raw = trace.raw_scores[focus];
  const s = trace.scores[focus];
  const div = trace.captions.divisor; // the divisor as the captions write it
  const best = argmax(s);
  titles(G, out, trace.captions.beats.score.notes[0] ?? ""); // the formula with this head's divisor, in the captions' words
  rowLabels(G, out);
  const kw = Math.min(260, (G.x1 - G.x0) * 0.34);
  heading(G, out, G.x0, G.say("score_keys"));
  heading(G, out, G.x0 + kw + 16, G.say("score_head", { divisor: div }));
  const reach = reachOf(trace.keys);
  const sReach = absMax(s);
  const said = raw.map((x, j) => `${num(x)} / ${div} = ${num(s[j])}`);
  const barX = G.x0 + kw + 16 + Math.max(...said.map((t) => t.length)) * G.fs * 0.62 + 14; // after the longest line
  for (let j = 0; j < n; j++) {
    const at = 0.05 + (0.75 * j) / n;
    strip(out.shapes, trace.keys[j], G.x0, rowY(G, j), kw, G.r - 4, reach, at);
    out.shapes.push({
      kind: "text", x: G.x0 + kw + 16, y: textY(G, j), text: said[j], size: G.fs, mono: MONO,
      weight: j === best ? "700" : "400", color: COLORS.ink, at,
    });
    const bw = Math.max(0, (G.x1 - barX) / 2);
    const len = (Math.abs(s[j]) / sReach) * bw;
    if (Number.isFinite(s[j]) && bw > 55) {
      out.shapes.push({ kind: "rect", x: s[j] >= 0 ? barX + bw : barX + bw - len, y: rowY(G, j) + 2, w: len, h: G.r - 8, fill: diverging(s[j], sReach), at });
    }
  }
  if (G.x1 - barX > 110) {
    heading(G, out, barX + (G.x1 - barX) / 2, G.say("score_sign"), "center");
    out.shapes.push({ kind: "line", x1: barX + (G.x1 - barX) / 2, y1: HEAD - 2, x2: barX + (G.x1 - barX) / 2, y2: HEAD + n * G.r, color: COLORS.grid, width: 1 });
  }
}

function softmaxBeat(G, out) {
  const { trace, n, focus } = G;
  const w = trace.weights[focus];
  const s = trace.scores[focus];
  const best = argmax(w);
  titles(G, out, G.say("softmax", { token: G.who, best: trace.tokens[best], weight: num(w[best]) }));
  rowLabels(G, out);
  const sx = G.x0 + 70;
  const bx = sx + 26;
  const bw = Math.max(40, G.x1 - bx - 56);
  heading(G, out, sx, G.say("softmax_scores"), "right");
  heading(G, out, bx, G.say("softmax_weights"));
  for (let j = 0; j < n; j++) {
    const at = 0.1 + (0.6 * j) / n;
    out.shapes.push({ kind: "text", x: sx, y: textY(G, j), text: num(s[j]), size: G.fs, mono: MONO, align: "right", color: COLORS.muted, at, until: undefined });
    out.shapes.push({ kind: "text", x: sx + 8, y: textY(G, j), text: "→", size: G.fs, color: COLORS.muted, at });
    out.shapes.push({ kind: "rect", x: bx, y: rowY(G, j) + 1, w: bw, h: G.r - 6, fill: COLORS.empty, at });
    out.shapes.push({ kind: "rect", x: bx, y: rowY(G, j) + 1, w: Math.max(1, bw * w[j]), h: G.r - 6, fill: heat(w[j]), stroke: COLORS.grid, lineWidth: 0.5, at: at + 0.1 });
    out.shapes.push({ kind: "text", x: bx + bw + 6, y: textY(G, j), text: num(w[j]), size: G.fs, mono: MONO, weight: j === best ? "700" : "400", color: COLORS.ink, at: at + 0.1 });
  }
}

function blendBeat(G, out) {
  const { trace, n, focus } = G;
  const w = trace.weights[focus];
  const best = argmax(w);
  const dk = trace.d_k;
  titles(G, out, G.say("blend", { best: trace.tokens[best], weight: num(w[best]) }));
  rowLabels(G, out);
  const wx = G.x0 + 44;
  const vx = wx + 14;
  const sw = Math.max(40, Math.min(260, (G.x1 - vx - 34 - 40) / 2));
  const cx = vx + sw + 34;
  heading(G, out, wx, G.say("blend_weight"), "right");
  heading(G, out, vx, G.say(sw < 130 ? "blend_value" : "blend_value_wide", { d: dk }));
  heading(G, out, cx, G.say(sw < 130 ? "blend_scaled" : "blend_scaled_wide"));
  const reach = reachOf(trace.values); // one scale for v, weight × v and the sum, so they compare
  for (let j = 0; j < n; j++) {
    const at = 0.05 + (0.45 * j) / n;
    out.shapes.push({ kind: "text", x: wx, y: textY(G, j), text: num(w[j]), size: G.fs, mono: MONO, align: "right", color: COLORS.ink, weight: j === best ? "700" : "400", at });
    strip(out.shapes, trace.values[j], vx, rowY(G, j), sw, G.r - 4, reach, at);
    out.shapes.push({ kind: "text", x: vx + sw + 17, y: textY(G, j), text: "→", size: G.fs, align: "center", color: COLORS.muted, at: at + 0.1 });
    const scaled = trace.values[j].map((v) => v * w[j]); // a colour only: no number is shown
    strip(out.shapes, scaled, cx, rowY(G, j), sw, G.r - 4, reach, at + 0.1);
    if (j === best) out.shapes.push({ kind: "rect", x: cx - 2, y: rowY(G, j) - 1, w: sw + 4, h: G.r - 1, stroke: COLORS.violet, lineWidth: 2, at: 0.6 });
  }
  // the arrow: from the focus row, right of the strips, down or up to the chosen row
  const end = cx + sw;
  const ax = end + 12;
  const yf = rowY(G, focus) + G.r / 2 - 2;
  const yt = rowY(G, best) + G.r / 2 - 2;
  const c = COLORS.violet;
  if (best === focus) {
    out.shapes.push({ kind: "ray", x1: ax + 10, y1: yf + 6, x2: ax + 10, y2: yf + 6, lift: 14, color: c, width: 3, at: 0.6, dur: 0.3 });
  } else {
    out.shapes.push({ kind: "line", x1: end + 2, y1: yf, x2: ax + 12, y2: yf, color: c, width: 3, at: 0.6 });
    out.shapes.push({ kind: "line", x1: ax + 12, y1: yf, x2: ax + 12, y2: yt, color: c, width: 3, at: 0.65 });
    out.shapes.push({ kind: "line", x1: ax + 12, y1: yt, x2: end + 4, y2: yt, color: c, width: 3, at: 0.7 });
    out.shapes.push({ kind: "line", x1: end + 4, y1: yt, x2: end + 10, y2: yt - 5, color: c, width: 3, at: 0.7 });
    out.shapes.push({ kind: "line", x1: end + 4, y1: yt, x2: end + 10, y2: yt + 5, color: c, width: 3, at: 0.7 });
  }
  out.ray = { from: focus, to: best };
  const y = HEAD + n * G.r + 12;
  out.shapes.push({ kind: "line", x1: cx, y1: y - 6, x2: cx + sw, y2: y - 6, color: COLORS.ink, width: 1, at: 0.8 });
  out.shapes.push({ kind: "text", x: cx - 8, y: y + 28, text: G.say("blend_sum", { token: trace.tokens[focus] }), size: 12, weight: "700", align: "right", color: c, maxWidth: cx - PAD - 8, at: 0.8 });
  strip(out.shapes, trace.outputs[focus], cx, y + 16, sw, 16, reach, 0.8);
  out.shapes.push({ kind: "text", x: G.x0, y: y + 54, text: G.say("blend_output", { token: G.who, vector: shortVec(trace.outputs[focus], 5), d: dk }), size: 12, mono: MONO, color: COLORS.ink, maxWidth: G.x1 - G.x0, at: 0.8 });
}

function parallelBeat(G, out) {
  const { trace, n, focus } = G;
  const c = cellSide(n, G.W, G.H);
  const [pi, pj] = trace.pair ?? [focus, argmax(trace.weights[focus])];
  titles(G, out, G.say("parallel"));
  const top = HEAD + 8;
  const x0 = G.x0;
  if (c >= 6) {
    // key labels where they fit: every k-th column at a readable size (all of them on hover, in the table)
    const every = Math.max(1, Math.ceil(34 / c));
    trace.tokens.forEach((tok, j) => {
      if (j % every !== 0 && j !== focus) return;
      if (j !== focus && Math.abs(j - focus) < every) return;
      out.shapes.push({ kind: "text", x: x0 + j * c + (every === 1 ? c / 2 : 0), y: top - 4, text: tok, size: 10, align: every === 1 ? "center" : "left", color: j === focus ? COLORS.violet : COLORS.muted, maxWidth: every * c - 2, role: "key-label" });
    });
  } else heading(G, out, x0, G.say(c < 10 ? "parallel_keys_some" : "parallel_keys"));
  const fs = Math.max(8, Math.min(12, c - 4));
  const every = Math.ceil(10 / c); // small cells: label every k-th row (and the focus) so labels never overlap
  for (let i = 0; i < n; i++) {
    const y = top + i * c;
    const labelled = i === focus || (i % every === 0 && Math.abs(i - focus) >= every);
    if (labelled) out.shapes.push({
      kind: "text", x: x0 - 8, y: y + c / 2 + Math.min(fs, Math.max(8, c)) * 0.36, text: trace.tokens[i], size: Math.min(fs, Math.max(8, c)), align: "right",
      weight: i === focus ? "700" : "400", color: i === focus ? COLORS.violet : COLORS.ink, maxWidth: G.LW - 10,
    });
    out.rows.push({ index: i, y, h: c });
    for (let j = 0; j < n; j++) {
      const v = trace.weights[i][j];
      const at = (0.5 * i) / n;
      const masked = trace.mask ? !trace.mask[i][j] : false;
      out.shapes.push({ kind: "rect", x: x0 + j * c, y, w: c - (c > 6 ? 1 : 0), h: c - (c > 6 ? 1 : 0), fill: masked ? MASKED : heat(v), at, role: masked ? "masked" : undefined });
      if (c >= 30) out.shapes.push({ kind: "text", x: x0 + j * c + c / 2, y: y + c / 2 + 4, text: num(v), size: 10, mono: MONO, align: "center", color: inkOn(v), at });
    }
  }
  out.shapes.push({ kind: "rect", x: x0 - 1, y: top + focus * c - 1, w: n * c + 1, h: c + 1, stroke: COLORS.violet, lineWidth: 2, at: 0.6 });
  for (const [i, j] of [[pi, pj], [pj, pi]]) {
    out.shapes.push({ kind: "rect", x: x0 + j * c - 1, y: top + i * c - 1, w: c + 1, h: c + 1, stroke: COLORS.pair, lineWidth: 2.5, at: 0.7 });
  }
  // the pair read both ways, and why they differ: the trace's captions
  const lines = pi === pj ? [] : [trace.captions.pair.join("; "), ...trace.captions.beats.parallel.notes];
  lines.forEach((text, k) => out.shapes.push({
    kind: "text", x: PAD, y: top + n * c + 24 + 17 * k, text, size: 12, color: k === 0 ? COLORS.pair : COLORS.ink,
    weight: k === 0 ? "600" : "400", maxWidth: G.W - 2 * PAD, at: 0.7,
  }));
  // every matrix carries its heat scale (grey: masked keys, when the head has a mask)
  const masked = trace.mask?.some((row) => row.some((ok) => !ok));
  out.shapes.push(...legendShapes({ x: PAD, y: top + n * c + 58, w: G.W - 2 * PAD, title: G.say("legend"), masked: masked ? trace.model?.masked_legend ?? G.say("legend_masked") : null }).map((sh) => ({ ...sh, at: 0.7 })));
}

/**
 * A small heatmap of a head, for the heads grid: an n × n matrix, or one row drawn as a band.
 * @param {number[][] | number[]} m a matrix (rows) or a single focus row
 * @param {{width: number, height: number}} size
 * @param {number | null} focus the row to outline (matrix only)
 */
export function miniHeat(m, size, focus = null) {
  const shapes = [{ kind: "rect", x: 0, y: 0, w: size.width, h: size.height, fill: COLORS.paper }];
  if (!Array.isArray(m[0])) {
    // one row of a long text spreads thin: colour each weight against the row's largest
    // and a long row is wrapped into lines (reading order) so each token keeps a visible cell
    const top = Math.max(...m.filter(Number.isFinite), 1e-9);
    const cols = m.length * 3 <= size.width ? m.length : Math.ceil(Math.sqrt(m.length));
    const lines = Math.ceil(m.length / cols);
    const cw = size.width / cols;
    const ch = size.height / lines;
    m.forEach((v, j) => {
      const x = (j % cols) * cw;
      const y = Math.floor(j / cols) * ch;
      shapes.push({ kind: "rect", x, y, w: cw + 0.3, h: ch + 0.3, fill: heat(v / top) });
    });
    return shapes;
  }
  const n = m.length;
  const cw = size.width / n;
  const ch = size.height / n;
  m.forEach((row, i) => row.forEach((v, j) => shapes.push({ kind: "rect", x: j * cw, y: i * ch, w: cw + 0.3, h: ch + 0.3, fill: heat(v) })));
  if (focus !== null && focus >= 0 && focus < n) {
    shapes.push({ kind: "rect", x: 0.5, y: focus * ch, w: size.width - 1, h: Math.max(ch, 1.5), stroke: COLORS.violet, lineWidth: 1.2 });
  }
  return shapes;
}

/**
 * The Compare panel's line plot: cosine similarity (y) of the word's two vectors, layer by layer (x).
 * The y axis runs 0..1 (−1..1 when a cosine is negative); every point is labelled with its number.
 * @param {number[]} cosine from /api/model/compare, [0] entering layer 0, [l + 1] leaving layer l
 * @param {string[]} labels its cosine_labels ("embeddings", "layer 0", ...)
 * @param {{width: number, height: number}} size
 * @param {Record<string, string> | null} [words] the page's words (model.cosine.*)
 */
export function cosinePlot(cosine, labels, size, words = null) {
  const { width: W, height: H } = size;
  const L = { left: 52, right: 24, top: 40, bottom: 48 };
  const lo = cosine.some((c) => c < 0) ? -1 : 0;
  const ticks = lo === 0 ? [0, 0.25, 0.5, 0.75, 1] : [-1, -0.5, 0, 0.5, 1];
  const px = (k) => L.left + (cosine.length === 1 ? 0.5 : k / (cosine.length - 1)) * (W - L.left - L.right);
  const py = (v) => H - L.bottom - ((v - lo) / (1 - lo)) * (H - L.top - L.bottom);
  const shapes = [{ kind: "rect", x: 0, y: 0, w: W, h: H, fill: COLORS.paper }];
  for (const t of ticks) {
    shapes.push({ kind: "line", x1: L.left, y1: py(t), x2: W - L.right, y2: py(t), color: t === 0 ? COLORS.muted : MODEL_COLORS.gridLine, width: 1 });
    shapes.push({ kind: "text", x: L.left - 6, y: py(t) + 4, text: num(t), size: 11, align: "right", color: COLORS.muted, role: "y-tick" });
  }
  shapes.push({ kind: "line", x1: L.left, y1: L.top - 6, x2: L.left, y2: H - L.bottom, color: COLORS.ink, width: 1 });
  shapes.push({ kind: "line", x1: L.left, y1: H - L.bottom, x2: W - L.right, y2: H - L.bottom, color: COLORS.ink, width: 1 });
  const short = (label) => (label === "embeddings" ? say(words, "model.cosine.in") : label.replace(/^layer /, ""));
  labels.forEach((label, k) => shapes.push({ kind: "text", x: px(k), y: H - L.bottom + 16, text: short(label), size: 11, align: "center", color: COLORS.ink, role: "x-tick" }));
  shapes.push({ kind: "text", x: L.left + (W - L.left - L.right) / 2, y: H - 8, text: say(words, "model.cosine.x_axis"), size: 11, align: "center", color: COLORS.muted, role: "x-title" });
  shapes.push({ kind: "text", x: 8, y: 14, text: say(words, "model.cosine.y_axis", { low: num(lo) }), size: 11, color: COLORS.muted, role: "y-title" });
  const points = cosine.map((v, k) => ({ x: px(k), y: py(v), value: v, label: labels[k] }));
  for (let k = 1; k < points.length; k++) {
    shapes.push({ kind: "line", x1: points[k - 1].x, y1: points[k - 1].y, x2: points[k].x, y2: points[k].y, color: COLORS.violet, width: 2 });
  }
  for (const p of points) {
    shapes.push({ kind: "rect", x: p.x - 3.5, y: p.y - 3.5, w: 7, h: 7, fill: COLORS.violet, radius: 3.5 });
    shapes.push({ kind: "text", x: p.x, y: p.y - 9, text: num(p.value), size: 11, align: "center", color: COLORS.ink, weight: "600", role: "value" });
  }
  return { shapes, points, ticks };
}

/**
 * RoPE's score against distance: the focus query's score with one key (y) when the query sits
 * δ positions after it (x), both vectors unrotated and then rotated by RoPE (/api/model/trace
 * "decoder": the model's numbers). The distance the text itself has is marked, with a legend.
 * @param {number[]} scores (D,) scores at δ = 0..D − 1
 * @param {number} used the text's own distance (focus − key)
 * @param {{width: number, height: number}} size
 * @param {Record<string, string> | null} words the page's words (model.rope.*)
 */
export function ropePlot(scores, used, size, words = null) {
  const { width: W, height: H } = size;
  const L = { left: 56, right: 18, top: 34, bottom: 44 };
  const lo = Math.min(...scores);
  const hi = Math.max(...scores);
  const span = hi - lo || 1;
  const D = scores.length;
  const px = (d) => L.left + (d / Math.max(1, D - 1)) * (W - L.left - L.right);
  const py = (v) => H - L.bottom - ((v - lo) / span) * (H - L.top - L.bottom);
  const shapes = [{ kind: "rect", x: 0, y: 0, w: W, h: H, fill: COLORS.paper }];
  const yticks = [lo, lo + span / 2, hi];
  for (const t of yticks) {
    shapes.push({ kind: "line", x1: L.left, y1: py(t), x2: W - L.right, y2: py(t), color: MODEL_COLORS.gridLine, width: 1 });
    shapes.push({ kind: "text", x: L.left - 6, y: py(t) + 4, text: num(t), size: 11, align: "right", color: COLORS.muted, role: "y-tick" });
  }
  const step = D > 1000 ? 500 : D > 400 ? 100 : D > 100 ? 50 : 10;
  for (let d = 0; d < D; d += step) shapes.push({ kind: "text", x: px(d), y: H - L.bottom + 16, text: String(d), size: 11, align: "center", color: COLORS.ink, role: "x-tick" });
  shapes.push({ kind: "line", x1: L.left, y1: L.top - 6, x2: L.left, y2: H - L.bottom, color: COLORS.ink, width: 1 });
  shapes.push({ kind: "line", x1: L.left, y1: H - L.bottom, x2: W - L.right, y2: H - L.bottom, color: COLORS.ink, width: 1 });
  shapes.push({ kind: "text", x: L.left + (W - L.left - L.right) / 2, y: H - 8, text: say(words, "model.rope.x_axis"), size: 11, align: "center", color: COLORS.muted, role: "x-title" });
  shapes.push({ kind: "text", x: 8, y: 14, text: say(words, "model.rope.y_axis"), size: 11, color: COLORS.muted, role: "y-title" });
  // the curve: at most one point per pixel column, one polyline (at 2,048 distances its ~700
  // segments were as many <line> elements, built again on every head switch)
  const every = Math.max(1, Math.floor(D / (W - L.left - L.right)));
  const points = [];
  for (let d = 0; d < D; d += every) points.push([px(d), py(scores[d])]);
  if (points.length > 1) shapes.push({ kind: "polyline", points, color: COLORS.positive, width: 1.5, role: "curve" });
  if (used >= 0 && used < D) {
    shapes.push({ kind: "line", x1: px(used), y1: L.top - 4, x2: px(used), y2: H - L.bottom, color: COLORS.violet, width: 1, role: "used" });
    shapes.push({ kind: "rect", x: px(used) - 4, y: py(scores[used]) - 4, w: 8, h: 8, fill: COLORS.violet, radius: 4 });
  }
  // the legend, top right
  const lx = W - L.right - 290;
  shapes.push({ kind: "line", x1: lx, y1: 20, x2: lx + 22, y2: 20, color: COLORS.positive, width: 2 });
  shapes.push({ kind: "text", x: lx + 28, y: 24, text: say(words, "model.rope.legend_curve"), size: 11, color: COLORS.ink, role: "legend", maxWidth: 126 });
  shapes.push({ kind: "rect", x: lx + 160, y: 16, w: 8, h: 8, fill: COLORS.violet, radius: 4 });
  shapes.push({ kind: "text", x: lx + 174, y: 24, text: say(words, "model.rope.legend_used", { distance: used }), size: 11, color: COLORS.ink, role: "legend", maxWidth: 100 });
  return { shapes };
}
