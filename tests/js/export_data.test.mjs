// export_data.js writes the CSV the Python exports write: the same columns, every number to 9 significant digits,
// a masked score as -inf; file names follow the state.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeNumber } from "../../src/attnlab/static/format.js";
import { CSV_HEADERS, csvField, csvNumber, fileName, lessonHeads, longCSV, matrixCSV } from "../../src/attnlab/static/export_data.js";

const lessons = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));
const page = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8"));

/** A CSV's rows as arrays of fields (no quoted commas in these tokens). */
const rows = (text) => text.trimEnd().split("\n").map((line) => line.split(","));

test("the matrix has the tokens as headers and the weights to 9 significant digits", () => {
  const river = lessons.river;
  const [head, ...body] = rows(matrixCSV(river));
  assert.deepEqual(head, ["query \\ key", "by", "the", "river", "bank"]);
  assert.deepEqual(body.map((r) => r[0]), ["by", "the", "river", "bank"]);
  body.forEach((r, i) => assert.deepEqual(r.slice(1).map(Number), river.weights[i].map((w) => Number(w.toPrecision(9)))));
  assert.equal(body[3][3], "0.685417926"); // the seed's bank → river, 0.69 on the page
});

test("the long form lists every cell of every head, a masked score as -inf", () => {
  const causal = lessons.river_causal;
  const [head, ...body] = rows(longCSV(lessonHeads(causal)));
  assert.deepEqual(head, CSV_HEADERS);
  const n = causal.tokens.length;
  assert.equal(body.length, causal.heads.length * n * n);
  const masked = body.filter((r) => r[7] === "-inf");
  assert.ok(masked.length > 0, "the causal mask hides the future");
  for (const [layer, h, i, q, j, k, raw, score, w] of body) {
    const t = causal.heads[Number(h)];
    assert.equal(layer, "0");
    assert.equal(q, t.tokens[Number(i)]);
    assert.equal(k, t.tokens[Number(j)]);
    const at = (m) => csvNumber(decodeNumber(m[Number(i)][Number(j)]));
    assert.deepEqual([raw, score, w], [at(t.raw_scores), at(t.scores), at(t.weights)]);
  }
});

test("the headers are words/page_export.py's (the Python CSV's)", () => {
  assert.deepEqual(CSV_HEADERS, page.csv_headers);
});

test("numbers and fields are written as Python's csv module writes them", () => {
  assert.equal(csvNumber(-Infinity), "-inf");
  assert.equal(csvNumber(Infinity), "inf");
  assert.equal(csvNumber(NaN), "nan");
  assert.equal(csvNumber(0.1 + 0.2), "0.3"); // 9 significant digits: no float noise
  assert.equal(csvNumber(0.9199999999999999), "0.92"); // the seed's bank → by, q·k
  assert.equal(csvNumber(0.6854179264009832), "0.685417926");
  assert.equal(Math.fround(Number(csvNumber(Math.fround(0.0016153979)))), Math.fround(0.0016153979)); // float32 reads back
  assert.equal(csvField('say "hi", twice'), '"say ""hi"", twice"');
  assert.equal(csvField("bank"), "bank");
});

test("a file name says the state, in safe characters", () => {
  assert.equal(fileName(["by the river bank", "bank", "scaled", "score"], "png"), "attnlab-by-the-river-bank-bank-scaled-score.png");
  assert.equal(fileName(["[CLS]", null, ""], "svg"), "attnlab-cls.svg");
  assert.equal(fileName([], "csv"), "attnlab-export.csv");
});

/** A packed array as encode/packed.py writes it: little-endian bytes in base64. */
function pack(rows, dtype, scale = null) {
  const flat = rows.flat();
  const typed = dtype === "float32" ? Float32Array.from(flat) : Uint16Array.from(flat);
  return { dtype, shape: [rows.length, rows[0].length], data: Buffer.from(typed.buffer).toString("base64"), scale };
}

test("a real model's packed arrays are written as numbers (the bug: nothing downloaded)", () => {
  const scale = 1 / 65535;
  const codes = [[65535, 0], [30000, 35535]];
  const trace = {
    tokens: ["by", "bank"],
    raw_scores: pack([[1.5, -Infinity], [0.25, 2]], "float32"),
    scores: pack([[0.75, -Infinity], [0.125, 1]], "float32"),
    weights: pack(codes, "uint16", scale),
  };
  const [, ...body] = rows(matrixCSV(trace));
  // code × scale, as encode/packed.py's unpack reads them, to 9 significant digits
  const nine = (x) => Number(x.toPrecision(9));
  assert.deepEqual(body.map((r) => r.slice(1).map(Number)), codes.map((r) => r.map((c) => nine(c * scale))));
  const [, ...long] = rows(longCSV([{ layer: 2, head: 5, trace }]));
  assert.deepEqual(long[1].slice(6), ["-inf", "-inf", "0"]);
  assert.deepEqual(long[2].slice(6).map(Number), [0.25, 0.125, nine(30000 * scale)]);
});

test("a window of a long text keeps its rows' places in the text in the long form (they were renumbered 0..n)", () => {
  const trace = {
    tokens: ["You", "ok", "."],
    raw_scores: [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
    scores: [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
    weights: [[0.1, 0.05, 0.02], [0.2, 0.1, 0.05], [0.3, 0.1, 0.01]],
  };
  const [, ...body] = rows(longCSV([{ layer: 0, head: 0, trace, positions: [0, 1705, 1777] }]));
  assert.deepEqual(body.map((r) => [r[2], r[3], r[4], r[5]]), [
    ["0", "You", "0", "You"], ["0", "You", "1705", "ok"], ["0", "You", "1777", "."],
    ["1705", "ok", "0", "You"], ["1705", "ok", "1705", "ok"], ["1705", "ok", "1777", "."],
    ["1777", ".", "0", "You"], ["1777", ".", "1705", "ok"], ["1777", ".", "1777", "."],
  ]);
  const [, ...plain] = rows(longCSV([{ layer: 0, head: 0, trace }]));
  assert.deepEqual(plain.map((r) => r[2]), ["0", "0", "0", "1", "1", "1", "2", "2", "2"]);
});
