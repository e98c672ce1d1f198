// The lesson picture's matrix (layout.js's Score, Softmax and Parallel beats): the frame with its
// query rows and key columns, and one cell with its number and heat.
//
// Pure: no DOM, no canvas. `L` is layout.js's context for the beat being laid out (the trace,
// the size, the font size `s`, the padding `P`, the focus, the page's words as `say`, and `out`,
// the layout the shapes, cells and labels go into). Row i, column j is query token i attending
// to key token j; a masked cell (the causal mask's upper triangle) is greyed.

import { COLORS, heat, inkOn } from "./colors.js";
import { num } from "./format.js";
import { MIN_FONT, fitText, textWidth, wrap } from "./layout_text.js";
import { tokenNames } from "./names.js";

/** Where the matrix's columns go across the picture (its width alone decides): the row labels'
 * width, each column's width and the first column's left edge. */
export function matrixColumns(L) {
  const { trace, W, s, P } = L;
  const rows = tokenNames(trace.tokens); // a repeated word by its place: b₁, b₂
  const cols = tokenNames(trace.key_tokens ?? trace.tokens);
  const n = rows.length;
  const m = cols.length;
  const labelW = Math.min(W * 0.28, Math.max(s * 4.5, ...rows.map((t) => textWidth(t, s) + s * 1.6)));
  const cw = Math.min(150, (W - 2 * P - labelW) / m);
  const x0 = P + labelW + Math.max(0, (W - 2 * P - labelW - m * cw) / 2);
  return { rows, cols, n, m, labelW, cw, x0 };
}

/** The matrix frame: row labels (queries), column labels (keys) and empty cells. */
export function matrixFrame(L, top, reserve) {
  const { W, H, s, P, focus, out } = L;
  const { rows, cols, n, m, labelW, cw, x0 } = matrixColumns(L);
  const keyAxis = wrap(L.say("canvas.key_axis"), s - 1, W - (P + labelW) - P);
  const capH = s * 1.3 * Math.max(1, keyAxis.length) + s * 0.1;
  const colH = s * 1.8;
  const y0 = top + capH + colH;
  const ch = Math.max(s * 1.7, Math.min(s * 4.4, (H - y0 - reserve - P) / n));
  const keyX = Math.min(x0, W - P - Math.max(0, ...keyAxis.map((t) => textWidth(t, s - 1))));
  keyAxis.forEach((text, k) => out.shapes.push({ kind: "text", x: keyX, y: top + s + k * s * 1.3, text, size: s - 1, color: COLORS.muted, maxWidth: W - keyX - P }));
  out.shapes.push({ kind: "text", x: x0 - 8, y: y0 - colH * 0.35, text: L.say("canvas.query_axis"), size: s - 1, color: COLORS.muted, align: "right" });
  cols.forEach((tok, j) => {
    const x = x0 + j * cw + cw / 2;
    out.shapes.push({ kind: "text", x, y: y0 - colH * 0.35, text: fitText(tok, s, cw - 4), size: s, align: "center", weight: "600", color: COLORS.ink, maxWidth: cw - 4 });
    out.labels.push({ role: "col", index: j, text: tok, x, y: y0 - colH / 2 });
  });
  rows.forEach((tok, i) => {
    const y = y0 + i * ch + ch / 2;
    const isFocus = i === focus;
    out.shapes.push({
      kind: "text", x: x0 - 8, y: y + s * 0.35, text: fitText(isFocus ? `▶ ${tok}` : tok, s, labelW - 4), size: s, align: "right",
      weight: isFocus ? "700" : "600", color: isFocus ? COLORS.violet : COLORS.ink, maxWidth: labelW - 4,
    });
    out.labels.push({ role: "row", index: i, text: tok, x: x0 - 8, y });
    for (let j = 0; j < m; j++) {
      out.shapes.push({ kind: "rect", x: x0 + j * cw + 1, y: y0 + i * ch + 1, w: cw - 2, h: ch - 2, fill: COLORS.empty, stroke: COLORS.grid, lineWidth: 1 });
    }
  });
  out.shapes.push({
    kind: "rect", x: x0 - 1, y: y0 + focus * ch - 1, w: m * cw + 2, h: ch + 2, stroke: COLORS.violet, lineWidth: 2.5, radius: 3,
  });
  return { x0, y0, cw, ch, n, m, left: x0 - labelW, bottom: y0 + n * ch };
}

/** A masked cell's grey (the muted ink reads on it at about 5:1). */
const MASKED = COLORS.masked;

/** One matrix cell with a number (and heat if `w` is given); a masked cell is greyed. */
export function cell(L, f, i, j, { value, lines, w, at }) {
  const { s, out } = L;
  const x = f.x0 + j * f.cw + 1;
  const y = f.y0 + i * f.ch + 1;
  const cw = f.cw - 2;
  const ch = f.ch - 2;
  const masked = Boolean(L.trace.mask && !L.trace.mask[i]?.[j]); // the causal mask's upper triangle
  const filled = w !== undefined && !masked;
  out.shapes.push({ kind: "rect", x, y, w: cw, h: ch, fill: masked ? MASKED : filled ? heat(w) : COLORS.paper, stroke: COLORS.grid, lineWidth: 1, at, ...(masked ? { dash: [3, 3] } : {}) });
  const size = Math.min(s, Math.max(MIN_FONT + 1, ch * 0.38));
  const fits = lines.length > 1 && lines.every((t) => textWidth(t, size - 1, true) < cw - 6) && ch > size * 2.6;
  const shown = fits ? lines : [lines[lines.length - 1].replace(/^= /, "")];
  const color = masked ? COLORS.muted : filled ? inkOn(w) : COLORS.ink;
  shown.forEach((text, k) => {
    const dy = (k - (shown.length - 1) / 2) * size * 1.25;
    out.shapes.push({ kind: "text", x: x + cw / 2, y: y + ch / 2 + dy + size * 0.35, text: fitText(text, fits ? size - 1 : size, cw - 4, true), size: fits ? size - 1 : size, mono: true, align: "center", color, maxWidth: cw - 4, at });
  });
  out.cells.push({ i, j, x, y, w: cw, h: ch, value, text: lines[lines.length - 1].replace(/^= /, "") });
}

/**
 * The heat scale's legend at (x, y): the colours from 0 to 1 (the range heat() spans; a weight
 * is never outside it) with the lowest and highest weight this picture shows marked on it.
 * Returns its height.
 */
export function heatLegend(L, x, y, width, values) {
  const { s, out } = L;
  const name = L.say("canvas.heat_legend");
  const size = s - 1;
  const nameW = textWidth(name, size) + s * 0.6;
  const w = Math.max(60, Math.min(260, width - nameW));
  const bx = x + nameW;
  const bh = s * 0.8;
  out.shapes.push({ kind: "text", x, y: y + bh * 0.85, text: name, size, color: COLORS.muted });
  const steps = 24;
  for (let k = 0; k < steps; k++) {
    out.shapes.push({ kind: "rect", x: bx + (k * w) / steps, y, w: w / steps + 0.5, h: bh, fill: heat((k + 0.5) / steps) });
  }
  out.shapes.push({ kind: "rect", x: bx, y, w, h: bh, stroke: COLORS.grid, lineWidth: 1 });
  const shown = values.filter(Number.isFinite);
  const ends = [[0, "0", "left"], [1, "1", "right"]];
  for (const [v, text, align] of ends) {
    out.shapes.push({ kind: "text", x: bx + v * w, y: y + bh + size * 1.1, text, size, align, color: COLORS.muted, mono: true });
  }
  if (shown.length) {
    const lo = Math.min(...shown);
    const hi = Math.max(...shown);
    for (const v of lo === hi ? [lo] : [lo, hi]) {
      const mx = bx + Math.min(1, Math.max(0, v)) * w;
      out.shapes.push({ kind: "line", x1: mx, y1: y - 3, x2: mx, y2: y + bh + 3, color: COLORS.ink, width: 2 });
    }
    const range = `${num(lo)} – ${num(hi)}`;
    const rx = Math.min(bx + w / 2, x + width - textWidth(range, size, true) / 2);
    out.shapes.push({ kind: "text", x: rx, y: y + bh + size * 1.1, text: range, size, align: "center", color: COLORS.ink, mono: true });
  }
  return bh + size * 1.6;
}
