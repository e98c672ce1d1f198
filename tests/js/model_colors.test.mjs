// The Real model view names every colour in colors.js: its files hold no colour literal, and a
// masked cell has one grey wherever it is drawn.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { COLORS, MODEL_COLORS } from "../../src/attnlab/static/colors.js";
import { MASKED } from "../../src/attnlab/static/matrix_picture.js";

const STATIC = new URL("../../src/attnlab/static/", import.meta.url);
const VIEW = readdirSync(STATIC).filter((f) => /^(model.*|matrix_picture|head_view.*|export_.*)\.js$/.test(f));

test("the model view's modules write no colour literal", () => {
  assert.ok(VIEW.length > 10, VIEW.join(", "));
  for (const file of VIEW) {
    const code = readFileSync(new URL(file, STATIC), "utf8").replace(/\/\/.*$/gm, "");
    assert.doesNotMatch(code, /["'`]#[0-9a-fA-F]{3,8}["'`]|rgba?\(\s*\d/, file);
  }
});

test("one grey for a masked cell, its ink the page's muted text", () => {
  assert.equal(MASKED, MODEL_COLORS.masked);
  assert.equal(MODEL_COLORS.maskedInk, COLORS.muted);
});
