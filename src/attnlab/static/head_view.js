// The head view (BertViz's best-loved picture) as a panel of the Real model view (model.js) or
// any host with a model holding "heads" (an /api/model/heads answer, or with `decode` the
// lesson's heads already in the layout's form), "head" (the head chosen elsewhere, ticked
// first) and "words".
//
// Left: each token as a query; right: each token as a key; between them a canvas with one line
// per weight kept (each row's strongest keys, every key of a short text: head_view_layout.js),
// its opacity the weight. Heads are ticked in a group of checkboxes named "head H", each in its
// colour; "Show" switches to the mean over this layer's heads or over every layer's. A token is
// a button: a click (or Enter) keeps only its lines, pointing at it (or focusing it) reads its
// strongest weights from the answer. A long text's columns scroll past a canvas the height of
// the window, which paints the lines in view; the answer's note says what is drawn. Computes
// nothing.
//
// Built of small panels, each {el, update(state), dispose()}: the controls, a token column
// (twice), the lines, the notes and the readout; `headView` holds the one state they read.

import { h } from "./dom.js";
import { num } from "./format.js";
import { ROW, decodeHeads, headColor, headViewLayout, seriesOf, strongest, visibleLines } from "./head_view_layout.js";
import { changes } from "./model_state.js";
import { say } from "./words.js";

const LONG = 30; // from this many tokens the panel says that the columns scroll

/** Paint `lines` of a picture `width` wide, the band from `top` down: each a stroke whose alpha
 * is its weight. */
export function paintLines(ctx, { width, height, top, lines }, ratio) {
  ctx.setTransform(ratio, 0, 0, ratio, 0, -top * ratio);
  ctx.clearRect(0, top, width, height);
  ctx.lineWidth = 2;
  for (const l of lines) {
    ctx.globalAlpha = l.opacity;
    ctx.strokeStyle = l.color;
    ctx.beginPath();
    ctx.moveTo(l.x1, l.y1);
    ctx.lineTo(l.x2, l.y2);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

/** A series' name in words: one head, or the mean over a layer's heads or every layer's. */
function seriesName(words, key, data) {
  if (key === "mean_heads") return say(words, "model.hv.mean_heads", { layer: data.layer, n_heads: data.n_heads });
  if (key === "mean_layers") return say(words, "model.hv.mean_layers", { n_layers: data.n_layers, n_heads: data.n_heads });
  return say(words, "model.hv.head", { head: Number(key.split(" ")[1]) });
}

/** The head boxes and the Show select; `on.heads(list)` and `on.show(value)` report a change. */
function controlsPanel(id, on) {
  const boxes = h("div", { class: "hv-boxes" });
  const show = h("select", { id: `${id}-hv-show` });
  const showField = h("div", { class: "field" }, [h("label", { for: `${id}-hv-show`, "data-words": "model.hv.show" }), show]);
  const el = h("div", { class: "hv-controls" }, [h("fieldset", { class: "hv-heads" }, [h("legend", { "data-words": "model.hv.heads" }), boxes]), showField]);
  const ticked = () => [...boxes.querySelectorAll("input:checked")].map((b) => Number(b.value));
  const picked = () => on.show(show.value);
  show.addEventListener("change", picked);
  /** @param {{data: any, choice: {show: string, heads: number[]}, words: any}} s */
  function update({ data, choice, words }) {
    const chosen = new Set(choice.heads);
    boxes.replaceChildren(...data.heads.map((_, hd) => {
      const box = h("input", { type: "checkbox", id: `${id}-hv-h${hd}`, value: String(hd) });
      box.checked = chosen.has(hd);
      box.disabled = choice.show !== "heads";
      box.addEventListener("change", () => on.heads(ticked()));
      const swatch = h("span", { class: "hv-swatch", "aria-hidden": "true" });
      swatch.style.background = headColor(hd);
      return h("label", { class: "hv-box", for: `${id}-hv-h${hd}` }, [box, swatch, say(words, "model.hv.head", { head: hd })]);
    }));
    const options = ["heads", "mean_heads", "mean_layers"].filter((v) => v === "heads" || data[v]); // the means the API sent
    show.replaceChildren(...options.map((v) => h("option", { value: v }, [say(words, `model.hv.show.${v}`)])));
    show.value = options.includes(choice.show) ? choice.show : "heads";
    showField.hidden = options.length < 2;
  }
  return { el, update, dispose: () => show.removeEventListener("change", picked) };
}

/** One column of token buttons ("query" or "key"); `on.pick(side, i)`, `on.read(side, i)`. */
function columnPanel(side, on) {
  const el = h("div", { class: `hv-col ${side === "query" ? "hv-left" : "hv-right"}` });
  let tokens = null;
  function button(tok, i, words) {
    const b = h("button", { type: "button", class: "hv-token", "data-side": side, "data-index": i, "aria-pressed": "false" }, [tok]);
    b.setAttribute("aria-label", say(words, side === "query" ? "model.hv.query_token" : "model.hv.key_token", { token: tok, position: i }));
    b.style.height = `${ROW}px`;
    b.addEventListener("click", () => on.pick(side, i));
    b.addEventListener("mouseenter", () => on.read(side, i));
    b.addEventListener("focus", () => on.read(side, i));
    return b;
  }
  /** Rebuilt when the tokens change; otherwise only the pressed token is marked. */
  function update({ data, isolate, words, rebuild }) {
    if (rebuild || data.tokens !== tokens) {
      tokens = data.tokens;
      el.replaceChildren(...tokens.map((t, i) => button(t, i, words)));
    }
    for (const b of el.children) b.setAttribute("aria-pressed", String(isolate?.side === side && isolate.index === Number(b.dataset.index)));
  }
  return { el, update, dispose: () => el.replaceChildren() };
}

/**
 * The canvas of lines: as tall as the scrolled window of `wrap` (sticky at its top), painting
 * the lines that cross the rows in view, again as it scrolls. A canvas as tall as 2,048 rows
 * held 32,000 lines, many crossing its whole height: painting them froze the page for 9 s.
 */
function linesPanel(wrap) {
  const el = h("canvas", { role: "img", class: "hv-canvas" });
  el.style.position = "sticky"; // stays in view while the token columns scroll past it
  el.style.top = "0";
  el.style.alignSelf = "flex-start";
  let layout = null;
  let frame = 0;
  function paint() {
    frame = 0;
    if (!layout) return;
    const height = Math.min(layout.height, wrap.clientHeight || 800); // 0 while hidden
    const top = Math.max(0, Math.min(wrap.scrollTop, layout.height - height));
    const ratio = window.devicePixelRatio || 1;
    el.width = Math.round(layout.width * ratio);
    el.height = Math.round(height * ratio);
    el.style.height = `${height}px`;
    const ctx = el.getContext("2d");
    if (ctx) paintLines(ctx, { width: layout.width, height, top, lines: visibleLines(layout.lines, top, height) }, ratio);
  }
  const scrolled = () => { frame ||= requestAnimationFrame(paint); }; // prettier-ignore
  wrap.addEventListener("scroll", scrolled, { passive: true });
  function update({ data, series, isolate, words }) {
    const width = Math.max(80, Math.floor(el.clientWidth || 200));
    layout = headViewLayout(data.tokens.length, series, { width, isolate });
    paint();
    el.dataset.lines = String(layout.lines.length);
    const what = series.length ? series.map((s) => seriesName(words, s.key, data)).join(", ") : say(words, "model.hv.none");
    el.setAttribute("aria-label", say(words, "model.hv.canvas", { what }));
  }
  const dispose = () => { wrap.removeEventListener("scroll", scrolled); cancelAnimationFrame(frame); }; // prettier-ignore
  return { el, update, dispose };
}

/** What is drawn, in words: the answer's own note (a long text), none ticked, a token kept. */
function notePanel() {
  const el = h("p", { class: "help hv-note" });
  function update({ data, series, isolate, words }) {
    const n = data.tokens.length;
    const notes = [];
    if (!series.length) notes.push(say(words, "model.hv.none"));
    if (isolate) notes.push(say(words, "model.hv.isolated", { token: data.tokens[isolate.index], side: say(words, `model.hv.side.${isolate.side}`) }));
    if (n >= LONG) notes.push(say(words, "model.hv.long", { n }));
    if (data.note) notes.push(data.note);
    el.textContent = notes.join(" ");
  }
  return { el, update, dispose: () => {} };
}

/** A token's strongest weights, read from the answer; the hint when no token is read. */
function readoutPanel() {
  const el = h("p", { class: "hv-readout", "aria-live": "polite" }); // not .readout: the lesson's own readout keeps that name
  function update({ data, series, read, words }) {
    if (!read) {
      el.textContent = say(words, "model.hv.hint");
      return;
    }
    const lists = strongest(series, read.side, read.index).map((s) => say(words, "model.hv.series", {
      series: seriesName(words, s.series, data),
      pairs: s.top.map((t) => say(words, "model.hv.pair", { token: data.tokens[t.k], weight: num(t.w) })).join(", "),
    }));
    const key = read.side === "query" ? "model.hv.readout_query" : "model.hv.readout_key";
    el.textContent = say(words, key, { token: data.tokens[read.index], position: read.index, list: lists.join("; ") });
  }
  return { el, update, dispose: () => {} };
}

/**
 * @param {any} model a host's model: get("heads"), get("head"), get("words")
 * @param {string} id a prefix for element ids
 * @param {{decode?: (answer: any) => any}} [options] how "heads" becomes the layout's form
 */
export function headView(model, id, { decode = decodeHeads } = {}) {
  const state = { heads: null, show: "heads", isolate: null, read: null, data: null, answer: null };
  const choice = () => ({ show: state.show, heads: state.heads ?? [Number(model.get("head")) || 0] });
  const controls = controlsPanel(id, {
    heads: (list) => { state.heads = list; draw(); }, // prettier-ignore
    show: (value) => { state.show = value; state.read = null; draw({ controls: true }); }, // prettier-ignore
  });
  const pick = (side, index) => {
    const same = state.isolate?.side === side && state.isolate.index === index;
    state.isolate = same ? null : { side, index };
    draw();
  };
  const read = (side, index) => { state.read = { side, index }; readout.update(view()); }; // prettier-ignore
  const left = columnPanel("query", { pick, read });
  const right = columnPanel("key", { pick, read });
  const cols = h("div", { class: "hv-cols" });
  const wrap = h("div", { class: "hv-wrap" }, [cols]);
  const [lines, note, readout] = [linesPanel(wrap), notePanel(), readoutPanel()];
  cols.replaceChildren(left.el, lines.el, right.el);
  const panels = [controls, left, right, lines, note, readout];
  const el = h("section", { class: "rm-hv", "aria-labelledby": `${id}-hv-title` }, [
    h("h2", { id: `${id}-hv-title`, "data-words": "model.hv.title" }),
    h("p", { class: "help", "data-words": "model.hv.help" }),
    controls.el,
    note.el,
    h("div", { class: "hv-titles", "aria-hidden": "true" }, [h("span", { "data-words": "model.hv.queries" }), h("span", { "data-words": "model.hv.keys" })]),
    wrap,
    readout.el,
  ]);
  /** What every panel reads: the decoded answer, the choice and the series it draws. */
  const view = (extra = {}) => ({ data: state.data, choice: choice(), series: seriesOf(state.data, choice()), isolate: state.isolate, read: state.read, words: model.get("words"), ...extra });

  function draw({ controls: again = false, rebuild = false } = {}) {
    if (!state.data) return;
    const v = view({ rebuild });
    if (again || rebuild) controls.update(v);
    for (const p of [left, right, lines, note, readout]) p.update(v);
  }

  /** The answer changed (another text or layer): rebuild the tokens, keep the choices. */
  function show() {
    const answer = model.get("heads") ?? null;
    if (answer !== state.answer) state.data = answer ? decode(answer) : null; // decoded once per answer
    state.answer = answer;
    el.hidden = !state.data; // nothing to draw (or, in the lesson, weights not to be shown yet)
    if (!state.data) return;
    const n = state.data.tokens.length;
    if (state.isolate && state.isolate.index >= n) state.isolate = null;
    if (state.heads) state.heads = state.heads.filter((hd) => hd < state.data.heads.length);
    if (!["heads", "mean_heads", "mean_layers"].includes(state.show) || !state.data[state.show]) state.show = "heads";
    state.read = null; // the old token's numbers are gone
    draw({ rebuild: true });
  }

  /** The head chosen elsewhere changed: with one head ticked, the tick follows it. */
  function follow() {
    if (!state.heads || state.heads.length <= 1) state.heads = null;
    state.read = null;
    draw({ controls: true });
  }

  const memo = changes();
  /** A view's state changed (model_state.js): a new answer shows whole, another head is followed. */
  function update(next) {
    memo.next(next);
    if (memo.changed("heads", "words")) show();
    else if (memo.changed("head")) follow();
  }
  const dispose = () => { for (const p of panels) p.dispose(); }; // prettier-ignore
  return { el, update, dispose, show, follow, redraw: () => draw() };
}
