// One line above the lesson's picture saying what the lab has changed (a temperature, the
// softmax axis, a mask, positions, a second head, a shuffle, edited vectors, Predict first),
// each with its one-click undo, so the header never hides the lab's state.
//
// stateChanges() is pure: it reads the /api/lesson answer (what was computed, not what was asked)
// and the model's predict flag, and names each change with the page's words (lesson.state.*).
// fillStateLine() builds the DOM; a click on an undo commits the item's `undo` to the model.

import { h } from "./dom.js";
import { num } from "./format.js";
import { say } from "./words.js";

/**
 * The lab's changes active in `lesson`, in a fixed order.
 * @param {Record<string, any>} lesson the /api/lesson answer
 * @param {Record<string, string> | null} words
 * @param {{predict?: boolean}} [page] the page-only state
 * @returns {{key: string, text: string, undoLabel: string, undo: Record<string, any>}[]}
 */
export function stateChanges(lesson, words, { predict = false } = {}) {
  const out = [];
  const add = (key, text, undo) => out.push({ key, text, undoLabel: say(words, `lesson.state.undo.${key}`), undo });
  if (lesson.temperature !== null && lesson.temperature !== undefined) {
    add("temperature", say(words, "lesson.state.temperature", { t: num(Number(lesson.temperature), 3) }), { temperature: null });
  }
  if (lesson.axis && lesson.axis !== "keys") add("axis", say(words, "lesson.state.axis"), { axis: "keys" });
  if (lesson.causal) add("causal", say(words, "lesson.state.causal"), { causal: false });
  const kind = lesson.positions?.kind ?? "none";
  if (kind !== "none") add("positions", say(words, "lesson.state.positions", { kind: say(words, `lab.positions.${kind}`) || kind }), { positions: "none" });
  const heads = lesson.heads?.length ?? 1;
  if (heads > 1) add("heads", say(words, "lesson.state.heads", { count: heads }), { heads: 1 });
  if (lesson.shuffle) add("shuffle", say(words, "lesson.state.shuffle"), { shuffle: null });
  const edited = Object.entries(lesson.edits ?? {}).flatMap(([role, tokens]) => Object.keys(tokens ?? {}).map((tok) => `${tok} (${say(words, `lab.edit.noun.${role}`) || role})`));
  if (edited.length) add("edits", say(words, "lesson.state.edits", { edited: edited.join(", ") }), { edits: {} });
  if (predict) add("predict", say(words, "lesson.state.predict"), { predict: false, guess: null });
  return out;
}

/**
 * The line itself: a lead and one item per change, each with its undo button; hidden when
 * nothing is changed.
 * @param {HTMLElement} el the line's element (emptied and refilled)
 * @param {ReturnType<typeof stateChanges>} items
 * @param {Record<string, string> | null} words
 * @param {(changes: Record<string, any>) => void} commit
 */
export function fillStateLine(el, items, words, commit) {
  el.hidden = items.length === 0;
  el.replaceChildren(
    h("span", { class: "state-lead" }, [say(words, "lesson.state.lead")]),
    ...items.map((item) => {
      const undo = h("button", { type: "button", class: "small undo", "aria-label": item.undoLabel, title: item.undoLabel }, ["↺"]);
      undo.addEventListener("click", () => commit(item.undo));
      return h("span", { class: "state-item", "data-key": item.key }, [item.text, " ", undo]);
    }),
  );
}
