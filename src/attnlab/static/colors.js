// The page's colours, each named once, by what it means: the marks of the canvas and the SVG
// plots (COLORS), the plots' series (SERIES, PLOT), the heat scale for weights (heat) and the
// colours the stylesheets use (CSS_COLORS: style.css's :root declares them as custom
// properties, which tests/js/colors.test.mjs holds equal to these). No other view file writes
// a colour literal. Pure (no DOM), shared by the layouts, the drawers and the lab's plots.

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
  /** A masked cell on the lesson's canvas (layout_matrix.js). */
  masked: "#dcdce3",
  /** A weight that is not a number (heat). */
  notANumber: "#bbbbbb",
  /** The lab's SVG plots: the frame's fill (and a RoPE dial's face), the tick lines. */
  plotPaper: "#fbfbfe",
  plotRule: "#e6e6ef",
  /** A RoPE dial's query before its rotation (lab_dom.ropeDials). */
  ropeBefore: "#9a9ab0",
  black: "#000000",
};

/** The Okabe–Ito palette (colour-blind safe) and three greys: one colour per plotted key. */
export const SERIES = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#999999", "#f0e442", "#6b6b80", "#3b3b4f", "#b0b0c0"];

/** The lab's plotted quantities, each always its one colour (lab_temperature.js, lab_cost.js). */
export const PLOT = Object.freeze({
  time: SERIES[0], memory: SERIES[5], entropy: SERIES[0], jacobian: SERIES[5],
  recompute: SERIES[5], cached: SERIES[2], fit: COLORS.muted,
});

/**
 * The stylesheets' colours as custom properties: style.css's :root declares each (the page's
 * and, scoped, the notebook's), lab.css and present.css use them by var(--name).
 */
export const CSS_COLORS = Object.freeze({
  "--ink": COLORS.ink,
  "--muted": COLORS.muted,
  "--line": "#d6d6e2",
  "--paper": COLORS.paper,
  "--wash": "#f6f6fa",
  "--violet": COLORS.violet,
  "--violet-soft": COLORS.violetSoft,
  "--violet-line": "#e0c9f5", // the line of lab changes' border
  "--error": "#b3261e",
  "--error-wash": "#fdf0ef", // behind an error or a mistaken reading
  "--focus-ring": "#0b57d0",
  "--control-line": "#9a9ab0", // a field's, a button's, a slider mark's border
  "--hover": "#eeeef6",
  "--primary-hover": "#34344a",
  "--pending": COLORS.empty, // a table cell whose numbers come at a later step
  "--pending-stripe": "#ebebf1",
  "--masked-stripe": "#e4e4ea", // a masked cell of the lab's tables: two stripes and its ink
  "--masked-stripe-dark": "#d2d2da",
  "--masked-ink": "#6b6b80",
  "--hidden": "#ececf2", // a weight hidden until the learner guesses
  "--good": "#17643a",
  "--warn": "#8a3c00",
  "--on-dark": COLORS.paper, // text on a dark or coloured mark
  "--shadow": "rgba(29, 29, 43, 0.25)", // the ink, a quarter opaque
});

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
  if (Number.isNaN(w)) return COLORS.notANumber;
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
  return contrast(background, 1) >= contrast(background, 0) ? COLORS.paper : COLORS.black;
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
  masked: COLORS.masked,
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
