// The masking panel's plots: distance per layer, one line per series, as layout shapes (rect,
// line, text) that model_dom.paintSVG paints. Pure (no DOM). The y axis starts at 0 and ends at
// a round number just above the largest value (a distance of 0.05 must not look flat on a 0-1
// axis); its ticks say where it ends. `distanceText` writes a distance for the table and the
// plots' readout alike: two significant digits below 1, so a change of 0.00016 never reads 0
// (the panel says 0 means nothing moved).

import { COLORS } from "./colors.js";
import { num } from "./format.js";

/** The smallest distance written as a number; anything smaller (but not 0) reads "<0.0001". */
export const SMALLEST = 1e-4;

/**
 * A distance as a learner reads it: 0 only when it is 0, two significant digits below 1
 * (0.00016, 0.0046, 0.12), two decimals from 1 on (19.67), "<0.0001" below SMALLEST.
 * @param {number} x
 */
export function distanceText(x) {
  if (!Number.isFinite(x) || x === 0 || Math.abs(x) >= 1) return num(x);
  if (Math.abs(x) < SMALLEST) return x > 0 ? `<${SMALLEST}` : `>-${SMALLEST}`;
  return String(Number(x.toPrecision(2)));
}

/** The smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, … at or above `x` (0.01 for 0). */
export function niceTop(x) {
  if (!(x > 0.01)) return 0.01;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x - 1e-12) return m * p;
  return 10 * p;
}

/**
 * @param {{values: number[], color: string, label: string}[]} series same length as `labels`
 * @param {string[]} labels the x ticks
 * @param {{width: number, height: number}} size
 * @param {{xTitle: string, yTitle: string}} titles
 */
export function distancePlot(series, labels, size, { xTitle, yTitle }) {
  const { width: W, height: H } = size;
  const M = { left: 52, right: 18, top: 34, bottom: 62 };
  const top = niceTop(Math.max(0, ...series.flatMap((s) => s.values)));
  const ticks = [0, top / 2, top];
  const px = (k) => M.left + (labels.length === 1 ? 0.5 : k / (labels.length - 1)) * (W - M.left - M.right);
  const py = (v) => H - M.bottom - (v / top) * (H - M.top - M.bottom);
  const shapes = [{ kind: "rect", x: 0, y: 0, w: W, h: H, fill: COLORS.paper }];
  for (const t of ticks) {
    shapes.push({ kind: "line", x1: M.left, y1: py(t), x2: W - M.right, y2: py(t), color: t === 0 ? COLORS.muted : COLORS.plotRule, width: 1 });
    shapes.push({ kind: "text", x: M.left - 6, y: py(t) + 4, text: num(t, 3), size: 11, align: "right", color: COLORS.muted, role: "y-tick" });
  }
  shapes.push({ kind: "line", x1: M.left, y1: M.top - 6, x2: M.left, y2: H - M.bottom, color: COLORS.ink, width: 1 });
  labels.forEach((label, k) => shapes.push({ kind: "text", x: px(k), y: H - M.bottom + 16, text: label, size: 11, align: "center", color: COLORS.ink, role: "x-tick" }));
  shapes.push({ kind: "text", x: M.left + (W - M.left - M.right) / 2, y: H - M.bottom + 34, text: xTitle, size: 11, align: "center", color: COLORS.muted, role: "x-title" });
  shapes.push({ kind: "text", x: 8, y: 14, text: yTitle, size: 11, color: COLORS.muted, role: "y-title" });
  const points = [];
  series.forEach((s, si) => {
    const pts = s.values.map((v, k) => ({ x: px(k), y: py(v), value: v, label: labels[k], series: s.label }));
    for (let k = 1; k < pts.length; k++) shapes.push({ kind: "line", x1: pts[k - 1].x, y1: pts[k - 1].y, x2: pts[k].x, y2: pts[k].y, color: s.color, width: 2 });
    for (const p of pts) shapes.push({ kind: "rect", x: p.x - 3, y: p.y - 3, w: 6, h: 6, fill: s.color, radius: 3 });
    const lx = M.left + si * 170; // the legend under the x title
    shapes.push({ kind: "rect", x: lx, y: H - 14, w: 14, h: 4, fill: s.color });
    shapes.push({ kind: "text", x: lx + 20, y: H - 8, text: s.label, size: 11, color: COLORS.ink, role: "legend" });
    points.push(...pts);
  });
  return { shapes, points, top };
}
