// The notebook's trainer (static/train_view.js replayTrainer): the kernel's whole run handed out
// a chunk at a time, as the server's would be: every point once, in order, each checkpoint with
// the chunk that holds its step, the words only with the last chunk.
import assert from "node:assert/strict";
import test from "node:test";

import { replayTrainer } from "../../src/attnlab/static/train_view.js";

const run = {
  job: "kernel", experiment: "lookup", steps: 6, seed: 0, next_step: 7, done: true,
  points: Array.from({ length: 7 }, (_, step) => ({ step, values: { "scaled.loss": 1 / (step + 1) } })),
  checkpoints: [0, 3, 6].map((step) => ({ step, maps: [], scores: {}, line: "" })),
  phase: "the end", summary: ["all of it"],
};

test("chunks cover the run once, in order, and end done with its words", async () => {
  const t = replayTrainer(run);
  const started = await t.start();
  assert.equal(started.body.steps, 6);
  const got = [];
  let body;
  do {
    body = (await t.next("kernel", 4)).body;
    got.push(body);
  } while (!body.done);
  assert.deepEqual(got.map((b) => b.points.map((p) => p.step)), [[0, 1, 2, 3], [4, 5, 6]]);
  assert.deepEqual(got.map((b) => b.checkpoints.map((c) => c.step)), [[0, 3], [6]]);
  assert.deepEqual(got.map((b) => b.phase), ["", "the end"]);
  assert.equal(got[1].next_step, 7);
  await t.start(); // Play after the end plays it again from step 0
  assert.equal((await t.next("kernel", 1)).body.points[0].step, 0);
});
