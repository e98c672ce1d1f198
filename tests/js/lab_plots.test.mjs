// plots.js: the lab's plot geometry (scales, ticks, labels), checked without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  arcPath, bytes, dialArrow, extent, fromLogFraction, linearTicks, logFraction, logTicks, plot, scale, seconds, tickLabel,
} from "../../src/attnlab/static/plots.js";

const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} is not ${b}`);

test("a log scale maps each decade to the same width", () => {
  const s = scale([0.1, 10], [0, 200], { log: true });
  close(s(0.1), 0);
  close(s(1), 100);
  close(s(10), 200);
  close(s(2), 100 + 100 * Math.log10(2));
  assert.throws(() => scale([0, 10], [0, 1], { log: true }), RangeError);
});

test("a linear scale can run upwards (SVG's y grows down)", () => {
  const s = scale([0, 2], [100, 0]);
  close(s(0), 100);
  close(s(1), 50);
  close(s(2), 0);
});

test("log ticks: 1, 2, 5 per decade on a short axis, powers of ten on a long one", () => {
  assert.deepEqual(logTicks(0.1, 10), [0.1, 0.2, 0.5, 1, 2, 5, 10]);
  assert.deepEqual(logTicks(4, 2048), [10, 100, 1000]);
  assert.deepEqual(logTicks(3, 30), [5, 10, 20]);
  const long = logTicks(1e-6, 1e-1);
  assert.deepEqual(long, [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]);
  for (const [lo, hi] of [[0.1, 10], [4, 2048], [1e-6, 0.03], [2000, 5e7], [3, 4]]) {
    const ticks = logTicks(lo, hi);
    assert.ok(ticks.length >= 2, `${lo}..${hi}: at least two ticks`);
    assert.ok(ticks.every((t) => t >= lo * 0.999 && t <= hi * 1.001), `${lo}..${hi}: ticks inside`);
    assert.ok(ticks.length <= 8, `${lo}..${hi}: ${ticks.length} ticks is too many`);
    assert.deepEqual(ticks, [...ticks].sort((a, b) => a - b));
  }
});

test("linear ticks fall at 1, 2, 2.5 or 5 times a power of ten", () => {
  assert.deepEqual(linearTicks(0, 1), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(linearTicks(0, 2), [0, 0.5, 1, 1.5, 2]);
  assert.deepEqual(linearTicks(0, 1, 6), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(linearTicks(0, 0.45), [0, 0.2, 0.4]);
  assert.deepEqual(linearTicks(0, 0.45, 6), [0, 0.1, 0.2, 0.3, 0.4]);
  assert.deepEqual(linearTicks(3, 3), [3]);
});

test("tick labels are short and exact", () => {
  assert.equal(tickLabel(0.1), "0.1");
  assert.equal(tickLabel(2), "2");
  assert.equal(tickLabel(10), "10");
  assert.equal(tickLabel(1000), "1k");
  assert.equal(tickLabel(2048), "2.05k");
  assert.equal(tickLabel(5e6), "5M");
  assert.equal(tickLabel(1e-5), "1e-5");
  assert.equal(tickLabel(0), "0");
  assert.equal(tickLabel(0.5), "0.5");
});

test("seconds and bytes read in the unit that fits", () => {
  assert.equal(seconds(7.7e-6), "7.7 µs");
  assert.equal(seconds(0.0017), "1.7 ms");
  assert.equal(seconds(0.93), "930 ms");
  assert.equal(seconds(2.5), "2.5 s");
  assert.equal(bytes(2024), "2.02 kB");
  assert.equal(bytes(50382504), "50.4 MB");
  assert.equal(bytes(12), "12 B");
});

test("extent ignores non-finite values, and log ranges ignore non-positive ones", () => {
  assert.deepEqual(extent([1, NaN, 3, Infinity]), [1, 3]);
  assert.deepEqual(extent([0, 1e-3, 2], { log: true }), [1e-3, 2]);
  assert.deepEqual(extent([0.3, 0.9], { zero: true }), [0, 0.9]);
  assert.deepEqual(extent([]), [0, 1]);
  assert.deepEqual(extent([2, 2], { log: true }), [1, 4]);
});

test("the slider's log position round-trips, and √dₖ = 2 sits past the middle", () => {
  close(logFraction(1, 0.1, 10), 0.5);
  close(logFraction(2, 0.1, 10), 0.5 + Math.log10(2) / 2);
  assert.equal(fromLogFraction(0.5, 0.1, 10), 1);
  assert.equal(fromLogFraction(logFraction(2, 0.1, 10), 0.1, 10), 2);
  assert.equal(fromLogFraction(0, 0.1, 10), 0.1);
  assert.equal(fromLogFraction(1.5, 0.1, 10), 10, "clamped");
});

test("a plot lays out inside its box with labelled axes that state their ranges", () => {
  const size = { width: 300, height: 180 };
  const out = plot(
    {
      x: { domain: [0.1, 10], log: true, label: "temperature T" },
      y: { domain: [0, 1], label: "weight" },
      series: [
        { name: "river", points: [[0.1, 1], [1, 0.9], [10, 0.3]], color: "#000" },
        { name: "gap", points: [[0.1, NaN], [1, 0.2]], color: "#111" },
      ],
      marks: [{ x: 2, label: "√dₖ" }, { x: 50, label: "off the axis" }],
    },
    size,
  );
  assert.equal(out.xLabel.text, "temperature T (0.1 to 10, log scale)");
  assert.equal(out.yLabel.text, "weight (0 to 1)");
  assert.deepEqual(out.xTicks.map((t) => t.text), ["0.1", "0.2", "0.5", "1", "2", "5", "10"]);
  assert.ok(out.yTicks.length >= 3);
  for (const t of out.xTicks) assert.ok(t.x >= out.frame.left - 0.5 && t.x <= out.frame.right + 0.5);
  for (const t of out.yTicks) assert.ok(t.y >= out.frame.top - 0.5 && t.y <= out.frame.bottom + 0.5);
  assert.ok(out.frame.left > 0 && out.frame.right <= size.width && out.frame.bottom <= size.height);
  assert.match(out.paths[0].d, /^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/);
  assert.match(out.paths[1].d, /^M[\d.]+,[\d.]+$/, "the NaN point is left out");
  assert.equal(out.marks.length, 1, "a mark outside the axis is dropped");
  close(out.marks[0].x, scale([0.1, 10], [out.frame.left, out.frame.right], { log: true })(2));
});

test("a log-log plot of a quadratic is a straight line of slope 2", () => {
  const pts = [4, 16, 64, 256, 1024].map((n) => [n, 3e-9 * n * n]);
  const out = plot(
    { x: { domain: [4, 1024], log: true, label: "n" }, y: { domain: extent(pts.map((p) => p[1]), { log: true }), log: true, label: "time", format: seconds }, series: [{ name: "n²", points: pts, color: "#000" }] },
    { width: 400, height: 300 },
  );
  const xy = out.paths[0].d.split(" ").map((s) => s.slice(1).split(",").map(Number));
  const slopes = xy.slice(1).map(([x, y], k) => (y - xy[k][1]) / (x - xy[k][0]));
  for (const s of slopes) close(s, slopes[0], 0.05);
  assert.match(out.yLabel.text, /^time \(.+ to .+, log scale\)$/);
});

test("a dial arrow reaches the rim at `scale` and points up for a positive y", () => {
  const a = dialArrow([3, 4], { cx: 50, cy: 50, r: 40, scale: 5 });
  assert.deepEqual([a.x1, a.y1], [50, 50]);
  close(a.x2, 50 + 24);
  close(a.y2, 50 - 32);
  close(Math.hypot(a.x2 - 50, a.y2 - 50), 40);
  const zero = dialArrow([0, 0], { cx: 0, cy: 0, r: 10, scale: 0 });
  assert.deepEqual([zero.x2, zero.y2], [0, 0]);
});

test("an arc turns counter-clockwise from a0 to a1 on screen", () => {
  assert.equal(arcPath(0, 0, 10, 0, Math.PI / 2), "M10.00,0.00 A10,10 0 0 0 0.00,-10.00");
  assert.equal(arcPath(0, 0, 10, 0, 1.5 * Math.PI), "M10.00,0.00 A10,10 0 1 0 -0.00,10.00");
  assert.match(arcPath(0, 0, 10, 1, 0), / 0 0 1 /);
});
