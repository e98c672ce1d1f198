// The lab's Temperature panel: the softmax divisor as a log-scale slider (the range and √dₖ are
// /api/lab's "temperature", in the model's "lab"), the focus row's entropy, largest weight and
// softmax-Jacobian size from the lesson's "saturation", and three small plots of the focus row
// against T (lab_sweep.js), asked of the host (`ask("sweep", ...)`: the page's API or the notebook's kernel).
// Every sentence is the page's words (lab.temperature.*). A panel: {el, update(state), dispose()}
// (lab.js's state).
//
// No √dₖ is T = 1 on the slider and Uniform its T → ∞ end; moving the slider asks for mode
// Scaled with that temperature.
//
// Its parts: the slider (with its own timer and listeners), the saturation line and the sweep's
// plots (which ask the host); the words they say (temperatureKey, saturationText) are pure.

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
 * Which words say the temperature on screen (lab.temperature.<key>): Uniform, No √dₖ, at √dₖ,
 * or sharper or flatter than it.
 * @param {string} mode the lesson's @param {number} t its divisor @param {number} root √dₖ
 */
export function temperatureKey(mode, t, root) {
  if (mode === "uniform" || mode === "unscaled") return mode;
  if (Math.abs(t - root) < 1e-9) return "sqrt";
  return t < root ? "sharper" : "flatter";
}

/**
 * The focus row's entropy, largest weight and Jacobian size (the lesson's "saturation"), or
 * why they are not shown: hidden before a guess, or a lesson normalized by columns.
 * @param {Record<string, any>} state lab.js's (raw, trace, hiding, words)
 */
export function saturationText({ raw, trace, hiding, words }) {
  const sat = raw.saturation;
  const f = trace.focus;
  if (hiding) return say(words, "lab.temperature.hidden"); // Predict first
  if (!sat || sat.per !== "row") return say(words, "lab.temperature.columns");
  return say(words, "lab.temperature.saturation", {
    token: trace.tokens[f], entropy: num(sat.entropy_bits[f]), max_entropy: num(sat.max_entropy_bits[f]), max_weight: num(sat.max_weight[f]),
    jacobian: num(sat.jacobian_frobenius, 3), jacobian_max: num(sat.jacobian_max_abs, 3),
  });
}

/**
 * The slider, what it reads, its marks and the Back to √dₖ button. Moving it commits mode
 * Scaled with that temperature, once the hand rests (SLIDE_MS).
 * @param {string} id @param {(changes: Record<string, any>) => void} commit
 */
function temperatureSlider(id, commit) {
  const slider = h("input", { id: `${id}-t`, type: "range", min: 0, max: STEPS, step: 1, "aria-describedby": `${id}-t-out` });
  const out = h("output", { id: `${id}-t-out`, for: `${id}-t`, class: "t-out" });
  const marks = h("div", { class: "t-marks", "aria-hidden": "true" });
  const back = h("button", { type: "button", class: "small", "data-words": "lab.temperature.back" });
  let timer = 0;
  let marked = "";
  /** @type {{range: Record<string, number> | null, words: Record<string, string> | null}} */
  let now = { range: null, words: null };

  /** The marks under the slider, drawn again only when the range or the words change. */
  function showMarks(r, words) {
    const key = JSON.stringify([r.min, r.max, r.sqrt_d_k, words]);
    if (key === marked) return;
    marked = key;
    marks.replaceChildren(...sliderMarks(r, words));
  }

  function slide() {
    const r = now.range;
    if (!r) return;
    const t = fromLogFraction(Number(slider.value) / STEPS, r.min, r.max);
    out.textContent = say(now.words, "lab.temperature.sliding", { t: num(t, 3) });
    clearTimeout(timer);
    timer = window.setTimeout(() => commit({ mode: "scaled", temperature: t }), SLIDE_MS);
  }
  const toRoot = () => commit({ mode: "scaled", temperature: null });
  slider.addEventListener("input", slide);
  back.addEventListener("click", toRoot);

  return {
    el: [h("div", { class: "slider-row" }, [h("label", { for: `${id}-t`, "data-words": "lab.temperature.label" }), out, back]), h("div", { class: "slider-wrap" }, [slider, marks])],
    /** @param {Record<string, any> | null} r /api/lab's range and √dₖ @param {Record<string, any>} trace @param {Record<string, string> | null} words */
    update(r, trace, words) {
      now = { range: r, words };
      slider.disabled = !r;
      if (!r) return;
      showMarks(r, words);
      const t = trace.divisor; // T for Scaled, 1 for No √dₖ, ∞ for Uniform
      const shown = Number.isFinite(t) ? Math.min(r.max, Math.max(r.min, t)) : r.max;
      if (slider.ownerDocument.activeElement !== slider) slider.value = String(Math.round(logFraction(shown, r.min, r.max) * STEPS));
      const key = temperatureKey(trace.mode, t, r.sqrt_d_k);
      const what = say(words, `lab.temperature.${key}`, { t: num(t, 3) });
      out.textContent = what;
      slider.setAttribute("aria-valuetext", what);
      back.hidden = trace.mode === "scaled" && key === "sqrt";
    },
    dispose() {
      clearTimeout(timer);
      slider.removeEventListener("input", slide);
      back.removeEventListener("click", toRoot);
    },
  };
}

/**
 * The three plots of the focus row against T, asked of the host (`ask("sweep", ...)`) for the
 * lesson's sentence, focus, positions, mask and edits (not its T: it sweeps them all), asked
 * again only when one of those changes; without a host to ask (a file), no plots.
 * @param {((route: string, params: Record<string, any>) => Promise<any>) | undefined} ask
 */
function sweepPlots(ask) {
  const plots = h("div", { class: "plots" });
  const note = h("p", { class: "lab-note" });
  let asked = "";
  /** @type {Record<string, any> | null} */
  let sweep = null;
  /** @type {Record<string, any>} */
  let state = {};

  function draw() {
    const r = state.limits?.temperature;
    if (!sweep || !state.trace || !r) return;
    plots.replaceChildren(...sweepFigures(sweep, { t: state.trace.divisor, root: r.sqrt_d_k, words: state.words, hiding: state.hiding }));
  }

  return {
    el: [plots, note],
    /** @param {Record<string, any>} next lab.js's state, with a lesson */
    async update(next) {
      state = next;
      const { trace } = next;
      const params = { sentence: trace.tokens.join(" "), focus: trace.focus, positions: next.positions, causal: next.causal, edits: next.edits };
      const key = JSON.stringify(params);
      if (key === asked || !ask) return draw();
      asked = key;
      const answer = await ask("sweep", params);
      if (key !== asked) return; // a newer lesson asked since
      sweep = answer.ok ? answer.body : null;
      note.textContent = answer.ok ? "" : say(state.words, "lab.temperature.plots_failed", { error: answer.error.message });
      draw();
    },
    dispose() {},
  };
}

/**
 * The Temperature card: the slider, the saturation line and the sweep's plots.
 * @param {string} id a prefix for element ids
 * @param {{commit: (changes: Record<string, any>) => void, ask?: (route: string, params: Record<string, any>) => Promise<any>}} host
 *   `ask` the host's lab questions (lab_state.js ASK_ROUTES); without one the plots say so
 */
export function temperaturePanel(id, { commit, ask }) {
  const slider = temperatureSlider(id, commit);
  const satLine = h("p", { class: "sat-line", "aria-live": "polite", "data-words": "lab.loading" });
  const sweep = sweepPlots(ask);
  const el = card(`${id}-temp`, "lab.temperature.title", "lab.temperature.help", [...slider.el, satLine, ...sweep.el]);
  return {
    el,
    keys: ["lesson", "words", "lab", "predict", "guess", "asking"],
    /** @param {Record<string, any>} state lab.js's state */
    update(state) {
      if (!state.trace) return;
      const r = state.limits?.temperature ?? null; // /api/lab's {min, max, steps, sqrt_d_k}
      slider.update(r, state.trace, state.words);
      if (!r) return;
      satLine.textContent = saturationText(state);
      sweep.update(state);
    },
    dispose() {
      slider.dispose();
      sweep.dispose();
    },
  };
}
