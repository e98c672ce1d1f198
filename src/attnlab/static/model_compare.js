// The Compare contexts panel of the Real model view: the seed's claim (same word, different
// mixture) measured on a real model. For a word in two sentences it shows, from the
// /api/model/compare answer, the word's attention row in each for the head chosen above, a line
// plot of the cosine similarity of its two vectors layer by layer (model_layout.cosinePlot), the
// same numbers as a table, and the API's note. When the word occurs more than once in a sentence
// a select picks which place is followed ("occ_a", "occ_b"); beside the two rows, their
// difference A − B on the keys both sentences share, with the sign said in words. It computes
// nothing: every number is the API's.

import { heat, inkOn } from "./colors.js";
import { h, s } from "./dom.js";
import { num } from "./format.js";
import { field, paintSVG } from "./model_dom.js";
import { cosinePlot } from "./model_layout.js";
import { changes } from "./model_state.js";
import { say } from "./words.js";

/** One sentence's row of the word, for head (L, H), as a one-row table on the heat scale. */
function rowTable(table, { cmp, side, which, sentence, L, H, words }) {
  const row = side.rows?.[L]?.[H] ?? [];
  const word = cmp.word;
  table.setAttribute("aria-label", say(words, "model.compare.row_name", { word, which }));
  const head = h("tr", {}, side.tokens.map((tok, j) => h("th", { scope: "col", class: side.pieces.includes(j) ? "rm-self" : "" }, [tok])));
  const cells = h("tr", {}, row.map((w) => {
    const td = h("td", {}, [num(w)]);
    td.style.background = heat(w);
    td.style.color = inkOn(w);
    return td;
  }));
  table.replaceChildren(h("caption", {}, [say(words, "model.compare.row_caption", { which, sentence })]), h("thead", {}, [head]), h("tbody", {}, [cells]));
}

/** Which place of the word a sentence follows, when it has several (hidden otherwise). */
function occurrences(select, { side, word, chosen, words }) {
  select.replaceChildren(...side.occurrences.map((position, k) => h("option", { value: String(k + 1) }, [say(words, "model.compare.occurrence", { word, k: k + 1, position })])));
  select.value = String(side.occurrences.indexOf(side.index) + 1 || chosen);
  select.closest(".field").hidden = side.occurrences.length < 2;
}

/** A sentence as its tokens, but the tokenizer's own ([CLS], [SEP], <|im_start|>), one space apart. */
const sentenceOf = (tokens, special) => tokens.filter((t) => !special.includes(t)).map((t) => t.trim()).join(" ");

/** The decimals the API rounds rows to (encode PLACES): A, B and A − B are all written with
 * them, and the API's A − B is the difference of the rows as sent, so the three agree as shown. */
const PLACES = 4;
const signed = (x) => (x > 0 ? `+${num(x, PLACES)}` : num(x, PLACES));

/** A − B on the keys both sentences share, for head (L, H), the sign in its cell's class. */
function diffTable(table, { cmp, L, H, words }) {
  const shared = cmp.shared;
  const d = shared.difference[L]?.[H] ?? [];
  const cols = [["diff_key", (k) => shared.tokens[k]], ["diff_a", (k) => num(cmp.a.rows[L][H][shared.a[k]], PLACES)], ["diff_b", (k) => num(cmp.b.rows[L][H][shared.b[k]], PLACES)], ["diff_d", (k) => signed(d[k])]];
  const body = h("tbody", {}, shared.tokens.map((_, k) => h("tr", {}, cols.map(([, cell], c) => (c === 0 ? h("th", { scope: "row" }, [cell(k)]) : h("td", { class: c === 3 ? (d[k] > 0 ? "pos" : d[k] < 0 ? "neg" : "") : "" }, [cell(k)]))))));
  const head = h("tr", {}, cols.map(([key]) => h("th", { scope: "col" }, [say(words, `model.compare.${key}`)])));
  table.replaceChildren(h("caption", {}, [say(words, "model.compare.diff_caption", { layer: L, head: H, word: cmp.word })]), h("thead", {}, [head]), body);
}

/** The cosine similarity layer by layer: the plot at `width`, its table and the API's note. */
function showCosine(ui, cmp, width, words) {
  const plotSize = { width, height: 230 };
  const plot = cosinePlot(cmp.cosine, cmp.cosine_labels, plotSize, words);
  paintSVG(ui.plot, plot.shapes, plotSize);
  const values = cmp.cosine_labels.map((label, k) => say(words, "model.compare.plot_value", { label, value: num(cmp.cosine[k]) })).join(", ");
  ui.plot.setAttribute("aria-label", say(words, "model.compare.plot_name", { word: cmp.word, values }));
  const head = h("tr", {}, ["table_layer", "table_cosine"].map((k) => h("th", { scope: "col" }, [say(words, `model.compare.${k}`)])));
  const body = h("tbody", {}, cmp.cosine_labels.map((label, k) => h("tr", {}, [h("th", { scope: "row" }, [label === "embeddings" ? say(words, "model.compare.table_in") : label]), h("td", {}, [num(cmp.cosine[k])])])));
  ui.cosTable.replaceChildren(h("caption", {}, [say(words, "model.compare.table_caption", { word: cmp.word })]), h("thead", {}, [head]), body);
  ui.note.textContent = cmp.note;
}

/** The panel's elements: the form, the occurrence selects, the rows, the plot and its table. */
function compareElements(id) {
  const ui = {};
  ui.word = h("input", { type: "text", autocomplete: "off", spellcheck: "false", maxlength: 100 });
  ui.a = h("input", { type: "text", autocomplete: "off", spellcheck: "false", maxlength: 2000 });
  ui.b = h("input", { type: "text", autocomplete: "off", spellcheck: "false", maxlength: 2000 });
  const wordField = field(`${id}-word`, "model.compare.word", ui.word);
  const aField = field(`${id}-a`, "model.compare.a", ui.a);
  const bField = field(`${id}-b`, "model.compare.b", ui.b);
  Object.assign(ui, { wordErr: wordField.err, aErr: aField.err, bErr: bField.err });
  ui.cmpForm = h("form", { class: "rm-cmp-form" }, [wordField.box, aField.box, bField.box, h("button", { type: "submit", class: "primary", "data-words": "model.compare.button" })]);
  ui.cmpBanner = h("p", { class: "banner", role: "alert", hidden: true });
  ui.occA = h("select");
  ui.occB = h("select");
  const occAField = field(`${id}-occ-a`, "model.compare.occurrence_a", ui.occA);
  const occBField = field(`${id}-occ-b`, "model.compare.occurrence_b", ui.occB);
  ui.occAErr = occAField.err;
  ui.occBErr = occBField.err;
  ui.occ = h("div", { class: "rm-occ" }, [occAField.box, occBField.box]);
  ui.diff = h("table", { class: "weights rm-row rm-diff", "data-words-label": "model.compare.diff_name" });
  ui.diffSign = h("p", { class: "help", "data-words": "model.compare.diff_sign" });
  ui.rowsTitle = h("h3", { class: "rm-rows-title" });
  ui.rowA = h("table", { class: "weights rm-row" });
  ui.rowB = h("table", { class: "weights rm-row" });
  ui.plot = s("svg", { role: "img", class: "rm-plot" });
  ui.cosTable = h("table", { class: "rm-cos", "data-words-label": "model.compare.table_name" });
  ui.note = h("p", { class: "rm-note" });
  const el = h("section", { class: "rm-compare", "aria-labelledby": `${id}-cmp-title` }, [
    h("h2", { id: `${id}-cmp-title`, "data-words": "model.compare.title" }),
    h("p", { class: "help", "data-words": "model.compare.help" }),
    ui.cmpForm,
    ui.cmpBanner,
    ui.occ,
    ui.rowsTitle,
    h("div", { class: "rm-rows" }, [h("div", { class: "table-wrap" }, [ui.rowA]), h("div", { class: "table-wrap" }, [ui.rowB]), h("div", { class: "table-wrap" }, [ui.diff])]),
    ui.diffSign,
    h("div", { class: "rm-cos-wrap" }, [h("div", { class: "rm-plot-wrap" }, [ui.plot]), h("div", { class: "table-wrap" }, [ui.cosTable])]),
    ui.note,
  ]);
  return { ui, el };
}

const FIELDS = ["word", "a", "b", "occurrence_a", "occurrence_b"];

/** A refusal beside the field it names (the word, a sentence, an occurrence), else a banner. */
function showError(ui, error) {
  const fieldName = error?.field ?? null;
  const msg = error?.message ?? "";
  const boxes = { word: [ui.word, ui.wordErr], a: [ui.a, ui.aErr], b: [ui.b, ui.bErr], occurrence_a: [ui.occA, ui.occAErr], occurrence_b: [ui.occB, ui.occBErr] };
  for (const name of FIELDS) {
    const [box, err] = boxes[name];
    err.textContent = fieldName === name ? msg : "";
    box.setAttribute("aria-invalid", String(fieldName === name));
  }
  const elsewhere = Boolean(error) && !FIELDS.includes(fieldName);
  ui.cmpBanner.hidden = !elsewhere;
  ui.cmpBanner.textContent = elsewhere ? msg : "";
}

/** The form holds the word and sentences answered (not while the learner types in one). */
function showInputs(ui, model, el) {
  for (const name of ["word", "a", "b"]) if (el.ownerDocument.activeElement !== ui[name] && !model.get("compareError")) ui[name].value = model.get(name) ?? "";
}

/**
 * Build the panel. The model holds "word", "a", "b", "layer", "head", "compare" and
 * "compareError"; `commit(changes)` sets and saves the learner's choices.
 * @param {any} model
 * @param {string} id a prefix for the panel's element ids
 * @param {(changes: Record<string, any>) => void} commit
 */
export function comparePanel(model, id, commit) {
  const words = () => model.get("words");
  const { ui, el } = compareElements(id);
  const listening = new AbortController();
  const on = { signal: listening.signal };

  // what the panel shows now: the rows for [answer, words, layer, head], the cosine plot and
  // its table for [answer, words, width]. A head switch shows the rows again and nothing else
  // (showHead, which reads no layout: the page is being rebuilt then); a second call for the
  // same head (the switch, then its trace) changes nothing.
  let rowsFor = null;
  let plotFor = null;
  const same = (a, b) => a !== null && a.length === b.length && a.every((x, k) => x === b[k]);

  /** The rows for the head chosen above: what a head switch changes (no layout is read). */
  function showHead() {
    const cmp = model.get("compare");
    if (!cmp) return;
    const L = Number(model.get("layer"));
    const H = Number(model.get("head"));
    const rows = [cmp, words(), L, H, model.get("info")];
    if (!same(rowsFor, rows)) {
      rowsFor = rows;
      showRows(cmp, L, H);
    }
  }

  /** The whole panel: the rows, and the plot at the width its box has now. */
  function showCompare() {
    const cmp = model.get("compare");
    if (!cmp) return clear();
    showHead();
    const width = Math.max(280, Math.min(560, ui.plot.parentElement?.clientWidth || 520));
    const plot = [cmp, words(), width];
    if (!same(plotFor, plot)) {
      plotFor = plot;
      showCosine(ui, cmp, width, words());
    }
  }

  /** No answer (another model is loading): the old rows, plot and note go. */
  function clear() {
    rowsFor = null;
    plotFor = null;
    for (const node of [ui.rowA, ui.rowB, ui.diff, ui.cosTable, ui.plot]) node.replaceChildren();
    ui.rowsTitle.textContent = "";
    ui.note.textContent = "";
  }

  function showRows(cmp, L, H) {
    const w = words();
    occurrences(ui.occA, { side: cmp.a, word: cmp.word, chosen: model.get("occ_a"), words: w });
    occurrences(ui.occB, { side: cmp.b, word: cmp.word, chosen: model.get("occ_b"), words: w });
    ui.rowsTitle.textContent = say(w, "model.compare.rows_title", { word: cmp.word, layer: L, head: H });
    const special = model.get("info")?.special ?? [];
    rowTable(ui.rowA, { cmp, side: cmp.a, which: "A", sentence: sentenceOf(cmp.a.tokens, special), L, H, words: w });
    rowTable(ui.rowB, { cmp, side: cmp.b, which: "B", sentence: sentenceOf(cmp.b.tokens, special), L, H, words: w });
    diffTable(ui.diff, { cmp, L, H, words: w });
  }

  const showCompareError = () => showError(ui, model.get("compareError"));
  const showCompareInputs = () => showInputs(ui, model, el);

  ui.occA.addEventListener("change", () => commit({ occ_a: Number(ui.occA.value) }), on);
  ui.occB.addEventListener("change", () => commit({ occ_b: Number(ui.occB.value) }), on);
  ui.cmpForm.addEventListener("submit", (e) => {
    e.preventDefault();
    commit({ word: ui.word.value, a: ui.a.value, b: ui.b.value });
  }, on);
  const memo = changes();
  /** The view's state changed: a new answer shows whole, another head only its rows. */
  function update(state) {
    memo.next(state);
    el.hidden = Boolean(state.info?.weights_only); // attention handed in alone: nothing to compare
    if (memo.changed("compare")) {
      showCompareInputs();
      showCompare();
    } else if (memo.changed("words")) showCompare();
    else if (memo.changed("layer", "head", "trace", "info")) showHead();
    if (memo.changed("compareError")) showCompareError();
  }
  return { el, update, dispose: () => listening.abort(), show: showCompare, showHead, showError: showCompareError, showInputs: showCompareInputs };
}
