// lesson_room.js: the room the lesson's canvas takes and what a click on it picks, without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeLesson } from "../../src/attnlab/static/format.js";
import { layout } from "../../src/attnlab/static/layout.js";
import { PRESENT_MIN, pictureHit, pictureRoom } from "../../src/attnlab/static/lesson_room.js";

const LESSONS = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));
const WORDS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).words;

test("on the page the picture fits under the controls; on a phone it is as tall as the sentence needs", () => {
  assert.deepEqual(pictureRoom({ presenting: false, box: { width: 1000, height: 0 }, windowHeight: 1000, n: 4 }), { width: 1000, height: 720, zoom: 1 });
  assert.deepEqual(pictureRoom({ presenting: false, box: { width: 1000, height: 0 }, windowHeight: 600, n: 4 }), { width: 1000, height: 440, zoom: 1 });
  assert.deepEqual(pictureRoom({ presenting: false, box: { width: 360, height: 0 }, windowHeight: 800, n: 12 }), { width: 360, height: 464, zoom: 1 });
  assert.equal(pictureRoom({ presenting: false, box: { width: 100, height: 0 }, windowHeight: 800, n: 4 }).width, 240);
});

test("presenting, the picture fills its room, and a room smaller than PRESENT_MIN scales the layout down", () => {
  assert.deepEqual(pictureRoom({ presenting: true, box: { width: 960, height: 760 }, windowHeight: 800, n: 4 }), { width: 960, height: 760, zoom: 1 });
  const small = pictureRoom({ presenting: true, box: { width: 240, height: 380 }, windowHeight: 800, n: 4 });
  assert.equal(small.zoom, 240 / PRESENT_MIN.width);
  assert.equal(pictureRoom({ presenting: true, box: { width: 0, height: 300 }, windowHeight: 800, n: 4 }), null);
});

test("a click on a cell of the laid-out picture picks that cell; away from every shape, nothing", () => {
  const trace = decodeLesson(LESSONS.river);
  const out = layout(trace, { width: 820, height: 540 }, 5, trace.focus, WORDS);
  const c = out.cells[out.cells.length - 1];
  assert.deepEqual(pictureHit(out, c.x + c.w / 2, c.y + c.h / 2).cell, [c.i, c.j]);
  assert.deepEqual(pictureHit(out, -100, -100), { cell: null, token: null });
  const label = out.labels.find((l) => l.role === "col" || l.role === "token");
  assert.ok(label, "the picture labels its tokens");
  assert.equal(pictureHit(out, label.x, label.y).token, label.index);
});
