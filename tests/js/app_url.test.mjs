// app.js's URL writer: the lesson writes its own keys and leaves every other view's keys as
// they are (the Real model's model.*, the atlas's atlas.*, and any later view's prefix.*).
import assert from "node:assert/strict";
import { test } from "node:test";

import { readFileSync } from "node:fs";

import { writeURL } from "../../src/attnlab/static/app.js";

const BEATS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).choices.beats;
const LESSON = { sentence: "by the river bank", mode: "scaled", axis: "keys", focus: 3, beat: 2 };

function withLocation(search, fn) {
  const before = globalThis.location;
  globalThis.location = { search };
  try {
    return fn();
  } finally {
    globalThis.location = before;
  }
}

test("the atlas's keys survive the lesson writing the URL (they were dropped)", () => {
  const out = withLocation("?view=atlas&atlas.name=minilm-wordnet&atlas.statistic=sink&atlas.layer=2&atlas.head=5", () => writeURL(LESSON, BEATS));
  const q = new URLSearchParams(out);
  assert.equal(q.get("view"), "atlas");
  assert.equal(q.get("atlas.name"), "minilm-wordnet");
  assert.equal(q.get("atlas.statistic"), "sink");
  assert.equal(q.get("atlas.layer"), "2");
  assert.equal(q.get("atlas.head"), "5");
  assert.equal(q.get("sentence"), "by the river bank");
  assert.equal(q.get("beat"), BEATS[2].key);
});

test("the Real model's keys ride along, and the lesson's own old keys do not", () => {
  const out = withLocation("?view=model&model.name=smollm2&model.layer=3&sentence=old&mode=unscaled&beat=blend", () => writeURL(LESSON, BEATS));
  const q = new URLSearchParams(out);
  assert.equal(q.get("model.name"), "smollm2");
  assert.equal(q.get("model.layer"), "3");
  assert.deepEqual(q.getAll("sentence"), ["by the river bank"]);
  assert.deepEqual(q.getAll("mode"), ["scaled"]);
  assert.deepEqual(q.getAll("beat"), [BEATS[2].key]);
});
