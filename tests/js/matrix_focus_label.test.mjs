// The pooled matrix's followed row is labelled with the followed token itself, not with the
// first token of the block of rows its cell pools (issue 23: " all" #1936 read "ensing").
import assert from "node:assert/strict";
import test from "node:test";

import { matrixLayout } from "../../src/attnlab/static/matrix_picture.js";

const N = 1937;
const FACTOR = 4; // 4 rows per cell, as /api/model/matrix pools 1,937 tokens
const all = Array.from({ length: N }, (_, i) => `tok${i}`);
all[1932] = "ensing";
all[1935] = " all";
const edges = Array.from({ length: Math.ceil(N / FACTOR) }, (_, k) => k * FACTOR);
const m = { cells: edges.length, edges, kept: all.map((_, i) => i), pooled: true, shown: N };
const words = { "model.window_token": "{token} #{position}" };

test("the followed row's violet label names the followed token, its position with it", async () => {
  const { focusLabel, cellOf } = await import("../../src/attnlab/static/model_matrix.js");
  const trace = { window: { focus: 1935, all_tokens: all } };
  const focus = cellOf(edges, 1935);
  assert.equal(all[edges[focus]], "ensing"); // the cell's first token is another one
  const label = focusLabel(m, trace, words);
  assert.equal(label, " all #1935");
  const laid = matrixLayout({ cells: m.cells, tokens: edges.map((p) => all[p]), width: 1280, focus, focusLabel: label });
  const violet = laid.shapes.filter((s) => s.role === "row-label" && s.weight === "700");
  assert.deepEqual(violet.map((s) => s.text), [" all #1935"]);
  assert.ok(!laid.shapes.some((s) => s.role === "row-label" && s.weight === "700" && s.text === "ensing"));
});

test("an exact matrix labels the followed row with the token alone", async () => {
  const { focusLabel } = await import("../../src/attnlab/static/model_matrix.js");
  const small = { cells: 3, edges: [0, 1, 2], kept: [0, 1, 2], pooled: false, shown: 3 };
  assert.equal(focusLabel(small, { window: { focus: 1, all_tokens: ["a", "\n", "c"] } }, words), JSON.stringify("\n"));
  assert.equal(focusLabel(small, { window: { focus: null, all_tokens: ["a", "b", "c"] } }, words), null);
});
