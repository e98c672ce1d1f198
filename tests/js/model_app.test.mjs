// model_app.js's URL state: the Real model view's keys live beside the lesson's without
// disturbing them, and a hand-edited URL falls back to the defaults instead of failing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { readFileSync } from "node:fs";

import { readModelURL, writeModelURL } from "../../src/attnlab/static/model_app.js";

// the beats as /api/presets sends them (page.json: scripts/make_js_fixtures.py)
const BEATS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).choices.beats;

const LESSON = "?sentence=at+the+savings+bank&mode=unscaled&focus=3&beat=blend";

test("the defaults: the lesson's view, the river bank, layer 0 head 0, step 1", () => {
  assert.deepEqual(readModelURL(""), {
    view: "lesson", name: "minilm", text: "by the river bank", layer: 0, head: 0, focus: null, beat: 0,
    word: "bank", a: "by the river bank", b: "at the savings bank",
  });
});

test("a state written to the URL reads back the same, and the lesson's keys are kept", () => {
  const state = {
    view: "model", name: "minilm", text: "the cat sat on the mat", layer: 4, head: 9, focus: 2, beat: 2,
    word: "cat", a: "the cat sat", b: "a cat ran",
  };
  const url = writeModelURL(LESSON, state, BEATS);
  const q = new URLSearchParams(url);
  for (const [k, v] of new URLSearchParams(LESSON)) assert.equal(q.get(k), v, k);
  assert.equal(q.get("model.beat"), "score");
  assert.equal(q.get("model.name"), null, "the default model is left out");
  assert.deepEqual(readModelURL(url, BEATS), state);
});

test("switching back to the lesson drops the view's keys and nothing else", () => {
  const url = writeModelURL(LESSON, { ...readModelURL(""), view: "model" });
  assert.equal(writeModelURL(url, { view: "lesson" }), LESSON);
});

test("unreadable values fall back to the defaults", () => {
  const s = readModelURL("?view=elsewhere&model.layer=two&model.head=-1&model.beat=dance&model.focus=bank", BEATS);
  assert.equal(s.view, "lesson");
  assert.equal(s.layer, 0);
  assert.equal(s.head, 0);
  assert.equal(s.beat, 0);
  assert.equal(s.focus, "bank", "a token named in words is the API's to resolve");
});

