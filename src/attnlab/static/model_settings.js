// The Real model view's settings panel: the Text box (a textarea: Enter runs the model,
// Shift+Enter starts a line), the Model, Layer and Head menus (the models, layers and heads
// /api/model/info lists; none before it answers), the status line, and the banner for an
// error that names no control of the view. An error naming one of these controls goes next to
// it. A panel: {el, update(state), dispose()} (model_state.js).

import { h } from "./dom.js";
import { field } from "./model_dom.js";
import { ownNumber } from "./model_ids.js";
import { changes } from "./model_state.js";
import { createScope } from "./scope.js";
import { say } from "./words.js";

/** The controls an error may name; "focus" is the tokens panel's (model_tokens.js). */
const OWN = ["text", "model", "layer", "head"];
const ELSEWHERE = ["focus"];

/** A model's display name: the page's words for it (model.name.KEY), else its key. */
export const modelName = (words, key) => say(words, `model.name.${key}`) || key;

/**
 * @param {string} id a prefix for element ids
 * @param {(changes: Record<string, any>) => void} commit sets and saves the learner's choices
 * @param {() => void} stop stops the steps' playing (a new text or head)
 */
export function settingsPanel(id, commit, stop) {
  const scope = createScope();
  const memo = changes();
  const ui = {};
  ui.text = h("textarea", { rows: 3, autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-text-help ${id}-text-keys` });
  ui.textHelp = h("p", { id: `${id}-text-help`, class: "help" });
  const textField = field(`${id}-text`, "model.text", ui.text);
  ui.textForm = h("form", { class: "field own rm-text" }, [
    h("label", { for: `${id}-text`, "data-words": "model.text" }),
    h("div", { class: "inline" }, [ui.text, h("button", { type: "submit", "data-words": "model.run" })]),
    textField.err,
    ui.textHelp,
    h("p", { id: `${id}-text-keys`, class: "help", "data-words": "model.text_keys" }),
  ]);
  ui.name = h("select");
  ui.layer = h("select");
  ui.head = h("select");
  const fields = { model: field(`${id}-name`, "model.model", ui.name), layer: field(`${id}-layer`, "model.layer", ui.layer), head: field(`${id}-head`, "model.head", ui.head) };
  const slots = { text: textField.err, model: fields.model.err, layer: fields.layer.err, head: fields.head.err };
  ui.status = h("p", { class: "rm-status", role: "status", "data-words-label": "model.status" });
  const el = h("section", { class: "controls", "data-words-label": "model.settings" }, [ui.textForm, fields.model.box, fields.layer.box, fields.head.box, ui.status]);
  const banner = h("p", { class: "banner", role: "alert", hidden: true });

  function options(select, values, label, current) {
    select.replaceChildren(...values.map((v) => h("option", { value: String(v) }, [label(v)])));
    select.value = String(current);
  }

  function showInfo({ info, words, name, layer, head }) {
    const names = info?.known_models ?? [];
    options(ui.name, names, (v) => (modelName(words, v) === v ? v : say(words, "model.name_option", { model: modelName(words, v), id: v })), names.includes(name) ? name : names[0] ?? "");
    const kinds = info?.layer_names ?? []; // a model whose layers differ (local windows, global): each named by the API
    options(ui.layer, [...Array(info?.n_layers ?? 0).keys()], (v) => kinds[v] ?? say(words, "model.layer_option", { layer: ownNumber(info?.layer_ids, v) }), layer);
    const g = info ? info.n_heads / (info.n_kv_heads || info.n_heads) : 1;
    options(ui.head, [...Array(info?.n_heads ?? 0).keys()], (v) => (g > 1 ? say(words, "model.head_option_gqa", { head: v, kv: Math.floor(v / g) }) : say(words, "model.head_option", { head: ownNumber(info?.head_ids, v) })), head);
    const weightsOnly = Boolean(info?.weights_only); // attention handed in alone: no text to run
    ui.textForm.hidden = weightsOnly;
    fields.model.box.hidden = weightsOnly;
    if (info?.max_text_chars) ui.text.maxLength = info.max_text_chars; // the API's own limit, so a long text reaches it and its message
    if (info) ui.textHelp.textContent = say(words, info.causal ? "model.text_help_decoder" : "model.text_help", { max_tokens: info.max_tokens, d_k: info.d_k });
  }

  function showError({ error, traceError, words }) {
    const at = error?.field ?? null;
    for (const [name, slot] of Object.entries(slots)) slot.textContent = at === name ? error.message : "";
    ui.text.setAttribute("aria-invalid", String(at === "text"));
    const elsewhere = Boolean(error) && !OWN.includes(at) && !ELSEWHERE.includes(at);
    const message = elsewhere ? error.message : traceError ? say(words, "canvas.failed", { error: traceError }) : "";
    banner.hidden = !message;
    banner.textContent = message;
  }

  function update(state) {
    memo.next(state);
    if (memo.changed("info", "words", "name")) showInfo(state);
    if (memo.changed("error", "traceError", "words")) showError(state);
    if (memo.changed("status")) ui.status.textContent = state.status ?? "";
    if (memo.changed("layer")) ui.layer.value = String(state.layer);
    if (memo.changed("head")) ui.head.value = String(state.head);
    if (memo.changed("trace") && state.trace) {
      ui.layer.value = String(state.trace.model.layer);
      ui.head.value = String(state.trace.model.head);
      const doc = el.ownerDocument;
      if (doc.activeElement !== ui.text && ui.text.getAttribute("aria-invalid") !== "true") ui.text.value = state.text ?? "";
    }
  }

  scope.listen(ui.textForm, "submit", (e) => {
    e.preventDefault();
    stop();
    commit({ text: ui.text.value, focus: null });
  });
  scope.listen(ui.text, "keydown", (e) => {
    if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
    e.preventDefault(); // Enter runs the model; Shift+Enter is a new line
    ui.textForm.requestSubmit();
  });
  scope.listen(ui.name, "change", () => commit({ name: ui.name.value }));
  scope.listen(ui.layer, "change", () => commit({ layer: Number(ui.layer.value) }));
  scope.listen(ui.head, "change", () => commit({ head: Number(ui.head.value) }));
  return { el, banner, text: ui.text, update, dispose: scope.dispose, setText: (text) => (ui.text.value = text ?? "") };
}
