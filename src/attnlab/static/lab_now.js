// The lab's "weights now" table beside its cards: the lesson's weights with each row's sum,
// entropy and largest weight and each column's sum (the lesson's "saturation"), the cell being
// read outlined. A click or the keyboard on a cell reads it (the model's "cell", shared with the
// lesson view). It follows the lesson table's rule (lesson_table.tableStage): no weight before
// the Softmax step, with a button to go there. A panel: {el, update(state), dispose()} (lab.js's state).

import { h } from "./dom.js";
import { num } from "./format.js";
import { heatTable } from "./lab_dom.js";
import { beatKeys } from "./layout.js";
import { heatKey, tableStage } from "./lesson_table.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void}} host
 */
export function nowPanel(id, { model, commit }) {
  const table = h("div", { class: "now-table" });
  const note = h("p", { class: "lab-note" });
  const el = h("aside", { class: "lab-now", "aria-labelledby": `${id}-now-h` }, [
    h("h3", { id: `${id}-now-h`, "data-words": "lab.now.title" }),
    h("p", { class: "lab-help", "data-words": "lab.now.help" }),
    table,
    note,
  ]);
  const toSoftmax = h("button", { type: "button", class: "small", "data-words": "lab.now.to_softmax", hidden: true });
  el.append(toSoftmax);
  let ready = false;
  let softmaxBeat = 0;

  function show({ raw, trace, words, hiding: asking, beat, softmaxBeat: at }) {
    // the lesson's rule: before the Softmax step there is no weight to show (and none while asking)
    const early = tableStage(beatKeys(trace), beat) !== "weights";
    const hiding = asking || early;
    softmaxBeat = at;
    const sat = raw.saturation;
    const byRow = sat?.per === "row" && !hiding;
    const sums = (xs) => (xs ?? []).map((x) => (hiding ? "" : num(x)));
    table.replaceChildren(
      heatTable({
        label: say(words, "lab.now.table"), rows: trace.tokens, cols: trace.key_tokens ?? trace.tokens, weights: trace.weights, mask: trace.mask, focus: trace.focus, words, hidden: hiding,
        hiddenTitle: asking ? undefined : say(words, "lab.now.before_cell", { number: at + 1 }),
        extra: [
          { head: say(words, "lab.now.row_sum"), values: sums(sat?.row_sums) },
          { head: say(words, "lab.now.bits"), values: byRow ? sums(sat.entropy_bits) : trace.tokens.map(() => "–") },
          { head: say(words, "lab.now.largest"), values: byRow ? sums(sat.max_weight) : trace.tokens.map(() => "–") },
        ],
        footer: { head: say(words, "lab.now.column_sum"), values: sums(sat?.column_sums) },
      }),
      ...(hiding ? [] : [heatKey(trace.weights, words)]),
    );
    const beforeSoftmax = early && !asking;
    note.textContent = beforeSoftmax ? say(words, "lab.now.before", { number: at + 1 }) : say(words, trace.axis === "keys" ? "lab.now.keys" : "lab.now.queries");
    toSoftmax.hidden = !beforeSoftmax;
  }
  const onSoftmax = () => commit({ beat: softmaxBeat });
  toSoftmax.addEventListener("click", onSoftmax);

  /** Outline the cell being read. @param {[number, number] | null} cell */
  function outline(cell) {
    for (const td of table.querySelectorAll("td[data-i]")) {
      td.classList.toggle("reading", cell !== null && Number(td.dataset.i) === cell[0] && Number(td.dataset.j) === cell[1]);
    }
  }

  /** A cell of this table, clicked or reached with the keyboard. */
  function onCell(e) {
    const td = e.target instanceof Element ? e.target.closest("td[data-i]") : null;
    const c = model.get("cell");
    if (td && ready && (c?.[0] !== Number(td.dataset.i) || c?.[1] !== Number(td.dataset.j))) commit({ cell: [Number(td.dataset.i), Number(td.dataset.j)] });
  }
  table.addEventListener("click", onCell);
  table.addEventListener("focusin", onCell);

  return {
    el,
    keys: ["lesson", "words", "predict", "guess", "asking", "cell", "beat"],
    /** @param {Record<string, any>} state @param {string} [key] */
    update(state, key) {
      ready = state.trace !== null;
      if (!ready) return;
      if (key !== "cell") show(state);
      outline(state.hiding ? null : state.reading); // the default cell is the answer
    },
    dispose() {
      toSoftmax.removeEventListener("click", onSoftmax);
      table.removeEventListener("click", onCell);
      table.removeEventListener("focusin", onCell);
    },
  };
}
