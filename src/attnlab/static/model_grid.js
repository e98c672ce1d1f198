// The Real model view's heads grid: every head of the model at a glance, layers × heads, each
// cell a button named "layer L head H" (aria-pressed on the chosen one) holding a small heatmap
// from the /api/model/trace answer's "grid" (model_layout.miniHeat). One Tab stop: the arrow
// keys walk the grid, Enter or a click picks a head.

import { MODEL_COLORS, heat } from "./colors.js";
import { h } from "./dom.js";
import { draw } from "./draw.js";
import { num } from "./format.js";
import { field } from "./model_dom.js";
import { ownNumber } from "./model_ids.js";
import { miniHeat } from "./model_layout.js";
import { changes } from "./model_state.js";
import { wordKey } from "./model_ranking.js";
import { unpack } from "./packed.js";
import { say } from "./words.js";

const MINI = 26; // a cell's heatmap, CSS pixels
const unpacked = new WeakMap(); // a grid answer's packed arrays, decoded once

function decoded(p) {
  if (!unpacked.has(p)) unpacked.set(p, unpack(p));
  return unpacked.get(p);
}

/** Head (l, hd)'s focus row from the grid's packed (L, H, n) rows. */
function headRow(grid, l, hd) {
  const { values, shape } = decoded(grid.rows);
  const n = shape[2];
  return Array.from(values.subarray((l * shape[1] + hd) * n, (l * shape[1] + hd + 1) * n));
}

/** Head (l, hd)'s whole matrix from the grid's packed (L, H, n, n) attentions. */
function headMatrix(grid, l, hd) {
  const { values, shape } = decoded(grid.attentions);
  const n = shape[2];
  const start = (l * shape[1] + hd) * n * n;
  return Array.from({ length: n }, (_, i) => Array.from(values.subarray(start + i * n, start + (i + 1) * n)));
}

/**
 * @param {any} model holds "info" (sizes), "layer", "head", "grid" and "words"
 * @param {string} id a prefix for element ids
 * @param {(layer: number, head: number) => void} pick called when a head is clicked
 */
export const COLOR_BY = ["pattern", "entropy_bits", "first", "previous", "itself", "top1"];

/** The smallest and largest finite value of an (L, H) statistic. */
export function statRange(values) {
  const xs = values.flat().filter((x) => typeof x === "number" && Number.isFinite(x));
  return xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
}

/** The grid's cells: the K/V labels (grouped-query attention), the head numbers, then a row
 * label and a button per head for each layer. */
function gridCells({ L, H, KV, words, pick, ids }) {
  const cells = [];
  if (KV < H) {
    // grouped-query attention: which query heads read one key/value head
    cells.push(h("span", { class: "rm-corner", "aria-hidden": "true" }));
    const g = H / KV;
    for (let kv = 0; kv < KV; kv++) {
      const label = h("span", { class: "rm-kv", "aria-hidden": "true" }, [say(words, "model.grid.kv", { kv })]);
      label.style.gridColumn = `span ${g}`; // through the CSSOM: the page's CSP refuses style attributes
      cells.push(label);
    }
  }
  cells.push(h("span", { class: "rm-corner", "aria-hidden": "true" }, [say(words, "model.grid.corner")]));
  for (let hd = 0; hd < H; hd++) cells.push(h("span", { class: "rm-col", "aria-hidden": "true" }, [String(ownNumber(ids?.head_ids, hd))]));
  const buttons = [];
  for (let l = 0; l < L; l++) {
    const kinds = ids?.layer_windows ?? []; // a model whose layers differ: each row says local or global (the pattern at a glance)
    const kind = kinds.length ? (kinds[l] == null ? "global" : "local") : null;
    const rowLabel = kind ? say(words, `model.grid.layer_${kind}`, { layer: ownNumber(ids?.layer_ids, l) }) : say(words, "model.layer_option", { layer: ownNumber(ids?.layer_ids, l) });
    cells.push(h("span", { class: `rm-rowlabel${kind === "global" ? " rm-global" : ""}`, "aria-hidden": "true" }, [rowLabel]));
    for (let hd = 0; hd < H; hd++) {
      const canvas = h("canvas", { "aria-hidden": "true" });
      const b = h("button", { type: "button", class: "rm-cell", "aria-label": say(words, "model.grid.cell", { layer: ownNumber(ids?.layer_ids, l), head: ownNumber(ids?.head_ids, hd) }), "aria-pressed": "false", tabindex: -1, "data-layer": l, "data-head": hd }, [canvas]);
      b.addEventListener("click", () => pick(l, hd));
      buttons.push(b);
      cells.push(b);
    }
  }
  return { cells, buttons };
}

/** The arrow keys, Home and End move the grid's one Tab stop between its heads. */
function walkGrid(e, buttons, info) {
  const b = e.target instanceof Element ? e.target.closest(".rm-cell") : null;
  const move = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0], Home: [0, -99], End: [0, 99] }[e.key];
  if (!b || !move) return;
  e.preventDefault();
  e.stopPropagation();
  const L = info?.n_layers ?? 0;
  const H = info?.n_heads ?? 0;
  const l = Math.min(L - 1, Math.max(0, Number(b.dataset.layer) + move[0]));
  const hd = Math.min(H - 1, Math.max(0, Number(b.dataset.head) + move[1]));
  const target = buttons[l * H + hd];
  if (!target) return;
  for (const g of buttons) g.setAttribute("tabindex", g === target ? "0" : "-1");
  target.focus();
}

/** One cell coloured by a diagnostic's value `v` within `range` (grey when it has none). */
function paintStatCell(ctx, b, { v, range, sz, stat, words }) {
  const ok = typeof v === "number" && Number.isFinite(v);
  draw(ctx, [{ kind: "rect", x: 0, y: 0, w: MINI, h: MINI, fill: ok ? heat(range[1] > range[0] ? (v - range[0]) / (range[1] - range[0]) : 0) : MODEL_COLORS.missing }], 1, sz);
  b.title = say(words, "model.grid.cell_stat", { stat: say(words, `model.grid.color.${wordKey(stat)}`), value: ok ? num(v) : "—" });
  b.dataset.value = ok ? String(v) : "";
}

/** Which head is pressed, and the one button of the grid the Tab key reaches. Only the
 * attributes that change are written: 540 writes of the same values restyled the grid twice on
 * every head switch. */
function markButtons(buttons, L, H) {
  let any = false;
  const put = (b, name, value) => b.getAttribute(name) !== value && b.setAttribute(name, value);
  for (const b of buttons) {
    const on = Number(b.dataset.layer) === L && Number(b.dataset.head) === H;
    put(b, "aria-pressed", String(on));
    if (on) any = true;
    put(b, "tabindex", on ? "0" : "-1");
  }
  if (!any && buttons[0]) buttons[0].setAttribute("tabindex", "0");
}

/** One head's button painted: its diagnostic's colour, its matrix, its focus row, or empty. */
function paintCell(b, { grid, stat, range, sz, words }) {
  const canvas = b.querySelector("canvas");
  if (canvas.width !== MINI * sz.ratio) {
    canvas.width = MINI * sz.ratio;
    canvas.height = MINI * sz.ratio;
    canvas.style.width = `${MINI}px`;
    canvas.style.height = `${MINI}px`;
  }
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const l = Number(b.dataset.layer);
  const hd = Number(b.dataset.head);
  if (stat) {
    paintStatCell(ctx, b, { v: grid.stats[stat][l]?.[hd], range, sz, stat, words });
    return;
  }
  b.removeAttribute("title");
  const full = grid?.attentions ? headMatrix(grid, l, hd) : null;
  const m = full ?? (grid?.rows ? headRow(grid, l, hd) : null);
  draw(ctx, m ? miniHeat(m, sz, full ? grid.focus : null) : [{ kind: "rect", x: 0, y: 0, w: MINI, h: MINI, fill: MODEL_COLORS.emptyCell }], 1, sz);
}

export function headsGrid(model, id, pick, commit = () => {}) {
  const ui = {};
  ui.grid = h("div", { class: "rm-grid", role: "group", "data-words-label": "model.grid.name" });
  ui.gridHelp = h("p", { class: "help rm-grid-help" });
  ui.color = h("select");
  const colorField = field(`${id}-gridcolor`, "model.grid.color", ui.color);
  ui.color.addEventListener("change", () => commit({ grid_color: ui.color.value }));
  const el = h("section", { class: "rm-heads", "aria-labelledby": `${id}-heads-title` }, [
    h("h2", { id: `${id}-heads-title`, "data-words": "model.grid.title" }),
    colorField.box,
    ui.gridHelp,
    h("div", { class: "rm-grid-wrap" }, [ui.grid]),
  ]);
  let gridButtons = [];
  function buildGridFrame() {
    const info = model.get("info");
    const L = info?.n_layers ?? 0; // /api/model/info's sizes: no grid before it answers
    const H = info?.n_heads ?? 0;
    const words = model.get("words");
    const KV = info?.n_kv_heads ?? H;
    const chosen = model.get("grid_color") ?? "pattern";
    ui.color.replaceChildren(...COLOR_BY.map((v) => h("option", { value: v }, [say(words, `model.grid.color.${wordKey(v)}`)])));
    ui.color.value = chosen;
    const frame = `${Boolean(words)}:${L}:${H}:${KV}:${info?.layer_ids ?? ""}:${info?.head_ids ?? ""}:${info?.layer_windows ?? ""}`;
    if (gridButtons.length === L * H && ui.grid.dataset.frame === frame) return markGrid();
    ui.grid.dataset.frame = frame;
    ui.grid.style.setProperty("--heads", String(H));
    const frameCells = gridCells({ L, H, KV, words, pick, ids: info });
    gridButtons = frameCells.buttons;
    ui.grid.replaceChildren(...frameCells.cells);
    markGrid();
    paintGrid(null);
  }

  const markGrid = () => markButtons(gridButtons, Number(model.get("layer")), Number(model.get("head")));

  let painted = null; // what the mini pictures show now: [grid, colour, focus, cells, words]
  function paintGrid(trace) {
    const grid = model.get("grid");
    const wanted = model.get("grid_color") ?? "pattern";
    const now = [grid, wanted, trace?.window.focus ?? null, gridButtons[0] ?? null, model.get("words")];
    if (trace && painted && now.every((x, k) => x === painted[k])) return; // another head, the same pictures
    painted = trace ? now : null;
    // a long text's grid has no rows: its cells are coloured by a diagnostic
    const stat = grid?.stats && (wanted !== "pattern" || !grid.rows) ? (wanted === "pattern" ? "first" : wanted) : null;
    const range = stat ? statRange(grid.stats[stat]) : [0, 1];
    ui.grid.dataset.color = stat ?? "pattern";
    // the select says what is drawn: a grid without rows cannot show the pattern
    const pattern = ui.color.querySelector('option[value="pattern"]');
    if (pattern) pattern.disabled = Boolean(grid?.stats && !grid.rows);
    ui.color.value = stat ?? wanted;
    const ratio = window.devicePixelRatio || 1;
    const sz = { width: MINI, height: MINI, ratio };
    for (const b of gridButtons) paintCell(b, { grid, stat, range, sz, words: model.get("words") });
    if (stat) {
      ui.gridHelp.textContent = say(model.get("words"), "model.grid.stat", { stat: say(model.get("words"), `model.grid.color.${wordKey(stat)}`), least: num(range[0]), most: num(range[1]) });
      return;
    }
    const token = trace ? trace.window.all_tokens[grid?.focus ?? trace.window.focus] : "";
    const key = !grid || !trace ? "model.grid.empty" : grid.kind === "full" ? "model.grid.full" : "model.grid.focus";
    ui.gridHelp.textContent = say(model.get("words"), key, { token });
  }

  ui.grid.addEventListener("keydown", (e) => walkGrid(e, gridButtons, model.get("info")));


  const memo = changes();
  /** The view's state changed: build, mark and paint what its parts changed (model_state.js). */
  function update(state) {
    memo.next(state);
    if (memo.changed("info", "words", "grid_color")) buildGridFrame();
    else if (memo.changed("layer", "head")) markGrid();
    if (memo.changed("trace", "grid", "grid_color", "words", "info")) paintGrid(state.trace);
  }

  // its listeners are on its own elements, which go with it
  return { el, update, dispose: () => {}, build: buildGridFrame, mark: markGrid, paint: paintGrid };
}
