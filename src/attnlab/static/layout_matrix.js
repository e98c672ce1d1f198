// The lesson picture's matrix (layout.js's Score, Softmax and Parallel beats): the frame with its
// query rows and key columns, and one cell with its number and heat.
//
// Pure: no DOM, no canvas. `L` is layout.js's context for the beat being laid out (the trace,
// the size, the font size `s`, the padding `P`, the focus, the page's words as `say`, and `out`,
// the layout the shapes, cells and labels go into). Row i, column j is query token i attending
// to key token j; a masked cell (the causal mask's upper triangle) is greyed.

import { COLORS, heat, inkOn } from "./colors.js";
import { textWidth } from "./layout_text.js";

/** The matrix frame: row labels (queries), column labels (keys) and empty cells. */
export function matrixFrame(L, top, reserve) {
  const { trace, W, H, s, P, focus, out } = L;
  const rows = trace.tokens;
  const cols = trace.key_tokens ?? trace.tokens;
  const n = rows.length;
  const m = cols.length;
  const labelW = Math.min(W * 0.28, Math.max(s * 4.5, ...rows.map((t) => textWidth(t, s) + s * 1.6)));
  const cw = Math.min(150, (W - 2 * P - labelW) / m);
  const x0 = P + labelW + Math.max(0, (W - 2 * P - labelW - m * cw) / 2);
  const capH = s * 1.4;
  const colH = s * 1.8;
  const y0 = top + capH + colH;
  const ch = Math.max(s * 1.7, Math.min(s * 4.4, (H - y0 - reserve - P) / n));
  out.shapes.push({ kind: "text", x: x0, y: top + s, text: L.say("canvas.key_axis"), size: s - 1, color: COLORS.muted, maxWidth: W - x0 - P });
  out.shapes.push({ kind: "text", x: x0 - 8, y: y0 - colH * 0.35, text: L.say("canvas.query_axis"), size: s - 1, color: COLORS.muted, align: "right" });
  cols.forEach((tok, j) => {
    const x = x0 + j * cw + cw / 2;
    out.shapes.push({ kind: "text", x, y: y0 - colH * 0.35, text: tok, size: s, align: "center", weight: "600", color: COLORS.ink, maxWidth: cw - 4 });
    out.labels.push({ role: "col", index: j, text: tok, x, y: y0 - colH / 2 });
  });
  rows.forEach((tok, i) => {
    const y = y0 + i * ch + ch / 2;
    const isFocus = i === focus;
    out.shapes.push({
      kind: "text", x: x0 - 8, y: y + s * 0.35, text: isFocus ? `▶ ${tok}` : tok, size: s, align: "right",
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
const MASKED = "#dcdce3";

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
  const size = Math.min(s, Math.max(9, ch * 0.38));
  const fits = lines.length > 1 && lines.every((t) => textWidth(t, size - 1, true) < cw - 6) && ch > size * 2.6;
  const shown = fits ? lines : [lines[lines.length - 1].replace(/^= /, "")];
  const color = masked ? COLORS.muted : filled ? inkOn(w) : COLORS.ink;
  shown.forEach((text, k) => {
    const dy = (k - (shown.length - 1) / 2) * size * 1.25;
    out.shapes.push({ kind: "text", x: x + cw / 2, y: y + ch / 2 + dy + size * 0.35, text, size: fits ? size - 1 : size, mono: true, align: "center", color, maxWidth: cw - 4, at });
  });
  out.cells.push({ i, j, x, y, w: cw, h: ch, value, text: lines[lines.length - 1].replace(/^= /, "") });
}
