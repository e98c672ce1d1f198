// The head view's layout: every line's opacity is its weight, isolation keeps one token's
// lines, several heads overlay in their colours, means come from the data as sent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HEAD_COLORS, MEAN_COLOR, headViewLayout, seriesOf, strongest } from "../../src/attnlab/static/head_view_layout.js";

const data = {
  heads: [
    [[0.7, 0.2, 0.1], [0.001, 0.5, 0.499], [0.3, 0.3, 0.4]],
    [[0.1, 0.1, 0.8], [0.6, 0.2, 0.2], [0.5, 0.25, 0.25]],
  ],
  mean_heads: [[0.4, 0.15, 0.45], [0.3, 0.35, 0.35], [0.4, 0.275, 0.325]],
  mean_layers: [[0.34, 0.33, 0.33], [0.33, 0.34, 0.33], [0.33, 0.33, 0.34]],
};

test("one line per weight above the threshold, its opacity the weight, from row i to key j", () => {
  const series = seriesOf(data, { show: "heads", heads: [0] });
  const out = headViewLayout(3, series, { width: 200, row: 20 });
  assert.equal(out.height, 60);
  assert.equal(out.lines.length, 8); // 0.001 is under 0.005
  for (const l of out.lines) {
    assert.equal(l.opacity, data.heads[0][l.i][l.j]);
    assert.equal(l.weight, l.opacity);
    assert.deepEqual([l.x1, l.y1, l.x2, l.y2], [0, 20 * (l.i + 0.5), 200, 20 * (l.j + 0.5)]);
    assert.equal(l.color, HEAD_COLORS[0]);
  }
  assert.ok(!out.lines.some((l) => l.i === 1 && l.j === 0));
});

test("isolating a query keeps its row, a key its column", () => {
  const series = seriesOf(data, { show: "heads", heads: [0, 1] });
  const q = headViewLayout(3, series, { width: 100, isolate: { side: "query", index: 2 } });
  assert.ok(q.lines.length === 6 && q.lines.every((l) => l.i === 2));
  const k = headViewLayout(3, series, { width: 100, isolate: { side: "key", index: 0 } });
  assert.ok(k.lines.every((l) => l.j === 0));
  assert.deepEqual(k.lines.map((l) => [l.series, l.i, l.opacity]), [
    ["head 0", 0, 0.7], ["head 0", 2, 0.3], ["head 1", 0, 0.1], ["head 1", 1, 0.6], ["head 1", 2, 0.5],
  ]);
});

test("several heads overlay in their own colours; a mean is one dark series", () => {
  const two = seriesOf(data, { show: "heads", heads: [1, 0, 1] });
  assert.deepEqual(two.map((s) => [s.key, s.color]), [["head 0", HEAD_COLORS[0]], ["head 1", HEAD_COLORS[1]]]);
  const mean = seriesOf(data, { show: "mean_layers", heads: [0] });
  assert.equal(mean.length, 1);
  assert.equal(mean[0].color, MEAN_COLOR);
  assert.equal(mean[0].weights, data.mean_layers);
  assert.deepEqual(seriesOf(data, { show: "heads", heads: [] }), []);
});

test("a token's readout lists its strongest weights, largest first", () => {
  const series = seriesOf(data, { show: "heads", heads: [0] });
  assert.deepEqual(strongest(series, "query", 0, 2), [{ series: "head 0", top: [{ k: 0, w: 0.7 }, { k: 1, w: 0.2 }] }]);
  assert.deepEqual(strongest(series, "key", 2, 1)[0].top, [{ k: 1, w: 0.499 }]);
});
