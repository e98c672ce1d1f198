// The lab's Temperature panel: the softmax divisor as a log-scale slider (0.1 to 10, √dₖ = 2
// marked), the focus row's entropy, largest weight and softmax-Jacobian size from the lesson's
// "saturation", and three small plots of the focus row against T from /api/sweep.
//
// No √dₖ is T = 1 on the slider and Uniform its T → ∞ end; moving the slider asks for mode
// Scaled with that temperature.

import { h } from "./dom.js";
import { decodeArray, num } from "./format.js";
import { getJSON } from "./http.js";
import { card, figure, legend, SERIES, svgPlot } from "./lab_dom.js";
import { labParams } from "./lab_state.js";
import { extent, fromLogFraction, logFraction } from "./plots.js";

const T_MIN = 0.1;
const T_MAX = 10;
const SQRT_DK = 2;
const STEPS = 400;
const SLIDE_MS = 120;

/**
 * The Temperature card; show(data, trace) fills it from a lesson.
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void, base: string, scope: any}} host
 *   `scope` (scope.js) holds the panel's model subscription for the view's cleanup
 */
export function temperaturePanel(id, { model, commit, base, scope }) {
  const slider = h("input", { id: `${id}-t`, type: "range", min: 0, max: STEPS, step: 1, "aria-describedby": `${id}-t-out` });
  const out = h("output", { id: `${id}-t-out`, for: `${id}-t`, class: "t-out" });
  const marks = h("div", { class: "t-marks", "aria-hidden": "true" });
  for (const [t, text, more] of [[T_MIN, "0.1", ""], [1, "1", " = No √dₖ"], [SQRT_DK, "2 = √dₖ", ""], [T_MAX, "10", " → Uniform"]]) {
    const mark = h("span", { class: t === SQRT_DK ? "t-mark sqrt" : "t-mark" }, [text, h("span", { class: "more" }, [more])]);
    mark.style.left = `${100 * logFraction(t, T_MIN, T_MAX)}%`;
    marks.append(mark);
  }
  const back = h("button", { type: "button", class: "small" }, ["Back to √dₖ"]);
  const satLine = h("p", { class: "sat-line", "aria-live": "polite" }, ["Loading…"]);
  const plots = h("div", { class: "plots" });
  const plotNote = h("p", { class: "lab-note" });
  /** @type {Record<string, any> | null} */
  let data = null;
  /** @type {Record<string, any> | null} */
  let trace = null;
  let sweepKey = "";
  /** @type {Record<string, any> | null} */
  let sweep = null;
  let timer = 0;

  /** The divisor as a temperature: T for Scaled, 1 for No √dₖ, ∞ for Uniform. */
  const current = () => (trace ? trace.divisor : SQRT_DK);

  function show() {
    const t = current();
    const shown = Number.isFinite(t) ? Math.min(T_MAX, Math.max(T_MIN, t)) : T_MAX;
    if (slider.ownerDocument.activeElement !== slider) slider.value = String(Math.round(logFraction(shown, T_MIN, T_MAX) * STEPS));
    const what = trace.mode === "uniform" ? "T = ∞: Uniform, the limit where every weight is 1/n"
      : trace.mode === "unscaled" ? "T = 1: No √dₖ, the raw dot products"
      : Math.abs(t - SQRT_DK) < 1e-9 ? "T = 2 = √dₖ: the real formula"
      : `T = ${num(t, 3)}${t < SQRT_DK ? ", sharper than √dₖ" : ", flatter than √dₖ"}`;
    out.textContent = what;
    slider.setAttribute("aria-valuetext", what);
    back.hidden = trace.mode === "scaled" && Math.abs(t - SQRT_DK) < 1e-9;
    const sat = data.saturation;
    const f = trace.focus;
    satLine.textContent = sat && sat.per === "row"
      ? `${trace.tokens[f]}'s row: entropy ${num(sat.entropy_bits[f])} bits (at most ${num(sat.max_entropy_bits[f])}), largest weight ${num(sat.max_weight[f])}. `
        + `Softmax Jacobian size ${num(sat.jacobian_frobenius, 3)} (Frobenius norm), largest entry ${num(sat.jacobian_max_abs, 3)}: the gradient the softmax passes back, which falls toward 0 as the row saturates.`
      : "With the softmax down the columns, each column is the budget: see the column sums on the right.";
    loadSweep();
  }

  function slide() {
    const t = fromLogFraction(Number(slider.value) / STEPS, T_MIN, T_MAX);
    out.textContent = `T = ${num(t, 3)}…`;
    clearTimeout(timer);
    timer = window.setTimeout(() => commit({ mode: "scaled", temperature: t }), SLIDE_MS);
  }

  /** /api/sweep for the lesson's sentence, focus, positions, mask and edits (not its T). */
  async function loadSweep() {
    const state = Object.fromEntries(["positions", "causal", "edits"].map((k) => [k, model.get(k)]));
    const key = JSON.stringify([trace.tokens, trace.focus, state]);
    if (key === sweepKey) return draw();
    sweepKey = key;
    const q = new URLSearchParams({ sentence: trace.tokens.join(" "), focus: String(trace.focus) });
    for (const [k, v] of labParams(state)) q.append(k, v);
    const answer = await getJSON(`${base}/api/sweep?${q}`);
    if (key !== sweepKey) return;
    sweep = answer.ok ? answer.body : null;
    plotNote.textContent = answer.ok ? "" : `The temperature plots could not be drawn: ${answer.error.message}`;
    draw();
  }

  function draw() {
    if (!sweep || !trace) return;
    const ts = sweep.temperatures;
    const t = current();
    const lines = [{ x: SQRT_DK, label: "√dₖ" }];
    if (Number.isFinite(t) && Math.abs(t - SQRT_DK) > 0.05) lines.push({ x: t, label: "now" });
    const x = { domain: [ts[0], ts[ts.length - 1]], log: true, label: "temperature T" };
    const size = { width: 228, height: 176 };
    const w = decodeArray(sweep.weights);
    const keys = sweep.tokens.map((tok, j) => ({ name: tok, color: SERIES[j % SERIES.length], points: ts.map((T, k) => [T, w[k][j]]) }));
    const who = sweep.tokens[sweep.focus];
    const ent = decodeArray(sweep.entropy_bits);
    const jac = decodeArray(sweep.jacobian_frobenius);
    const names = [
      `${who}'s weight on each key as the temperature goes from ${ts[0]} to ${ts[ts.length - 1]}`,
      `The entropy of ${who}'s row against the temperature`,
      `The size of the softmax Jacobian of ${who}'s row against the temperature`,
    ];
    plots.replaceChildren(
      figure(names[0], [svgPlot({ x, y: { domain: [0, 1], label: `${who}'s weights` }, series: keys, marks: lines }, size, names[0]), legend(keys)], size.width),
      figure(names[1], [
        svgPlot({ x, y: { domain: [0, sweep.max_entropy_bits || 1], label: "entropy (bits)" }, series: [{ name: "entropy", color: "#0072b2", points: ts.map((T, k) => [T, ent[k]]) }], marks: lines }, size, names[1]),
        h("figcaption", {}, ["0 bits: all on one key. The top: spread evenly."]),
      ], size.width),
      figure(names[2], [
        svgPlot({ x, y: { domain: extent(jac, { zero: true }), label: "Jacobian size (Frobenius)" }, series: [{ name: "Jacobian size", color: "#d55e00", points: ts.map((T, k) => [T, jac[k]]) }], marks: lines }, size, names[2]),
        h("figcaption", {}, ["Near 0 the softmax passes almost no gradient back."]),
      ], size.width),
    );
  }

  slider.addEventListener("input", slide);
  back.addEventListener("click", () => commit({ mode: "scaled", temperature: null }));
  scope.on(model, "change:mode", () => {
    // a temperature replaces √dₖ, so it only goes with Scaled
    if (model.get("mode") !== "scaled" && model.get("temperature") !== null) model.set("temperature", null);
  });

  const el = card(`${id}-temp`, "Temperature and saturation", "lab.temperature.help", [
      h("div", { class: "slider-row" }, [h("label", { for: `${id}-t` }, ["Temperature"]), out, back]),
      h("div", { class: "slider-wrap" }, [slider, marks]),
      satLine,
      plots,
      plotNote,
    ]);
  return {
    el,
    /** @param {Record<string, any>} raw the /api/lesson answer @param {Record<string, any>} decoded */
    show(raw, decoded) {
      data = raw;
      trace = decoded;
      show();
    },
    stop: () => clearTimeout(timer),
  };
}
