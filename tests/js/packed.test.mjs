// packed.js: the API's base64 float32 and uint16 arrays decoded to the same numbers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { asNested, decodeModelTrace, nested, unpack } from "../../src/attnlab/static/packed.js";

const b64 = (typed) => Buffer.from(typed.buffer).toString("base64");

test("float32: exact, -Infinity kept, nested by shape", () => {
  const values = new Float32Array([0.5, -Infinity, 1e-7, 3.25, 2, -1]);
  const p = { dtype: "float32", shape: [2, 3], data: b64(values), scale: null };
  assert.deepEqual(Array.from(unpack(p).values), Array.from(values));
  assert.deepEqual(nested(p), [[0.5, -Infinity, Math.fround(1e-7)], [3.25, 2, -1]]);
});

test("uint16: code × scale, within half a step", () => {
  const w = [0, 0.123456, 0.5, 1];
  const codes = new Uint16Array(w.map((x) => Math.round(x * 65535)));
  const back = nested({ dtype: "uint16", shape: [4], data: b64(codes), scale: 1 / 65535 });
  back.forEach((x, i) => assert.ok(Math.abs(x - w[i]) <= 0.5 / 65535 + 1e-7));
});

test("a trace answer's packed arrays become rows; nested lists pass through", () => {
  const keys = { dtype: "float32", shape: [1, 2], data: b64(new Float32Array([1, 2])), scale: null };
  const t = decodeModelTrace({ divisor: "inf", keys, weights: [[1]] });
  assert.deepEqual(t.keys, [[1, 2]]);
  assert.deepEqual(t.weights, [[1]]);
  assert.equal(t.divisor, Infinity);
  assert.equal(asNested(null), null);
});
