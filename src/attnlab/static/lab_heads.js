// The lab's Heads card: one head or two, each with its name and what it looks for; with two,
// the second head's weights and both heads' outputs joined side by side (the lesson's "heads"
// and "concat_outputs"). A panel: {el, update(state), dispose()} (lab.js's state).

import { h } from "./dom.js";
import { decodeArray, decodeLesson, num } from "./format.js";
import { card, heatTable, numberTable } from "./lab_dom.js";
import { dimNames } from "./lab_state.js";
import { heatKey } from "./lesson_table.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{commit: (changes: Record<string, any>) => void}} host
 */
export function headsPanel(id, { commit }) {
  const select = h("select", { id: `${id}-heads` });
  const body = h("div", { class: "lab-out" });
  const el = card(`${id}-heads-card`, "lab.heads.title", "lab.heads.help", [
    h("div", { class: "field" }, [h("label", { for: `${id}-heads`, "data-words": "lab.heads.label" }), select]),
    body,
  ]);

  function show({ raw, trace, words, limits, hiding }) {
    const counts = limits?.heads ?? [];
    select.replaceChildren(...counts.map((k) => h("option", { value: String(k) }, [String(k)])));
    select.value = String(raw.heads?.length ?? 1);
    const hs = raw.heads ?? [];
    if (hs.length < 2) {
      el.classList.remove("wide");
      body.replaceChildren(h("p", {}, [say(words, "lab.heads.one", { name: hs[0]?.name ?? "", blurb: hs[0]?.blurb ?? "" })]));
      return;
    }
    el.classList.add("wide"); // the joined outputs need the row's width
    const second = decodeLesson(hs[1]);
    const concat = decodeArray(raw.concat_outputs);
    const names = hs.flatMap((_, k) => dimNames(trace, words).map((d) => say(words, "lab.heads.dim", { number: k + 1, dim: d })));
    body.replaceChildren(
      ...hs.map((x, k) => h("p", {}, [h("strong", {}, [say(words, "lab.heads.head", { number: k + 1, name: x.name })]), " ", x.blurb])),
      heatTable({ label: say(words, "lab.heads.second_table"), caption: say(words, "lab.heads.second_caption"), rows: second.tokens, cols: second.key_tokens ?? second.tokens, weights: second.weights, mask: second.mask, focus: trace.focus, words, hidden: hiding }),
      ...(hiding ? [] : [heatKey(second.weights, words)]),
      numberTable(say(words, "lab.heads.concat"), [say(words, "lab.edit.token"), ...names], trace.tokens.map((tok, i) => [tok, ...concat[i].map((x) => num(x))]), "concat"),
      h("p", {}, [raw.heads_note ?? ""]),
    );
  }

  const onChange = () => commit({ heads: Number(select.value) });
  select.addEventListener("change", onChange);
  return {
    el,
    keys: ["lesson", "words", "lab", "predict", "guess", "asking"],
    /** @param {Record<string, any>} state */
    update: (state) => state.trace && show(state),
    dispose: () => select.removeEventListener("change", onChange),
  };
}
