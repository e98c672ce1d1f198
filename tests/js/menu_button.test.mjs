// menu_button.js: where each key of an open menu goes, without a browser (the clicks themselves
// are tests/browser/test_exports.py's).
import assert from "node:assert/strict";
import { test } from "node:test";

import { menuKey } from "../../src/attnlab/static/menu_button.js";

test("the arrows move round the items shown, from either end to the other", () => {
  assert.equal(menuKey("ArrowDown", 0, 4), 1);
  assert.equal(menuKey("ArrowDown", 3, 4), 0);
  assert.equal(menuKey("ArrowUp", 0, 4), 3);
  assert.equal(menuKey("ArrowUp", 2, 4), 1);
  assert.equal(menuKey("ArrowDown", -1, 4), 0); // no item focused: ↓ goes to the first
});

test("Home and End go to the first and the last item", () => {
  assert.equal(menuKey("Home", 2, 9), 0);
  assert.equal(menuKey("End", 2, 9), 8);
  assert.equal(menuKey("End", 0, 1), 0);
});

test("Escape closes back on the button, Tab leaves, other keys are not the menu's", () => {
  assert.equal(menuKey("Escape", 1, 4), "close");
  assert.equal(menuKey("Tab", 1, 4), "leave");
  for (const key of ["Enter", " ", "a", "ArrowLeft", "PageDown"]) assert.equal(menuKey(key, 1, 4), null, key);
});
