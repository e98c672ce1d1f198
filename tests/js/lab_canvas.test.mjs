// The lesson's canvas under the lab's causal mask: masked cells greyed, weight 0, −∞ scores.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { heat } from "../../src/attnlab/static/colors.js";
import { decodeLesson } from "../../src/attnlab/static/format.js";
import { layout } from "../../src/attnlab/static/layout.js";

const LESSONS = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));

/** The river lesson under a causal mask, as /api/lesson answers it (row i sees keys 0..i). */
function causal() {
  const t = decodeLesson(LESSONS.river_causal);
  assert.equal(t.tokens.length, 4);
  assert.deepEqual(t.mask, t.tokens.map((_, i) => t.tokens.map((_, j) => j <= i)));
  return t;
}

const SIZE = { width: 820, height: 540 };
/** The cell's own rect: the last one drawn at its place (the empty frame lies under it). */
const rectAt = (out, c) => out.shapes.findLast((s) => s.kind === "rect" && s.x === c.x && s.y === c.y && s.w === c.w);

test("the parallel beat greys the upper triangle and prints its weight, 0", () => {
  const out = layout(causal(), SIZE, "parallel", 3);
  assert.equal(out.cells.length, 16);
  for (const c of out.cells) {
    const rect = rectAt(out, c);
    if (c.j > c.i) {
      assert.equal(c.text, "0");
      assert.notEqual(rect.fill, heat(0), `cell ${c.i},${c.j} is greyed, not pale heat`);
      assert.deepEqual(rect.dash, [3, 3]);
    } else {
      assert.equal(rect.fill, heat(c.value));
      assert.equal(rect.dash, undefined);
    }
  }
});

test("the score beat writes −∞ in a masked cell, and the softmax beat greys it", () => {
  const t = causal();
  const score = layout(t, SIZE, "score", 0);
  assert.deepEqual(score.cells.slice(1).map((c) => c.text), ["−∞", "−∞", "−∞"]);
  assert.notEqual(score.cells[0].text, "−∞");
  const soft = layout(t, SIZE, "softmax", 0);
  const greyed = soft.cells.filter((c) => rectAt(soft, c).dash);
  assert.deepEqual(greyed.map((c) => c.j), [1, 2, 3]);
});
