// The Real model view's "Real attention weights" table: row i the query token, column j the key
// it attends to, each cell its weight on the heat scale (a decoder's masked cells grey, reading
// 0); pointing at a cell or focusing it reads it out (weights_table.js). A panel:
// {el, update(state), dispose()}; `el` holds the table's wrap and its readout.

import { MODEL_COLORS, heat, inkOn } from "./colors.js";
import { h } from "./dom.js";
import { num } from "./format.js";
import { MASKED } from "./matrix_picture.js";
import { ownNumber } from "./model_ids.js";
import { changes } from "./model_state.js";
import { createScope } from "./scope.js";
import { readableCells } from "./weights_table.js";
import { say } from "./words.js";

export function tablePanel() {
  const scope = createScope();
  const memo = changes();
  const table = h("table", { class: "weights rm-weights", "data-words-label": "model.table_name" });
  const readout = h("p", { class: "readout", "aria-live": "polite", "data-words": "table.readout_hint" });
  const el = h("div", { class: "rm-table-panel" }, [h("div", { class: "table-wrap rm-table-wrap" }, [table]), readout]);
  let trace = null;
  let words = null;
  let cell = null; // the cell the readout tells: recomputed from each new trace, or cleared

  /** Why cell (i, j) is masked, or null: a later key, or (a local layer) a key before the window. */
  function maskedWhy(i, j) {
    if (!trace.mask || trace.mask[i][j]) return null;
    const keys = trace.key_tokens ?? trace.tokens;
    const rows = trace.window?.rows; // each shown row's index in the whole text
    const qi = rows ? rows[i] : i;
    const kj = rows ? rows[j] : j;
    const w = trace.model?.window;
    if (w != null && kj <= qi - w) return say(words, "model.table.outside_window", { query: trace.tokens[i], key: keys[j], window: w.toLocaleString("en-US") });
    return say(words, "table.masked_title", { query: trace.tokens[i], key: keys[j] });
  }

  function read(i, j) {
    cell = [i, j];
    const why = maskedWhy(i, j);
    if (why) {
      readout.textContent = why;
      return;
    }
    // a window of a long text: its tokens carry their places (#1770), so the table's own row and
    // column numbers are said as such, not beside them as if they were places too
    const windowed = trace.window && !trace.window.whole;
    readout.textContent = say(words, windowed ? "table.readout_window" : "table.readout", { row: i + 1, query: trace.tokens[i], col: j + 1, key: (trace.key_tokens ?? trace.tokens)[j], weight: num(trace.weights[i][j]), shown: trace.tokens.length });
  }

  function build() {
    const m = trace.model;
    const caption = h("caption", {}, [say(words, "model.table_caption", { layer: ownNumber(m.layer_ids, m.layer), head: ownNumber(m.head_ids, m.head) }), m.causal ? ` ${say(words, "model.table_causal")}` : "", m.window_note ? ` ${m.window_note}` : ""]);
    const head = h("tr", {}, [h("th", { scope: "col", class: "corner" }, [say(words, "table.corner")])]);
    const b = trace.model?.sentence_b_start ?? null; // a pair's boundary: sentence B's first row and column
    (trace.key_tokens ?? trace.tokens).forEach((tok, j) => head.append(h("th", { scope: "col", class: j === b ? "pair-b" : "" }, [tok])));
    const body = h("tbody");
    trace.tokens.forEach((tok, i) => {
      const row = h("tr", { class: [i === trace.focus ? "focus" : "", i === b ? "pair-b" : ""].join(" ").trim() }, [h("th", { scope: "row" }, [tok])]);
      trace.weights[i].forEach((w, j) => {
        const masked = trace.mask ? !trace.mask[i][j] : false;
        const td = h("td", { tabindex: i === trace.focus && j === 0 ? 0 : -1, "data-i": i, "data-j": j, class: [masked ? "masked" : "", j === b ? "pair-b" : ""].join(" ").trim() }, [num(w)]);
        if (masked) td.setAttribute("aria-label", maskedWhy(i, j)); // named as masked, not read as a weight of 0
        td.style.background = masked ? MASKED : heat(w);
        td.style.color = masked ? MODEL_COLORS.maskedInk : inkOn(w);
        row.append(td);
      });
      body.append(row);
    });
    table.replaceChildren(caption, h("thead", {}, [head]), body);
  }

  /** A new trace (another head, text or focus): the readout says the new numbers, or the hint. */
  function refreshReadout() {
    const [i, j] = cell ?? [-1, -1];
    if (trace && i >= 0 && i < trace.tokens.length && j < trace.tokens.length) read(i, j);
    else {
      cell = null;
      readout.textContent = say(words, "table.readout_hint");
    }
  }

  function update(state) {
    memo.next(state);
    if (!memo.changed("trace", "words")) return;
    trace = state.trace;
    words = state.words;
    if (trace) build();
    else table.replaceChildren();
    refreshReadout();
  }

  readableCells(table, { read, ready: () => trace !== null, scope });
  return { el, update, dispose: scope.dispose };
}
