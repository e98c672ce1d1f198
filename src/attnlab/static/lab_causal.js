// The lab's Causal mask card: a token may read only the tokens before it, and each row still
// sums to 1 (the lesson's "causal_note" and row sums). A panel: {el, update(state), dispose()}.

import { h } from "./dom.js";
import { num } from "./format.js";
import { card } from "./lab_dom.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{commit: (changes: Record<string, any>) => void}} host
 */
export function causalPanel(id, { commit }) {
  const box = h("input", { id: `${id}-causal`, type: "checkbox" });
  const body = h("div", { class: "lab-out", "aria-live": "polite" });
  const el = card(`${id}-causal-card`, "lab.causal.title", "lab.causal.help", [
    h("label", { class: "check" }, [box, " ", h("span", { "data-words": "lab.causal.title" })]),
    body,
  ]);

  function show({ raw, words }) {
    box.checked = Boolean(raw.causal);
    const sums = raw.saturation?.row_sums ?? [];
    body.replaceChildren(
      ...(raw.causal
        ? [h("p", {}, [raw.causal_note ?? ""]), h("p", {}, [say(words, "lab.causal.on", { row_sums: sums.map((x) => num(x)).join(", ") })])]
        : [h("p", {}, [say(words, "lab.causal.off")])]),
    );
  }

  const onChange = () => commit({ causal: box.checked });
  box.addEventListener("change", onChange);
  return {
    el,
    keys: ["lesson", "words"],
    /** @param {Record<string, any>} state */
    update: (state) => state.trace && show(state),
    dispose: () => box.removeEventListener("change", onChange),
  };
}
