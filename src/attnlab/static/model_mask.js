// The Mask a token panel of the Real model view (exBERT's idea, made quantitative). The learner
// names a word and how to take it out (the mask token, dropped, or nothing: the check); the host
// asks /api/model/mask for the text and focus on screen and puts the answer in "mask". The panel
// plots, layer by layer, how far the focus row moved (total variation, this head and the mean of
// the layer's heads) and how far the focus vector moved (1 − cosine), with the numbers in a
// table. The model holds "maskWord", "maskHow", "mask", "maskError", "head", "words" and "info"
// (whose "mask_token" says whether the mask token is offered: a decoder has none).
// Computes nothing: every number is the API's.

import { COLORS } from "./colors.js";
import { h, s } from "./dom.js";
import { distancePlot, distanceText } from "./mask_layout.js";
import { field, paintSVG } from "./model_dom.js";
import { changes } from "./model_state.js";
import { say } from "./words.js";

/** The panel's elements: the form, its banner, the two plots, the table and the API's note. */
function maskElements(id) {
  const ui = {};
  ui.word = h("input", { type: "text", autocomplete: "off", spellcheck: "false", maxlength: 100 });
  ui.how = h("select");
  const wordField = field(`${id}-mask-word`, "model.mask.word", ui.word);
  const howField = field(`${id}-mask-how`, "model.mask.how", ui.how);
  ui.err = wordField.err;
  ui.form = h("form", { class: "rm-mask-form" }, [wordField.box, howField.box, h("button", { type: "submit", class: "primary", "data-words": "model.mask.button" })]);
  ui.banner = h("p", { class: "banner", role: "alert", hidden: true });
  ui.edited = h("p", { class: "rm-mask-edited" });
  ui.rows = s("svg", { role: "img", class: "rm-plot" });
  ui.vector = s("svg", { role: "img", class: "rm-plot" });
  ui.table = h("table", { class: "rm-cos rm-mask-table", "data-words-label": "model.mask.table_name" });
  ui.note = h("p", { class: "rm-note" });
  const el = h("section", { class: "rm-mask", "aria-labelledby": `${id}-mask-title` }, [
    h("h2", { id: `${id}-mask-title`, "data-words": "model.mask.title" }),
    h("p", { class: "help", "data-words": "model.mask.help" }),
    ui.form,
    ui.banner,
    ui.edited,
    h("div", { class: "rm-cos-wrap" }, [h("div", { class: "rm-plot-wrap" }, [ui.rows]), h("div", { class: "rm-plot-wrap" }, [ui.vector])]),
    h("div", { class: "table-wrap" }, [ui.table]),
    ui.note,
  ]);
  return { ui, el };
}

/** The answer's plots and table gone (no answer, or a refusal beside its message). */
function clearMask(ui) {
  for (const node of [ui.rows, ui.vector, ui.table]) node.replaceChildren();
  ui.edited.textContent = "";
  ui.note.textContent = "";
  ui.rows.removeAttribute("aria-label");
  ui.vector.removeAttribute("aria-label");
}

/** One distance plot (mask_layout.distancePlot) in `svg`, its numbers said in its name. */
function plot(svg, { title, series, labels, yTitle, xTitle, words }) {
  const size = { width: Math.max(280, Math.min(520, svg.parentElement?.clientWidth || 480)), height: 250 };
  const out = distancePlot(series, labels, size, { xTitle, yTitle });
  paintSVG(svg, out.shapes, size);
  const values = series.map((sr) => `${sr.label}: ${sr.values.map((v, k) => `${labels[k]} ${distanceText(v)}`).join(", ")}`).join("; ");
  svg.setAttribute("aria-label", say(words, "model.mask.plot_name", { title, values }));
}

/** The answer `m` for head H: the two plots, the table layer by layer and the API's note. */
function showMask(ui, m, H, words) {
  const w = (key, values) => say(words, key, values);
  ui.edited.textContent = m.edited_text == null ? w("model.mask.edited_tokens", { tokens: m.edited_tokens.join(" ") }) : w("model.mask.edited", { text: m.edited_text });
  plot(ui.rows, {
    title: w("model.mask.plot_rows"), labels: m.labels.slice(1), yTitle: w("model.mask.y_rows"), xTitle: w("model.mask.x_axis_rows"), words,
    series: [
      { values: m.tv.map((row) => row[H]), color: COLORS.violet, label: `${w("model.mask.series_head")} (${w("model.head_option", { head: H })})` },
      { values: m.tv_mean, color: COLORS.positive, label: w("model.mask.series_mean") },
    ],
  });
  plot(ui.vector, { title: w("model.mask.plot_vector"), series: [{ values: m.cosine_distance, color: COLORS.pair, label: w("model.mask.series_vector") }], labels: m.labels, yTitle: w("model.mask.y_vector"), xTitle: w("model.mask.x_axis"), words });
  const cols = [w("model.mask.col.layer"), w("model.mask.col.tv_head", { head: H }), w("model.mask.col.tv_mean"), w("model.mask.col.target"), w("model.mask.col.cosine"), w("model.mask.col.distance")];
  const head = h("tr", {}, cols.map((c) => h("th", { scope: "col" }, [c])));
  const body = h("tbody", {}, m.labels.map((label, k) => {
    const l = k - 1; // row k: "in" then layer l = k - 1
    const cells = l < 0 ? ["", "", ""] : [m.tv[l][H], m.tv_mean[l], m.target_weight[l][H]].map(distanceText);
    return h("tr", {}, [h("th", { scope: "row" }, [label]), ...[...cells, distanceText(m.cosine_distance[k]), distanceText(m.l2[k])].map((c) => h("td", {}, [c]))]);
  }));
  ui.table.replaceChildren(h("caption", {}, [w("model.mask.table_name")]), h("thead", {}, [head]), body);
  ui.note.textContent = m.note;
}

/**
 * @param {any} model
 * @param {string} id a prefix for element ids
 * @param {(changes: Record<string, any>) => void} commit
 */
export function maskPanel(model, id, commit) {
  const words = () => model.get("words");
  const { ui, el } = maskElements(id);
  const listening = new AbortController();

  function show() {
    const m = model.get("mask");
    if (!m) return clearMask(ui);
    showMask(ui, m, Number(model.get("head")), words());
  }

  function showError() {
    const error = model.get("maskError");
    const onWord = error?.field === "mask";
    ui.err.textContent = onWord ? error.message : "";
    ui.word.setAttribute("aria-invalid", String(onWord));
    ui.banner.hidden = !error || onWord;
    ui.banner.textContent = error && !onWord ? error.message : "";
    if (error) clearMask(ui); // numbers of another question must not stay beside the message
  }

  /** The ways this model can take a word out: the mask token only where its info names one. */
  const hows = () => (model.get("info")?.mask_token ? ["mask", "drop", "none"] : ["drop", "none"]);

  function showInputs() {
    const offered = hows();
    ui.how.replaceChildren(...offered.map((v) => h("option", { value: v }, [say(words(), `model.mask.how.${v}`)])));
    const how = model.get("maskHow") ?? "mask";
    ui.how.value = offered.includes(how) ? how : offered[0]; // another model: what it can do
    if (el.ownerDocument.activeElement !== ui.word) ui.word.value = model.get("maskWord") ?? "";
  }

  ui.form.addEventListener("submit", (e) => {
    e.preventDefault();
    commit({ maskWord: ui.word.value, maskHow: ui.how.value });
  }, { signal: listening.signal });
  const memo = changes();
  /** The view's state changed: the plots follow the answer and the head chosen above. */
  function update(state) {
    memo.next(state);
    if (memo.changed("words", "info")) showInputs();
    if (memo.changed("mask", "head", "words")) show();
    if (memo.changed("maskError")) showError();
  }
  return { el, update, dispose: () => listening.abort(), show, showError, showInputs };
}
