// The head view's layout: the packed answer decoded (each row's strongest keys), every line's
// opacity its weight, isolation keeps one token's lines, several heads overlay in their colours,
// means come from the data as sent, the toy's whole matrices take the same form.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  HEAD_COLORS, MEAN_COLOR, decodeHeads, headViewLayout, matrixHeads, seriesOf, strongest, visibleLines,
} from "../../src/attnlab/static/head_view_layout.js";

const STEP = 1 / 65535;
/** A packed uint16 array as encode/packed.py writes it. */
function packed(values, shape, scale) {
  const codes = Uint16Array.from(values.flat(Infinity), (v) => Math.round(v / scale));
  return { dtype: "uint16", shape, data: Buffer.from(codes.buffer).toString("base64"), scale };
}
const topKeys = (keys, weights, shape, share) => ({ keys: packed(keys, shape, 1), weights: packed(weights, shape, STEP), share });

// 3 tokens, 2 heads, the 2 strongest keys of each row (as /api/model/heads sends a long text)
const answer = {
  tokens: ["a", "b", "c"], layer: 1, n_layers: 2, n_heads: 2, top: 2, floor: 0.5, note: "3 tokens: …",
  heads: topKeys(
    [[[0, 1], [1, 2], [2, 0]], [[2, 0], [0, 1], [0, 2]]],
    [[[0.7, 0.2], [0.5, 0.004], [0.4, 0.3]], [[0.8, 0.1], [0.6, 0.2], [0.5, 0.25]]],
    [2, 3, 2], [0.7, 0.85],
  ),
  mean_heads: topKeys([[2, 0], [1, 2], [0, 2]], [[0.45, 0.4], [0.35, 0.3], [0.45, 0.28]], [3, 2], [0.74]),
  mean_layers: null,
}; // prettier-ignore
const data = decodeHeads(answer);

test("the packed answer decodes to each head's rows: keys exact, weights within half a step", () => {
  assert.equal(data.heads.length, 2);
  assert.deepEqual([...data.heads[1].keys], [2, 0, 0, 1, 0, 2]);
  assert.ok(Math.abs(data.heads[0].weights[0] - 0.7) <= STEP / 2 + 1e-7);
  assert.deepEqual([data.heads[0].top, data.heads[1].share, data.mean_heads.share], [2, 0.85, 0.74]);
  assert.equal(data.mean_layers, null); // a long text: the answer sent no mean over layers
  assert.equal(data.note, "3 tokens: …");
});

test("one line per kept weight above the threshold, its opacity the weight, from row i to key j", () => {
  const out = headViewLayout(3, seriesOf(data, { show: "heads", heads: [0] }), { width: 200, row: 20 });
  assert.equal(out.height, 60);
  const w = data.heads[0].weights; // [0.7, 0.2, 0.5, 0.004, 0.4, 0.3] as decoded
  assert.deepEqual(out.lines.map((l) => [l.i, l.j, l.opacity]), [[0, 0, w[0]], [0, 1, w[1]], [1, 1, w[2]], [2, 2, w[4]], [2, 0, w[5]]]); // 0.004 is under 0.005
  for (const l of out.lines) {
    assert.deepEqual([l.x1, l.y1, l.x2, l.y2], [0, 20 * (l.i + 0.5), 200, 20 * (l.j + 0.5)]);
    assert.equal(l.color, HEAD_COLORS[0]);
  }
});

test("isolating a query keeps its row, a key its column", () => {
  const series = seriesOf(data, { show: "heads", heads: [0, 1] });
  const q = headViewLayout(3, series, { width: 100, isolate: { side: "query", index: 2 } });
  assert.ok(q.lines.length === 4 && q.lines.every((l) => l.i === 2));
  const k = headViewLayout(3, series, { width: 100, isolate: { side: "key", index: 0 } });
  assert.deepEqual(k.lines.map((l) => [l.series, l.i, Math.round(l.opacity * 100)]), [
    ["head 0", 0, 70], ["head 0", 2, 30], ["head 1", 0, 10], ["head 1", 1, 60], ["head 1", 2, 50],
  ]);
});

test("several heads overlay in their own colours; a mean is one dark series, a missing one none", () => {
  const two = seriesOf(data, { show: "heads", heads: [1, 0, 1] });
  assert.deepEqual(two.map((s) => [s.key, s.color]), [["head 0", HEAD_COLORS[0]], ["head 1", HEAD_COLORS[1]]]);
  const mean = seriesOf(data, { show: "mean_heads", heads: [0] });
  assert.equal(mean.length, 1);
  assert.equal(mean[0].color, MEAN_COLOR);
  assert.equal(mean[0].rows, data.mean_heads);
  assert.deepEqual(seriesOf(data, { show: "mean_layers", heads: [0] }), []);
  assert.deepEqual(seriesOf(data, { show: "heads", heads: [] }), []);
});

test("a token's readout lists its strongest weights drawn, largest first", () => {
  const series = seriesOf(data, { show: "heads", heads: [1] });
  const q = strongest(series, "query", 0, 1)[0];
  assert.deepEqual([q.series, q.top.map((t) => t.k)], ["head 1", [2]]);
  const k = strongest(series, "key", 0, 3)[0].top; // the rows that kept key 0: 1 (0.6), 2 (0.5), 0 (0.1)
  assert.deepEqual(k.map((t) => t.k), [1, 2, 0]);
});

test("the toy's whole matrices take the same form: every key, strongest first, ties by key", () => {
  const toy = matrixHeads({ tokens: ["x", "y"], matrices: [[[0.25, 0.75], [0.5, 0.5]]] });
  assert.deepEqual([toy.top, toy.floor, toy.mean_heads, toy.mean_layers], [2, 0, null, null]);
  assert.deepEqual([...toy.heads[0].keys], [1, 0, 0, 1]);
  assert.deepEqual([...toy.heads[0].weights], [0.75, 0.25, 0.5, 0.5]);
  const out = headViewLayout(2, seriesOf(toy, { show: "heads", heads: [0] }), { width: 10 });
  assert.equal(out.lines.length, 4);
});

test("a window of rows draws the lines that cross it, whichever end lies in it", () => {
  const lines = [{ y1: 10, y2: 500 }, { y1: 500, y2: 10 }, { y1: 10, y2: 20 }, { y1: 300, y2: 310 }, { y1: 0, y2: 1000 }];
  assert.deepEqual(visibleLines(lines, 100, 150), [lines[0], lines[1], lines[4]]);
  assert.deepEqual(visibleLines(lines, 0, 1000), lines);
});
