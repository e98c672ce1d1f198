// The lesson's settings: the Context (a preset sentence), your own sentence (with the words it
// may use) and the Normalization (the modes, with the temperature's note when one replaces √dₖ).
// Each sets the model's "sentence", "focus" or "mode"; a refusal naming the sentence or the
// mode shows under its control. A panel: {el, keys, update(state, key), dispose()}.

import { h } from "./dom.js";
import { num } from "./format.js";
import { createScope } from "./scope.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void}} host
 */
export function controlsPanel(id, { model, commit }) {
  const scope = createScope();
  const context = h("select", { id: `${id}-context`, "aria-describedby": `${id}-context-err` });
  const contextErr = h("p", { id: `${id}-context-err`, class: "field-error", role: "alert" });
  const own = h("input", {
    id: `${id}-own`, type: "text", autocomplete: "off", spellcheck: "false", maxlength: 500,
    "data-words-placeholder": "lesson.own_placeholder", "aria-describedby": `${id}-own-err ${id}-own-help`,
  });
  const ownErr = h("p", { id: `${id}-own-err`, class: "field-error", role: "alert" });
  const ownHelp = h("p", { id: `${id}-own-help` });
  const ownForm = h("form", { class: "field own" }, [
    h("label", { for: `${id}-own`, "data-words": "lesson.own_label" }),
    h("div", { class: "inline" }, [own, h("button", { type: "submit", "data-words": "lesson.own_show" })]),
    ownErr,
    h("details", { class: "help" }, [h("summary", { "data-words": "lesson.own_which" }), ownHelp]),
  ]);
  const mode = h("select", { id: `${id}-mode`, "aria-describedby": `${id}-mode-err ${id}-mode-help` });
  const modeHelp = h("p", { id: `${id}-mode-help`, class: "help" });
  const modeErr = h("p", { id: `${id}-mode-err`, class: "field-error", role: "alert" });
  const el = h("section", { class: "controls", "data-words-label": "lesson.settings" }, [
    h("div", { class: "field" }, [h("label", { for: `${id}-context`, "data-words": "lesson.context" }), context, contextErr]),
    ownForm,
    h("div", { class: "field" }, [h("label", { for: `${id}-mode`, "data-words": "lesson.mode" }), mode, modeErr, modeHelp]),
  ]);
  /** @type {Record<string, any>} */
  let state = { trace: null };

  function buildChoices() {
    const { trace, words } = state;
    const modes = state.choices?.modes ?? [];
    const now = mode.value || trace?.mode || model.get("mode");
    mode.replaceChildren(...modes.map((m) => h("option", { value: m.value }, [m.label])));
    mode.value = trace?.mode ?? now ?? "";
    const t = trace?.temperature;
    modeHelp.textContent = t !== null && t !== undefined && mode.value === "scaled"
      ? say(words, "lesson.mode_temperature", { t: num(Number(t), 3), root: num(Math.sqrt(trace.d_k)) })
      : modes.find((m) => m.value === mode.value)?.help ?? "";
  }

  function buildContext() {
    const { presets, words } = state;
    const all = presets?.presets ?? [];
    const current = model.get("sentence") ?? "";
    const options = all.map((p) => h("option", { value: p.sentence }, [p.sentence]));
    const known = all.some((p) => p.sentence === current);
    options.push(h("option", { value: "", disabled: true, hidden: known }, [say(words, "lesson.own_sentence")]));
    context.replaceChildren(...options);
    context.value = known ? current : "";
    const vocab = presets?.vocabulary;
    if (vocab) ownHelp.textContent = say(words, "lesson.own_help", { max_tokens: presets?.max_tokens ?? "", vocabulary: vocab.join(", ") });
  }

  function showError() {
    const field = state.error?.field ?? null;
    const msg = state.error?.message ?? "";
    ownErr.textContent = field === "sentence" ? msg : "";
    own.setAttribute("aria-invalid", field === "sentence" ? "true" : "false");
    modeErr.textContent = field === "mode" ? msg : "";
  }

  scope.listen(context, "change", () => {
    const preset = (state.presets?.presets ?? []).find((p) => p.sentence === context.value);
    if (preset) commit({ sentence: preset.sentence, focus: preset.focus });
  });
  scope.listen(mode, "change", () => commit({ mode: mode.value }));
  scope.listen(ownForm, "submit", (e) => {
    e.preventDefault();
    commit({ sentence: own.value, focus: null });
  });

  return {
    el,
    keys: ["lesson", "words", "error", "choices", "presets", "sentence"],
    /** @param {Record<string, any>} next the view's state @param {string} [changed] */
    update(next, changed) {
      state = next;
      if (changed === "error") return showError();
      if (changed === "choices") return buildChoices();
      if (changed === "lesson" && state.trace) {
        buildContext();
        buildChoices();
        if (el.ownerDocument.activeElement !== own) own.value = state.trace.tokens.join(" ");
        return;
      }
      if (state.trace) buildContext(); // words, presets, sentence
    },
    dispose: () => scope.dispose(),
  };
}
