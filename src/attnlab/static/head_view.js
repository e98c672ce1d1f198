// The head view (BertViz's best-loved picture) as a panel of the Real model view (model.js) or
// any host with a model holding "heads" (an /api/model/heads answer, or the lesson's heads in
// the same shape), "head" (the head chosen elsewhere, ticked first) and "words".
//
// Left: each token as a query; right: each token as a key; between them a canvas with one line
// per weight, its opacity the weight (head_view_layout.js). Heads are ticked in a group of
// checkboxes named "head H", each in its colour; "Show" switches to the mean over this layer's
// heads or over every layer's. A token is a button: a click (or Enter) keeps only its lines,
// pointing at it (or focusing it) reads its strongest weights from the answer. A long text
// keeps every row's height and the columns scroll (said on screen). Computes nothing.

import { h } from "./dom.js";
import { num } from "./format.js";
import { ROW, headColor, headViewLayout, seriesOf, strongest } from "./head_view_layout.js";
import { changes } from "./model_state.js";
import { say } from "./words.js";

const LONG = 30; // from this many tokens the panel says that the columns scroll

/** Paint the layout's lines: each a stroke whose alpha is its weight. */
export function paintLines(ctx, layout, ratio) {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, layout.width, layout.height);
  ctx.lineWidth = 2;
  for (const l of layout.lines) {
    ctx.globalAlpha = l.opacity;
    ctx.strokeStyle = l.color;
    ctx.beginPath();
    ctx.moveTo(l.x1, l.y1);
    ctx.lineTo(l.x2, l.y2);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

/**
 * @param {any} model
 * @param {string} id a prefix for element ids
 */
/** The panel's elements: the head boxes, the Show select, the two token columns and the lines. */
function headViewElements(id) {
  const ui = {};
  ui.boxes = h("div", { class: "hv-boxes" });
  ui.heads = h("fieldset", { class: "hv-heads" }, [h("legend", { "data-words": "model.hv.heads" }), ui.boxes]);
  ui.show = h("select", { id: `${id}-hv-show` });
  ui.note = h("p", { class: "help hv-note" });
  ui.left = h("div", { class: "hv-col hv-left" });
  ui.right = h("div", { class: "hv-col hv-right" });
  ui.canvas = h("canvas", { role: "img", class: "hv-canvas" });
  ui.readout = h("p", { class: "hv-readout", "aria-live": "polite" }); // not .readout: the lesson's own readout keeps that name
  ui.wrap = h("div", { class: "hv-wrap" }, [h("div", { class: "hv-cols" }, [ui.left, ui.canvas, ui.right])]);
  const el = h("section", { class: "rm-hv", "aria-labelledby": `${id}-hv-title` }, [
    h("h2", { id: `${id}-hv-title`, "data-words": "model.hv.title" }),
    h("p", { class: "help", "data-words": "model.hv.help" }),
    h("div", { class: "hv-controls" }, [
      ui.heads,
      (ui.showField = h("div", { class: "field" }, [h("label", { for: `${id}-hv-show`, "data-words": "model.hv.show" }), ui.show])),
    ]),
    ui.note,
    h("div", { class: "hv-titles", "aria-hidden": "true" }, [h("span", { "data-words": "model.hv.queries" }), h("span", { "data-words": "model.hv.keys" })]),
    ui.wrap,
    ui.readout,
  ]);
  return { ui, el };
}

/** A series' name in words: one head, or the mean over a layer's heads or every layer's. */
function seriesName(words, key, data) {
  if (key === "mean_heads") return say(words, "model.hv.mean_heads", { layer: data.layer, n_heads: data.n_heads });
  if (key === "mean_layers") return say(words, "model.hv.mean_layers", { n_layers: data.n_layers, n_heads: data.n_heads });
  return say(words, "model.hv.head", { head: Number(key.split(" ")[1]) });
}

export function headView(model, id) {
  const words = () => model.get("words");
  const { ui, el } = headViewElements(id);
  const state = { heads: null, show: "heads", isolate: null, data: null };

  function choice() {
    return { show: state.show, heads: state.heads ?? [Number(model.get("head")) || 0] };
  }

  function buildControls(data) {
    const chosen = new Set(choice().heads);
    ui.boxes.replaceChildren(...data.heads.map((_, hd) => {
      const box = h("input", { type: "checkbox", id: `${id}-hv-h${hd}`, value: String(hd) });
      box.checked = chosen.has(hd);
      box.disabled = state.show !== "heads";
      box.addEventListener("change", () => {
        state.heads = [...ui.boxes.querySelectorAll("input:checked")].map((b) => Number(b.value));
        draw();
      });
      const swatch = h("span", { class: "hv-swatch", "aria-hidden": "true" });
      swatch.style.background = headColor(hd);
      return h("label", { class: "hv-box", for: `${id}-hv-h${hd}` }, [box, swatch, say(words(), "model.hv.head", { head: hd })]);
    }));
    const options = ["heads", "mean_heads", "mean_layers"].filter((v) => v === "heads" || data[v]); // the means the API sent
    if (!options.includes(state.show)) state.show = "heads";
    ui.show.replaceChildren(...options.map((v) => h("option", { value: v }, [say(words(), `model.hv.show.${v}`)])));
    ui.show.value = state.show;
    ui.showField.hidden = options.length < 2;
  }

  function tokenButton(side, tok, i) {
    const b = h("button", { type: "button", class: "hv-token", "data-side": side, "data-index": i, "aria-pressed": "false" }, [tok]);
    b.setAttribute("aria-label", say(words(), side === "query" ? "model.hv.query_token" : "model.hv.key_token", { token: tok, position: i }));
    b.style.height = `${ROW}px`;
    b.addEventListener("click", () => {
      const same = state.isolate?.side === side && state.isolate.index === i;
      state.isolate = same ? null : { side, index: i };
      draw();
    });
    const read = () => readToken(side, i);
    b.addEventListener("mouseenter", read);
    b.addEventListener("focus", read);
    return b;
  }

  function readToken(side, i) {
    const data = state.data;
    if (!data) return;
    const series = seriesOf(data, choice());
    const lists = strongest(series, side, i).map((s) => say(words(), "model.hv.series", {
      series: seriesName(words(), s.series, data),
      pairs: s.top.map((t) => say(words(), "model.hv.pair", { token: data.tokens[t.k], weight: num(t.w) })).join(", "),
    }));
    ui.readout.textContent = say(words(), side === "query" ? "model.hv.readout_query" : "model.hv.readout_key", { token: data.tokens[i], position: i, list: lists.join("; ") });
  }


  function draw() {
    const data = state.data;
    if (!data) return;
    const n = data.tokens.length;
    const series = seriesOf(data, choice());
    for (const b of el.querySelectorAll(".hv-token")) {
      const on = state.isolate?.side === b.dataset.side && state.isolate.index === Number(b.dataset.index);
      b.setAttribute("aria-pressed", String(on));
    }
    const width = Math.max(80, Math.floor(ui.canvas.clientWidth || 200));
    const layout = headViewLayout(n, series, { width, isolate: state.isolate });
    const ratio = window.devicePixelRatio || 1;
    ui.canvas.width = Math.round(width * ratio);
    ui.canvas.height = Math.round(layout.height * ratio);
    ui.canvas.style.height = `${layout.height}px`;
    const ctx = ui.canvas.getContext("2d");
    if (ctx) paintLines(ctx, layout, ratio);
    ui.canvas.dataset.lines = String(layout.lines.length);
    const what = series.length ? series.map((s) => seriesName(words(), s.key, data)).join(", ") : say(words(), "model.hv.none");
    ui.canvas.setAttribute("aria-label", say(words(), "model.hv.canvas", { what }));
    const notes = [];
    if (!series.length) notes.push(say(words(), "model.hv.none"));
    if (state.isolate) notes.push(say(words(), "model.hv.isolated", { token: data.tokens[state.isolate.index], side: say(words(), `model.hv.side.${state.isolate.side}`) }));
    if (n >= LONG) notes.push(say(words(), "model.hv.long", { n }));
    ui.note.textContent = notes.join(" ");
  }

  /** The answer changed (another text or layer): rebuild the tokens, keep the choices. */
  function show() {
    const data = model.get("heads");
    state.data = data ?? null;
    el.hidden = !data; // nothing to draw (or, in the lesson, weights not to be shown yet)
    if (!data) return;
    if (state.isolate && state.isolate.index >= data.tokens.length) state.isolate = null;
    if (state.heads) state.heads = state.heads.filter((hd) => hd < data.heads.length);
    buildControls(data);
    ui.left.replaceChildren(...data.tokens.map((t, i) => tokenButton("query", t, i)));
    ui.right.replaceChildren(...data.tokens.map((t, i) => tokenButton("key", t, i)));
    ui.readout.textContent = say(words(), "model.hv.hint"); // the old token's numbers are gone
    draw();
  }

  /** The head chosen elsewhere changed: with one head ticked, the tick follows it. */
  function follow() {
    if (!state.heads || state.heads.length <= 1) state.heads = null;
    if (state.data) {
      buildControls(state.data);
      draw();
      ui.readout.textContent = say(words(), "model.hv.hint");
    }
  }

  ui.show.addEventListener("change", () => {
    state.show = ui.show.value;
    for (const b of ui.boxes.querySelectorAll("input")) b.disabled = state.show !== "heads";
    ui.readout.textContent = say(words(), "model.hv.hint");
    draw();
  });
  const memo = changes();
  /** A view's state changed (model_state.js): a new answer shows whole, another head is followed. */
  function update(next) {
    memo.next(next);
    if (memo.changed("heads", "words")) show();
    else if (memo.changed("head")) follow();
  }
  return { el, update, dispose: () => {}, show, follow, redraw: draw };
}
