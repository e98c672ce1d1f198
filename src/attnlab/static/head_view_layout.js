// The head view's geometry (BertViz's picture): queries in a left column, keys in a right one,
// a line from query i to key j for every weight, its opacity the weight itself. Pure (no DOM):
// head_view.js paints the lines on a canvas and puts the tokens beside it as buttons.
//
// A "series" is what one colour draws: one head's matrix, or a mean (over this layer's heads,
// or over every layer's heads), all from /api/model/heads (or the lesson's heads). Several
// series overlay, each in its colour. `isolate` keeps one token's lines: as a query (its row)
// or as a key (its column). Lines under `minWeight` are left out: at opacity 0.005 a line is
// invisible, and a 100-token head has 10,000 of them.

import { HEAD_PALETTE, MODEL_COLORS } from "./colors.js";

export const HEAD_COLORS = HEAD_PALETTE;
export const MEAN_COLOR = MODEL_COLORS.headMean;
export const ROW = 22; // a token's row, CSS pixels: 100 tokens make a 2,200-pixel column that scrolls
export const MIN_WEIGHT = 0.005;

/** The colour of head `head` (the same in the checkboxes and the lines). @param {number} head */
export const headColor = (head) => HEAD_COLORS[head % HEAD_COLORS.length];

/**
 * The series to draw: the ticked heads, or one mean.
 * @param {{heads: number[][][], mean_heads: number[][], mean_layers: number[][]}} data
 * @param {{show: "heads" | "mean_heads" | "mean_layers", heads: number[]}} choice
 * @returns {{key: string, head: number | null, color: string, weights: number[][]}[]}
 */
export function seriesOf(data, choice) {
  if (choice.show === "mean_heads" || choice.show === "mean_layers") {
    return [{ key: choice.show, head: null, color: MEAN_COLOR, weights: data[choice.show] }];
  }
  return [...new Set(choice.heads)].sort((a, b) => a - b).filter((hd) => data.heads[hd]).map((hd) => ({ key: `head ${hd}`, head: hd, color: headColor(hd), weights: data.heads[hd] }));
}

/**
 * The lines and rows of the picture.
 * @param {number} n the number of tokens
 * @param {{key: string, head: number | null, color: string, weights: number[][]}[]} series
 * @param {{width: number, row?: number, isolate?: {side: "query" | "key", index: number} | null, minWeight?: number}} opts
 */
export function headViewLayout(n, series, { width, row = ROW, isolate = null, minWeight = MIN_WEIGHT }) {
  const y = (i) => row * (i + 0.5);
  const lines = [];
  for (const s of series) {
    for (let i = 0; i < n; i++) {
      if (isolate?.side === "query" && isolate.index !== i) continue;
      const w = s.weights[i];
      for (let j = 0; j < n; j++) {
        if (isolate?.side === "key" && isolate.index !== j) continue;
        if (!(w[j] >= minWeight)) continue;
        lines.push({ i, j, x1: 0, y1: y(i), x2: width, y2: y(j), color: s.color, opacity: w[j], weight: w[j], series: s.key });
      }
    }
  }
  return { width, height: row * n, row, rows: Array.from({ length: n }, (_, i) => ({ i, y: y(i) })), lines };
}

/**
 * What a token's readout lists: per series, its strongest weights (as a query, its row; as a
 * key, its column), largest first.
 * @param {{key: string, weights: number[][]}[]} series
 * @param {"query" | "key"} side
 * @param {number} index
 * @param {number} [most]
 */
export function strongest(series, side, index, most = 3) {
  return series.map((s) => {
    const values = side === "query" ? s.weights[index] : s.weights.map((r) => r[index]);
    const order = values.map((w, k) => ({ k, w })).sort((a, b) => b.w - a.w || a.k - b.k);
    return { series: s.key, top: order.slice(0, most) };
  });
}
