// The masking plots' layout: the y axis ends at a round number above the largest distance,
// every point sits at its value, and each series is in the legend.
import assert from "node:assert/strict";
import { test } from "node:test";
import { distancePlot, distanceText, niceTop } from "../../src/attnlab/static/mask_layout.js";

test("niceTop rounds up to 1, 2 or 5 times a power of ten", () => {
  assert.deepEqual([0, 0.004, 0.013, 0.05, 0.11, 0.7, 1, 6.2].map(niceTop), [0.01, 0.01, 0.02, 0.05, 0.2, 1, 1, 10]);
});

test("points sit at their value on an axis from 0 to the round top", () => {
  const size = { width: 400, height: 240 };
  const out = distancePlot([{ values: [0, 0.05, 0.11], color: "#f00", label: "this head" }, { values: [0, 0.02, 0.03], color: "#00f", label: "mean" }], ["0", "1", "2"], size, { xTitle: "layer", yTitle: "tv" });
  assert.equal(out.top, 0.2);
  const y0 = 240 - 62;
  const span = 240 - 34 - 62;
  for (const p of out.points) assert.ok(Math.abs(p.y - (y0 - (p.value / 0.2) * span)) < 1e-9);
  assert.deepEqual(out.shapes.filter((s) => s.role === "legend").map((s) => s.text), ["this head", "mean"]);
  assert.deepEqual(out.shapes.filter((s) => s.role === "y-tick").map((s) => s.text), ["0", "0.1", "0.2"]);
  assert.deepEqual(out.shapes.filter((s) => s.role === "x-title").map((s) => s.text), ["layer"]);
});

test("a distance reads 0 only when it is 0 (bug: 0.00016 read 0 under '0 means nothing moved')", () => {
  // the same table as tests/words/test_model_views.py checks of words.model_views.distance
  const xs = [0, 0.00015897, 0.0046043, 0.12, 0.5, 0.93, 19.669, 1e-5, 0.0178];
  assert.deepEqual(xs.map(distanceText), ["0", "0.00016", "0.0046", "0.12", "0.5", "0.93", "19.67", "<0.0001", "0.018"]);
});
