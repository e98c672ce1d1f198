// The Real model view's sentences about what is shown: the intro (which model, its sizes), the
// head line ("Layer 2, head 5 of …: n tokens, √d_k"), how a word of several pieces is
// followed, the grouped-query line (which query heads share this key/value head, their keys
// quoted), and a long text's window note. Each a panel {el, update(state), dispose()}; every
// number is the API's, formatted by format.js.

import { h } from "./dom.js";
import { num } from "./format.js";
import { ownNumber } from "./model_ids.js";
import { changes } from "./model_state.js";
import { modelName } from "./model_settings.js";
import { say } from "./words.js";

/** A vector's first numbers as the seed writes them: [1.37, -1.04, …]. */
const shortList = (xs) => `[${xs.map((x) => num(x)).join(", ")}, …]`;

/** Which query heads read this head's keys and values, and that they are the same numbers. */
export function gqaLine(t, words) {
  const g = t.gqa;
  if (!g) return "";
  if (g.group.length === 1) return say(words, "model.gqa.own", { n_heads: t.model.n_heads });
  const one = t.model.n_kv_heads === 1; // multi-query attention: every query head reads the one K/V head
  const vectors = g.group.map((hd, k) => say(words, "model.gqa.vector", { head: hd, vector: shortList(g.keys[k]) })).join("; ");
  const key = one && g.group_identical ? "model.gqa.one" : g.group_identical ? "model.gqa.shared" : "model.gqa.differ";
  return say(words, key, { n_heads: t.model.n_heads, heads: g.group.join(", "), kv: g.kv_head, token: t.focus_token, vectors });
}

const noop = () => {};

/** The intro above the settings: an encoder's, a decoder's, or attention handed in alone. */
export function introPanel() {
  const memo = changes();
  const intro = h("p", { class: "rm-intro" });
  const kv = h("p", { class: "rm-kv-note", hidden: true }); // what sharing K/V heads and the windows save (the API's sentence)
  const el = h("div", { class: "rm-intro-box" }, [intro, kv]);
  function update(state) {
    memo.next(state);
    const info = state.info;
    if (!memo.changed("info", "words") || !info) return;
    const key = info.weights_only ? "maps.intro" : info.causal ? "model.intro_decoder" : "model.intro";
    intro.textContent = say(state.words, key, { model: modelName(state.words, info.model), n_layers: info.n_layers, n_heads: info.n_heads, d_model: info.d_model });
    kv.textContent = info.kv_note ?? "";
    kv.hidden = !info.kv_note;
  }
  return { el, update, dispose: noop };
}

/** The head line, a word's pieces and the grouped-query line, under the tokens. */
export function headNotesPanel() {
  const memo = changes();
  const which = h("p", { class: "rm-which" });
  const pieces = h("p", { class: "rm-pieces", hidden: true }); // how a word of several pieces is followed
  const gqa = h("p", { class: "rm-gqa" });
  const windowed = h("p", { class: "rm-layer-window", hidden: true }); // a local layer: its window, and what it greys
  const el = h("div", { class: "rm-notes" }, [which, pieces, gqa, windowed]);
  function update(state) {
    memo.next(state);
    if (!memo.changed("trace", "words")) return;
    const t = state.trace;
    const words = state.words;
    if (!t) {
      for (const node of [which, pieces, gqa, windowed]) node.textContent = "";
      pieces.hidden = true;
      windowed.hidden = true;
      return;
    }
    const m = t.model;
    which.textContent = say(words, t.weights_only ? "maps.which" : "model.which", { layer: ownNumber(m.layer_ids, m.layer), head: ownNumber(m.head_ids, m.head), model: modelName(words, m.name), n: t.window?.n ?? t.tokens.length, d_k: t.d_k, divisor: t.captions?.divisor ?? num(t.divisor) });
    gqa.textContent = gqaLine(t, words);
    pieces.hidden = !t.word;
    pieces.textContent = t.word?.note ?? "";
    windowed.textContent = m.window_note ?? "";
    windowed.hidden = !m.window_note;
  }
  return { el, update, dispose: noop };
}

/**
 * A long text's head view is asked on demand: a note on its size and the button that asks it
 * (it writes "heads_wanted"); hidden while the host has nothing to offer ("heads_wait" 0).
 * @param {(changes: Record<string, any>) => void} commit
 */
export function headViewAskPanel(commit) {
  const memo = changes();
  const note = h("p", { class: "help" });
  const button = h("button", { type: "button", "data-words": "model.hv.ask" });
  const el = h("div", { class: "rm-hv-ask", hidden: true }, [note, button]);
  const ask = () => commit({ heads_wanted: Date.now() });
  button.addEventListener("click", ask);
  function update(state) {
    memo.next(state);
    if (!memo.changed("heads_wait", "words")) return;
    el.hidden = !state.heads_wait;
    note.textContent = state.heads_wait ? say(state.words, "model.hv.ask_long", { n: state.heads_wait }) : "";
  }
  return { el, update, dispose: () => button.removeEventListener("click", ask) };
}

/** A long text's note: how many of its tokens the step picture shows, and their weight. */
export function windowPanel() {
  const memo = changes();
  const el = h("p", { class: "rm-window-note", hidden: true });
  function update(state) {
    memo.next(state);
    if (!memo.changed("trace", "words")) return;
    const w = state.trace?.window;
    el.hidden = !w || w.whole;
    el.textContent = w ? say(state.words, "model.window", { shown: w.rows.length, n: w.n, token: state.trace.focus_token, weight: num(w.shown_weight) }) : "";
  }
  return { el, update, dispose: noop };
}
