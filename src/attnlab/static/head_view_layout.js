// The head view's geometry (BertViz's picture): queries in a left column, keys in a right one,
// a line from query i to key j for every weight kept, its opacity the weight itself. Pure (no
// DOM): head_view.js paints the lines on a canvas and puts the tokens beside it as buttons.
//
// The data is /api/model/heads decoded (`decodeHeads`): per head, and for each mean, every
// query row's `top` strongest keys, strongest first (all of a row's keys for a short text: the
// Python core chose and sent them, models/layer_heads.py). The toy lesson's whole matrices take
// the same form (`matrixHeads`). A "series" is what one colour draws: one head, or a mean.
// Several series overlay, each in its colour. `isolate` keeps one token's lines: as a query (its
// row) or as a key (its column). Lines under `minWeight` are left out: at opacity 0.005 a line
// is invisible.

import { HEAD_PALETTE, MODEL_COLORS } from "./colors.js";
import { unpack } from "./packed.js";

export const HEAD_COLORS = HEAD_PALETTE;
export const MEAN_COLOR = MODEL_COLORS.headMean;
export const ROW = 22; // a token's row, CSS pixels: 100 tokens make a 2,200-pixel column that scrolls
export const MIN_WEIGHT = 0.005;

/** The colour of head `head` (the same in the checkboxes and the lines). @param {number} head */
export const headColor = (head) => HEAD_COLORS[head % HEAD_COLORS.length];

/**
 * @typedef {{top: number, keys: ArrayLike<number>, weights: ArrayLike<number>, share: number}} Rows
 * each query row i's keys keys[i·top .. i·top + top) and their weights, strongest first
 */

/** One TopKeys answer (keys and weights packed (..., n, top)) as one Rows per head, or one. */
function rowsOf(answer) {
  if (!answer) return null;
  const keys = unpack(answer.keys).values;
  const { values: weights, shape } = unpack(answer.weights);
  const top = shape[shape.length - 1];
  const size = shape.slice(-2).reduce((a, b) => a * b, 1);
  return answer.share.map((share, s) => ({
    top, share, keys: keys.subarray(s * size, (s + 1) * size), weights: weights.subarray(s * size, (s + 1) * size),
  })); // prettier-ignore
}

/** An /api/model/heads answer as the layout reads it: `heads` one Rows per head, each mean one. */
export function decodeHeads(answer) {
  const heads = rowsOf(answer.heads);
  const [meanHeads] = rowsOf(answer.mean_heads) ?? [null];
  const [meanLayers] = rowsOf(answer.mean_layers) ?? [null];
  return { ...answer, heads, mean_heads: meanHeads, mean_layers: meanLayers };
}

/**
 * Whole matrices (the toy lesson's, each row every key) in the decoded form: each row's keys
 * ordered strongest first, ties in key order; nothing left out.
 * @param {{tokens: string[], matrices: number[][][]}} lesson
 */
export function matrixHeads({ tokens, matrices }) {
  const n = tokens.length;
  const heads = matrices.map((w) => {
    const keys = new Int32Array(n * n);
    const weights = new Float64Array(n * n); // the lesson's numbers as sent, not float32
    w.forEach((row, i) => {
      const order = row.map((x, k) => k).sort((a, b) => row[b] - row[a] || a - b);
      order.forEach((k, t) => { keys[i * n + t] = k; weights[i * n + t] = row[k]; }); // prettier-ignore
    });
    return { top: n, keys, weights, share: 1 };
  });
  return { source: "lesson", tokens, layer: 0, n_layers: 1, n_heads: heads.length, top: n, floor: 0, heads, mean_heads: null, mean_layers: null, note: "" };
}

/**
 * The series to draw: the ticked heads, or one mean.
 * @param {{heads: Rows[], mean_heads: Rows | null, mean_layers: Rows | null}} data
 * @param {{show: "heads" | "mean_heads" | "mean_layers", heads: number[]}} choice
 * @returns {{key: string, head: number | null, color: string, rows: Rows}[]}
 */
export function seriesOf(data, choice) {
  if (choice.show === "mean_heads" || choice.show === "mean_layers") {
    return data[choice.show] ? [{ key: choice.show, head: null, color: MEAN_COLOR, rows: data[choice.show] }] : [];
  }
  return [...new Set(choice.heads)].sort((a, b) => a - b).filter((hd) => data.heads[hd]).map((hd) => ({ key: `head ${hd}`, head: hd, color: headColor(hd), rows: data.heads[hd] }));
}

/**
 * The lines and rows of the picture.
 * @param {number} n the number of tokens
 * @param {{key: string, color: string, rows: Rows}[]} series
 * @param {{width: number, row?: number, isolate?: {side: "query" | "key", index: number} | null, minWeight?: number}} opts
 */
export function headViewLayout(n, series, { width, row = ROW, isolate = null, minWeight = MIN_WEIGHT }) {
  const y = (i) => row * (i + 0.5);
  const lines = [];
  for (const s of series) {
    const { top, keys, weights } = s.rows;
    for (let i = 0; i < n; i++) {
      if (isolate?.side === "query" && isolate.index !== i) continue;
      for (let t = i * top; t < (i + 1) * top; t++) {
        const j = keys[t], w = weights[t]; // prettier-ignore
        if (isolate?.side === "key" && isolate.index !== j) continue;
        if (!(w >= minWeight)) break; // strongest first: the rest of the row is fainter
        lines.push({ i, j, x1: 0, y1: y(i), x2: width, y2: y(j), color: s.color, opacity: w, weight: w, series: s.key });
      }
    }
  }
  return { width, height: row * n, row, rows: Array.from({ length: n }, (_, i) => ({ i, y: y(i) })), lines };
}

/**
 * The lines that cross the band of rows [top, top + height) of the picture (CSS pixels): what a
 * canvas the height of the scrolled window draws. A line runs from y1 to y2, so it crosses the
 * band unless both ends lie above it or both below.
 * @param {{y1: number, y2: number}[]} lines
 * @param {number} top
 * @param {number} height
 */
export function visibleLines(lines, top, height) {
  const bottom = top + height;
  return lines.filter((l) => Math.min(l.y1, l.y2) <= bottom && Math.max(l.y1, l.y2) >= top);
}

/**
 * What a token's readout lists: per series, its strongest weights drawn (as a query, its row;
 * as a key, its column: the rows that kept it), largest first, ties by position.
 * @param {{key: string, rows: Rows}[]} series
 * @param {"query" | "key"} side
 * @param {number} index
 * @param {number} [most]
 */
export function strongest(series, side, index, most = 3) {
  return series.map((s) => {
    const { top, keys, weights } = s.rows;
    const found = [];
    if (side === "query") {
      for (let t = index * top; t < (index + 1) * top; t++) found.push({ k: keys[t], w: weights[t] });
    } else {
      for (let t = 0; t < keys.length; t++) if (keys[t] === index) found.push({ k: Math.floor(t / top), w: weights[t] });
    }
    found.sort((a, b) => b.w - a.w || a.k - b.k);
    return { series: s.key, top: found.slice(0, most) };
  });
}
