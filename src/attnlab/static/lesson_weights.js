// The lesson's weights table panel: the table of the beat on screen (lesson_table.js: hidden
// before Softmax, the weights after; all of them with Show all), its heat key, and the readout
// of the cell read, which is outlined (the model's "cell", picked here, in the picture or in the
// lab). While the lab asks for a guess ("asking") the weights stay hidden. A panel: {el,
// readout, keys, update(state, key), dispose()}; the view places `el` and `readout`.

import { h } from "./dom.js";
import { beatKeys } from "./layout.js";
import { heatKey, tableParts, tableReadout, tableStage } from "./lesson_table.js";
import { createScope } from "./scope.js";
import { readableCells } from "./weights_table.js";
import { say } from "./words.js";

/**
 * @param {{commit: (changes: Record<string, any>) => void, beat: () => number}} host `beat` the
 *   beat on screen (the step view's)
 */
export function weightsPanel({ commit, beat }) {
  const scope = createScope();
  const table = h("table", { class: "weights", "data-words-label": "table.name" });
  const readout = h("p", { class: "readout", "aria-live": "polite", "data-words": "table.readout_hint" });
  const showAllButton = h("button", { type: "button", class: "small show-all", "aria-pressed": "false", "data-words": "table.show_all" });
  const note = h("p", { class: "lab-note show-all-note", hidden: true, "data-words": "table.show_all_hidden" });
  const key = h("div", { class: "heat-key-wrap" });
  const el = h("div", { class: "table-wrap" }, [table, key, h("div", { class: "inline-row" }, [showAllButton]), note]);
  /** @type {Record<string, any>} */
  let state = { trace: null };
  let showAll = false; // the learner asked for the final weights at every beat
  /** @type {[number, number] | null} */
  let reading = null; // the cell the readout tells, recomputed whenever its numbers change

  const stageNow = () => tableStage(beatKeys(state.trace), beat(), { asking: state.asking, showAll });

  /** The readout of the cell last read, at the numbers on screen now (or the hint, if none). */
  function showReadout() {
    const { trace, words } = state;
    const cols = trace ? trace.key_tokens ?? trace.tokens : [];
    if (!trace || !reading || reading[0] >= trace.tokens.length || reading[1] >= cols.length) {
      reading = null;
      readout.textContent = say(words, "table.readout_hint");
      return;
    }
    readout.textContent = tableReadout(trace, stageNow(), reading[0], reading[1], words);
  }

  /** Outline the cell being read (model "cell"), wherever it was picked; none while a guess is
   * awaited (the cell read by default is the answer). */
  function showCell() {
    const [ci, cj] = (!state.asking && state.cell) || [-1, -1];
    for (const td of table.querySelectorAll("td[data-i]")) {
      td.classList.toggle("reading", Number(td.dataset.i) === ci && Number(td.dataset.j) === cj);
    }
  }

  function build() {
    const { trace, words, asking } = state;
    const stage = stageNow();
    table.replaceChildren(...tableParts(trace, stage, words, { asking }));
    table.dataset.stage = stage;
    el.classList.toggle("pending", stage === "pending");
    key.replaceChildren(...(stage === "weights" ? [heatKey(trace.weights, words)] : []));
    showAllButton.setAttribute("aria-pressed", String(showAll));
    showAllButton.disabled = asking;
    note.hidden = !asking;
    showCell();
    showReadout();
  }

  const cellOf = (e) => {
    const td = e.target instanceof Element ? e.target.closest("td[data-i]") : null;
    return td && state.trace ? [Number(td.dataset.i), Number(td.dataset.j)] : null;
  };
  readableCells(table, { read: (i, j) => { reading = [i, j]; showReadout(); }, ready: () => state.trace !== null, scope });
  scope.listen(table, "click", (e) => {
    const at = cellOf(e);
    if (at) commit({ cell: at });
  });
  scope.listen(table, "focusin", (e) => {
    const at = cellOf(e);
    if (at && (state.cell?.[0] !== at[0] || state.cell?.[1] !== at[1])) commit({ cell: at });
  });
  scope.listen(showAllButton, "click", () => {
    showAll = !showAll;
    if (state.trace) build();
  });

  return {
    el,
    readout,
    keys: ["lesson", "words", "cell", "asking", "beat"],
    /** @param {Record<string, any>} next the view's state @param {string} [changed] */
    update(next, changed) {
      state = next;
      if (!state.trace) return;
      if (changed === "cell") showCell();
      else build();
    },
    dispose: () => scope.dispose(),
  };
}
