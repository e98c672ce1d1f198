// The Real model view's decoder panel (SmolLM2): RoPE on the head shown (the focus query before
// and after its rotation, and its score against one key as the distance between them grows:
// model_layout.ropePlot) and the next tokens the model predicts after the focus and after the
// last token. Everything is the /api/model/trace answer's "decoder" part; for an encoder the
// panel says why it is empty.

import { h, s as svgNode } from "./dom.js";
import { num, percent } from "./format.js";
import { paintSVG } from "./model_dom.js";
import { ropePlot, shortVec } from "./model_layout.js";
import { changes } from "./model_state.js";
import { nested } from "./packed.js";
import { say } from "./words.js";

export function decoderPanel(model, id) {
  const words = () => model.get("words");
  const ui = {};
  ui.title = h("h2", { id: `${id}-dec-title`, "data-words": "model.rope.title" });
  ui.none = h("p", { class: "help" });
  ui.query = h("p", { class: "rm-rope-query" });
  ui.plot = svgNode("svg");
  ui.plot.setAttribute("class", "rm-plot rm-rope-plot");
  ui.plot.setAttribute("role", "img");
  ui.note = h("p", { class: "rm-note" });
  ui.next = h("div", { class: "rm-next" });
  const el = h("section", { class: "rm-decoder", "aria-labelledby": `${id}-dec-title` }, [ui.title, ui.none, ui.query, ui.plot, ui.note, ui.next]);

  function nextTable(rows, caption) {
    // a special token (Gemma 3's <start_of_image>) is said to be one, not read as a word
    const name = (r) => (r.special ? [JSON.stringify(r.token), " ", h("span", { class: "rm-special" }, [`(${say(words(), "model.next.special")})`])] : [JSON.stringify(r.token)]);
    const body = rows.map((r) => h("tr", { class: r.special ? "rm-next-special" : "" }, [h("th", { scope: "row" }, name(r)), h("td", {}, [percent(r.probability)])]));
    return h("table", { class: "rm-cos rm-next-table", "aria-label": caption }, [h("caption", {}, [caption]), h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, [say(words(), "model.next.token")]), h("th", { scope: "col" }, [say(words(), "model.next.probability")])])]), h("tbody", {}, body)]);
  }

  function show() {
    const t = model.get("trace");
    const dec = t?.decoder;
    const rope = Boolean(dec) && dec.positions !== "learned";
    for (const node of [ui.query, ui.plot, ui.note]) node.style.display = rope ? "" : "none";
    ui.next.style.display = dec ? "" : "none";
    ui.none.hidden = rope;
    const title = dec && !rope ? "model.rope.title_learned" : "model.rope.title";
    ui.title.setAttribute("data-words", title); // fillWords keeps it on a words change
    ui.title.textContent = say(words(), title);
    if (!t) {
      // a model is loading (or none is read yet): never the last model's words meanwhile
      ui.none.textContent = say(words(), "model.rope.loading");
      return;
    }
    if (!dec) {
      ui.none.textContent = say(words(), "model.rope.none");
      return;
    }
    const all = t.window.all_tokens;
    if (!rope) {
      ui.none.textContent = say(words(), "model.rope.learned");
      ui.next.replaceChildren(...nextTables(dec, all));
      return;
    }
    const token = all[dec.focus];
    ui.query.textContent = say(words(), "model.rope.query", { token, position: dec.focus, before: shortVec(dec.query_before), after: shortVec(dec.query_after) });
    const scores = nested(dec.scores);
    const size = { width: 620, height: 250 };
    paintSVG(ui.plot, ropePlot(scores, dec.distance, size, words()).shapes, size);
    ui.plot.setAttribute("aria-label", say(words(), "model.rope.plot_name", { token, key: dec.key_token }));
    ui.note.textContent = say(words(), "model.rope.note", { token, key: dec.key_token, distance: dec.distance, value: num(dec.score_used) });
    ui.next.replaceChildren(...nextTables(dec, all));
  }

  function nextTables(dec, all) {
    const token = all[dec.focus];
    // following the last token, both predictions are the same one: a single table says so
    return dec.focus === dec.last
      ? [nextTable(dec.next_after_last, say(words(), "model.next.after_last", { token, position: dec.last }))]
      : [
        nextTable(dec.next_after_focus, say(words(), "model.next.after", { token, position: dec.focus })),
        nextTable(dec.next_after_last, say(words(), "model.next.after", { token: all[dec.last], position: dec.last })),
      ];
  }
  const memo = changes();
  /** The view's state changed: RoPE and the next tokens follow the trace. */
  function update(state) {
    memo.next(state);
    if (memo.changed("trace", "words")) show();
  }
  return { el, update, dispose: () => {}, show };
}
