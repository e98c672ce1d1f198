// The Real model view's matrix panel: one head's whole attention matrix as a picture
// (/api/model/matrix, matrix_picture.js), a colour scale to choose with its legend, the pooling
// and the [CLS]/[SEP] switch said on screen, and any row's numbers on demand (/api/model/row):
// click a row, or focus the picture and press ↑ ↓.
//
// It reads the model's "matrix", "row", "trace" and "words" and writes "matrix_scale", "pool",
// "specials" and "row_index" (the host fetches). Nothing here computes a weight: the cells are
// the API's, decoded by packed.js, and the row's numbers are /api/model/row's.

import { COLORS, MODEL_COLORS } from "./colors.js";
import { h } from "./dom.js";
import { draw } from "./draw.js";
import { num } from "./format.js";
import { field } from "./model_dom.js";
import { ownNumber } from "./model_ids.js";
import { LEGEND_HEIGHT, SCALES, cellAt, legendShapes, matrixLayout, matrixPixels } from "./matrix_picture.js";
import { changes } from "./model_state.js";
import { visibleToken } from "./names.js";
import { unpack } from "./packed.js";
import { fitCanvas } from "./picture.js";
import { say } from "./words.js";

const ROW_TOP = 12;

/** The cell row holding token position p of the shown tokens (edges: first position of each). */
export function cellOf(edges, p) {
  let lo = 0;
  let hi = edges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (edges[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The panel's elements: its three selects, the picture and its legend, the row's table. */
function matrixElements(id) {
  const ui = {};
  ui.scale = h("select");
  ui.pool = h("select");
  ui.specials = h("select");
  const scaleField = field(`${id}-mscale`, "model.matrix.scale", ui.scale);
  const poolField = field(`${id}-mpool`, "model.matrix.pool", ui.pool);
  ui.specialsField = field(`${id}-mspecials`, "model.matrix.specials", ui.specials);
  ui.title = h("h2", { id: `${id}-matrix-title` });
  ui.note = h("p", { class: "rm-matrix-note" });
  ui.canvas = h("canvas", { role: "img", tabindex: 0, class: "rm-matrix-canvas" });
  ui.legend = h("canvas", { role: "img", class: "rm-legend", "data-words-label": "model.matrix.legend_name" });
  ui.hover = h("p", { class: "readout rm-matrix-hover", "aria-live": "polite" });
  ui.rowHelp = h("p", { class: "help", "data-words": "model.matrix.row_help" });
  ui.rowTable = h("table", { class: "weights rm-row-table", "data-words-label": "model.matrix.row_table" });
  ui.wrap = h("div", { class: "rm-matrix-wrap" }, [ui.canvas]);
  const el = h("section", { class: "rm-matrix", "aria-labelledby": `${id}-matrix-title` }, [
    ui.title,
    h("div", { class: "rm-matrix-controls" }, [scaleField.box, poolField.box, ui.specialsField.box]),
    ui.note,
    h("div", { class: "rm-matrix-body" }, [
      h("div", { class: "rm-matrix-left" }, [ui.wrap, ui.legend, ui.hover]),
      h("div", { class: "rm-matrix-right" }, [ui.rowHelp, h("div", { class: "table-wrap rm-row-wrap" }, [ui.rowTable])]),
    ]),
  ]);
  return { ui, el };
}

/** The token of each cell (its block's first shown token). */
function cellTokens(m, all) {
  return m.edges.map((p) => visibleToken(all[m.kept[p]]));
}

/** The matrix's title and note: exact or pooled, the mask, the special tokens hidden or not
 * (BERT's [CLS]/[SEP] in the page's words; another tokenizer's, <s> for one, as the API names them). */
function matrixNote(ui, { m, trace, specials, words }) {
  const own = trace?.model; // weights handed in as a subset keep the model's numbers
  ui.title.textContent = say(words, "model.matrix.title", { layer: ownNumber(own?.layer_ids, m.layer), head: ownNumber(own?.head_ids, m.head) });
  const parts = [say(words, m.pooled ? `model.matrix.pooled_${m.pool}` : "model.matrix.exact", { n: m.shown, cells: m.cells, factor: m.factor })];
  if (m.causal) parts.push(say(words, "model.matrix.causal"));
  if (m.window != null && m.n > m.window) parts.push(say(words, "model.matrix.window", { layer: m.layer, window: m.window.toLocaleString("en-US") }));
  const named = m.specials_named ?? null;
  // the model's own specials: the API names any but BERT's [CLS]/[SEP], which the page's words name
  const bert = !named && Boolean(trace?.window?.all_tokens?.some((t) => /^\[(CLS|SEP)\]$/.test(t)));
  const hasSpecials = Boolean(named) || bert;
  const hidden = m.specials === "hide" ? "model.matrix.hidden" : "model.matrix.renormalised";
  if (!hasSpecials && m.specials !== "show") parts.push(say(words, "model.matrix.specials_absent"));
  else if (m.specials !== "show") parts.push(say(words, named ? `${hidden}_of` : hidden, { hidden: num(m.hidden_mean ?? 0), tokens: named }));
  ui.note.textContent = parts.join(" ");
  const label = ui.specialsField.box.querySelector("label");
  const key = named ? null : bert ? "model.matrix.specials" : "model.matrix.specials_none";
  if (key) label.setAttribute("data-words", key);
  else label.removeAttribute("data-words");
  label.textContent = named ? say(words, "model.matrix.specials_of", { tokens: named }) : say(words, key);
  // nothing to hide (a decoder whose tokenizer adds no token): the menu is off, hidden unless a
  // choice carried over from another model asks to hide them, when it stays, disabled, beside the note
  ui.specials.disabled = !hasSpecials;
  ui.specialsField.box.style.display = !hasSpecials && specials === "show" ? "none" : "";
}

/** One row's largest weights (/api/model/row), as a table beside the picture. */
function rowTable(table, row, trace, words) {
  if (!row || !trace) {
    table.replaceChildren();
    return;
  }
  const w = unpack(row.weights).values;
  const all = trace.window.all_tokens;
  const order = Array.from(w.keys()).sort((a, b) => w[b] - w[a] || a - b).slice(0, Math.min(12, row.visible));
  const caption = h("caption", {}, [say(words, "model.matrix.row_caption", { position: row.row, token: row.token, layer: row.layer, head: row.head, listed: order.length, visible: row.visible, sum: num(row.sum, 4) })]);
  const head = h("tr", {}, ["row_pos", "row_key", "row_weight"].map((k) => h("th", { scope: "col" }, [say(words, `model.matrix.${k}`)])));
  const body = h("tbody", {}, order.map((j) => h("tr", {}, [h("td", {}, [String(j)]), h("th", { scope: "row" }, [all[j]]), h("td", { "data-j": j }, [num(w[j], 4)])])));
  table.replaceChildren(caption, h("thead", {}, [head]), body);
}

/**
 * Paint the matrix: the layout's labels (draw.js), the cells as one image of their pixels
 * (matrix_picture.matrixPixels), then the focus row's outline and the picked row's.
 */
function paintMatrix(ctx, { m, decoded, laid, size, width, scale, picked }) {
  const outlines = laid.shapes.filter((sh) => sh.kind === "rect" && sh.stroke && !sh.fill && sh.role === "focus-row");
  draw(ctx, [{ kind: "rect", x: 0, y: 0, w: width, h: laid.height, fill: COLORS.paper }, ...laid.shapes.filter((sh) => !outlines.includes(sh))], 1, size);
  const pixels = matrixPixels(decoded.values, m.cells, { scale, rowMax: decoded.rowMax, causal: m.causal, edges: m.edges, shown: m.shown, kept: m.kept, codes: decoded.codes, step: m.weights.scale, window: m.window ?? null });
  const image = new OffscreenCanvas(m.cells, m.cells);
  image.getContext("2d").putImageData(new ImageData(pixels, m.cells, m.cells), 0, 0);
  ctx.save();
  ctx.scale(size.ratio, size.ratio);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(image, laid.x0, laid.y0, laid.side, laid.side);
  const marks = [...outlines];
  if (picked !== null) marks.push({ x: laid.x0 - 3, y: laid.y0 + picked * laid.px - 1.5, w: laid.side + 6, h: Math.max(laid.px, 1) + 3, stroke: MODEL_COLORS.pickedRow, lineWidth: 2 });
  for (const o of marks) {
    ctx.strokeStyle = o.stroke;
    ctx.lineWidth = o.lineWidth;
    ctx.strokeRect(o.x, o.y, o.w, o.h);
  }
  ctx.restore();
}

/** The cell row of the followed token (the trace's focus), or null when it is hidden. */
function focusCell(m, trace) {
  const p = m.kept.indexOf(trace?.window?.focus);
  return p < 0 ? null : cellOf(m.edges, p);
}

/** The followed row's label: the followed token itself (with its position when cells pool
 * several rows: " all #1936", not its block's first token). */
export function focusLabel(m, trace, words) {
  const f = trace?.window?.focus;
  if (f == null || !m.kept.includes(f)) return null;
  const token = visibleToken(trace.window.all_tokens[f]);
  return m.pooled ? say(words, "model.window_token", { token, position: f }) : token;
}

/** What the pointer reads over cell (r, c): its rows and keys, and its weight. */
function cellText(m, decoded, all, r, c, words) {
  const at = (k) => m.kept[m.edges[k]];
  const end = (k) => m.kept[(k + 1 < m.cells ? m.edges[k + 1] : m.shown) - 1];
  const w = decoded.values[r * m.cells + c];
  const key = m.pooled ? `model.matrix.hover_block_${m.pool}` : "model.matrix.hover";
  return say(words, key, { from_row: at(r), to_row: end(r), query: all[at(r)], from_key: at(c), to_key: end(c), key: all[at(c)], weight: num(w, 4) });
}

/** The panel's three selects: their options in the page's words, a change committed. */
function matrixControls(ui, model, commit) {
  const listening = new AbortController();
  const words = () => model.get("words");
  const options = (select, values, prefix, current) => {
    select.replaceChildren(...values.map((v) => h("option", { value: v }, [say(words(), `${prefix}.${v}`)])));
    select.value = current;
  };
  function show() {
    options(ui.scale, SCALES, "model.matrix.scale", model.get("matrix_scale") ?? "log");
    options(ui.pool, ["max", "mean"], "model.matrix.pool", model.get("pool") ?? "max");
    options(ui.specials, ["show", "hide", "renormalise"], "model.matrix.specials", model.get("specials") ?? "show");
  }
  const on = { signal: listening.signal };
  ui.scale.addEventListener("change", () => commit({ matrix_scale: ui.scale.value }), on);
  ui.pool.addEventListener("change", () => commit({ pool: ui.pool.value }), on);
  ui.specials.addEventListener("change", () => commit({ specials: ui.specials.value }), on);
  return { show, dispose: () => listening.abort() };
}

/**
 * The picture and its legend: the cells decoded once per answer, laid out at the wrap's width
 * (matrix_picture.matrixLayout) and painted; `at.selected` is the row the keyboard is on.
 */
function matrixPicture(ui, model) {
  const words = () => model.get("words");
  const size = { width: 0, height: 0, ratio: 1 };
  const legendSize = { width: 0, height: 0, ratio: 1 };
  const at = { decoded: null, laid: null, selected: null }; // decoded: {matrix, values, rowMax}
  const widthNow = () => Math.max(260, Math.floor(ui.wrap.clientWidth || 600));

  function paint() {
    const m = model.get("matrix");
    const trace = model.get("trace");
    if (!m || !trace) return;
    if (!at.decoded || at.decoded.matrix !== m) at.decoded = { matrix: m, ...unpack(m.weights), rowMax: unpack(m.row_max).values };
    const scale = model.get("matrix_scale") ?? "log";
    const width = widthNow();
    const focus = focusCell(m, trace);
    const laid = (at.laid = matrixLayout({ cells: m.cells, tokens: cellTokens(m, trace.window.all_tokens), width, focus, focusLabel: focusLabel(m, trace, words()) }));
    fitCanvas(ui.canvas, size, width, laid.height);
    const ctx = ui.canvas.getContext("2d");
    if (!ctx) return;
    const picked = at.selected !== null && at.selected !== focus ? at.selected : null;
    paintMatrix(ctx, { m, decoded: at.decoded, laid, size, width, scale, picked });
    ui.canvas.setAttribute("aria-label", say(words(), "model.matrix.name", { layer: m.layer, head: m.head, n: m.n, cells: m.cells }));
    ui.canvas.dataset.cells = String(m.cells);
    ui.canvas.dataset.focusCell = focus === null ? "" : String(focus);
    paintLegend(scale, m.causal, m.window != null && m.n > m.window ? m.window : null); // the window greys keys only past it
    // the focus row in view: scroll the page's picture only if the row is outside the wrap
    if (focus !== null) {
      const y = laid.y0 + focus * laid.px;
      if (y < ui.wrap.scrollTop || y > ui.wrap.scrollTop + ui.wrap.clientHeight - 20) ui.wrap.scrollTop = Math.max(0, y - ui.wrap.clientHeight / 2);
    }
  }

  function paintLegend(scale, causal, window = null) {
    fitCanvas(ui.legend, legendSize, Math.min(widthNow(), 560), LEGEND_HEIGHT);
    const ctx = ui.legend.getContext("2d");
    if (!ctx) return;
    const title = say(words(), `model.matrix.legend.${scale}`);
    const shapes = [{ kind: "rect", x: 0, y: 0, w: legendSize.width, h: LEGEND_HEIGHT, fill: COLORS.paper }, ...legendShapes({ x: 8, y: 2, w: legendSize.width - 16, scale, title, masked: causal ? say(words(), window != null ? "model.matrix.masked_window" : "model.matrix.masked", { window: window?.toLocaleString("en-US") }) : null })];
    draw(ctx, shapes, 1, legendSize);
    ui.legend.dataset.scale = scale;
    ui.legend.setAttribute("aria-label", `${say(words(), "model.matrix.legend_name")}: ${title}`);
  }
  return { at, paint };
}

/** The pointer and the keys on the picture: a cell read on hover, a row picked by click or ↑ ↓. */
function matrixPointer(ui, model, commit, picture) {
  const listening = new AbortController();
  const on = { signal: listening.signal };
  const { at } = picture;
  function pickRow(r) {
    const m = model.get("matrix");
    if (!m) return;
    at.selected = Math.max(0, Math.min(m.cells - 1, r));
    commit({ row_index: m.kept[m.edges[at.selected]] });
    picture.paint();
  }
  const point = (e) => {
    if (!at.laid) return null;
    const box = ui.canvas.getBoundingClientRect();
    return cellAt(at.laid, model.get("matrix")?.cells ?? 0, e.clientX - box.left, e.clientY - box.top);
  };
  ui.canvas.addEventListener("mousemove", (e) => {
    const cell = point(e);
    const m = model.get("matrix");
    const trace = model.get("trace");
    if (!cell || !m || !at.decoded || !trace) return;
    ui.hover.textContent = ui.canvas.title = cellText(m, at.decoded, trace.window.all_tokens, cell.r, cell.c, model.get("words"));
  }, on);
  ui.canvas.addEventListener("click", (e) => {
    const cell = point(e);
    if (cell) pickRow(cell.r);
  }, on);
  ui.canvas.addEventListener("keydown", (e) => {
    const m = model.get("matrix");
    if (!m) return;
    const step = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 }[e.key];
    if (step === undefined && e.key !== "Enter" && e.key !== "Home") return;
    e.preventDefault();
    e.stopPropagation();
    const focus = focusCell(m, model.get("trace"));
    if (e.key === "Enter") pickRow(focus ?? 0);
    else if (e.key === "Home") pickRow(0);
    else pickRow((at.selected ?? focus ?? 0) + step);
  }, on);
  return { dispose: () => listening.abort() };
}

/**
 * The matrix panel, {el, update(state), dispose()}: its controls, picture and pointer are
 * parts of their own (each with its own dispose), joined here to the view's state.
 */
export function matrixPanel(model, id, commit) {
  const words = () => model.get("words");
  const { ui, el } = matrixElements(id);
  const controls = matrixControls(ui, model, commit);
  const picture = matrixPicture(ui, model);
  const pointer = matrixPointer(ui, model, commit, picture);
  const showRow = () => rowTable(ui.rowTable, model.get("row"), model.get("trace"), words());
  function onMatrix() {
    picture.at.selected = null;
    el.hidden = !model.get("matrix"); // another model loading: no picture of the previous one
    const m = model.get("matrix");
    if (m) matrixNote(ui, { m, trace: model.get("trace"), specials: model.get("specials") ?? "show", words: words() });
    picture.paint();
  }
  const memo = changes();
  /** The view's state changed: a new matrix shows whole; a trace of the head it holds repaints it. */
  function update(state) {
    memo.next(state);
    if (memo.changed("words", "matrix_scale", "pool", "specials")) controls.show();
    const m = state.matrix;
    const t = state.trace;
    if (memo.changed("matrix")) onMatrix();
    else if (memo.changed("matrix_scale")) picture.paint();
    else if (memo.changed("trace") && m && t && m.layer === t.model.layer && m.head === t.model.head && m.n === t.window.n) picture.paint();
    if (memo.changed("row", "words")) showRow();
  }
  const dispose = () => {
    controls.dispose();
    pointer.dispose();
  };
  return { el, update, dispose, showOptions: controls.show, onMatrix, paint: picture.paint, showRow, rowTop: ROW_TOP };
}
