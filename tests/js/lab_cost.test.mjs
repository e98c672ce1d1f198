// lab_cost.js: the Cost panel's stages, from /api/lab's largest n, without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { costStages, measureInStages } from "../../src/attnlab/static/lab_cost.js";

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

test("the key/value-cache plot draws the API's two measured curves on log-log axes", async () => {
  const { kvCacheSpec } = await import("../../src/attnlab/static/lab_cost.js");
  const { plot } = await import("../../src/attnlab/static/plots.js");
  const kv = { points: [128, 256, 512].map((n, k) => ({ n, recompute_seconds: 1e-4 * 4 ** k, cached_seconds: [1e-5, 2e-5, 3e-5][k] })) };
  const labels = { n: "tokens n", time: "time for one more token", recompute: "recompute", cached: "cached" };
  const spec = kvCacheSpec(kv, labels);
  assert.deepEqual(spec.x.domain, [128, 512]);
  assert.deepEqual(spec.y.domain, [1e-5, 1.6e-3]);
  assert.ok(spec.x.log && spec.y.log);
  assert.deepEqual(spec.series.map((s) => s.name), ["recompute", "cached"]);
  assert.deepEqual(spec.series[0].points, [[128, 1e-4], [256, 4e-4], [512, 1.6e-3]]);
  assert.deepEqual(spec.series[1].points, [[128, 1e-5], [256, 2e-5], [512, 3e-5]]);
  const g = plot(spec, { width: 340, height: 220 });
  assert.equal(g.paths.length, 2);
  assert.ok(g.paths.every((p) => p.dots.length === 3));
  assert.match(g.xLabel.text, /^tokens n \(128 to 512, log scale\)$/);
  assert.match(g.yLabel.text, /^time for one more token \(10 µs to 1\.6 ms, log scale\)$/);
});

/** A host's `ask` that answers each stage with its n, and refuses from stage `refuseAt` on. */
function fakeAsk(refuseAt = Infinity) {
  const asked = [];
  const ask = async (route, params) => {
    asked.push([route, params]);
    if (asked.length > refuseAt) return { ok: false, error: { message: `stage ${asked.length} refused` } };
    return { ok: true, body: { max_n: params.max_n } };
  };
  return { ask, asked };
}

test("the stages are asked in order, the key/value cache only with the last, each answer shown", async () => {
  const { ask, asked } = fakeAsk();
  const told = [];
  const out = await measureInStages(ask, [64, 256, 1024], {
    onStage: (k, maxN) => told.push(["stage", k, maxN]),
    onAnswer: (body, k) => told.push(["answer", k, body.max_n]),
  });
  assert.deepEqual(asked, [
    ["cost", { max_n: 64, kv_cache: false }], ["cost", { max_n: 256, kv_cache: false }], ["cost", { max_n: 1024, kv_cache: true }],
  ]);
  assert.deepEqual(told, [["stage", 0, 64], ["answer", 0, 64], ["stage", 1, 256], ["answer", 1, 256], ["stage", 2, 1024], ["answer", 2, 1024]]);
  assert.deepEqual(out, { body: { max_n: 1024 }, done: 3, error: null });
});

test("a refusal ends the measurement, keeping the last good answer and the host's message", async () => {
  const { ask, asked } = fakeAsk(1);
  const answers = [];
  const out = await measureInStages(ask, [64, 256, 1024], { onStage() {}, onAnswer: (body) => answers.push(body.max_n) });
  assert.equal(asked.length, 2); // the third stage is never asked
  assert.deepEqual(answers, [64]);
  assert.deepEqual(out, { body: { max_n: 64 }, done: 1, error: { message: "stage 2 refused" } });
});
