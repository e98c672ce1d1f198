// The lesson's focus bar: one button per token (a repeated word by its place, names.js), the
// focus pressed; a click sets the model's "focus". A refusal that names the focus shows under
// it. A panel: {el, keys, update(state, key), dispose()}.

import { h } from "./dom.js";
import { tokenNames } from "./names.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{commit: (changes: Record<string, any>) => void}} host
 */
export function focusPanel(id, { commit }) {
  const tokens = h("div", { class: "tokens" });
  const error = h("p", { class: "field-error", role: "alert" });
  const el = h("div", { class: "focus-bar", role: "group", "aria-labelledby": `${id}-focus-label` }, [
    h("span", { id: `${id}-focus-label`, class: "focus-label", "data-words": "steps.focus" }),
    tokens,
    error,
  ]);

  function build(trace) {
    tokens.replaceChildren(...tokenNames(trace.tokens).map((tok, j) => {
      const b = h("button", { type: "button", class: "token", "aria-pressed": j === trace.focus ? "true" : "false" }, [tok]);
      b.addEventListener("click", () => commit({ focus: j }));
      return b;
    }));
  }

  return {
    el,
    keys: ["lesson", "error"],
    /** @param {Record<string, any>} state @param {string} [changed] */
    update(state, changed) {
      if (changed === "error") error.textContent = state.error?.field === "focus" ? state.error.message ?? "" : "";
      else if (state.trace) build(state.trace);
    },
    dispose() {},
  };
}
