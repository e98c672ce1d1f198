// The lab's Temperature panel: the softmax divisor as a log-scale slider (the range and √dₖ are
// /api/lab's "temperature", in the model's "lab"), the focus row's entropy, largest weight and
// softmax-Jacobian size from the lesson's "saturation", and three small plots of the focus row
// against T (lab_sweep.js), asked of the host (`ask("sweep", ...)`: the page's API or the notebook's kernel).
// Every sentence is the page's words (lab.temperature.*). A panel: {el, update(state), dispose()}
// (lab.js's state).
//
// No √dₖ is T = 1 on the slider and Uniform its T → ∞ end; moving the slider asks for mode
// Scaled with that temperature.

import { h } from "./dom.js";
import { num } from "./format.js";
import { card } from "./lab_dom.js";
import { sweepFigures } from "./lab_sweep.js";
import { fromLogFraction, logFraction } from "./plots.js";
import { say } from "./words.js";

const STEPS = 400; // the slider's resolution
const SLIDE_MS = 120;

/** The marks under the slider: its ends, No √dₖ at T = 1 and √dₖ, each at its place. */
function sliderMarks({ min, max, sqrt_d_k: root }, words) {
  const all = [[min, num(min), ""], [1, "1", say(words, "lab.temperature.mark_unscaled")], [root, say(words, "lab.temperature.mark_sqrt", { t: num(root) }), ""], [max, num(max), say(words, "lab.temperature.mark_uniform")]];
  return all.map(([t, text, more]) => {
    const mark = h("span", { class: t === root ? "t-mark sqrt" : "t-mark" }, [text, h("span", { class: "more" }, [more ? ` ${more}` : ""])]);
    mark.style.left = `${100 * logFraction(t, min, max)}%`;
    return mark;
  });
}

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

  /** The marks under the slider, drawn again only when the range or the words change. */
  function showMarks(r) {
    const key = JSON.stringify([r.min, r.max, r.sqrt_d_k, words()]);
    if (key === marked) return;
    marked = key;
    marks.replaceChildren(...sliderMarks(r, words()));
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
    plots.replaceChildren(...sweepFigures(sweep, { t: current(), root: range().sqrt_d_k, words: words(), hiding: state.hiding }));
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
