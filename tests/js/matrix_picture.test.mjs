// matrix_picture.js: the pixels of a head's matrix, cell by cell as the rules say (a causal
// block left of its row's last query is coloured on its scale, one past it grey).
import assert from "node:assert/strict";
import test from "node:test";

import { MASKED, cellBeforeWindow, cellMasked, matrixPixels, scalePosition } from "../../src/attnlab/static/matrix_picture.js";
import { heat } from "../../src/attnlab/static/colors.js";

const hex = (c) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));

/** The rule itself, one cell at a time: the reference matrixPixels must equal. */
function expected(values, cells, { scale, rowMax, causal, edges, shown, kept, window = null }) {
  const out = [];
  for (let r = 0; r < cells; r++) {
    for (let c = 0; c < cells; c++) {
      const grey = cellMasked(r, c, edges, shown, causal, kept) || cellBeforeWindow(r, c, edges, shown, window, kept);
      const rgb = grey ? hex(MASKED) : hex(heat(Math.round(scalePosition(values[r * cells + c], scale, rowMax[r]) * 255) / 255));
      out.push(...rgb, 255);
    }
  }
  return out;
}

for (const [name, causal, kept] of [["causal", true, null], ["causal with specials hidden", true, [1, 2, 3, 5, 6, 7, 8, 9, 10, 12, 13]], ["encoder", false, null]]) {
  test(`every cell of a pooled ${name} matrix is its scale's colour or grey`, () => {
    const cells = 5;
    const shown = kept ? kept.length : 13;
    const edges = [0, 2, 5, 7, 10].map((x) => Math.min(x, shown - 1));
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const values = Float32Array.from({ length: cells * cells }, () => random() ** 3);
    const rowMax = Float32Array.from({ length: cells }, (_, r) => Math.max(...values.slice(r * cells, (r + 1) * cells)));
    for (const scale of ["linear", "row", "log"]) {
      const opts = { scale, rowMax, causal, edges, shown, kept };
      assert.deepEqual([...matrixPixels(values, cells, opts)], expected(values, cells, opts), scale);
    }
  });
}

test("uint16 codes give the very pixels their weights give, on every scale", () => {
  // packed.js: value = code × step, stored as float32; the picture may read the codes instead
  const cells = 64;
  const step = 1 / 65535;
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const codes = Uint16Array.from({ length: cells * cells }, (_, i) => (i < 70 ? [0, 1, 2, 6, 7, 65534, 65535][i % 7] : Math.floor(65536 * random() ** 6)));
  const values = Float32Array.from(codes, (c) => c * step);
  const rowMax = Float32Array.from({ length: cells }, (_, r) => Math.max(...values.slice(r * cells, (r + 1) * cells)));
  const edges = Array.from({ length: cells }, (_, i) => i);
  for (const scale of ["linear", "row", "log"]) {
    for (const causal of [true, false]) {
      const opts = { scale, rowMax, causal, edges, shown: cells };
      const fromValues = matrixPixels(values, cells, opts);
      const fromCodes = matrixPixels(values, cells, { ...opts, codes, step });
      assert.deepEqual([...fromCodes], [...fromValues], `${scale}, causal ${causal}`);
      assert.deepEqual([...fromCodes], expected(values, cells, opts), `${scale} by the rule`);
    }
  }
});

test("a local layer's cells wholly before the window are grey, those it reaches keep their colour", () => {
  // one token per cell, 10 tokens, a window of 3 keys: query i sees keys i − 2 … i (spec.MaskSpec)
  const cells = 10;
  const edges = Array.from({ length: cells }, (_, i) => i);
  assert.equal(cellBeforeWindow(5, 2, edges, cells, 3), true); // 2 ≤ 5 − 3
  assert.equal(cellBeforeWindow(5, 3, edges, cells, 3), false); // 3 is the window's first key
  assert.equal(cellBeforeWindow(5, 2, edges, cells, null), false); // a global layer
  // pooled blocks: rows 4–5 against keys 0–1: key 1 ≤ row 4 − 3, so no query sees the block
  const pooled = [0, 2, 4, 6, 8];
  assert.equal(cellBeforeWindow(2, 0, pooled, cells, 3), true);
  assert.equal(cellBeforeWindow(2, 1, pooled, cells, 3), false); // key 3 > 4 − 3: row 4 sees it
  const values = Float32Array.from({ length: cells * cells }, (_, k) => ((k * 37) % 100) / 100);
  const rowMax = Float32Array.from({ length: cells }, () => 1);
  for (const [e, n] of [[edges, cells], [pooled, pooled.length]]) {
    const opts = { scale: "linear", rowMax, causal: true, edges: e, shown: cells, kept: null, window: 3 };
    const pixels = matrixPixels(values.slice(0, n * n), n, opts);
    assert.deepEqual([...pixels], expected(values.slice(0, n * n), n, opts));
  }
  const grey = hex(MASKED);
  const full = matrixPixels(values, cells, { scale: "linear", rowMax, causal: true, edges, shown: cells, window: 3 });
  const at = (r, c) => [...full.slice(4 * (r * cells + c), 4 * (r * cells + c) + 3)];
  assert.deepEqual(at(9, 0), grey); // far before the window
  assert.deepEqual(at(9, 6), grey); // 6 ≤ 9 − 3
  assert.notDeepEqual(at(9, 7), grey); // the window's first key
  assert.deepEqual(at(2, 3), grey); // a later key
});
