// The lab's Softmax axis card: softmax over the keys (each row sums to 1) or, wrongly, over the
// queries; then the focus token's output both ways and how far it moved (the lesson's
// "wrong_axis"). A panel: {el, update(state), dispose()} (lab.js's state).

import { h } from "./dom.js";
import { decodeArray, num } from "./format.js";
import { card, numberTable } from "./lab_dom.js";
import { dimNames } from "./lab_state.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{commit: (changes: Record<string, any>) => void}} host
 */
export function axisPanel(id, { commit }) {
  const select = h("select", { id: `${id}-axis` });
  const body = h("div", { class: "lab-out", "aria-live": "polite" });
  const el = card(`${id}-axis-card`, "lab.axis.title", "lab.axis.help", [
    h("div", { class: "field" }, [h("label", { for: `${id}-axis`, "data-words": "lab.axis.title" }), select]),
    body,
  ]);

  function show({ raw, trace, words, choices }) {
    const axes = choices?.axes ?? [trace.axis];
    select.replaceChildren(...axes.map((v) => h("option", { value: v }, [say(words, `lab.axis.${v}`) || v])));
    select.value = trace.axis;
    const sat = raw.saturation;
    const sums = (xs) => xs.map((x) => num(x)).join(", ");
    el.classList.toggle("wide", trace.axis !== "keys"); // its output table needs the width
    if (trace.axis === "keys") {
      body.replaceChildren(h("p", {}, [say(words, "lab.axis.now", { row_sums: sums(sat.row_sums) })]));
      return;
    }
    const wa = raw.wrong_axis;
    const f = trace.focus;
    const who = trace.tokens[f];
    const right = decodeArray(wa.right_outputs);
    const moved = decodeArray(wa.moved);
    body.replaceChildren(
      h("p", { class: "warn" }, [say(words, "lab.axis.wrong", { column_sums: sums(sat.column_sums), row_sums: sums(sat.row_sums) })]),
      numberTable(say(words, "lab.axis.output", { token: who }), [say(words, "lab.axis.across"), ...dimNames(trace, words)], [
        [say(words, "lab.axis.keys_row"), ...right[f].map((x) => num(x))],
        [say(words, "lab.axis.queries_row"), ...trace.outputs[f].map((x) => num(x))],
      ], "axis-out"),
      h("p", {}, [say(words, "lab.axis.moved", { token: who, distance: num(moved[f]) }), " ", wa.note]),
    );
  }

  const onChange = () => commit({ axis: select.value });
  select.addEventListener("change", onChange);
  return {
    el,
    keys: ["lesson", "words", "choices"],
    /** @param {Record<string, any>} state */
    update: (state) => state.trace && show(state),
    dispose: () => select.removeEventListener("change", onChange),
  };
}
