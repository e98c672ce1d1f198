// The page's colours: the heat scale for weights and the marks for focus, ray and pair.
// Pure (no DOM), shared by layout.js (the canvas) and lesson.js (the table).

export const COLORS = {
  ink: "#1d1d2b",
  muted: "#5b5b70",
  grid: "#c9c9d6",
  empty: "#f3f3f7",
  paper: "#ffffff",
  violet: "#7b2fbe",
  violetSoft: "#f1e8fb",
  pair: "#d95f02",
  positive: "#1f7a74",
  negative: "#c4561a",
};

// ColorBrewer's YlGnBu (Brewer & Harrower), marked colour-blind safe: pale yellow for a weight
// near 0, deep blue near 1, so the key a token chose is the darkest cell. It holds no violet
// or orange, which mark the focus, the ray and the highlighted pair.
const SCALE = [
  "#ffffd9", "#edf8b1", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#253494", "#081d58",
];

/**
 * The heat colour of a weight in [0, 1] (values outside are clamped; NaN is grey).
 * @param {number} w
 * @returns {string}
 */
export function heat(w) {
  if (Number.isNaN(w)) return "#bbbbbb";
  const x = Math.min(1, Math.max(0, w)) * (SCALE.length - 1);
  const i = Math.min(SCALE.length - 2, Math.floor(x));
  const f = x - i;
  const a = rgb(SCALE[i]);
  const b = rgb(SCALE[i + 1]);
  const mix = a.map((c, k) => Math.round(c + (b[k] - c) * f));
  return "#" + mix.map((c) => c.toString(16).padStart(2, "0")).join("");
}

/** Text colour that reads on `heat(w)`: black or white, whichever contrasts more. @param {number} w */
export function inkOn(w) {
  const background = luminance(heat(w));
  return contrast(background, 1) >= contrast(background, 0) ? "#ffffff" : "#000000";
}

/** A #rrggbb colour as its [r, g, b], 0 to 255 each. @param {string} color */
export function rgb(color) {
  return [1, 3, 5].map((k) => parseInt(color.slice(k, k + 2), 16));
}

/** WCAG relative luminance of a #rrggbb colour. @param {string} color */
export function luminance(color) {
  const [r, g, b] = rgb(color).map((c) => c / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two luminances. @param {number} a @param {number} b */
export function contrast(a, b) {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

// --- The Real model view's colours (model*.js, matrix_picture.js, head_view*.js) --------------
// One name per meaning; a view names its colour here instead of writing a literal.

/** The Real model view's marks. */
export const MODEL_COLORS = Object.freeze({
  /** A masked cell (a decoder's later key): the weights table, the step picture, the matrix. */
  masked: "#c8c8d2",
  /** The words in a masked cell of the weights table (they read 0). */
  maskedInk: COLORS.muted,
  /** A number that is none (NaN: no previous token, a diagnostic not computed). */
  missing: "#bbbbbb",
  /** A heads-grid cell with nothing to show yet. */
  emptyCell: COLORS.empty,
  /** A plot's grid lines (Compare's cosine plot, RoPE's plot, Mask a token's plots). */
  gridLine: "#e4e4ee",
  /** A row the learner picked in the matrix picture (the focus row is violet). */
  pickedRow: COLORS.pair,
  /** The mean of several heads in the head view. */
  headMean: COLORS.ink,
});

/** The head view's heads, one colour each (d3's category10 then four of category20b/c). */
export const HEAD_PALETTE = Object.freeze([
  "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#393b79", "#637939",
  "#843c39", "#7b4173", "#3182bd", "#e6550d",
]);
