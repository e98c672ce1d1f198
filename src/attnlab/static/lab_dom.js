// The lab's DOM pieces, built with dom.js's h and s: cards, SVG plots from plots.js's geometry,
// legends and heat tables. The panels ask their numbers of the host (model.services.ask).
//
// Text goes in with textContent only, never as markup. No numbers are computed here: the
// plots draw the API's series and the tables print the API's weights, formatted by format.js.

import { COLORS, heat, inkOn } from "./colors.js";
import { h, s } from "./dom.js";
import { num } from "./format.js";
import { tokenNames } from "./names.js";
import { arcPath, dialArrow, plot } from "./plots.js";
import { say } from "./words.js";

/**
 * An SVG plot of `spec` (see plots.js); put it in figure(label, ...) to name it for screen readers.
 * @param {import("./plots.js").PlotSpec} spec
 * @param {{width: number, height: number}} size
 * @param {string} label
 */
export function svgPlot(spec, size, label) {
  const g = plot(spec, size);
  // the figure around it carries the name: the page keeps one role="img", the lesson's canvas
  const svg = s("svg", { viewBox: `0 0 ${size.width} ${size.height}`, width: size.width, height: size.height, "aria-hidden": "true", "data-label": label, class: "lab-plot" });
  const { left, right, top, bottom } = g.frame;
  svg.append(s("rect", { x: left, y: top, width: right - left, height: bottom - top, fill: COLORS.plotPaper, stroke: COLORS.grid }));
  for (const t of g.yTicks) {
    svg.append(s("line", { x1: left, x2: right, y1: t.y, y2: t.y, stroke: COLORS.plotRule }));
    svg.append(s("text", { x: left - 4, y: t.y + 4, "text-anchor": "end", class: "tick" }, t.text));
  }
  for (const t of g.xTicks) {
    svg.append(s("line", { x1: t.x, x2: t.x, y1: bottom, y2: bottom + 4, stroke: COLORS.muted }));
    svg.append(s("text", { x: t.x, y: bottom + 16, "text-anchor": "middle", class: "tick" }, t.text));
  }
  for (const m of g.marks) {
    svg.append(s("line", { x1: m.x, x2: m.x, y1: m.y1, y2: m.y2, stroke: COLORS.violet, "stroke-dasharray": "3 3", "stroke-width": 1.5 }));
    svg.append(s("text", { x: m.lx, y: m.ly, "text-anchor": m.anchor, class: "mark" }, m.label));
  }
  for (const p of g.paths) {
    const path = s("path", { d: p.d, fill: "none", stroke: p.color, "stroke-width": p.width });
    if (p.dash) path.setAttribute("stroke-dasharray", p.dash.join(" "));
    path.append(s("title", {}, p.name));
    svg.append(path);
    for (const [x, y] of p.dots) svg.append(s("circle", { cx: x, cy: y, r: 3, fill: p.color }));
  }
  svg.append(s("text", { x: g.xLabel.x, y: g.xLabel.y, "text-anchor": "middle", class: "axis-label x-label" }, g.xLabel.text));
  svg.append(s("text", { x: g.yLabel.x, y: g.yLabel.y, class: "axis-label y-label" }, g.yLabel.text));
  return svg;
}

/**
 * A figure named `label` (role "figure") holding a plot and what goes under it, as wide as
 * the plot (`width` CSS pixels) or the room there is.
 * @param {string} label
 * @param {(Node | string)[]} children
 * @param {number} [width]
 */
export function figure(label, children, width) {
  const node = h("figure", { "aria-label": label }, children);
  if (width) node.style.width = `min(${width}px, 100%)`;
  return node;
}

/**
 * A legend: a coloured line and a name per series.
 * @param {{name: string, color: string, dash?: number[] | null}[]} series
 */
export function legend(series) {
  return h(
    "ul",
    { class: "legend" },
    series.map((x) => {
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.borderTopColor = x.color;
      if (x.dash) swatch.style.borderTopStyle = "dashed";
      return h("li", {}, [swatch, x.name]);
    }),
  );
}

/**
 * A table of weights in heat colours, rows = queries and columns = keys, with optional extra
 * columns (row sum, entropy...) and a footer row (column sums). Masked cells are greyed. The
 * corner and the cells' titles are the page's words (`words`, table.*).
 * @param {{label: string, caption?: string, rows: string[], cols: string[], weights: number[][],
 *   mask?: boolean[][] | null, focus?: number, extra?: {head: string, values: string[]}[],
 *   footer?: {head: string, values: string[]} | null, words: Record<string, string> | null,
 *   hidden?: boolean, hiddenTitle?: string}} t   (hidden: the cells are left empty, for Predict
 *   first or before the Softmax step; hiddenTitle: what a hidden cell's title says, else lab.hidden)
 */
export function heatTable(t) {
  const head = h("tr", {}, [h("th", { scope: "col", class: "corner" }, [say(t.words, "table.corner")])]);
  const cols = tokenNames(t.cols); // a repeated word is named by its place, as the narration does
  cols.forEach((c) => head.append(h("th", { scope: "col" }, [c])));
  for (const e of t.extra ?? []) head.append(h("th", { scope: "col", class: "extra" }, [e.head]));
  const body = h("tbody");
  tokenNames(t.rows).forEach((r, i) => {
    const tr = h("tr", { class: i === t.focus ? "focus" : null }, [h("th", { scope: "row" }, [r])]);
    cols.forEach((c, j) => {
      const w = t.weights[i][j];
      const masked = Boolean(t.mask && !t.mask[i][j]);
      // hidden (Predict first, before the guess): no number, colour or title carries the weight
      const td = h("td", { "data-i": i, "data-j": j, class: t.hidden ? "hidden-weight" : masked ? "masked" : null, tabindex: -1 }, [t.hidden ? "" : num(w)]);
      if (t.hidden) td.title = t.hiddenTitle ?? say(t.words, "lab.hidden");
      else {
        if (!masked) {
          td.style.background = heat(w);
          td.style.color = inkOn(w);
        }
        td.title = say(t.words, masked ? "table.masked_title" : "table.pair_title", { query: r, key: c, weight: num(w) });
      }
      tr.append(td);
    });
    for (const e of t.extra ?? []) tr.append(h("td", { class: "extra" }, [e.values[i]]));
    body.append(tr);
  });
  const parts = [];
  if (t.caption) parts.push(h("caption", {}, [t.caption]));
  parts.push(h("thead", {}, [head]), body);
  if (t.footer) {
    const tr = h("tr", { class: "sums" }, [h("th", { scope: "row" }, [t.footer.head])]);
    t.footer.values.forEach((v) => tr.append(h("td", { class: "extra" }, [v])));
    for (const _ of t.extra ?? []) tr.append(h("td", { class: "extra" }));
    parts.push(h("tfoot", {}, [tr]));
  }
  return h("table", { class: "lab-heat", "aria-label": t.label }, parts);
}

/**
 * A plain table of numbers (in a box that scrolls sideways when narrow): a header row and
 * rows whose first cell is a row header.
 * @param {string} label
 * @param {string[]} header
 * @param {(string | Node)[][]} rows
 * @param {string} [cls]
 */
export function numberTable(label, header, rows, cls = "") {
  const table = h("table", { class: `lab-table ${cls}`.trim(), "aria-label": label }, [
    h("thead", {}, [h("tr", {}, header.map((x) => h("th", { scope: "col" }, [x])))]),
    h(
      "tbody",
      {},
      rows.map((r) => h("tr", {}, r.map((x, k) => (k === 0 ? h("th", { scope: "row" }, [x]) : h("td", {}, [x]))))),
    ),
  ]);
  return h("div", { class: "scroll-x" }, [table]); // a wide table scrolls inside its card
}

/**
 * A card: a heading, a line of help and its body; `region` makes it a named landmark, `wide`
 * spans the whole row of cards. The title and the help are the page's words at the keys `title`
 * and `help` (words/page.py), filled in by dom.fillWords.
 * @param {string} id
 * @param {string} title a key of the page's words
 * @param {string} help a key of the page's words
 * @param {(Node | string)[]} body
 * @param {{region?: boolean, wide?: boolean}} [options]
 */
export function card(id, title, help, body, { region = false, wide = false } = {}) {
  const heading = h("h3", { id: `${id}-h`, "data-words": title });
  return h("section", { class: wide ? "lab-card wide" : "lab-card", "aria-labelledby": region ? `${id}-h` : null, role: region ? "region" : null }, [
    heading,
    h("p", { class: "lab-help", "data-words": help }),
    ...body,
  ]);
}

/**
 * RoPE's turn of each query, drawn: one dial per token, its query's first two numbers before
 * (grey) and after (violet) the rotation, and the arc of its position's angle between them.
 * @param {string[]} tokens
 * @param {number[][]} before the queries before the rotation (the API's rope.queries)
 * @param {number[][]} after the rotated queries (rope.rotated_queries)
 * @param {number[][]} angles radians per position and pair (rope.angles)
 * @param {Record<string, string> | null} words the page's words (lab.positions.*)
 */
export function ropeDials(tokens, before, after, angles, words) {
  const r = 34;
  const w = 96;
  const height = 2 * r + 44;
  const scale = Math.max(1e-12, ...before.map((v) => Math.hypot(v[0], v[1])), ...after.map((v) => Math.hypot(v[0], v[1])));
  const svg = s("svg", { viewBox: `0 0 ${w * tokens.length} ${height}`, width: w * tokens.length, height, "aria-hidden": "true", class: "lab-plot dials" });
  tokens.forEach((tok, i) => {
    const cx = w * i + w / 2;
    const cy = r + 6;
    svg.append(s("circle", { cx, cy, r, fill: COLORS.plotPaper, stroke: COLORS.grid }));
    const b = dialArrow([before[i][0], before[i][1]], { cx, cy, r, scale });
    const a = dialArrow([after[i][0], after[i][1]], { cx, cy, r, scale });
    const turn = angles[i][0];
    if (Math.hypot(before[i][0], before[i][1]) > 1e-9 && Math.abs(turn) > 1e-9) {
      const a0 = Math.atan2(before[i][1], before[i][0]);
      svg.append(s("path", { d: arcPath(cx, cy, r * 0.62, a0, a0 + turn), fill: "none", stroke: COLORS.violet, "stroke-width": 1.5, "stroke-dasharray": "3 2" }));
    }
    svg.append(s("line", { ...b, stroke: COLORS.ropeBefore, "stroke-width": 3, "stroke-linecap": "round" }));
    svg.append(s("line", { ...a, stroke: COLORS.violet, "stroke-width": 2, "stroke-linecap": "round" }));
    svg.append(s("circle", { cx: a.x2, cy: a.y2, r: 3, fill: COLORS.violet }));
    svg.append(s("text", { x: cx, y: 2 * r + 22, "text-anchor": "middle", class: "axis-label" }, say(words, "lab.positions.token_at", { token: tok, position: i })));
    svg.append(s("text", { x: cx, y: 2 * r + 36, "text-anchor": "middle", class: "tick" }, say(words, "lab.positions.turned", { angle: num(turn, 3) })));
  });
  const node = h("figure", { "aria-label": say(words, "lab.positions.dials"), class: "dials-figure" }, [
    svg,
    h("figcaption", {}, [say(words, "lab.positions.dials_caption")]),
  ]);
  node.style.width = `min(${w * tokens.length}px, 100%)`;
  return node;
}
