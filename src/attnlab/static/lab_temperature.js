// The lab's Temperature panel: the softmax divisor as a log-scale slider (the range and √dₖ are
// /api/lab's "temperature", in the model's "lab"), the focus row's entropy, largest weight and
// softmax-Jacobian size from the lesson's "saturation", and three small plots of the focus row
// against T, asked of the host (`ask("sweep", ...)`: the page's API or the notebook's kernel).
// Every sentence is the page's words (lab.temperature.*). A panel: {el, update(state), dispose()}
// (lab.js's state).
//
// No √dₖ is T = 1 on the slider and Uniform its T → ∞ end; moving the slider asks for mode
// Scaled with that temperature.

import { PLOT, SERIES } from "./colors.js";
import { h } from "./dom.js";
import { decodeArray, num } from "./format.js";
import { card, figure, legend, svgPlot } from "./lab_dom.js";
import { extent, fromLogFraction, logFraction } from "./plots.js";
import { say } from "./words.js";

const STEPS = 400; // the slider's resolution
const SLIDE_MS = 120;

/**
 * The Temperature card.
 * @param {string} id a prefix for element ids
 * @param {{commit: (changes: Record<string, any>) => void, ask?: (route: string, params: Record<string, any>) => Promise<any>}} host
 *   `ask` the host's lab questions (lab_state.js ASK_ROUTES); without one the plots say so
 */
export function temperaturePanel(id, { commit, ask }) {
  const slider = h("input", { id: `${id}-t`, type: "range", min: 0, max: STEPS, step: 1, "aria-describedby": `${id}-t-out` });
  const out = h("output", { id: `${id}-t-out`, for: `${id}-t`, class: "t-out" });
  const marks = h("div", { class: "t-marks", "aria-hidden": "true" });
  const back = h("button", { type: "button", class: "small", "data-words": "lab.temperature.back" });
  const satLine = h("p", { class: "sat-line", "aria-live": "polite", "data-words": "lab.loading" });
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
  /** @type {Record<string, any>} */
  let state = {};

  const words = () => state.words;
  /** The slider's range and √dₖ: /api/lab's {min, max, steps, sqrt_d_k}; null until it came. */
  const range = () => state.limits?.temperature ?? null;
  /** The divisor as a temperature: T for Scaled, 1 for No √dₖ, ∞ for Uniform. */
  const current = () => (trace ? trace.divisor : range()?.sqrt_d_k ?? NaN);
  let marked = "";

  /** The marks under the slider: its ends, No √dₖ at T = 1 and √dₖ. */
  function showMarks({ min, max, sqrt_d_k: root }) {
    const key = JSON.stringify([min, max, root, words()]);
    if (key === marked) return;
    marked = key;
    const all = [[min, num(min), ""], [1, "1", say(words(), "lab.temperature.mark_unscaled")], [root, say(words(), "lab.temperature.mark_sqrt", { t: num(root) }), ""], [max, num(max), say(words(), "lab.temperature.mark_uniform")]];
    marks.replaceChildren(...all.map(([t, text, more]) => {
      const mark = h("span", { class: t === root ? "t-mark sqrt" : "t-mark" }, [text, h("span", { class: "more" }, [more ? ` ${more}` : ""])]);
      mark.style.left = `${100 * logFraction(t, min, max)}%`;
      return mark;
    }));
  }

  function show() {
    const r = range();
    slider.disabled = !r;
    if (!r) return;
    showMarks(r);
    const t = current();
    const root = r.sqrt_d_k;
    const shown = Number.isFinite(t) ? Math.min(r.max, Math.max(r.min, t)) : r.max;
    if (slider.ownerDocument.activeElement !== slider) slider.value = String(Math.round(logFraction(shown, r.min, r.max) * STEPS));
    const atRoot = Math.abs(t - root) < 1e-9;
    const key = trace.mode === "uniform" ? "uniform" : trace.mode === "unscaled" ? "unscaled" : atRoot ? "sqrt" : t < root ? "sharper" : "flatter";
    const what = say(words(), `lab.temperature.${key}`, { t: num(t, 3) });
    out.textContent = what;
    slider.setAttribute("aria-valuetext", what);
    back.hidden = trace.mode === "scaled" && atRoot;
    const sat = data.saturation;
    const f = trace.focus;
    const hide = state.hiding; // Predict first
    satLine.textContent = hide ? say(words(), "lab.temperature.hidden") : sat && sat.per === "row"
      ? say(words(), "lab.temperature.saturation", {
        token: trace.tokens[f], entropy: num(sat.entropy_bits[f]), max_entropy: num(sat.max_entropy_bits[f]), max_weight: num(sat.max_weight[f]),
        jacobian: num(sat.jacobian_frobenius, 3), jacobian_max: num(sat.jacobian_max_abs, 3),
      })
      : say(words(), "lab.temperature.columns");
    loadSweep();
  }

  function slide() {
    const r = range();
    if (!r) return;
    const t = fromLogFraction(Number(slider.value) / STEPS, r.min, r.max);
    out.textContent = say(words(), "lab.temperature.sliding", { t: num(t, 3) });
    clearTimeout(timer);
    timer = window.setTimeout(() => commit({ mode: "scaled", temperature: t }), SLIDE_MS);
  }

  /** The sweep for the lesson's sentence, focus, positions, mask and edits (not its T). */
  async function loadSweep() {
    const params = { sentence: trace.tokens.join(" "), focus: trace.focus, positions: state.positions, causal: state.causal, edits: state.edits };
    const key = JSON.stringify(params);
    if (key === sweepKey || !ask) return draw(); // no host to ask (a file): no plots
    sweepKey = key;
    const answer = await ask("sweep", params);
    if (key !== sweepKey) return;
    sweep = answer.ok ? answer.body : null;
    plotNote.textContent = answer.ok ? "" : say(words(), "lab.temperature.plots_failed", { error: answer.error.message });
    draw();
  }

  function draw() {
    if (!sweep || !trace || !range()) return;
    const ts = sweep.temperatures;
    const t = current();
    const root = range().sqrt_d_k;
    const tw = (key, values) => say(words(), `lab.temperature.${key}`, values);
    const lines = [{ x: root, label: tw("sqrt_mark") }];
    if (Number.isFinite(t) && Math.abs(t - root) > 0.05) lines.push({ x: t, label: tw("now_mark") });
    const x = { domain: [ts[0], ts[ts.length - 1]], log: true, label: tw("axis") };
    const size = { width: 228, height: 176 };
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
    const hide = state.hiding; // no weights before a guess
    plots.replaceChildren(
      hide ? h("p", { class: "lab-note" }, [say(words(), "lab.temperature.hidden")]) : figure(names[0], [svgPlot({ x, y: { domain: [0, 1], label: tw("weights_axis", { token: who }) }, series: keys, marks: lines }, size, names[0]), legend(keys)], size.width),
      figure(names[1], [
        svgPlot({ x, y: { domain: [0, sweep.max_entropy_bits || 1], label: tw("entropy_axis") }, series: [{ name: tw("entropy_series"), color: PLOT.entropy, points: ts.map((T, k) => [T, ent[k]]) }], marks: lines }, size, names[1]),
        h("figcaption", {}, [tw("entropy_caption")]),
      ], size.width),
      figure(names[2], [
        svgPlot({ x, y: { domain: extent(jac, { zero: true }), label: tw("jacobian_axis") }, series: [{ name: tw("jacobian_series"), color: PLOT.jacobian, points: ts.map((T, k) => [T, jac[k]]) }], marks: lines }, size, names[2]),
        h("figcaption", {}, [tw("jacobian_caption")]),
      ], size.width),
    );
  }

  slider.addEventListener("input", slide);
  back.addEventListener("click", () => commit({ mode: "scaled", temperature: null }));

  const el = card(`${id}-temp`, "lab.temperature.title", "lab.temperature.help", [
      h("div", { class: "slider-row" }, [h("label", { for: `${id}-t`, "data-words": "lab.temperature.label" }), out, back]),
      h("div", { class: "slider-wrap" }, [slider, marks]),
      satLine,
      plots,
      plotNote,
    ]);
  return {
    el,
    keys: ["lesson", "words", "lab", "predict", "guess", "asking"],
    /** @param {Record<string, any>} next lab.js's state */
    update(next) {
      state = next;
      data = next.raw;
      trace = next.trace;
      if (trace) show();
    },
    dispose() {
      clearTimeout(timer);
      slider.removeEventListener("input", slide);
    },
  };
}
