// The numbers on screen as files: the weights matrix and the long form as CSV, the trace as JSON,
// and a file name for the state shown. The same columns and number form as the Python exports
// (attnlab.export.tables): 9 significant digits (CSV_DIGITS there), a masked score written -inf,
// so a file saved here and one saved by `attnlab export` read back to the same numbers.
//
// Pure: strings out, no DOM. The traces are the API's JSON as the views hold them: arrays as
// nested lists (a lesson's, -inf and NaN named) or packed (a real model's, packed.js), read here
// to plain numbers in full.

import { decodeArray } from "./format.js";
import { asNested } from "./packed.js";

/** An array of the API's answer as nested plain numbers, whichever way it was sent. */
const numbers = (a) => decodeArray(asNested(a, { exact: true }));

/** The long form's columns (words/page_export.py CSV_HEADERS, written into every CSV). */
export const CSV_HEADERS = ["layer", "head", "query_index", "query_token", "key_index", "key_token", "raw_score", "score", "weight"];
/** The matrix's top-left cell: rows are queries, columns keys. */
export const CORNER = "query \\ key";

/** Significant digits of a CSV number, export/tables.py's CSV_DIGITS (float32 reads back exactly). */
export const CSV_DIGITS = 9;

/** A number as the Python exports write it: 9 significant digits, else inf, -inf or nan. @param {number} x */
export function csvNumber(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return String(Number(x.toPrecision(CSV_DIGITS))); // 0.9199999999999999 -> "0.92"
}

/** One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). @param {string} v */
export function csvField(v) {
  const text = String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRows = (rows) => rows.map((r) => r.map(csvField).join(",")).join("\n") + "\n";

/** One head's weights: a header of key tokens, then a row per query token. @param {Record<string, any>} trace */
export function matrixCSV(trace) {
  const cols = trace.key_tokens ?? trace.tokens;
  const w = numbers(trace.weights);
  return csvRows([[CORNER, ...cols], ...trace.tokens.map((tok, i) => [tok, ...w[i].map(csvNumber)])]);
}

/**
 * Every (layer, head, query, key) of the heads given, one row each. `positions`, when a head
 * holds a window of a long text, are its rows' places in the text (the indices written), so a
 * window's 15 rows keep the numbers 0, 1705, ... 1777 rather than 0..14.
 * @param {{layer: number, head: number, trace: Record<string, any>, positions?: number[] | null}[]} heads
 */
export function longCSV(heads) {
  const rows = [CSV_HEADERS];
  for (const { layer, head, trace, positions = null } of heads) {
    const cols = trace.key_tokens ?? trace.tokens;
    const at = (i) => (positions ? positions[i] : i);
    const [raw, score, w] = [trace.raw_scores, trace.scores, trace.weights].map(numbers);
    trace.tokens.forEach((q, i) => {
      cols.forEach((k, j) => rows.push([layer, head, at(i), q, at(j), k, csvNumber(raw[i][j]), csvNumber(score[i][j]), csvNumber(w[i][j])]));
    });
  }
  return csvRows(rows);
}

/** The heads a lesson answer holds (its lab's heads, layer 0), for longCSV. */
export function lessonHeads(lesson) {
  const heads = lesson.heads?.length ? lesson.heads : [lesson];
  return heads.map((trace, head) => ({ layer: 0, head, trace }));
}

/** A file name for the state shown: attnlab-by-the-river-bank-bank-score.png */
export function fileName(parts, ext) {
  const slug = parts
    .filter((p) => p !== null && p !== undefined && p !== "")
    .map((p) => String(p).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("-")
    .slice(0, 80);
  return `attnlab-${slug || "export"}.${ext}`;
}
