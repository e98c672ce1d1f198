// One head's whole attention matrix as a picture, as plain data: the RGBA pixels of its cells
// (one pixel a cell, painted with putImageData and scaled up without smoothing), the key and
// query labels where they fit, the focus row's outline and a heat-scale legend.
//
// Pure: no DOM, no canvas (tested in Node). The cells are /api/model/matrix's (weights in
// [0, 1], block-pooled for a long text); this module only colours and places them. Three
// colour scales, each with its legend:
//   linear  the weight itself, 0 to 1 (the lesson's scale);
//   row     each row against its own largest weight, so a faint row still shows its shape;
//   log     log₁₀ of the weight from 10⁻⁴ to 1, so small weights differ from zero.
// Masked cells (a decoder's later keys) are grey, never a colour of the scale.

import { COLORS, MODEL_COLORS, heat, rgb } from "./colors.js";

export const SCALES = ["linear", "row", "log"];
export const LOG_FLOOR = 1e-4;
export const MASKED = MODEL_COLORS.masked;
const LUT_SIZE = 256;

let lut = null;
/** The heat scale as 256 RGB triples, so 262,144 cells need no string work. */
function heatLUT() {
  if (lut) return lut;
  lut = new Uint8ClampedArray(LUT_SIZE * 3);
  for (let k = 0; k < LUT_SIZE; k++) {
    lut.set(rgb(heat(k / (LUT_SIZE - 1))), 3 * k);
  }
  return lut;
}

/**
 * Where a weight sits on a scale, 0 to 1.
 * @param {number} w @param {string} scale @param {number} rowMax the row's largest weight
 */
export function scalePosition(w, scale, rowMax = 1) {
  if (scale === "row") return rowMax > 0 ? Math.min(1, w / rowMax) : 0;
  if (scale === "log") return w <= LOG_FLOOR ? 0 : Math.min(1, (Math.log10(w) - Math.log10(LOG_FLOOR)) / -Math.log10(LOG_FLOOR));
  return Math.min(1, Math.max(0, w));
}

/**
 * Is cell (r, c) entirely masked? Under a causal mask a cell is masked when its first key comes
 * after its last query. @param {number[]} edges first (shown) token of each block
 */
export function cellMasked(r, c, edges, total, causal, kept = null) {
  if (!causal) return false;
  const lastRow = (r + 1 < edges.length ? edges[r + 1] : total) - 1;
  const firstKey = edges[c];
  return kept ? kept[firstKey] > kept[lastRow] : firstKey > lastRow;
}

/**
 * Is cell (r, c) entirely before the window of a local layer (keys i − W < j ≤ i)? Its last key
 * is at or before its first query − W, so no query of the block sees any key of it.
 */
export function cellBeforeWindow(r, c, edges, total, window, kept = null) {
  if (window == null) return false;
  const firstRow = edges[r];
  const lastKey = (c + 1 < edges.length ? edges[c + 1] : total) - 1;
  return kept ? kept[lastKey] <= kept[firstRow] - window : lastKey <= firstRow - window;
}

let byCode = { scale: "", step: 0, index: null };
/**
 * The heat-table entry (×3) of every uint16 code on a scale that reads the weight alone: a
 * weight is code × step (packed.js), so 65,536 scalePosition calls stand for 262,144 cells'
 * (at 2,048 tokens a third of the picture's time was Math.log10). Kept for the last scale.
 */
function codeIndex(scale, step) {
  if (byCode.scale === scale && byCode.step === step) return byCode.index;
  const index = new Uint16Array(65536);
  for (let code = 0; code < 65536; code++) index[code] = 3 * Math.round(scalePosition(Math.fround(code * step), scale) * (LUT_SIZE - 1));
  byCode = { scale, step, index };
  return index;
}

/**
 * The RGBA pixels of a cells × cells matrix.
 * @param {Float32Array} values row-major weights
 * @param {number} cells
 * @param {{scale?: string, rowMax?: Float32Array | number[], causal?: boolean, edges?: number[], shown?: number, kept?: number[] | null, codes?: Uint16Array | null, step?: number, window?: number | null}} opts
 *   codes, step: the uint16 codes `values` were unpacked from (value = code × step), when so
 */
export function matrixPixels(values, cells, { scale = "linear", rowMax = null, causal = false, edges = null, shown = cells, kept = null, codes = null, step = 0, window = null } = {}) {
  const table = heatLUT();
  const index = codes && scale !== "row" ? codeIndex(scale, step) : null;
  const out = new Uint8ClampedArray(cells * cells * 4);
  const grey = rgb(MASKED);
  const e = edges ?? Array.from({ length: cells }, (_, i) => i);
  const top = LUT_SIZE - 1;
  let open = 0; // this row's unmasked cells come first: cellMasked grows with c, and with r it moves right
  let from = 0; // a local layer's: the cells before `from` lie before the window (it moves right too)
  for (let r = 0; r < cells; r++) {
    if (!causal) open = cells;
    else while (open < cells && !cellMasked(r, open, e, shown, causal, kept)) open++;
    while (from < open && cellBeforeWindow(r, from, e, shown, window, kept)) from++;
    const most = rowMax ? rowMax[r] : 1;
    const row = r * cells;
    for (let c = 0; c < cells; c++) {
      const p = 4 * (row + c);
      if (c >= open || c < from) {
        out[p] = grey[0];
        out[p + 1] = grey[1];
        out[p + 2] = grey[2];
      } else {
        const k = index ? index[codes[row + c]] : 3 * Math.round(scalePosition(values[row + c], scale, most) * top);
        out[p] = table[k];
        out[p + 1] = table[k + 1];
        out[p + 2] = table[k + 2];
      }
      out[p + 3] = 255;
    }
  }
  return out;
}

/** The legend's ticks for a scale: [position 0..1, label]. */
export function legendTicks(scale) {
  if (scale === "log") return [[0, "≤0.0001"], [0.25, "0.001"], [0.5, "0.01"], [0.75, "0.1"], [1, "1"]];
  if (scale === "row") return [[0, "0"], [0.5, "½ row max"], [1, "row max"]];
  return [[0, "0"], [0.25, "0.25"], [0.5, "0.5"], [0.75, "0.75"], [1, "1"]];
}

/**
 * A heat-scale legend: a bar of the scale's colours, its ticks, a title, and (when a mask is
 * drawn) a grey swatch. Shapes for draw.js, from (x, y), `w` wide.
 * @param {{x: number, y: number, w: number, scale?: string, title: string, masked?: string | null}} o
 */
export function legendShapes({ x, y, w, scale = "linear", title, masked = null }) {
  const shapes = [];
  const steps = 48;
  const barW = Math.max(80, Math.min(w - (masked ? 110 : 0), 320));
  shapes.push({ kind: "text", x, y: y + 10, text: title, size: 12, weight: "600", color: COLORS.ink, role: "legend-title", maxWidth: w });
  const by = y + 18;
  for (let k = 0; k < steps; k++) {
    shapes.push({ kind: "rect", x: x + (k * barW) / steps, y: by, w: barW / steps + 0.5, h: 12, fill: heat(k / (steps - 1)) });
  }
  shapes.push({ kind: "rect", x, y: by, w: barW, h: 12, stroke: COLORS.grid, lineWidth: 1 });
  for (const [pos, label] of legendTicks(scale)) {
    const tx = x + pos * barW;
    shapes.push({ kind: "line", x1: tx, y1: by + 12, x2: tx, y2: by + 16, color: COLORS.muted, width: 1 });
    shapes.push({ kind: "text", x: tx, y: by + 28, text: label, size: 11, align: pos === 0 ? "left" : pos === 1 ? "right" : "center", color: COLORS.muted, role: "legend-tick" });
  }
  if (masked) {
    const mx = x + barW + 18;
    shapes.push({ kind: "rect", x: mx, y: by, w: 14, h: 12, fill: MASKED, stroke: COLORS.grid, lineWidth: 1 });
    shapes.push({ kind: "text", x: mx + 20, y: by + 10, text: masked, size: 11, color: COLORS.ink, role: "legend-masked", maxWidth: Math.max(40, x + w - mx - 20) });
  }
  return shapes;
}
export const LEGEND_HEIGHT = 50;

/**
 * Where the picture goes and its labels: the matrix a square of `side` CSS pixels right of the
 * row labels and under the key labels; a label on every k-th row and column so none overlap
 * (every one is named on hover), the focus row's always, in violet: named `focusLabel`, the
 * followed token itself, not its block's first token when cells pool several rows.
 * @param {{cells: number, tokens: string[], width: number, focus: number | null, focusLabel?: string | null}} o
 *   tokens: the token of each cell (its block's first)
 */
export function matrixLayout({ cells, tokens, width, focus = null, focusLabel = null, maxSide = 640 }) {
  const LW = 96; // row labels
  const TOP = 22; // key labels
  const side = Math.max(160, Math.min(maxSide, width - LW - 16));
  const px = side / cells;
  const x0 = LW;
  const y0 = TOP;
  const shapes = [];
  const fs = Math.max(9, Math.min(12, px - 2));
  const everyRow = Math.max(1, Math.ceil(13 / px));
  const everyCol = Math.max(1, Math.ceil(46 / px));
  for (let r = 0; r < cells; r++) {
    const isFocus = r === focus;
    if (!isFocus && (r % everyRow !== 0 || (focus !== null && Math.abs(r - focus) * px < 13))) continue;
    shapes.push({ kind: "text", x: x0 - 6, y: y0 + (r + 0.5) * px + fs * 0.36, text: isFocus && focusLabel != null ? focusLabel : tokens[r], size: fs, align: "right", weight: isFocus ? "700" : "400", color: isFocus ? COLORS.violet : COLORS.ink, maxWidth: LW - 10, role: "row-label" });
  }
  for (let c = 0; c < cells; c += everyCol) {
    shapes.push({ kind: "text", x: x0 + c * px + (everyCol === 1 ? px / 2 : 0), y: y0 - 6, text: tokens[c], size: 10, align: everyCol === 1 ? "center" : "left", color: COLORS.muted, maxWidth: Math.max(8, everyCol * px - 3), role: "key-label" });
  }
  shapes.push({ kind: "rect", x: x0 - 0.5, y: y0 - 0.5, w: side + 1, h: side + 1, stroke: COLORS.grid, lineWidth: 1 });
  if (focus !== null && focus >= 0 && focus < cells) {
    shapes.push({ kind: "rect", x: x0 - 3, y: y0 + focus * px - 1.5, w: side + 6, h: Math.max(px, 1) + 3, stroke: COLORS.violet, lineWidth: 2, role: "focus-row" });
  }
  return { x0, y0, side, px, shapes, height: y0 + side + 12 };
}

/** The cell under CSS point (x, y) of the picture, or null outside. */
export function cellAt(layout, cells, x, y) {
  const c = Math.floor((x - layout.x0) / layout.px);
  const r = Math.floor((y - layout.y0) / layout.px);
  return r >= 0 && r < cells && c >= 0 && c < cells ? { r, c } : null;
}
