// lab_edit.js: the count the Edit vectors card's note and Reset button follow, without a browser
// (typing, dragging and the API's refusals are tests/browser/test_lab_page.py's).
import assert from "node:assert/strict";
import { test } from "node:test";

import { editCount } from "../../src/attnlab/static/lab_edit.js";
import { withEdit } from "../../src/attnlab/static/lab_state.js";

test("the note counts edited vectors over every role, a vector edited twice once", () => {
  assert.equal(editCount({}), 0);
  assert.equal(editCount(null), 0);
  let edits = withEdit({}, "set", "bank", [1, 0, 0, 1]);
  assert.equal(editCount(edits), 1);
  edits = withEdit(edits, "set", "bank", [2, 0, 0, 1]); // the same vector again
  assert.equal(editCount(edits), 1);
  edits = withEdit(withEdit(edits, "set_q", "river", [2, 0, 0, 0]), "set", "the", [0, 1, 0, 0]);
  assert.equal(editCount(edits), 3);
  assert.equal(editCount(withEdit(edits, "set", "bank", null)), 2); // one undone
});
