import assert from "node:assert/strict";
import { test } from "node:test";

import { ownNumber } from "../../src/attnlab/static/model_ids.js";

test("a subset's layers and heads are labelled by the model's own numbers", () => {
  assert.equal(ownNumber([1, 2], 0), 1);
  assert.equal(ownNumber([3, 0], 1), 0);
});

test("without ids, or past them, a position is its own number", () => {
  assert.equal(ownNumber(null, 4), 4);
  assert.equal(ownNumber(undefined, 0), 0);
  assert.equal(ownNumber([7], 3), 3);
});
