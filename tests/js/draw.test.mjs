// draw.js paints layout's shapes and nothing else: checked against a recording fake context.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { draw, drawMessage } from "../../src/attnlab/static/draw.js";
import { decodeLesson } from "../../src/attnlab/static/format.js";
import { layout } from "../../src/attnlab/static/layout.js";

const river = decodeLesson(JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8")).river);
const SIZE = { width: 820, height: 540, ratio: 2 };

/** A 2D context that records what is written and stroked. */
function recorder() {
  const calls = [];
  const ctx = new Proxy(
    { calls, measureText: (s) => ({ width: s.length * 7 }) },
    {
      get(target, name) {
        if (name in target) return target[name];
        return (...args) => calls.push([name, ...args]);
      },
      set(target, name, value) {
        target[name] = value;
        return true;
      },
    },
  );
  return ctx;
}
const written = (ctx) => ctx.calls.filter(([name]) => name === "fillText").map(([, text]) => text);

test("at t = 1 every text of the beat is written, and the device pixel ratio is applied", () => {
  const shapes = layout(river, SIZE, "blend", 3).shapes;
  const ctx = recorder();
  draw(ctx, shapes, 1, SIZE);
  assert.deepEqual(ctx.calls[0], ["setTransform", 2, 0, 0, 2, 0, 0]);
  const texts = shapes.filter((s) => s.kind === "text" && s.until === undefined).map((s) => s.text);
  assert.deepEqual(written(ctx), texts);
  assert.equal(ctx.globalAlpha, 1);
});

test("at t = 0 only what appears first is painted; the score row fills in over time", () => {
  const shapes = layout(river, SIZE, "score", 3).shapes;
  const counts = [0, 0.3, 0.6, 1].map((t) => {
    const ctx = recorder();
    draw(ctx, shapes, t, SIZE);
    return written(ctx).filter((s) => s.includes(" / ")).length;
  });
  assert.ok(counts[0] < counts[1] && counts[1] < counts[2] && counts[2] <= counts[3], String(counts));
});

test("the softmax row shows the scores first, then only the weights", () => {
  const shapes = layout(river, SIZE, "softmax", 3).shapes;
  const early = recorder();
  draw(early, shapes, 0.05, SIZE);
  assert.ok(written(early).includes("s = 2.3"));
  const done = recorder();
  draw(done, shapes, 1, SIZE);
  assert.ok(!written(done).some((s) => s.startsWith("s = ")));
  assert.ok(written(done).includes("0.69"));
});

test("the ray grows along its arc and gets its arrowhead at the end", () => {
  const shapes = layout(river, SIZE, "blend", 3).shapes.filter((s) => s.kind === "ray");
  const segments = (t) => {
    const ctx = recorder();
    draw(ctx, shapes, t, SIZE);
    return { lines: ctx.calls.filter(([n]) => n === "lineTo").length, fills: ctx.calls.filter(([n]) => n === "fill").length };
  };
  const half = segments(0.17);
  const full = segments(1);
  assert.ok(half.lines > 0 && half.lines < full.lines);
  assert.equal(half.fills, 0);
  assert.equal(full.fills, 1);
});

test("a message fills the canvas instead of leaving it blank", () => {
  const ctx = recorder();
  drawMessage(ctx, "unknown word 'lake': the toy head knows only these words", SIZE);
  assert.ok(ctx.calls.some(([n]) => n === "fillRect"));
  assert.equal(written(ctx).join(" "), "unknown word 'lake': the toy head knows only these words");
});
