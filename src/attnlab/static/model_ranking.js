// The Real model view's head ranking: every head of the model in one table, its five
// diagnostics (/api/model/trace's grid.stats, core/diagnostics.py) as columns, sortable by any of
// them. Each column heading is a button ("Sort by …", aria-sort on the heading), so the sort is
// one Tab and Enter away; each row's button shows that head.
//
// Reads the model's "grid", "info", "layer", "head" and "words"; writes "ranking_sort"
// ({key, descending}) and, through `pick`, the head. No number is computed here.

import { h } from "./dom.js";
import { num } from "./format.js";
import { changes } from "./model_state.js";
import { say } from "./words.js";

export const STATS = ["entropy_bits", "first", "previous", "itself", "top1"];

/** A statistic's key in the page's words (which spell keys in letters only: top1 is top_one). */
export const wordKey = (stat) => (stat === "top1" ? "top_one" : stat);

/**
 * Every head as a row {layer, head, kv, entropy_bits, first, ...}, sorted by `key`.
 * NaN (no previous token) sorts last either way. Ties keep layer, head order.
 */
export function rankedHeads(stats, { key = "first", descending = true, kvOf = (hd) => hd } = {}) {
  const rows = [];
  stats.entropy_bits.forEach((layerRow, l) => layerRow.forEach((_, hd) => {
    const row = { layer: l, head: hd, kv: kvOf(hd) };
    for (const s of STATS) row[s] = typeof stats[s][l][hd] === "number" ? stats[s][l][hd] : NaN;
    rows.push(row);
  }));
  if (key === "layer" || key === "head") return descending ? rows.reverse() : rows;
  return rows
    .map((r, k) => [r, k])
    .sort(([a, i], [b, j]) => {
      const x = a[key];
      const y = b[key];
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) - Number.isNaN(y) || i - j;
      return (descending ? y - x : x - y) || i - j;
    })
    .map(([r]) => r);
}

export function rankingPanel(model, id, pick, commit) {
  const words = () => model.get("words");
  const table = h("table", { class: "weights rm-ranking", "data-words-label": "model.ranking.name" });
  const help = h("p", { class: "help", "data-words": "model.ranking.help" });
  const el = h("section", { class: "rm-rank", "aria-labelledby": `${id}-rank-title` }, [
    h("h2", { id: `${id}-rank-title`, "data-words": "model.ranking.title" }),
    help,
    h("div", { class: "table-wrap rm-rank-wrap" }, [table]),
  ]);

  function build() {
    const grid = model.get("grid");
    const info = model.get("info");
    if (!grid?.stats) {
      table.replaceChildren();
      return;
    }
    const sort = model.get("ranking_sort") ?? { key: "first", descending: true };
    const g = grid.heads / (grid.n_kv_heads || grid.heads);
    const gqa = g > 1;
    const rows = rankedHeads(grid.stats, { ...sort, kvOf: (hd) => Math.floor(hd / g) });
    const cols = ["layer", "head", ...(gqa ? ["kv"] : []), ...STATS];
    const head = h("tr", {}, cols.map((key) => {
      const sortable = key !== "kv";
      const on = sort.key === key;
      const th = h("th", { scope: "col", "aria-sort": on ? (sort.descending ? "descending" : "ascending") : "none" });
      const label = say(words(), `model.ranking.col.${wordKey(key)}`);
      if (!sortable) th.append(label);
      else {
        const b = h("button", { type: "button", class: "rm-sort", "data-key": key, "aria-label": say(words(), "model.ranking.sort", { column: label }) }, [label, on ? (sort.descending ? " ▼" : " ▲") : ""]);
        b.addEventListener("click", () => commit({ ranking_sort: { key, descending: on ? !sort.descending : key !== "layer" && key !== "head" } }));
        th.append(b);
      }
      return th;
    }));
    const had = table.contains(table.ownerDocument.activeElement) ? table.ownerDocument.activeElement.dataset?.key : undefined;
    const hadRow = had === undefined && table.contains(table.ownerDocument.activeElement) ? table.ownerDocument.activeElement.dataset?.row : undefined;
    const body = h("tbody", {}, rows.map((r, k) => {
      const show = h("button", { type: "button", class: "rm-show", "data-row": String(k), tabindex: "-1", "aria-label": say(words(), "model.ranking.show", { layer: r.layer, head: r.head }) }, [String(r.layer)]);
      show.addEventListener("click", () => pick(r.layer, r.head));
      show.addEventListener("keydown", (e) => walk(e, k, rows.length));
      const cells = [h("td", {}, [show]), h("td", {}, [String(r.head)])];
      if (gqa) cells.push(h("td", {}, [String(r.kv)]));
      for (const s of STATS) cells.push(h("td", { "data-stat": s }, [Number.isNaN(r[s]) ? "—" : num(r[s])]));
      return h("tr", { "data-layer": String(r.layer), "data-head": String(r.head) }, cells);
    }));
    table.replaceChildren(h("caption", {}, [say(words(), "model.ranking.caption", { model: say(words(), `model.name.${info?.model}`) || info?.model || "", n: grid.layers * grid.heads })]), h("thead", {}, [head]), body);
    mark(); // the shown head's row, and the one Tab stop
    if (had) table.querySelector(`button[data-key="${had}"]`)?.focus(); // the keyboard stays on the sorted column
    else if (hadRow !== undefined) table.querySelector(`button.rm-show[tabindex="0"]`)?.focus();
  }

  const shownHead = () => [Number(model.get("layer")), Number(model.get("head"))];

  /** The shown head's row marked, its button the one Tab stop (the first row's if the head is
   * not listed). Called after a build and on a head switch, which rebuilds nothing (a decoder's
   * 270 rows took a third of a second to build again on every switch). */
  function mark() {
    const [L, H] = shownHead();
    const rows = [...table.querySelectorAll("tbody tr")];
    const found = rows.findIndex((tr) => tr.dataset.layer === String(L) && tr.dataset.head === String(H));
    const at = Math.max(0, found);
    rows.forEach((tr, k) => {
      tr.classList.toggle("focus", k === found);
      const b = tr.querySelector("button.rm-show");
      if (b && !table.contains(table.ownerDocument.activeElement)) b.tabIndex = k === at ? 0 : -1;
    });
  }

  /** ↑ ↓ Home End move the one Tab stop between the rows' buttons (a roving tabindex). */
  function walk(e, k, n) {
    const to = { ArrowDown: k + 1, ArrowUp: k - 1, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = table.querySelector(`button.rm-show[data-row="${Math.min(n - 1, Math.max(0, to))}"]`);
    if (!next) return;
    for (const b of table.querySelectorAll("button.rm-show")) b.tabIndex = b === next ? 0 : -1;
    next.focus();
  }
  const memo = changes();
  /** The view's state changed: the rows again for another grid, sort or words; else the mark. */
  function update(state) {
    memo.next(state);
    if (memo.changed("grid", "ranking_sort", "words", "info")) build();
    else if (memo.changed("layer", "head")) mark();
  }
  return { el, update, dispose: () => {}, build, mark };
}
