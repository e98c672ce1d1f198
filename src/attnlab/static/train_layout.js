// The Train view's geometry (train_view.js draws it): a curve panel and an attention map, each
// turned from the numbers the server sent and a size into shapes, with no DOM, so Node's tests
// read them (tests/js/train_layout.test.mjs).
//
//   curveShapes(series, {steps, width, height})   one polyline per series on a shared y range,
//                                                 x from step 0 to the run's last step, so a
//                                                 curve grows left to right as chunks arrive
//   mapShapes(weights, tokens, {width, height})   an n × n grid of cells coloured by weight
//                                                 (rows = queries), with the tokens as labels
//                                                 and each weight written when cells are large

import { heat, inkOn } from "./colors.js";
import { g2, num } from "./format.js";

const PAD = { left: 44, right: 8, top: 8, bottom: 22 };

/**
 * The y range of every finite value in `series`, widened a little; [0, 1] when there is none.
 * @param {{values: number[]}[]} series
 */
export function yRange(series, { log = false, top = null } = {}) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) for (const v of s.values) if (Number.isFinite(v)) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
  if (!Number.isFinite(lo)) return [0, 1];
  if (log) return [Math.floor(lo), Math.max(Math.ceil(hi), Math.floor(lo) + 1)]; // whole powers of ten
  const floor = (v) => (log || lo < 0 ? v : Math.max(0, v)); // a norm or a weight never below 0
  const ceil = (v) => (top === null ? v : Math.min(top, v)); // a weight or a share never above 1
  if (hi - lo < 1e-9) return [floor(lo - 0.5), Math.max(ceil(hi + 0.5), hi)];
  const pad = (hi - lo) * 0.06;
  return [floor(lo - pad), Math.max(ceil(hi + pad), hi)];
}

/**
 * A curve panel's shapes: its frame, its y labels (the range's ends), its x labels (0 and the
 * run's last step) and one polyline per series (`steps` and `values` of equal length).
 * `log`: y is log₁₀ of the value (a value of 0 or less is left out), the labels the range's
 * ends as numbers; `top`: the y range never goes above it (1 for a weight or a share);
 * `mark`: a step to draw a vertical line at (the checkpoint the scrubber shows), or null.
 * @param {{key: string, color: string, steps: number[], values: number[]}[]} series
 * @param {{steps: number, width: number, height: number, log?: boolean, top?: number | null, mark?: number | null}} size
 */
export function curveShapes(series, { steps, width, height, log = false, top = null, mark = null }) {
  const shown = log ? series.map((s) => ({ ...s, values: s.values.map((v) => (v > 0 ? Math.log10(v) : NaN)) })) : series;
  const [lo, hi] = yRange(shown, { log, top });
  const tick = (v) => (log ? g2(10 ** v) : num(v, 3));
  const x0 = PAD.left;
  const x1 = width - PAD.right;
  const y0 = height - PAD.bottom;
  const y1 = PAD.top;
  const x = (step) => x0 + ((x1 - x0) * step) / Math.max(1, steps);
  const y = (v) => y0 - ((y0 - y1) * (v - lo)) / (hi - lo);
  const lines = shown.map((s) => ({
    key: s.key,
    color: s.color,
    points: s.steps.map((step, i) => [x(step), y(s.values[i])]).filter(([, py]) => Number.isFinite(py)),
  }));
  return {
    frame: { x: x0, y: y1, width: x1 - x0, height: y0 - y1 },
    labels: [
      { text: tick(hi), x: x0 - 4, y: y1 + 8, align: "right" },
      { text: tick(lo), x: x0 - 4, y: y0, align: "right" },
      { text: "0", x: x0, y: height - 6, align: "left" },
      { text: String(steps), x: x1, y: height - 6, align: "right" },
    ],
    lines,
    mark: mark === null ? null : { x: x(mark), y0, y1 },
  };
}

/**
 * An attention map's shapes: a cell per weight, the key tokens above, the query tokens at the
 * left (when there is room for them), each weight written in its cell when a cell is 34 px or
 * more; `row` (the row the view prints) is outlined.
 * @param {number[][]} weights
 * @param {string[]} tokens
 * @param {{width: number, height: number, row?: number | null}} size
 */
export function mapShapes(weights, tokens, { width, height, row = null }) {
  const n = weights.length;
  const labelled = n <= 8;
  const margin = labelled ? 52 : 4;
  const cell = Math.max(1, Math.floor(Math.min(width - margin, height - (labelled ? 20 : 4)) / Math.max(1, n)));
  const left = margin;
  const top = labelled ? 20 : 4;
  const cells = [];
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < weights[i].length; j += 1) {
      const w = weights[i][j];
      cells.push({
        x: left + j * cell, y: top + i * cell, size: cell, fill: heat(w),
        text: cell >= 34 ? num(w) : null, ink: inkOn(w),
      });
    }
  }
  const labels = [];
  if (labelled) {
    tokens.forEach((t, j) => labels.push({ text: t, x: left + j * cell + cell / 2, y: top - 6, align: "center" }));
    tokens.forEach((t, i) => labels.push({ text: t, x: left - 4, y: top + i * cell + cell / 2 + 4, align: "right" }));
  }
  const outline = row === null || row === undefined ? null : { x: left, y: top + row * cell, width: cell * n, height: cell };
  return { cells, labels, outline, size: { width: left + cell * n + 2, height: top + cell * n + 2 } };
}
