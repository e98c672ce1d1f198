// The Atlas view's layout, pure (no DOM; Node's tests import it): an atlas answer
// (encode/atlas_json.py) and the state (statistic, head, sort) in, cells, rows, a card's lines
// and a Real model link out. Every number is the answer's; this file only orders, scales and
// formats them (format.js's rule), and colours them (colors.js's heat scale).

import { heat, inkOn } from "./colors.js";
import { num } from "./format.js";
import { DEFAULTS as MODEL_DEFAULTS, writeModelURL } from "./model_url.js";

/** Decimals shown for a statistic's value. */
export const PLACES = 3;

/** A statistic's value as the view writes it; `none` for a head with no value. */
export function shown(x, none = "–") {
  return x === null || x === undefined ? none : num(x, PLACES);
}

/** The statistic of `key` (the first when unknown). */
export function statisticOf(atlas, key) {
  return atlas.statistics.find((s) => s.key === key) ?? atlas.statistics[0];
}

/** Where `x` sits in [low, high] as 0..1 (0.5 when the range is one value; NaN for none). */
export function scaled(x, low, high) {
  if (x === null || x === undefined || low === null || high === null) return Number.NaN;
  return high > low ? (x - low) / (high - low) : 0.5;
}

/**
 * The layer × head picture of one statistic: a cell per head with its value, rank, colour.
 * @returns {{layer: number, head: number, value: number | null, rank: number | null, fill: string, ink: string}[][]}
 */
export function gridCells(stat) {
  return stat.means.map((row, layer) =>
    row.map((value, head) => {
      const w = scaled(value, stat.low, stat.high);
      return { layer, head, value, rank: stat.ranks[layer][head], fill: heat(w), ink: Number.isNaN(w) ? inkOn(0) : inkOn(w) };
    }),
  );
}

/** The colour scale's stops (left to right) for a CSS gradient, low to high. */
export function scaleStops(count = 6) {
  return Array.from({ length: count }, (_, i) => heat(i / (count - 1)));
}

/** One row per head: its layer, head and every statistic's mean, in the answer's order. */
export function tableRows(atlas) {
  const rows = [];
  for (let layer = 0; layer < atlas.layers; layer++) {
    for (let head = 0; head < atlas.heads; head++) {
      rows.push({ layer, head, values: atlas.statistics.map((s) => s.means[layer][head]) });
    }
  }
  return rows;
}

/**
 * Rows sorted by a column: "head" (layer, then head) or a statistic's index; heads with no
 * value go last in either direction, ties by layer then head.
 * @param {{column: "head" | number, descending: boolean}} sort
 */
export function sortRows(rows, sort) {
  const byHead = (a, b) => a.layer - b.layer || a.head - b.head;
  const out = [...rows];
  if (sort.column === "head") {
    out.sort(byHead);
    return sort.descending ? out.reverse() : out;
  }
  const c = sort.column;
  out.sort((a, b) => {
    const x = a.values[c];
    const y = b.values[c];
    if (x === null && y === null) return byHead(a, b);
    if (x === null) return 1;
    if (y === null) return -1;
    return (sort.descending ? y - x : x - y) || byHead(a, b);
  });
  return out;
}

/** aria-sort of a column header under `sort`. */
export function ariaSort(column, sort) {
  if (sort.column !== column) return "none";
  return sort.descending ? "descending" : "ascending";
}

/** The sort after a header is pressed: a new column sorts largest first (the head column in
 * order), the same column reverses. */
export function nextSort(column, sort) {
  if (sort.column === column) return { column, descending: !sort.descending };
  return { column, descending: column !== "head" };
}

/**
 * A head's card: each statistic's value, rank and where it sits among the model's heads.
 * @returns {{key: string, label: string, unit: string, value: number | null, rank: number | null, of: number, at: number, marks: number[]}[]}
 */
export function cardLines(atlas, layer, head) {
  return atlas.statistics.map((s) => {
    const all = s.means.flat().filter((x) => x !== null);
    return {
      key: s.key,
      label: s.label,
      unit: s.unit,
      value: s.means[layer][head],
      rank: s.ranks[layer][head],
      of: all.length,
      at: scaled(s.means[layer][head], s.low, s.high),
      marks: all.map((x) => scaled(x, s.low, s.high)),
    };
  });
}

/** The exemplars of one statistic for a head, each with its text. */
export function exemplarsOf(atlas, stat, layer, head) {
  return stat.exemplars[layer][head].map((e) => ({ ...e, passage: atlas.passages[e.text] }));
}

/**
 * The page's address that opens the Real model view on an exemplar: its model, its text, the
 * head and the query row followed. Null when the Real model view does not run the model.
 */
export function realModelHref(atlas, layer, head, exemplar) {
  if (!atlas.real_model) return null;
  const state = { ...MODEL_DEFAULTS, view: "model", name: atlas.real_model, text: exemplar.passage, layer, head, focus: exemplar.position };
  return writeModelURL("", state);
}

/** A template of the answer's words, filled: "{layer}" and the like replaced. */
export function fill(template, values) {
  return (template ?? "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}
