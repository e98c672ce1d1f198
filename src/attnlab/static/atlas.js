// The Atlas view (anywidget-shaped: render({ model, el }) returns its cleanup): what every head
// of a model does across a corpus, read from an atlas file (atlas/atlas_view.py via
// encode/atlas_json.py, in the model's "atlas"). Four panels fed one state: the statistic
// chooser, the layer × head picture with its colour scale, the heads table (its headers are
// buttons: Enter or Space sorts, again reverses; aria-sort says how), and the chosen head's
// card (every statistic against the model's heads, its exemplars, and a link that opens the
// Real model view on an exemplar with that head and token). The view sets "statistic",
// "layer", "head" and "sort"; "links" (the page's host) makes the exemplars links, else a
// button sets "opened" for the host (the notebook's kernel) to act on.

import { h, s } from "./dom.js";
import { ariaSort, cardLines, exemplarsOf, fill, gridCells, nextSort, realModelHref, scaleStops, shown, sortRows, statisticOf, tableRows } from "./atlas_layout.js";
import { createScope } from "./scope.js";

function choose(model, changes) {
  for (const [k, v] of Object.entries(changes)) model.set(k, v);
  model.save_changes();
}

function header(atlas, model) {
  const w = atlas.words;
  const box = h("div", { class: "atlas-head" }, [h("h2", {}, [w["atlas.title"]]), h("p", { class: "atlas-about" }, [atlas.about])]);
  if (atlas.names.length > 1) {
    const select = h("select", { id: "atlas-file", "aria-label": w["atlas.file"] }, atlas.names.map((n) => h("option", { value: n, selected: n === atlas.name }, [n])));
    select.addEventListener("change", () => choose(model, { name: select.value }));
    box.append(h("label", { class: "atlas-control" }, [w["atlas.file"], " ", select]));
  }
  return box;
}

function statisticPicker(atlas, stat, model) {
  const w = atlas.words;
  const select = h("select", { id: "atlas-statistic", "aria-label": w["atlas.statistic"] }, atlas.statistics.map((x) => h("option", { value: x.key, selected: x.key === stat.key }, [x.label])));
  select.addEventListener("change", () => choose(model, { statistic: select.value }));
  return h("div", { class: "atlas-picker" }, [
    h("label", { class: "atlas-control", for: "atlas-statistic" }, [w["atlas.statistic"]]),
    select,
    h("p", { class: "atlas-help" }, [stat.help]),
  ]);
}

function picture(atlas, stat, state, model) {
  const w = atlas.words;
  const cells = gridCells(stat);
  const grid = h("div", { class: "atlas-grid", role: "group", "aria-label": fill(w["atlas.picture"], { statistic: stat.label }) }, [
    h("span", { class: "atlas-corner", "aria-hidden": "true" }),
    ...Array.from({ length: atlas.heads }, (_, head) => h("span", { class: "atlas-col", "aria-hidden": "true" }, [String(head)])),
  ]);
  grid.style.setProperty("--atlas-heads", String(atlas.heads)); // CSSOM: the page's CSP refuses style attributes
  for (const row of cells) {
    grid.append(h("span", { class: "atlas-row", "aria-hidden": "true" }, [String(row[0].layer)]));
    for (const c of row) {
      const chosen = c.layer === state.layer && c.head === state.head;
      const value = shown(c.value, w["atlas.no_value"]);
      const cell = h("button", {
        type: "button",
        class: "atlas-cell",
        tabindex: chosen ? 0 : -1,
        "aria-pressed": String(chosen),
        "aria-label": fill(w["atlas.cell"], { layer: c.layer, head: c.head, value }),
        "data-layer": c.layer,
        "data-head": c.head,
        "data-value": c.value ?? "",
      }, [h("span", { class: "atlas-cell-value" }, [c.value === null ? "" : shown(c.value)])]);
      cell.style.background = c.fill;
      cell.style.color = c.ink;
      cell.addEventListener("click", () => choose(model, { layer: c.layer, head: c.head }));
      grid.append(cell);
    }
  }
  // one tab stop for the picture: the arrow keys move between heads (Home, End: a row's ends)
  grid.addEventListener("keydown", (e) => {
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    let [layer, head] = [state.layer, state.head];
    if (e.key in moves) [layer, head] = [layer + moves[e.key][0], head + moves[e.key][1]];
    else if (e.key === "Home") head = 0;
    else if (e.key === "End") head = atlas.heads - 1;
    else return;
    e.preventDefault();
    e.stopPropagation(); // the page's own keys (the lesson's steps) stay out of it
    layer = Math.max(0, Math.min(atlas.layers - 1, layer));
    head = Math.max(0, Math.min(atlas.heads - 1, head));
    const root = grid.closest(".atlas-view"); // kept across redraws: only its children change
    choose(model, { layer, head });
    root?.querySelector(`.atlas-cell[data-layer="${layer}"][data-head="${head}"]`)?.focus();
  });
  const bar = h("span", { class: "atlas-bar", "aria-hidden": "true" });
  bar.style.background = `linear-gradient(to right, ${scaleStops().join(", ")})`;
  const legend = h("div", { class: "atlas-legend" }, [
    bar,
    h("span", { class: "atlas-scale", "data-low": stat.low ?? "", "data-high": stat.high ?? "" }, [
      fill(w["atlas.scale"], { low: shown(stat.low), high: shown(stat.high), unit: stat.unit }),
    ]),
  ]);
  const axes = h("p", { class: "atlas-axes" }, [fill(w["atlas.axes"], { last_layer: atlas.layers - 1, last_head: atlas.heads - 1 })]);
  return h("div", { class: "atlas-picture" }, [axes, grid, legend]);
}

function table(atlas, state, model) {
  const w = atlas.words;
  const sort = state.sort;
  const headerCell = (column, label) => {
    const button = h("button", { type: "button", class: "atlas-sort", "data-column": String(column) }, [label, h("span", { class: "atlas-arrow", "aria-hidden": "true" })]);
    button.addEventListener("click", () => choose(model, { sort: nextSort(column, sort) }));
    return h("th", { scope: "col", "aria-sort": ariaSort(column, sort) }, [button]);
  };
  const head = h("tr", {}, [headerCell("head", w["atlas.col_head"]), ...atlas.statistics.map((x, i) => headerCell(i, x.short))]);
  const body = h("tbody");
  for (const r of sortRows(tableRows(atlas), sort)) {
    const pick = h("button", { type: "button", class: "atlas-pick", "aria-pressed": String(r.layer === state.layer && r.head === state.head) }, [`L${r.layer} H${r.head}`]);
    pick.addEventListener("click", () => {
      const view = pick.closest(".atlas-view");
      choose(model, { layer: r.layer, head: r.head });
      cardInSight(view);
    });
    body.append(h("tr", { "data-layer": r.layer, "data-head": r.head }, [h("th", { scope: "row" }, [pick]), ...r.values.map((v) => h("td", { "data-value": v ?? "" }, [shown(v)]))]));
  }
  return h("div", { class: "atlas-table-box" }, [
    h("p", { class: "atlas-help" }, [w["atlas.table_hint"]]),
    h("div", { class: "atlas-scroll", tabindex: "0", role: "region", "aria-label": w["atlas.table"] }, [h("table", { class: "atlas-table", "aria-label": w["atlas.table"] }, [h("thead", {}, [head]), body])]),
  ]);
}

/** On a narrow screen the card sits far above the table: bring it into sight after a pick. */
function cardInSight(view) {
  const card = view?.querySelector(".atlas-card");
  if (!card) return;
  const r = card.getBoundingClientRect();
  const height = view.ownerDocument.defaultView?.innerHeight ?? 0;
  if (r.top < 0 || r.top > height) card.scrollIntoView({ block: "start" });
}

/** The sorted column in sight inside the table's scroll box, just right of the sticky heads. */
function sortedInSight(root) {
  const box = root.querySelector(".atlas-scroll");
  const th = box?.querySelector('th[aria-sort="ascending"], th[aria-sort="descending"]');
  const first = box?.querySelector("th");
  if (!th || !first || th === first) return;
  const left = th.offsetLeft - first.offsetWidth;
  if (th.offsetLeft + th.offsetWidth > box.scrollLeft + box.clientWidth || th.offsetLeft < box.scrollLeft + first.offsetWidth) box.scrollLeft = Math.max(0, left);
}

function strip(line) {
  const svg = s("svg", { class: "atlas-strip", viewBox: "0 0 100 12", preserveAspectRatio: "none", "aria-hidden": "true" });
  svg.append(s("line", { x1: 0, y1: 6, x2: 100, y2: 6, class: "atlas-strip-axis" }));
  for (const m of line.marks) if (!Number.isNaN(m)) svg.append(s("line", { x1: 100 * m, y1: 2, x2: 100 * m, y2: 10, class: "atlas-strip-mark" }));
  if (!Number.isNaN(line.at)) svg.append(s("circle", { cx: 100 * line.at, cy: 6, r: 3, class: "atlas-strip-this" }));
  return svg;
}

function card(atlas, stat, state, model) {
  const w = atlas.words;
  const { layer, head } = state;
  const box = h("section", { class: "atlas-card", "aria-label": fill(w["atlas.card"], { layer, head }) }, [h("h3", {}, [fill(w["atlas.card"], { layer, head })])]);
  const list = h("div", { class: "atlas-lines" });
  for (const line of cardLines(atlas, layer, head)) {
    const rank = line.rank === null ? w["atlas.no_value"] : fill(w["atlas.rank"], { rank: line.rank, of: line.of });
    list.append(
      h("div", { class: line.key === stat.key ? "atlas-line atlas-now" : "atlas-line", "data-key": line.key, "data-value": line.value ?? "" }, [
        h("span", { class: "atlas-line-label" }, [line.label]),
        h("span", { class: "atlas-value" }, [shown(line.value, w["atlas.no_value"])]),
        h("span", { class: "atlas-rank" }, [rank]),
        strip(line),
      ]),
    );
  }
  box.append(list);
  box.append(h("h4", {}, [fill(w["atlas.exemplars"], { statistic: stat.label })]));
  const note = w[`atlas.exemplar_note.${stat.key}`];
  if (note) box.append(h("p", { class: "atlas-help" }, [note]));
  const found = exemplarsOf(atlas, stat, layer, head);
  if (!found.length) box.append(h("p", { class: "atlas-help" }, [w["atlas.no_exemplars"]]));
  if (found.length && !atlas.real_model) box.append(h("p", { class: "atlas-help" }, [fill(w["atlas.no_open"], { model: atlas.model })]));
  const items = h("ol", { class: "atlas-exemplars" });
  for (const e of found) {
    const said = fill(w[`atlas.exemplar_of.${stat.key}`] ?? w["atlas.exemplar"], { value: shown(e.value), position: e.position, text: e.passage });
    const item = h("li", { "data-value": e.value, "data-position": e.position }, [h("span", {}, [said])]);
    const href = realModelHref(atlas, layer, head, e);
    const label = fill(w["atlas.open_label"], { layer, head, position: e.position });
    if (href && model.get("links")) item.append(" ", h("a", { href: `/${href}`, class: "atlas-open", "aria-label": label }, [w["atlas.open"]]));
    else if (href && model.get("links") === false && model.get("openable")) {
      const open = h("button", { type: "button", class: "atlas-open", "aria-label": label }, [w["atlas.open"]]);
      open.addEventListener("click", () => choose(model, { opened: { model: atlas.real_model, text: e.passage, layer, head, focus: e.position } }));
      item.append(" ", open);
    }
    items.append(item);
  }
  box.append(items);
  return box;
}

/** A selector for the same control after a redraw, so the key stays where it was. */
function focusKey(node) {
  if (!node?.classList) return null;
  if (node.classList.contains("atlas-sort")) return `.atlas-sort[data-column="${node.dataset.column}"]`;
  if (node.classList.contains("atlas-cell")) return `.atlas-cell[data-layer="${node.dataset.layer}"][data-head="${node.dataset.head}"]`;
  const row = node.closest?.("tr[data-layer]");
  if (node.classList.contains("atlas-pick") && row) return `tr[data-layer="${row.dataset.layer}"][data-head="${row.dataset.head}"] .atlas-pick`;
  return node.id ? `#${node.id}` : null;
}

export default {
  render({ model, el }) {
    const scope = createScope();
    const root = h("div", { class: "atlas-view" });
    el.append(root);
    const draw = () => {
      const atlas = model.get("atlas");
      const active = root.ownerDocument.activeElement;
      const again = active && root.contains(active) ? focusKey(active) : null;
      root.replaceChildren();
      if (!atlas) {
        const words = model.get("words") ?? {};
        if (model.get("error")) root.append(h("p", { class: "atlas-none", role: "status" }, [model.get("error").message]));
        else if (words["atlas.none_title"]) {
          root.append(
            h("section", { class: "atlas-none", role: "status", "aria-labelledby": "atlas-none-title" }, [
              h("h3", { id: "atlas-none-title" }, [words["atlas.none_title"]]),
              h("p", {}, [words["atlas.none"]]),
              h("pre", {}, [h("code", {}, [words["atlas.none_make"]])]),
              h("pre", {}, [h("code", {}, [words["atlas.none_serve"]])]),
            ]),
          );
        }
        return;
      }
      const stat = statisticOf(atlas, model.get("statistic"));
      const state = {
        layer: Math.min(model.get("layer") ?? 0, atlas.layers - 1),
        head: Math.min(model.get("head") ?? 0, atlas.heads - 1),
        sort: model.get("sort") ?? { column: atlas.statistics.indexOf(stat), descending: true },
      };
      if (model.get("note")) root.append(h("p", { class: "atlas-note", role: "status" }, [model.get("note")]));
      root.append(
        header(atlas, model),
        statisticPicker(atlas, stat, model),
        h("div", { class: "atlas-main" }, [picture(atlas, stat, state, model), card(atlas, stat, state, model)]),
        table(atlas, state, model),
      );
      sortedInSight(root);
      if (again) root.querySelector(again)?.focus({ preventScroll: true });
    };
    for (const key of ["atlas", "statistic", "layer", "head", "sort", "error", "words", "note"]) scope.on(model, `change:${key}`, draw);
    draw();
    return () => {
      scope.dispose();
      root.remove();
    };
  },
};
