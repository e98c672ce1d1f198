import { test } from "node:test";
import assert from "node:assert/strict";
import { nextTab } from "../../src/attnlab/static/tablist.js";

test("the arrows wrap, Home and End go to the ends, other keys are not the tabs'", () => {
  assert.equal(nextTab("ArrowRight", 1, 3), 2);
  assert.equal(nextTab("ArrowRight", 2, 3), 0);
  assert.equal(nextTab("ArrowLeft", 0, 3), 2);
  assert.equal(nextTab("Home", 2, 3), 0);
  assert.equal(nextTab("End", 0, 3), 2);
  assert.equal(nextTab("Enter", 0, 3), null);
});
