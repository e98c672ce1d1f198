// The Real model view's "Follow the token:" bar: one button per token of the text (the whole
// text, also when a window of it is shown), the followed one pressed; a click follows another.
// An error naming the focus goes under the bar. A panel: {el, update(state), dispose()}.

import { h } from "./dom.js";
import { changes } from "./model_state.js";
import { visibleToken } from "./names.js";
import { createScope } from "./scope.js";

/**
 * @param {string} id a prefix for element ids
 * @param {(changes: Record<string, any>) => void} commit
 */
export function tokensPanel(id, commit) {
  const scope = createScope();
  const memo = changes();
  const bar = h("div", { class: "tokens rm-tokens" });
  const err = h("p", { class: "field-error", role: "alert" });
  const el = h("div", { class: "focus-bar rm-focus", role: "group", "aria-labelledby": `${id}-focus-label` }, [
    h("span", { id: `${id}-focus-label`, class: "focus-label", "data-words": "steps.focus" }),
    bar,
    err,
  ]);
  let shown = null; // the token list the buttons were built for

  function show(window) {
    const all = window.all_tokens;
    if (shown && shown.length === all.length && shown.every((tok, j) => tok === all[j])) {
      // another head of the same text: 2,048 buttons stay, only the pressed one moves (the
      // others' attribute is not written again: 2,048 writes restyled the bar on every switch)
      for (const b of bar.children) {
        const pressed = String(Number(b.dataset.index) === window.focus);
        if (b.getAttribute("aria-pressed") !== pressed) b.setAttribute("aria-pressed", pressed);
      }
      return;
    }
    shown = all;
    bar.replaceChildren(...all.map((tok, j) => h("button", { type: "button", class: "token", "aria-pressed": j === window.focus ? "true" : "false", "data-index": j }, [visibleToken(tok)])));
  }

  function update(state) {
    memo.next(state);
    if (memo.changed("trace")) {
      if (state.trace) show(state.trace.window);
      else {
        shown = null;
        bar.replaceChildren();
      }
    }
    if (memo.changed("error")) err.textContent = state.error?.field === "focus" ? state.error.message : "";
  }

  // one listener for 2,048 buttons
  scope.listen(bar, "click", (e) => {
    const b = e.target instanceof Element ? e.target.closest("button.token") : null;
    if (b) commit({ focus: Number(b.dataset.index) });
  });
  return { el, update, dispose: scope.dispose };
}
