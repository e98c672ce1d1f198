// lab_cheaper_layout.js: the online softmax's canvas as shapes, from /api/cheaper's answer
// (tests/js/cheaper.json, written from the encoder for by the river bank, tiles of 2).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { cheaperShapes } from "../../src/attnlab/static/lab_cheaper_layout.js";

const answer = JSON.parse(readFileSync(new URL("./cheaper.json", import.meta.url), "utf8"));
const more = JSON.parse(readFileSync(new URL("./cheaper_more.json", import.meta.url), "utf8"));
const SIZE = { width: 420, height: 190 };
const bars = (shapes) => shapes.filter((s) => s.type === "bar");

test("the first tile draws its two keys and leaves the rest unread", () => {
  const shapes = cheaperShapes(answer.online, answer.tokens, 0, SIZE);
  assert.deepEqual(bars(shapes).map((b) => b.key), [0, 1]);
  assert.equal(shapes.filter((s) => s.type === "empty").length, 2);
  assert.equal(shapes[0].text, answer.online.steps[0].caption);
  // by's score 0.46 is the running maximum: its bar is exp(0) = 1, the full height
  const [by, the] = bars(shapes);
  const top = shapes.find((s) => s.type === "frame").y + 6; // the tile's frame rises 6 px over it
  assert.ok(Math.abs(by.h - (SIZE.height - 28 - top)) < 1e-9 && the.h < by.h);
});

test("the second tile rescales: river is the maximum now, by's bar shrinks by exp(0.46 − 2.3)", () => {
  const first = bars(cheaperShapes(answer.online, answer.tokens, 0, SIZE));
  const second = bars(cheaperShapes(answer.online, answer.tokens, 1, SIZE));
  assert.equal(second.length, 4);
  assert.ok(Math.abs(second[0].h / first[0].h - answer.online.steps[1].rescale) < 1e-9);
  assert.ok(Math.abs(second[2].h - first[0].h) < 1e-9); // river at exp(0) = 1
});

test("the end draws the weights with the Softmax step's outlined over them", () => {
  const shapes = cheaperShapes(answer.online, answer.tokens, 2, SIZE);
  const outlines = shapes.filter((s) => s.type === "outline");
  assert.equal(outlines.length, 4);
  bars(shapes).forEach((b, j) => assert.ok(Math.abs(b.h - outlines[j].h) < 1e-9));
  assert.equal(shapes[0].text, answer.online.end_caption);
});

// Issue 26c E: over queries the end caption is longer than the canvas; causal at by, by's one
// weight is 1 and its bar full height, its "1" label just under the caption.
const captions = (shapes) => shapes.filter((s) => s.type === "text" && s.bold);
const measure = (s) => s.length * 7.6;

test("over queries the end caption wraps inside the canvas and keeps every word", () => {
  const a = more.axis;
  assert.ok(measure(a.online.end_caption) > SIZE.width - 32); // it would run off one line
  const lines = captions(cheaperShapes(a.online, a.tokens, a.online.steps.length, { ...SIZE, measure }));
  assert.ok(lines.length > 1);
  lines.forEach((l) => assert.ok(l.x + measure(l.text) <= SIZE.width - 16, l.text));
  assert.equal(lines.map((l) => l.text).join(" "), a.online.end_caption);
});

test("a full-height bar's label sits below the caption's last line, under every caption", () => {
  for (const a of [more.causal_focus0, more.axis, answer]) {
    const shapes = cheaperShapes(a.online, a.tokens, a.online.steps.length, { ...SIZE, measure });
    const last = Math.max(...captions(shapes).map((l) => l.y));
    const labels = shapes.filter((s) => s.type === "text" && !s.bold && s.y < SIZE.height - 10);
    const highest = Math.min(...labels.map((l) => l.y));
    assert.ok(highest - 13 >= last + 3, `label at ${highest}, caption at ${last}`); // 13 px text
  }
  const one = more.causal_focus0;
  assert.equal(one.online.weights[0], 1); // the full-height bar this is about
});
