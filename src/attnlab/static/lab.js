// The lab: the lesson's second half, where the learner breaks the lookup on purpose.
// export default { render({ model, el }) }, the anywidget shape, like lesson.js; render returns
// the cleanup that undoes every subscription.
//
// The model is the lesson's (app.js, or the notebook widget): the lab reads "lesson" (the
// lesson's answer), "choices" (axes, position kinds), "lab" (the temperature range, the edit
// limit and parameters, the head counts, the cost's sizes) and "words" (the page's fixed words:
// every label and sentence here is one of them, by key, lab.*), and sets the lab's keys
// (temperature, axis, positions, causal, heads, shuffle, edits, predict; see lab_state.js), and
// the host computes the lesson again. It shares three keys with the lesson view, never its DOM:
// "cell" ([i, j], the cell being read, picked in either view), "asking" (true while it waits
// for a guess: each view hides its own weights) and "guess" (the token guessed, in either view).
// The temperature sweep and the cost are asked of the host, `model.services.ask(route, params)`
// (lab_state.js ASK_ROUTES): the page answers from its API, the notebook from its kernel.
//
// Each card is a panel of its own module, {el, keys, update(state, key), dispose()}; this file
// only lays them out, reads the state once per change (lab_state.labViewState) and hands it to
// the panels that read the key that changed. Nothing here computes attention.

import { fillWords, h } from "./dom.js";
import { axisPanel } from "./lab_axis.js";
import { causalPanel } from "./lab_causal.js";
import { cheaperPanel } from "./lab_cheaper.js";
import { costPanel } from "./lab_cost.js";
import { editPanel } from "./lab_edit.js";
import { headsPanel } from "./lab_heads.js";
import { nowPanel } from "./lab_now.js";
import { oneProjectionPanel } from "./lab_one_projection.js";
import { positionsPanel } from "./lab_positions.js";
import { predictPanel } from "./lab_predict.js";
import { readingPanel } from "./lab_reading.js";
import { labViewState } from "./lab_state.js";
import { temperaturePanel } from "./lab_temperature.js";
import { createScope } from "./scope.js";

let instances = 0;
/** The model keys whose change the panels may read (each panel lists its own in `keys`). */
const WATCHED = ["lesson", "words", "choices", "lab", "predict", "guess", "asking", "cell", "beat", "error"];

/** The page's order: the cards in a column, the weights now beside them. */
function layout(panels) {
  const { temperature, axis, oneProjection, causal, positions, reading, edit, heads, predict, cost, now, cheaper } = panels;
  return h("div", { class: "lab" }, [
    h("h2", { "data-words": "lab.title" }),
    h("p", { class: "lab-intro", "data-words": "lab.intro" }),
    h("div", { class: "lab-grid" }, [
      h("div", { class: "lab-cards" }, [temperature, axis, oneProjection, causal, positions, reading, edit, heads, predict, cost].map((p) => p.el)),
      now.el,
    ]),
    cheaper.el,
  ]);
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const id = `lab${++instances}`;
  const scope = createScope();
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const host = { model, commit, ask: model.services?.ask };
  const panels = {
    temperature: temperaturePanel(id, host), axis: axisPanel(id, host), oneProjection: oneProjectionPanel(id, host), causal: causalPanel(id, host),
    positions: positionsPanel(id, host), reading: readingPanel(id, host), edit: editPanel(id, host),
    heads: headsPanel(id, host), predict: predictPanel(id, host), cost: costPanel(id, host), now: nowPanel(id, host),
    cheaper: cheaperPanel(id, host),
  };
  const root = layout(panels);
  el.replaceChildren(root);
  let shown = null; // the tokens and focus of the lesson on screen

  /** The lab's own mark from the state: asking for a guess (the lesson view shows the question). */
  function place(state) {
    const on = state.predict && state.trace !== null;
    const asking = on && state.guess === null;
    root.classList.toggle("asking", asking);
    if (state.trace && Boolean(model.get("asking")) !== asking) commit({ asking }); // the lesson view hides its weights
  }

  /** Hand the state to every panel that reads `key`; one panel's failure leaves the others. */
  function update(key) {
    if (key === "words") fillWords(root, model.get("words"));
    if (key === "lesson") {
      const raw = model.get("lesson");
      if (!raw) return;
      const now = JSON.stringify([raw.tokens, raw.focus]);
      // a new sentence or focus: the guess and the cell read belong to the old one
      if (shown !== null && shown !== now && (model.get("guess") !== null || model.get("cell"))) commit({ guess: null, cell: null });
      shown = now;
    }
    const state = labViewState((k) => model.get(k));
    const every = ["lesson", "words", "choices", "lab", "predict"].includes(key); // these redraw the lab
    for (const [name, panel] of Object.entries(panels)) {
      if (!every && !panel.keys.includes(key)) continue;
      try {
        panel.update(state, every ? "lesson" : key);
      } catch (err) {
        console.warn(`the lab's ${name} panel: ${err instanceof Error ? err.message : err}`);
      }
    }
    place(labViewState((k) => model.get(k)));
  }

  for (const key of WATCHED) scope.on(model, `change:${key}`, () => update(key));
  // a temperature replaces √dₖ, so it only goes with Scaled
  scope.on(model, "change:mode", () => {
    if (model.get("mode") !== "scaled" && model.get("temperature") !== null) model.set("temperature", null);
  });
  for (const panel of Object.values(panels)) scope.add(() => panel.dispose());
  fillWords(root, model.get("words"));
  if (model.get("lesson")) update("lesson");
  return scope.dispose;
}

export default { render };
