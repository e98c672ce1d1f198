// The lab's Reading the matrix card: what the cell being read means (the lesson's "readings":
// row i, column j is how much token i reads token j), and, transposed, the mistaken reading and
// why it is wrong. The cell is the model's "cell", picked in either view; none picked, the focus
// row's answer. A panel: {el, update(state), dispose()} (lab.js's state).

import { h } from "./dom.js";
import { card } from "./lab_dom.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void}} host
 */
export function readingPanel(id, { model, commit }) {
  const reading = h("p", { class: "reading", "aria-live": "polite" });
  const transpose = h("button", { type: "button", "aria-pressed": "false", "data-words": "lab.reading.transpose" });
  const mistaken = h("div", { class: "mistaken", "aria-live": "polite", hidden: true });
  const el = card(`${id}-read-card`, "lab.reading.title", "lab.reading.help", [
    reading,
    h("div", { class: "inline-row" }, [transpose]),
    mistaken,
  ]);
  let transposed = false;
  /** @type {Record<string, any> | null} */
  let last = null;

  function show(state) {
    const cell = state.reading;
    if (cell && model.get("cell") !== cell) commit({ cell }); // the lesson view outlines it too
    const r = state.hiding || !cell ? null : state.raw.readings?.[cell[0]]?.[cell[1]];
    reading.textContent = r ? r.text : state.hiding ? say(state.words, "lab.reading.hidden") : "";
    transpose.disabled = state.hiding;
    transpose.setAttribute("aria-pressed", String(transposed));
    mistaken.hidden = !transposed || !r;
    if (r) mistaken.replaceChildren(h("p", { class: "mistaken-text" }, [r.mistaken]), h("p", { class: "why" }, [r.why]));
  }

  const onTranspose = () => {
    transposed = !transposed;
    if (last?.trace) show(last);
  };
  transpose.addEventListener("click", onTranspose);
  return {
    el,
    keys: ["lesson", "words", "predict", "guess", "asking", "cell"],
    /** @param {Record<string, any>} state @param {string} [key] */
    update(state, key) {
      if (key === "cell") transposed = false; // a new cell is read the right way first
      last = state;
      if (state.trace) show(state);
    },
    dispose: () => transpose.removeEventListener("click", onTranspose),
  };
}
