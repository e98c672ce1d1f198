// The lab's small plots as plain data: scales, tick values, tick labels and line paths.
//
// Pure (no DOM, no clock), like layout.js: plot(spec, size) -> {ticks, paths, marks, labels} in
// CSS pixels, which lab.js turns into SVG. A log axis maps log10 of the value linearly; its
// ticks are powers of ten, with 2 and 5 between them when that still makes at most eight ticks.
// The y label sits above the plot, the x label below it. Every axis label carries its range ("temperature T, 0.1 to 10, log scale"), so a reader knows
// what the plot covers without reading the ticks.

/**
 * @typedef {{domain: [number, number], log?: boolean, label: string, format?: (v: number) => string,
 *   unit?: string}} Axis
 * @typedef {{name: string, points: [number, number][], color: string, dash?: number[],
 *   width?: number, dots?: boolean}} Series
 * @typedef {{x: Axis, y: Axis, series: Series[], marks?: {x: number, label: string}[]}} PlotSpec
 */

/**
 * A function from data to pixels: `domain` onto `range`, log10-linear when `log`.
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @param {{log?: boolean}} [options]
 * @returns {(v: number) => number}
 */
export function scale(domain, range, { log = false } = {}) {
  const f = log ? Math.log10 : (v) => v;
  if (log && !(domain[0] > 0 && domain[1] > 0)) throw new RangeError(`a log scale needs a positive domain, got ${domain}`);
  const [a, b] = [f(domain[0]), f(domain[1])];
  const span = b - a || 1;
  return (v) => range[0] + ((f(v) - a) / span) * (range[1] - range[0]);
}

/**
 * Tick values for a log axis: the powers of ten inside [lo, hi], with 2× and 5× between them
 * when that makes at most eight ticks (and the ends when fewer than two ticks fall inside).
 * @param {number} lo
 * @param {number} hi
 * @returns {number[]}
 */
export function logTicks(lo, hi) {
  if (!(lo > 0 && hi >= lo)) throw new RangeError(`log ticks need 0 < lo <= hi, got ${lo}, ${hi}`);
  const e0 = Math.floor(Math.log10(lo));
  const e1 = Math.ceil(Math.log10(hi));
  const eps = 1e-9;
  const within = (steps) => {
    const out = [];
    for (let e = e0; e <= e1; e++) {
      for (const m of steps) {
        const v = round(m * 10 ** e);
        if (v >= lo * (1 - eps) && v <= hi * (1 + eps)) out.push(v);
      }
    }
    return out;
  };
  const fine = within([1, 2, 5]);
  const out = fine.length <= 8 ? fine : within([1]);
  if (out.length >= 2) {
    // too many decades: keep every k-th power of ten
    const k = Math.ceil(out.length / 7);
    return k > 1 ? out.filter((_, i) => i % k === 0) : out;
  }
  return [...new Set([lo, ...out, hi].map(round))].sort((a, b) => a - b);
}

/**
 * "Nice" tick values for a linear axis: about `count` of them, at 1, 2, 2.5 or 5 times a power of ten.
 * @param {number} lo
 * @param {number} hi
 * @param {number} [count]
 * @returns {number[]}
 */
export function linearTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count - 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw * 0.999) ?? 10 * p;
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(round(v));
  return out;
}

/** Rid a float of binary noise (0.30000000000000004 -> 0.3). @param {number} v */
function round(v) {
  return v === 0 ? 0 : Number(v.toPrecision(12));
}

/**
 * A short tick label: 0.1, 2, 10, 1k, 64k, 1M; very small or large values as 1e-5.
 * @param {number} v
 * @returns {string}
 */
export function tickLabel(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e6 && a < 1e9) return `${trim(v / 1e6)}M`;
  if (a >= 1e3 && a < 1e6) return `${trim(v / 1e3)}k`;
  if (a >= 0.01 && a < 1e3) return trim(v);
  const e = Math.floor(Math.log10(a));
  const m = v / 10 ** e;
  return `${Math.abs(m - 1) < 1e-9 ? "" : `${trim(m)}×`}1e${e}`;
}

/** @param {number} v */
function trim(v) {
  return String(Number(v.toPrecision(3)));
}

/**
 * A duration in the unit that reads best: 8 µs, 1.5 ms, 0.9 s.
 * @param {number} s seconds
 */
export function seconds(s) {
  if (!Number.isFinite(s)) return String(s);
  if (s === 0) return "0 s";
  if (s < 1e-3) return `${trim(s * 1e6)} µs`;
  if (s < 1) return `${trim(s * 1e3)} ms`;
  return `${trim(s)} s`;
}

/**
 * A size in bytes as people say it: 2 kB, 3.2 MB (powers of 1000).
 * @param {number} b
 */
export function bytes(b) {
  if (!Number.isFinite(b)) return String(b);
  if (b < 1e3) return `${trim(b)} B`;
  if (b < 1e6) return `${trim(b / 1e3)} kB`;
  if (b < 1e9) return `${trim(b / 1e6)} MB`;
  return `${trim(b / 1e9)} GB`;
}

/**
 * The range of the finite (and, on a log axis, positive) values, widened a little when flat.
 * @param {number[]} values
 * @param {{log?: boolean, zero?: boolean}} [options] zero: start a linear range at 0
 * @returns {[number, number]}
 */
export function extent(values, { log = false, zero = false } = {}) {
  const ok = values.filter((v) => Number.isFinite(v) && (!log || v > 0));
  if (!ok.length) return log ? [1, 10] : [0, 1];
  let lo = Math.min(...ok);
  let hi = Math.max(...ok);
  if (zero && !log) lo = Math.min(0, lo);
  if (hi === lo) return log ? [lo / 2, hi * 2] : [lo - 0.5, hi + 0.5];
  return [lo, hi];
}

/** A mark label's width in px (10 px bold text, as lab.css draws .lab-plot .mark): a bound, not a measure. */
export const MARK_CHAR_PX = 6.6;
const MARK_ROW_PX = 12;

/**
 * Where each vertical mark's label goes: beside its line at the frame's top, on the right of
 * the line unless that runs out of the frame, and one row lower when it would overlap a label
 * already placed (√dₖ and "now" at T = 2.2 sit a few pixels apart). Each mark gets its label's
 * anchor point (lx, ly), text-anchor and box [left, right, top, bottom].
 * @param {{x: number, y1: number, y2: number, label: string}[]} marks
 * @param {{left: number, right: number, top: number}} frame
 */
export function markLabels(marks, frame) {
  /** @type {number[][][]} the boxes placed, per row */
  const rows = [];
  const out = [...marks];
  for (const k of marks.map((_, k) => k).sort((a, b) => marks[a].x - marks[b].x)) {
    const m = marks[k];
    const w = m.label.length * MARK_CHAR_PX;
    const right = m.x + 3 + w <= frame.right;
    const [x0, x1] = right ? [m.x + 3, m.x + 3 + w] : [m.x - 3 - w, m.x - 3];
    let r = 0;
    while ((rows[r] ?? []).some(([a, b]) => x0 < b + 2 && a < x1 + 2)) r += 1;
    (rows[r] ??= []).push([x0, x1]);
    const ly = frame.top + 11 + r * MARK_ROW_PX;
    out[k] = { ...m, lx: right ? x0 : x1, ly, anchor: right ? "start" : "end", box: [x0, x1, ly - 9, ly + 2] };
  }
  return out;
}

/**
 * The geometry of one plot: the frame, the ticks, the series as SVG path strings, vertical marks
 * and the axis labels, inside `size` with room for the labels.
 * @param {PlotSpec} spec
 * @param {{width: number, height: number}} size
 */
export function plot(spec, size) {
  const { width: W, height: H } = size;
  const fmtX = spec.x.format ?? tickLabel;
  const fmtY = spec.y.format ?? tickLabel;
  const yTickValues = spec.y.log ? logTicks(...spec.y.domain) : linearTicks(...spec.y.domain, 5);
  const yTickWidth = Math.max(...yTickValues.map((v) => fmtY(v).length)) * 6.4;
  const frame = { left: Math.round(10 + yTickWidth), top: 26, right: W - 12, bottom: H - 40 };
  const sx = scale(spec.x.domain, [frame.left, frame.right], { log: spec.x.log });
  const sy = scale(spec.y.domain, [frame.bottom, frame.top], { log: spec.y.log });
  const xTickValues = spec.x.log ? logTicks(...spec.x.domain) : linearTicks(...spec.x.domain, 5);
  const inX = (v) => v >= Math.min(...spec.x.domain) - 1e-12 && v <= Math.max(...spec.x.domain) * (1 + 1e-9);
  const inY = (v) => v >= Math.min(...spec.y.domain) - 1e-12 && v <= Math.max(...spec.y.domain) * (1 + 1e-9);
  const xTicks = xTickValues.filter(inX).map((v) => ({ value: v, x: sx(v), text: fmtX(v) }));
  const yTicks = yTickValues.filter(inY).map((v) => ({ value: v, y: sy(v), text: fmtY(v) }));
  const clampY = (y) => Math.max(frame.top - 2, Math.min(frame.bottom + 2, y));
  const paths = spec.series.map((s) => {
    const pts = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!spec.x.log || x > 0) && (!spec.y.log || y > 0));
    const xy = pts.map(([x, y]) => [sx(x), clampY(sy(y))]);
    const d = xy.map(([x, y], k) => `${k ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
    return { name: s.name, d, color: s.color, dash: s.dash ?? null, width: s.width ?? 2, dots: s.dots ? xy : [] };
  });
  const marks = markLabels(
    (spec.marks ?? []).filter((m) => inX(m.x)).map((m) => ({ x: sx(m.x), y1: frame.top, y2: frame.bottom, label: m.label })),
    frame,
  );
  const range = (axis) => {
    const f = axis.format ?? tickLabel;
    return `${f(axis.domain[0])} to ${f(axis.domain[1])}${axis.log ? ", log scale" : ""}`;
  };
  return {
    frame,
    xTicks,
    yTicks,
    paths,
    marks,
    xLabel: { x: (frame.left + frame.right) / 2, y: H - 5, text: `${spec.x.label} (${range(spec.x)})` },
    yLabel: { x: 4, y: 14, text: `${spec.y.label} (${range(spec.y)})` },
  };
}

/**
 * Where a slider's log position lands: value T in [lo, hi] <-> fraction in [0, 1].
 * @param {number} v
 * @param {number} lo
 * @param {number} hi
 */
export function logFraction(v, lo, hi) {
  return (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
}

/**
 * The value at a fraction of a log range, rounded to 3 significant digits for the URL.
 * @param {number} f
 * @param {number} lo
 * @param {number} hi
 */
export function fromLogFraction(f, lo, hi) {
  const v = 10 ** (Math.log10(lo) + Math.min(1, Math.max(0, f)) * (Math.log10(hi) - Math.log10(lo)));
  return Number(v.toPrecision(3));
}

/**
 * A 2-D vector drawn as an arrow from the centre of a dial of radius `r`, `scale` being the
 * length that reaches the rim; y points up, as in maths (SVG's y grows down).
 * @param {[number, number]} v
 * @param {{cx: number, cy: number, r: number, scale: number}} dial
 */
export function dialArrow(v, { cx, cy, r, scale }) {
  const k = scale > 0 ? r / scale : 0;
  return { x1: cx, y1: cy, x2: cx + v[0] * k, y2: cy - v[1] * k };
}

/**
 * An SVG path for the arc from angle a0 to a1 (radians, counter-clockwise as in maths) at
 * radius `r` around (cx, cy): how far RoPE turned a vector.
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {number} a0
 * @param {number} a1
 */
export function arcPath(cx, cy, r, a0, a1) {
  const at = (a) => `${(cx + r * Math.cos(a)).toFixed(2)},${(cy - r * Math.sin(a)).toFixed(2)}`;
  const large = Math.abs(a1 - a0) > Math.PI ? 1 : 0;
  const sweep = a1 > a0 ? 0 : 1; // counter-clockwise on screen is SVG's negative sweep
  return `M${at(a0)} A${r},${r} 0 ${large} ${sweep} ${at(a1)}`;
}
