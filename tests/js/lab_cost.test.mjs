// lab_cost.js: the Cost panel's stages, from /api/lab's largest n, without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { costStages } from "../../src/attnlab/static/lab_cost.js";

const LAB = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).lab;

test("the measurement runs in stages four times apart, ending on the API's largest n", () => {
  assert.deepEqual(costStages(LAB.cost.default_max_n), [64, 256, 1024, 2048]);
  assert.deepEqual(costStages(4096), [64, 256, 1024, 4096]);
  assert.deepEqual(costStages(64), [64]);
  assert.deepEqual(costStages(32), [32]);
  for (const last of [8, 100, 3000, LAB.cost.max_n]) {
    const stages = costStages(last);
    assert.equal(stages.at(-1), last);
    assert.ok(stages.every((n, k) => k === 0 || n > stages[k - 1]), `${last}: rising`);
  }
});
