// format.js writes numbers exactly as src/attnlab/numfmt.py does, and reads the JSON trace.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeArray, decodeLesson, decodeNumber, num, percent, vec } from "../../src/attnlab/static/format.js";

const CASES = JSON.parse(readFileSync(new URL("./numfmt_cases.json", import.meta.url), "utf8"));

test("num matches Python's numfmt.num on every shared case", () => {
  for (const { x, places, text } of CASES.num) assert.equal(num(x, places), text, `num(${x}, ${places})`);
});

test("percent matches Python's numfmt.percent", () => {
  for (const { w, text } of CASES.percent) assert.equal(percent(w), text, `percent(${w})`);
});

test("the seed's numbers are written as the seed writes them", () => {
  assert.equal(num(0.45999999999999996), "0.46");
  assert.equal(num(2.0), "2");
  assert.equal(num(2.3), "2.3");
  assert.equal(num(0), "0");
  assert.equal(vec([2.3, 2.3, 0, 0]), "[2.3, 2.3, 0, 0]");
  assert.equal(percent(0.6854179264009832), "69%");
});

test("minus zero and tiny negatives are written 0", () => {
  assert.equal(num(-0), "0");
  assert.equal(num(-0.001), "0");
  assert.equal(num(-0.004, 2), "0");
  assert.equal(num(-0.006, 2), "-0.01");
});

test("ties round to even, as Python's format does, not away from zero as toFixed does", () => {
  assert.equal((0.625).toFixed(2), "0.63"); // the trap
  assert.equal(num(0.625), "0.62");
  assert.equal(num(0.375), "0.38");
  assert.equal(num(-0.125), "-0.12");
  assert.equal(num(2.5, 0), "2");
  assert.equal(num(3.5, 0), "4");
});

test("non-finite values are named", () => {
  assert.equal(num(-Infinity), "−∞");
  assert.equal(num(Infinity), "∞");
  assert.equal(num(NaN), "NaN");
});

test("the JSON names of non-finite numbers decode", () => {
  assert.equal(decodeNumber("-inf"), -Infinity);
  assert.equal(decodeNumber("inf"), Infinity);
  assert.ok(Number.isNaN(decodeNumber("nan")));
  assert.equal(decodeNumber(0.5), 0.5);
  assert.deepEqual(decodeArray([[1, "-inf"], ["inf", 0]]), [[1, -Infinity], [Infinity, 0]]);
  assert.throws(() => decodeNumber("Infinity"), TypeError);
  assert.throws(() => decodeNumber(null), TypeError);
});

test("decodeLesson decodes the divisor and every array, and keeps the rest", () => {
  const raw = { tokens: ["a"], divisor: "inf", scores: [["-inf"]], weights: [[1]], embeddings: null, narration: [] };
  const d = decodeLesson(raw);
  assert.equal(d.divisor, Infinity);
  assert.deepEqual(d.scores, [[-Infinity]]);
  assert.equal(d.embeddings, null);
  assert.deepEqual(d.tokens, ["a"]);
  assert.equal(raw.divisor, "inf", "the input is not changed");
});
