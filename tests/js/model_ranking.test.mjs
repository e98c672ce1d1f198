// model_ranking.js: every head ranked by a diagnostic, NaN last, ties in layer-head order.
import assert from "node:assert/strict";
import { test } from "node:test";

import { rankedHeads } from "../../src/attnlab/static/model_ranking.js";
import { statRange } from "../../src/attnlab/static/model_grid.js";

const stats = {
  entropy_bits: [[1, 2], [3, 0.5]],
  first: [[0.9, 0.1], [0.5, 0.5]],
  previous: [["nan", 0.2], [0.7, 0.1]],
  itself: [[0, 0], [0, 0]],
  top1: [[0.9, 0.3], [0.6, 0.7]],
};

test("sorted by a column, either way; NaN last; ties keep order", () => {
  const down = rankedHeads(stats, { key: "first", descending: true });
  assert.deepEqual(down.map((r) => [r.layer, r.head]), [[0, 0], [1, 0], [1, 1], [0, 1]]);
  const up = rankedHeads(stats, { key: "previous", descending: false });
  assert.deepEqual(up.map((r) => [r.layer, r.head]), [[1, 1], [0, 1], [1, 0], [0, 0]]);
  assert.ok(Number.isNaN(up[3].previous));
  const kv = rankedHeads(stats, { key: "layer", descending: false, kvOf: (hd) => Math.floor(hd / 2) });
  assert.deepEqual(kv.map((r) => r.kv), [0, 0, 0, 0]);
});

test("the grid's colour range skips NaN", () => {
  assert.deepEqual(statRange(stats.previous), [0.1, 0.7]);
});
