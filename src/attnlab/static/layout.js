// The canvas picture of one beat, as plain data: layout(trace, size, beat, focus, words) -> shapes.
//
// Pure: no DOM, no canvas, no clock. A shape is a rect, a text, a line or the violet ray, in CSS
// pixels, with `at` in [0, 1]: the moment of the beat's animation at which it appears (draw.js
// fades it in from there). Every number printed comes from the trace; this module only places
// and formats them. Row i, column j of the matrix is query token i attending to key token j.
//
// It writes no sentence of its own: each beat's heading, notes and description are the trace's
// `captions` (words/captions.py, about the trace's own focus row), and the fixed labels (the
// axes, the legend) are the page's `words` by key (words/page.py), so the picture and the
// narration cannot disagree.
//
// The matrix the Score, Softmax and Parallel beats share (its frame and cells) is layout_matrix.js;
// text widths and line breaks are layout_text.js.

import { COLORS, heat, inkOn } from "./colors.js";
import { num, percent, vec } from "./format.js";
import { cell, heatLegend, matrixColumns, matrixFrame } from "./layout_matrix.js";
import { tokenNames } from "./names.js";
import { MIN_FONT, fitText, textBottom, textProblems, textWidth, wrap } from "./layout_text.js";

export { textProblems, wrap }; // the lesson's line breaks and text checks, for callers of layout.js

/** The beats a trace is told in, in order: its narration's keys (tokens, project, ... parallel). */
export function beatKeys(trace) {
  return (trace.narration ?? []).map((b) => b.key);
}

/**
 * @typedef {{kind: "rect", x: number, y: number, w: number, h: number, fill?: string,
 *   stroke?: string, lineWidth?: number, dash?: number[], radius?: number, at?: number}} Rect
 * @typedef {{kind: "text", x: number, y: number, text: string, size: number, color?: string,
 *   align?: CanvasTextAlign, weight?: string, mono?: boolean, maxWidth?: number, at?: number,
 *   until?: number}} Text   (until: the moment it is gone again)
 * @typedef {{kind: "line", x1: number, y1: number, x2: number, y2: number, color: string,
 *   width: number, at?: number}} Line
 * @typedef {{kind: "ray", x1: number, y1: number, x2: number, y2: number, lift: number,
 *   color: string, width: number, at?: number, dur?: number}} Ray
 * @typedef {Rect | Text | Line | Ray} Shape
 * @typedef {{i: number, j: number, x: number, y: number, w: number, h: number, value: number,
 *   text: string}} Cell
 * @typedef {{role: "row" | "col" | "token" | "dim", index: number, text: string, x: number,
 *   y: number}} Label
 * @typedef {{beat: string, shapes: Shape[], cells: Cell[], labels: Label[],
 *   ray: {from: number, to: number, weight: number} | null,
 *   pair: {i: number, j: number, wij: number, wji: number} | null, description: string,
 *   height: number}} Layout   (height: what the picture needs; more than size.height when cramped)
 */

/** The index of the largest finite value (the first one on a tie); -1 if none. @param {number[]} xs */
export function argmax(xs) {
  let best = -1;
  for (let j = 0; j < xs.length; j++) {
    if (!Number.isNaN(xs[j]) && (best < 0 || xs[j] > xs[best])) best = j;
  }
  return best;
}

const DRAW = { tokens: tokensBeat, project: projectBeat, score: scoreBeat, softmax: softmaxBeat, blend: blendBeat, parallel: parallelBeat };

/**
 * The shapes and labels of one beat.
 * @param {Record<string, any>} trace the decoded /api/lesson answer (see format.decodeLesson),
 *   with its `captions` and `narration`
 * @param {{width: number, height: number}} size canvas size in CSS pixels
 * @param {number | string} beat an index into the trace's beats, or a key such as "score"
 * @param {number} focus the query row the lesson follows
 * @param {Record<string, string>} [words] the page's fixed words by key (/api/presets "words");
 *   a label whose key is missing is left out
 * @returns {Layout}
 */
export function layout(trace, size, beat, focus, words = {}) {
  const keys = beatKeys(trace);
  const key = typeof beat === "number" ? keys[beat] : beat;
  if (!keys.includes(key) || !DRAW[key]) throw new RangeError(`unknown beat ${beat}`);
  const captions = trace.captions?.beats?.[key];
  if (!captions) throw new TypeError(`the trace has no captions for the ${key} beat`);
  const n = trace.tokens.length;
  if (!(focus >= 0 && focus < n)) throw new RangeError(`focus ${focus} is outside 0..${n - 1}`);
  const W = size.width;
  const H = size.height;
  // s - 2, the smallest size used, stays at MIN_FONT or above (readable on a phone)
  const s = Math.round(Math.max(MIN_FONT + 2, Math.min(15, W / 56, H / 34)));
  /** @type {Layout} */
  const out = {
    beat: key, shapes: [], cells: [], labels: [], ray: null, pair: null, description: captions.description,
  };
  const say = (k) => words[k] ?? "";
  const L = { trace, W, H, s, P: Math.max(10, Math.round(s * 1.1)), focus, out, captions, say };
  out.shapes.push({ kind: "rect", x: 0, y: 0, w: W, h: H, fill: COLORS.paper });
  DRAW[key](L);
  if (key === "softmax" || key === "parallel") {
    // the heat scale, under everything else (the canvas grows to fit it: out.height)
    const values = key === "softmax" ? trace.weights[focus] : trace.weights.flat();
    heatLegend(L, L.P, textBottom(out.shapes) + s * 1.2, W - 2 * L.P, values);
  }
  out.height = Math.ceil(Math.max(H, textBottom(out.shapes) + L.P));
  return out;
}


/**
 * The layout at `size`'s width and the height the picture needs (never less than size.height):
 * laid out again at that height until it asks for no more (a few rounds at most).
 * @returns {{layout: Layout, height: number}}
 */
export function layoutFitted(trace, size, beat, focus, words = {}) {
  let height = size.height;
  let out = layout(trace, size, beat, focus, words);
  for (let round = 0; round < 4 && out.height > height; round++) {
    height = out.height;
    out = layout(trace, { width: size.width, height }, beat, focus, words);
  }
  return { layout: out, height: Math.max(height, out.height) };
}

/** The beat's heading (its caption's) across the top; returns where the picture may start. */
function heading(L, text = L.captions.heading) {
  const size = L.s + 2;
  const lines = wrap(text, size, L.W - 2 * L.P);
  lines.forEach((line, k) => {
    L.out.shapes.push({
      kind: "text", x: L.P, y: L.P + size + k * size * 1.3, text: line, size, weight: "600", color: COLORS.ink,
      maxWidth: L.W - 2 * L.P,
    });
  });
  return L.P + size * (1.3 * lines.length + 0.9);
}

function dimName(L, d) {
  const names = L.trace.dim_names;
  return names && names[d] != null ? names[d] : `dim ${d + 1}`;
}

/** Columns of vectors, one per token; `groups` stack vertically (x alone, or q, k, v). */
function vectorColumns(L, top, groups) {
  const { trace, W, H, s, P, focus, out } = L;
  const n = trace.tokens.length;
  const d = Math.min(8, groups[0].rows[0].length);
  const dimW = Array.from({ length: d }, (_, k) => textWidth(dimName(L, k), s - 1));
  const labelW = Math.min(W * 0.3, Math.max(...dimW) + s);
  const cw = Math.min(120, (W - 2 * P - labelW) / n);
  const x0 = P + labelW + Math.max(0, (W - 2 * P - labelW - n * cw) / 2);
  const headH = s * 2.2;
  const nRows = groups.length * d + (groups.length > 1 ? groups.length : 0);
  const legendH = s * 2.2;
  const rh = Math.max(MIN_FONT * 2, s * 1.6, Math.min(s * (groups.length > 1 ? 2.4 : 3), (H - top - headH - P - legendH) / nRows));
  // the focus column, tinted the whole way down
  out.shapes.push({
    kind: "rect", x: x0 + focus * cw + 1, y: top, w: cw - 2, h: headH + nRows * rh + 4, fill: COLORS.violetSoft, radius: 6,
  });
  tokenNames(trace.tokens).forEach((tok, j) => {
    const at = groups.length > 1 ? 0 : (0.7 * j) / n;
    const isFocus = j === focus;
    out.shapes.push({
      kind: "rect", x: x0 + j * cw + 3, y: top + 2, w: cw - 6, h: headH - 6, radius: 6, at,
      fill: COLORS.paper, stroke: isFocus ? COLORS.violet : COLORS.grid, lineWidth: isFocus ? 2.5 : 1,
    });
    out.shapes.push({
      kind: "text", x: x0 + j * cw + cw / 2, y: top + headH / 2 + s * 0.35, text: fitText(tok, s, cw - 8), size: s,
      weight: isFocus ? "700" : "500", align: "center", color: isFocus ? COLORS.violet : COLORS.ink,
      maxWidth: cw - 8, at,
    });
    out.labels.push({ role: "token", index: j, text: tok, x: x0 + j * cw + cw / 2, y: top + headH / 2 });
  });
  let y = top + headH;
  groups.forEach((group, g) => {
    const at = groups.length > 1 ? 0.1 + 0.3 * g : 0;
    if (groups.length > 1) {
      out.shapes.push({
        kind: "text", x: x0 - labelW, y: y + rh * 0.7, text: group.label, size: s, weight: "600", color: COLORS.ink, at,
        maxWidth: W - 2 * P,
      });
      y += rh;
    }
    const maxAbs = Math.max(1e-12, ...group.rows.flat().filter(Number.isFinite).map(Math.abs));
    for (let k = 0; k < d; k++) {
      out.shapes.push({
        kind: "text", x: x0 - 6, y: y + rh * 0.62, text: dimName(L, k), size: s - 1, color: COLORS.muted,
        align: "right", maxWidth: labelW - 4, at,
      });
      if (g === 0) out.labels.push({ role: "dim", index: k, text: dimName(L, k), x: x0 - 6, y: y + rh / 2 });
      group.rows.forEach((row, j) => {
        const cellAt = groups.length > 1 ? at : (0.7 * j) / n;
        const v = row[k];
        const cx = x0 + j * cw + 4;
        const w = cw - 8;
        out.shapes.push({ kind: "rect", x: cx, y: y + 1, w, h: rh - 2, fill: COLORS.paper, stroke: COLORS.grid, lineWidth: 1, at: cellAt });
        const frac = Number.isFinite(v) ? Math.abs(v) / maxAbs : 0;
        if (frac > 0) {
          out.shapes.push({
            kind: "rect", x: cx + 1, y: y + rh - 6, w: (w - 2) * frac, h: 4,
            fill: v < 0 ? COLORS.negative : COLORS.positive, at: cellAt,
          });
        }
        out.shapes.push({
          kind: "text", x: cx + w / 2, y: y + rh * 0.5 + s * 0.2, text: fitText(num(v), Math.min(s + 1, rh * 0.5), w - 2, true), size: Math.min(s + 1, rh * 0.5), mono: true, align: "center",
          color: COLORS.ink, maxWidth: w - 2, at: cellAt,
        });
      });
      y += rh;
    }
  });
  const legend = L.say("canvas.bar_legend");
  if (legend) {
    const ly = y + s * 1.3;
    const lx = x0 - labelW;
    out.shapes.push({ kind: "rect", x: lx, y: ly - s * 0.45, w: s * 1.6, h: 4, fill: COLORS.positive });
    const width = W - lx - P - s * 2.1;
    wrap(legend, s - 2, width).forEach((text, k) => {
      out.shapes.push({ kind: "text", x: lx + s * 2.1, y: ly + k * (s - 2) * 1.3, text, size: s - 2, color: COLORS.muted, maxWidth: width });
    });
  }
  return y;
}

function tokensBeat(L) {
  const { trace } = L;
  const top = heading(L);
  if (trace.embeddings) vectorColumns(L, top, [{ label: "x", rows: trace.embeddings }]);
}

function projectBeat(L) {
  const { trace, say } = L;
  const top = heading(L);
  vectorColumns(L, top, [
    { label: say("canvas.queries"), rows: trace.queries },
    { label: say("canvas.keys"), rows: trace.keys },
    { label: say("canvas.values"), rows: trace.values },
  ]);
}


/** Notes under the picture from y down, wrapped to the width left of x. */
function notes(L, lines, x, y, { size = L.s, at = 0.9, color = COLORS.ink, gap = 1.4 } = {}) {
  const width = L.W - x - L.P;
  lines.flatMap((line) => wrap(line, size, width)).forEach((text, k) => {
    L.out.shapes.push({ kind: "text", x, y: y + k * size * gap, text, size, color, maxWidth: width, at });
  });
}

function scoreBeat(L) {
  const { trace, s, focus } = L;
  const top = heading(L);
  const f = matrixFrame(L, top, s * 3);
  const raw = trace.raw_scores[focus];
  const sc = trace.scores[focus];
  const div = trace.captions.divisor; // the divisor as the captions write it: 2, 0.5 (a T), 1, ∞
  for (let j = 0; j < f.m; j++) {
    const masked = trace.mask && !trace.mask[focus][j];
    const lines = masked ? [L.say("canvas.masked"), "= −∞"] : [`${num(raw[j])} / ${div}`, `= ${num(sc[j])}`];
    cell(L, f, focus, j, { value: sc[j], lines, at: (0.85 * j) / f.m });
  }
  notes(L, L.captions.notes, f.left, f.bottom + s * 1.8);
}

/**
 * The budget bar's shares across `width` from `x0` (a row spending more than 1 is drawn to
 * scale, `unit` the width of 1), and where each label goes: inside its share when "token nn%"
 * fits there, else under the bar, as near its share as the labels before it allow, on the first
 * of as many lines as it takes. Pure: the picture's width alone decides.
 */
function budgetPlan(w, cols, { x0, width, right, P, size }) {
  const spent = w.reduce((a, v) => a + (Number.isFinite(v) ? Math.max(0, v) : 0), 0);
  const unit = width / Math.max(1, spent);
  const shares = [];
  const ends = [];
  let x = x0;
  w.forEach((v, j) => {
    const share = Number.isFinite(v) ? Math.max(0, v) * unit : 0;
    if (share <= 0) return;
    const label = `${cols[j]} ${percent(v)}`;
    const inside = textWidth(label, size) * 1.15 + 8 < share;
    const item = { j, x, share, label, inside, left: 0, line: 0 };
    if (!inside) {
      const lw = textWidth(label, size) + 4;
      const wanted = Math.min(Math.max(P, x + share / 2 - lw / 2), right - lw);
      for (let line = 0; ; line++) {
        const left = ends[line] === undefined ? wanted : Math.max(wanted, ends[line] + 8);
        if (left + lw <= right && left - wanted < lw) {
          Object.assign(item, { left, line, lw });
          ends[line] = left + lw;
          break;
        }
      }
    }
    shares.push(item);
    x += share;
  });
  return { spent, unit, shares, lines: ends.length };
}

function softmaxBeat(L) {
  const { trace, s, P, W, focus, out } = L;
  const top = heading(L);
  const w = trace.weights[focus];
  // the budget bar's labels decide how much room goes under the matrix
  const { cols, cw, m, x0, labelW } = matrixColumns(L);
  const plan = budgetPlan(w, cols, { x0, width: cw * m, right: Math.max(x0 + cw * m, W - P), P, size: s - 1 });
  const budget = wrap(trace.captions.budget, s - 1, W - (x0 - labelW) - P);
  const over = plan.spent > 1 + 1e-9;
  const under = plan.lines ? s * (1.4 + 1.35 * plan.lines) : 0;
  const f = matrixFrame(L, top, s * (7.6 + 1.25 * (budget.length - 1) + (over ? 1.9 : 0)) + under);
  for (let j = 0; j < f.m; j++) {
    // the score beat's numbers, which the heat then covers cell by cell
    const score = trace.scores[focus][j];
    out.shapes.push({ kind: "text", x: f.x0 + j * f.cw + f.cw / 2, y: f.y0 + focus * f.ch + f.ch / 2 + s * 0.35, text: fitText(`s = ${num(score)}`, s - 1, f.cw - 4, true), size: s - 1, mono: true, align: "center", color: COLORS.muted, maxWidth: f.cw - 4, at: 0, until: 0.15 + (0.5 * j) / f.m });
    cell(L, f, focus, j, { value: w[j], lines: [num(w[j])], w: w[j], at: 0.15 + (0.5 * j) / f.m });
  }
  // the budget: one bar, each key's share as wide as its weight
  const by = f.bottom + s * 1.2;
  budget.forEach((text, k) => out.shapes.push({ kind: "text", x: f.left, y: by + s * 0.4 + k * s * 1.25, text, size: s - 1, color: COLORS.muted, maxWidth: W - f.left - P, at: 0.55 }));
  const barY = by + s * 1.25 * (budget.length - 1);
  const bh = s * 2.2;
  // a row that spends more than 1 (the wrong axis) is drawn to scale inside the picture, with
  // a mark where the budget of 1 ends
  if (over) {
    out.shapes.push({ kind: "line", x1: f.x0 + plan.unit, y1: barY + s * 0.6, x2: f.x0 + plan.unit, y2: barY + s + bh + s * 0.4, color: COLORS.pair, width: 2.5, at: 0.6 });
    const mark = L.say("canvas.budget_one");
    if (mark) out.shapes.push({ kind: "text", x: f.x0 + plan.unit, y: barY + s * 2.15 + bh, text: mark, size: s - 1, align: "center", color: COLORS.pair, at: 0.6 });
  }
  // under the bar (below the budget's mark, if any), a tick joins each outside label to its share
  const below = barY + s + bh + (over ? s * 2.4 : s * 0.5);
  for (const { j, x, share, label, inside, left, line, lw } of plan.shares) {
    out.shapes.push({ kind: "rect", x, y: barY + s, w: share, h: bh, fill: heat(w[j]), stroke: COLORS.paper, lineWidth: 1, at: 0.6 });
    if (inside) {
      out.shapes.push({ kind: "text", x: x + share / 2, y: barY + s + bh / 2 + s * 0.35, text: label, size: s - 1, align: "center", color: inkOn(w[j]), at: 0.6 });
      continue;
    }
    const center = x + share / 2;
    const y = below + s * 1.1 + line * s * 1.35;
    out.shapes.push({ kind: "line", x1: center, y1: barY + s + bh, x2: Math.min(Math.max(center, left + 2), left + lw - 2), y2: y - s * 0.95, color: COLORS.muted, width: 1, at: 0.6 });
    out.shapes.push({ kind: "text", x: left + 2, y, text: label, size: s - 1, color: COLORS.ink, maxWidth: lw, at: 0.6 });
  }
}

function blendBeat(L) {
  const { trace, W, H, s, P, focus, out } = L;
  const top = heading(L);
  const cols = tokenNames(trace.key_tokens ?? trace.tokens); // a repeated word by its place
  const m = cols.length;
  const w = trace.weights[focus];
  const target = argmax(w);
  // the token strip, with room above it for the ray's arc
  const lift = Math.min(s * 3.4, 54);
  const boxH = s * 2.2;
  const stripY = top + lift;
  const gap = 6;
  const bw = Math.min(120, (W - 2 * P - gap * (m - 1)) / m);
  const stripX = P + (W - 2 * P - (bw * m + gap * (m - 1))) / 2;
  const boxX = (j) => stripX + j * (bw + gap);
  cols.forEach((tok, j) => {
    const marked = j === focus || j === target;
    out.shapes.push({ kind: "rect", x: boxX(j), y: stripY, w: bw, h: boxH, radius: 6, fill: marked ? COLORS.violetSoft : COLORS.paper, stroke: marked ? COLORS.violet : COLORS.grid, lineWidth: marked ? 2.5 : 1 });
    out.shapes.push({ kind: "text", x: boxX(j) + bw / 2, y: stripY + boxH / 2 + s * 0.35, text: fitText(tok, s, bw - 6), size: s, align: "center", weight: marked ? "700" : "500", color: marked ? COLORS.violet : COLORS.ink, maxWidth: bw - 6 });
    out.labels.push({ role: "token", index: j, text: tok, x: boxX(j) + bw / 2, y: stripY + boxH / 2 });
  });
  if (target >= 0) {
    out.shapes.push({
      kind: "ray", x1: boxX(focus) + bw / 2, y1: stripY - 2, x2: boxX(target) + bw / 2, y2: stripY - 2,
      lift: lift - s * 0.6, color: COLORS.violet, width: Math.max(5, s * 0.45), at: 0, dur: 0.35,
    });
    out.ray = { from: focus, to: target, weight: w[target] };
  }
  // the weighted values, one row per key, then their sum
  const d = Math.min(8, trace.values[0].length);
  const y0 = stripY + boxH + s * 1.6;
  const rh = Math.max(s * 1.5, Math.min(s * 2.4, (H - y0 - P) / (m + 3.2)));
  const terms = cols.map((_, j) => `${num(w[j])} × ${vec(trace.values[j].slice(0, d))}`);
  const sum = `= ${vec(trace.outputs[focus].slice(0, d))}`;
  const size = s - 1;
  const labelW = Math.max(...cols.map((t) => textWidth(t, size))) + s;
  const termW = Math.max(...terms.map((t) => textWidth(t, size, true)), textWidth(sum, size, true)) + s;
  const barsX = P + labelW + termW;
  const barsW = W - P - barsX;
  const showBars = barsW >= d * 18;
  const dw = showBars ? barsW / d : 0;
  const scale = Math.max(1e-12, ...trace.values.flat().filter(Number.isFinite).map(Math.abs), ...trace.outputs[focus].filter(Number.isFinite).map(Math.abs));
  // each bar column is headed by its dimension's name, or by its number when a name does not
  // fit (a phone), the names then listed in full under the sum
  const dimNames = Array.from({ length: d }, (_, k) => dimName(L, k));
  const numbered = showBars && dimNames.some((name) => textWidth(name, s - 2) > dw - 2);
  if (showBars) {
    dimNames.forEach((name, k) => {
      out.shapes.push({ kind: "text", x: barsX + k * dw + 2, y: y0 - s * 0.4, text: numbered ? String(k + 1) : name, size: s - 2, color: COLORS.muted, maxWidth: dw - 2, at: 0.35 });
    });
  }
  const bars = (y, values, factor, color, at) => {
    if (!showBars) return;
    values.slice(0, d).forEach((v, k) => {
      out.shapes.push({ kind: "rect", x: barsX + k * dw + 2, y: y + rh * 0.2, w: dw - 6, h: rh * 0.6, fill: COLORS.empty, at });
      const len = Number.isFinite(v) ? (Math.abs(v * factor) / scale) * (dw - 6) : 0;
      if (len > 0.5) out.shapes.push({ kind: "rect", x: barsX + k * dw + 2, y: y + rh * 0.2, w: len, h: rh * 0.6, fill: v < 0 ? COLORS.negative : color, at });
    });
  };
  cols.forEach((tok, j) => {
    const y = y0 + j * rh;
    const at = 0.35 + (0.45 * j) / m;
    const star = j === target;
    if (star) out.shapes.push({ kind: "rect", x: P - 4, y: y + 1, w: W - 2 * P + 8, h: rh - 2, fill: COLORS.violetSoft, radius: 4, at });
    out.shapes.push({ kind: "text", x: P, y: y + rh * 0.62, text: tok, size, weight: star ? "700" : "500", color: star ? COLORS.violet : COLORS.ink, at, maxWidth: labelW - 4 });
    out.shapes.push({ kind: "text", x: P + labelW, y: y + rh * 0.62, text: terms[j], size, mono: true, color: COLORS.ink, at, maxWidth: termW - 4 });
    bars(y, trace.values[j], Number.isFinite(w[j]) ? w[j] : 0, COLORS.positive, at);
  });
  const ys = y0 + m * rh + s * 0.5;
  out.shapes.push({ kind: "line", x1: P, y1: ys - s * 0.3, x2: W - P, y2: ys - s * 0.3, color: COLORS.ink, width: 1.5, at: 0.85 });
  out.shapes.push({ kind: "text", x: P, y: ys + rh * 0.62, text: L.say("canvas.sum"), size, weight: "700", color: COLORS.violet, at: 0.85, maxWidth: labelW - 4 });
  out.shapes.push({ kind: "text", x: P + labelW, y: ys + rh * 0.62, text: sum, size, mono: true, weight: "700", color: COLORS.violet, at: 0.85, maxWidth: termW - 4 });
  const key = numbered ? [L.say("canvas.dims_key").replace("{list}", dimNames.map((name, k) => `${k + 1} ${name}`).join(", "))] : [];
  notes(L, [...L.captions.notes, ...key], P + labelW, ys + rh * 1.5, { size, color: COLORS.muted, at: 0.85, gap: 1.35 });
  bars(ys, trace.outputs[focus], 1, COLORS.violet, 0.85);
}

function parallelBeat(L) {
  const { trace, s, P, W, out } = L;
  const top = heading(L);
  const f = matrixFrame(L, top, s * 6);
  for (let i = 0; i < f.n; i++) {
    for (let j = 0; j < f.m; j++) {
      const w = trace.weights[i][j];
      cell(L, f, i, j, { value: w, lines: [num(w)], w, at: 0.1 });
    }
  }
  const [pi, pj] = trace.pair ?? [L.focus, L.focus];
  const readings = trace.captions.pair; // "bank → river = 0.69 (row bank, column river)", and back
  if (pi !== pj && pj < f.n && pi < f.m && readings.length) {
    const wij = trace.weights[pi][pj];
    const wji = trace.weights[pj][pi];
    out.pair = { i: pi, j: pj, wij, wji };
    for (const [i, j] of [[pi, pj], [pj, pi]]) {
      out.shapes.push({ kind: "rect", x: f.x0 + j * f.cw + 2, y: f.y0 + i * f.ch + 2, w: f.cw - 4, h: f.ch - 4, stroke: COLORS.pair, lineWidth: 4, radius: 3, at: 0.5 });
      out.shapes.push({ kind: "rect", x: f.x0 + j * f.cw + 5, y: f.y0 + i * f.ch + 5, w: f.cw - 10, h: f.ch - 10, stroke: COLORS.paper, lineWidth: 1.5, radius: 2, at: 0.5 });
    }
    const width = W - f.left - P;
    const bold = readings.flatMap((line) => wrap(line, s, width));
    const y = f.bottom + s * 1.8;
    [...bold, ...L.captions.notes.flatMap((line) => wrap(line, s - 1, width))].forEach((text, k) => {
      const strong = k < bold.length;
      out.shapes.push({ kind: "text", x: f.left, y: y + k * s * 1.4, text, size: strong ? s : s - 1, weight: strong ? "600" : "400", color: strong ? COLORS.pair : COLORS.ink, maxWidth: width, at: 0.5 });
    });
  }
}
