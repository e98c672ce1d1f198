// The Temperature panel's three plots of the focus row against T, from the host's sweep (the
// page's /api/sweep or the kernel's): each key's weight, the row's entropy and the softmax
// Jacobian's size, with √dₖ and the temperature now marked. While Predict first waits for a
// guess the weights' plot is a note. Every label is the page's words (lab.temperature.*).

import { PLOT, SERIES } from "./colors.js";
import { h } from "./dom.js";
import { decodeArray, num } from "./format.js";
import { figure, legend, svgPlot } from "./lab_dom.js";
import { extent } from "./plots.js";
import { say } from "./words.js";

const SIZE = { width: 228, height: 176 };

/**
 * The three figures of a sweep.
 * @param {Record<string, any>} sweep the sweep's answer (SweepAnswer)
 * @param {{t: number, root: number, words: Record<string, string> | null, hiding: boolean}} now
 *   `t` the temperature on screen (∞ for Uniform), `root` √dₖ, `hiding` no weights before a guess
 * @returns {HTMLElement[]}
 */
export function sweepFigures(sweep, { t, root, words, hiding }) {
  const ts = sweep.temperatures;
  const tw = (key, values) => say(words, `lab.temperature.${key}`, values);
  const lines = [{ x: root, label: tw("sqrt_mark") }];
  if (Number.isFinite(t) && Math.abs(t - root) > 0.05) lines.push({ x: t, label: tw("now_mark") });
  const x = { domain: [ts[0], ts[ts.length - 1]], log: true, label: tw("axis") };
  const w = decodeArray(sweep.weights);
  const keys = sweep.tokens.map((tok, j) => ({ name: tok, color: SERIES[j % SERIES.length], points: ts.map((T, k) => [T, w[k][j]]) }));
  const who = sweep.tokens[sweep.focus];
  const ent = decodeArray(sweep.entropy_bits);
  const jac = decodeArray(sweep.jacobian_frobenius);
  const names = [
    tw("weights_plot", { token: who, t_min: num(ts[0]), t_max: num(ts[ts.length - 1]) }),
    tw("entropy_plot", { token: who }),
    tw("jacobian_plot", { token: who }),
  ];
  return [
    hiding ? h("p", { class: "lab-note" }, [tw("hidden")]) : figure(names[0], [svgPlot({ x, y: { domain: [0, 1], label: tw("weights_axis", { token: who }) }, series: keys, marks: lines }, SIZE, names[0]), legend(keys)], SIZE.width),
    figure(names[1], [
      svgPlot({ x, y: { domain: [0, sweep.max_entropy_bits || 1], label: tw("entropy_axis") }, series: [{ name: tw("entropy_series"), color: PLOT.entropy, points: ts.map((T, k) => [T, ent[k]]) }], marks: lines }, SIZE, names[1]),
      h("figcaption", {}, [tw("entropy_caption")]),
    ], SIZE.width),
    figure(names[2], [
      svgPlot({ x, y: { domain: extent(jac, { zero: true }), label: tw("jacobian_axis") }, series: [{ name: tw("jacobian_series"), color: PLOT.jacobian, points: ts.map((T, k) => [T, jac[k]]) }], marks: lines }, SIZE, names[2]),
      h("figcaption", {}, [tw("jacobian_caption")]),
    ], SIZE.width),
  ];
}
