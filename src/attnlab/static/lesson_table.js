// The lesson's side table as it follows the beats: empty before Score, the focus sentence's
// scores during Score, the weights from Softmax on (or all along, when the learner asks for
// the final weights). While the lab's Predict first waits for a guess ("asking"), no weight is
// written anywhere in it: not in a cell, a title, the caption or the readout.
//
// tableStage() is pure; tableParts() and tableReadout() build and write DOM from the trace's numbers and the
// page's words (table.*), formatted by format.js. Nothing here computes attention.

import { heat, inkOn } from "./colors.js";
import { h } from "./dom.js";
import { num } from "./format.js";
import { tokenNames } from "./names.js";
import { say } from "./words.js";

/**
 * What the table shows at a beat: "pending" (before Score), "scores" or "weights".
 * @param {string[]} keys the trace's beats in order (tokens, project, score, softmax, ...)
 * @param {number} beat the index of the beat on screen
 * @param {{asking?: boolean, showAll?: boolean}} [options] asking: the weights are hidden
 */
export function tableStage(keys, beat, { asking = false, showAll = false } = {}) {
  const score = keys.indexOf("score");
  const softmax = keys.indexOf("softmax");
  const wanted = showAll || beat >= softmax ? "weights" : beat >= score ? "scores" : "pending";
  return asking && wanted === "weights" ? "scores" : wanted;
}

/** The number in cell (i, j) at `stage`, or null when there is none yet. */
export function cellValue(trace, stage, i, j) {
  if (stage === "pending") return null;
  return stage === "scores" ? trace.scores[i][j] : trace.weights[i][j];
}

/**
 * The table's caption, header and cells for `stage`.
 * @param {Record<string, any>} trace decoded (format.decodeLesson)
 * @param {"pending" | "scores" | "weights"} stage
 * @param {Record<string, string> | null} words
 * @param {{asking?: boolean}} [options]
 * @returns {Node[]} the caption, thead and tbody
 */
export function tableParts(trace, stage, words, { asking = false } = {}) {
  const cols = tokenNames(trace.key_tokens ?? trace.tokens);
  const rows = tokenNames(trace.tokens);
  const captionKey = stage === "weights"
    ? (trace.axis === "keys" ? "table.caption" : "table.caption_queries")
    : stage === "scores" ? (asking ? "table.caption_hidden" : "table.caption_scores") : "table.caption_pending";
  const caption = h("caption", {}, [say(words, captionKey, { divisor: trace.captions?.divisor ?? num(trace.divisor) })]);
  const head = h("tr", {}, [h("th", { scope: "col", class: "corner" }, [say(words, "table.corner")])]);
  cols.forEach((tok) => head.append(h("th", { scope: "col" }, [tok])));
  const body = h("tbody");
  rows.forEach((tok, i) => {
    const row = h("tr", { class: i === trace.focus ? "focus" : "" }, [h("th", { scope: "row" }, [tok])]);
    cols.forEach((_, j) => {
      const masked = Boolean(trace.mask && !trace.mask[i]?.[j]);
      const x = cellValue(trace, stage, i, j);
      const cls = [masked ? "masked" : null, stage !== "weights" ? stage : null].filter(Boolean).join(" ") || null;
      const td = h("td", { tabindex: i === trace.focus && j === 0 ? 0 : -1, "data-i": i, "data-j": j, class: cls }, [x === null ? "" : num(x)]);
      if (stage === "weights" && !masked) {
        td.style.background = heat(x);
        td.style.color = inkOn(x);
      }
      if (stage === "weights") td.title = say(words, "table.cell_title", { row: i + 1, col: j + 1, weight: num(x) });
      else if (stage === "scores") td.title = say(words, "table.score_title", { row: i + 1, col: j + 1, score: num(x) });
      row.append(td);
    });
    body.append(row);
  });
  return [caption, h("thead", {}, [head]), body];
}

/**
 * What the readout under the table says about cell (i, j) at `stage`.
 * @returns {string}
 */
export function tableReadout(trace, stage, i, j, words) {
  const cols = tokenNames(trace.key_tokens ?? trace.tokens);
  const at = { row: i + 1, query: tokenNames(trace.tokens)[i], col: j + 1, key: cols[j] };
  if (stage === "pending") return say(words, "table.pending_readout");
  if (stage === "scores") return say(words, "table.score_readout", { ...at, score: num(trace.scores[i][j]) });
  return say(words, "table.readout", { ...at, weight: num(trace.weights[i][j]) });
}

/**
 * The heat scale under a weights table: the colours from 0 to 1, and the range this table's
 * weights span (lowest – highest), as a labelled figure.
 * @param {number[][]} weights
 * @param {Record<string, string> | null} words
 */
export function heatKey(weights, words) {
  const shown = weights.flat().filter(Number.isFinite);
  const low = shown.length ? num(Math.min(...shown)) : "";
  const high = shown.length ? num(Math.max(...shown)) : "";
  const bar = h("span", { class: "heat-bar", "aria-hidden": "true" });
  bar.style.background = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map((w) => heat(w)).join(", ")})`;
  const label = say(words, "table.legend", { low, high });
  return h("div", { class: "heat-key", role: "figure", "aria-label": label }, [
    h("span", { class: "heat-name", "aria-hidden": "true" }, [say(words, "canvas.heat_legend")]),
    h("span", { class: "heat-end", "aria-hidden": "true" }, ["0"]),
    bar,
    h("span", { class: "heat-end", "aria-hidden": "true" }, ["1"]),
    h("span", { class: "heat-range", "aria-hidden": "true" }, [say(words, "table.legend_range", { low, high })]),
  ]);
}
