// The Train view's geometry (static/train_layout.js), without a browser.
import assert from "node:assert/strict";
import test from "node:test";

import { heat } from "../../src/attnlab/static/colors.js";
import { curveShapes, mapShapes, yRange } from "../../src/attnlab/static/train_layout.js";

test("a curve spans the run's steps: step 0 at the frame's left, the last step at its right", () => {
  const series = [{ key: "scaled.loss", color: "#000", steps: [0, 5, 10], values: [1, 0.5, 0.25] }];
  const s = curveShapes(series, { steps: 10, width: 300, height: 100 });
  const [first, , last] = s.lines[0].points;
  assert.equal(first[0], s.frame.x);
  assert.equal(last[0], s.frame.x + s.frame.width);
  assert.ok(last[1] > first[1]); // the loss falls, so the line goes down the page (y grows)
  assert.ok(last[1] < s.frame.y + s.frame.height && first[1] > s.frame.y);
});

test("a half-grown run stops halfway across", () => {
  const series = [{ key: "k", color: "#000", steps: [0, 1, 2], values: [3, 2, 1] }];
  const s = curveShapes(series, { steps: 4, width: 252, height: 100 });
  assert.equal(s.lines[0].points.at(-1)[0], s.frame.x + s.frame.width / 2);
});

test("the y range covers every finite value and skips non-finite ones", () => {
  const [lo, hi] = yRange([{ values: [0.2, NaN, 0.8] }, { values: [Infinity, 0.5] }]);
  assert.ok(lo < 0.2 && hi > 0.8 && hi < 1);
  assert.deepEqual(yRange([{ values: [] }]), [0, 1]);
  const [a, b] = yRange([{ values: [2, 2] }]);
  assert.ok(a < 2 && b > 2); // a flat curve still has a range to sit in
  assert.equal(yRange([{ values: [0, 0] }])[0], 0); // a gradient norm of 0 sits on the frame, not below 0
  assert.ok(yRange([{ values: [-1, 1] }])[0] < -1);
});

test("a map has a cell per weight, coloured by it, and writes weights only in large cells", () => {
  const w = [[0.25, 0.75], [1, 0]];
  const small = mapShapes(w, ["a", "b"], { width: 240, height: 240, row: 1 });
  assert.equal(small.cells.length, 4);
  assert.equal(small.cells[1].fill, heat(0.75));
  assert.equal(small.cells[1].text, "0.75");
  assert.equal(small.outline.y, small.cells[2].y); // row 1 outlined
  const n = 20;
  const big = Array.from({ length: n }, () => Array(n).fill(1 / n));
  const many = mapShapes(big, Array.from({ length: n }, (_, i) => String(i)), { width: 240, height: 240 });
  assert.equal(many.cells.length, n * n);
  assert.ok(many.cells.every((c) => c.text === null) && many.labels.length === 0 && many.outline === null);
});

test("g2 writes numbers as Python's :.2g does (the words' g2)", async () => {
  const { g2 } = await import("../../src/attnlab/static/format.js");
  const cases = [[8.047e-5, "8e-05"], [2.0278e-106, "2e-106"], [0.8783, "0.88"], [19.22, "19"], [5.99, "6"], [0.10315, "0.1"], [99.6, "1e+02"], [0.0049146, "0.0049"], [0, "0"], [123, "1.2e+02"]];
  for (const [x, want] of cases) assert.equal(g2(x), want, String(x));
});

test("a log panel spans the powers of ten a gradient norm crosses, and its labels say them", () => {
  // issue 25: on a linear axis a median of 2e-106 and a spike of 19 drew as 0 and a spike
  const series = [{ key: "unscaled.grad_norm", color: "#000", steps: [0, 1, 2], values: [6, 2e-106, 19] }];
  const s = curveShapes(series, { steps: 2, width: 300, height: 100, log: true });
  const [a, b, c] = s.lines[0].points.map(([, y]) => y);
  assert.ok(b > a && b > c); // the tiny one is far down, not on top of 0 with the others
  assert.ok(b - c > 0.8 * s.frame.height); // it spans most of the frame
  assert.match(s.labels[1].text, /e-1\d\d$/);
  const zero = curveShapes([{ key: "k", color: "#000", steps: [0, 1], values: [0, 1] }], { steps: 1, width: 300, height: 100, log: true });
  assert.equal(zero.lines[0].points.length, 1); // log of 0 is left out, not drawn at -∞
});

test("a weight's axis stops at 1, and the scrubbed step is marked", () => {
  const series = [{ key: "scaled.weight_river", color: "#000", steps: [0, 5, 10], values: [0.25, 0.9, 1] }];
  const s = curveShapes(series, { steps: 10, width: 300, height: 100, top: 1, mark: 5 });
  assert.equal(s.labels[0].text, "1");
  assert.equal(s.mark.x, s.lines[0].points[1][0]);
  assert.equal(curveShapes(series, { steps: 10, width: 300, height: 100 }).mark, null);
});
