// scope.js and words.js: a view's subscriptions undone by its cleanup; words by key.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createScope } from "../../src/attnlab/static/scope.js";
import { say } from "../../src/attnlab/static/words.js";

function fakeModel() {
  const handlers = new Map();
  return {
    on: (e, f) => handlers.set(e, [...(handlers.get(e) ?? []), f]),
    off: (e, f) => handlers.set(e, (handlers.get(e) ?? []).filter((g) => g !== f)),
    fire: (e) => (handlers.get(e) ?? []).forEach((f) => f()),
    count: () => [...handlers.values()].reduce((n, fs) => n + fs.length, 0),
  };
}

test("dispose undoes every model handler, listener and extra, last first, once", () => {
  const model = fakeModel();
  const target = new EventTarget();
  const scope = createScope();
  const seen = [];
  scope.on(model, "change:beat", () => seen.push("beat"));
  scope.listen(target, "keydown", () => seen.push("key"));
  scope.add(() => seen.push("undo 1"));
  scope.add(() => seen.push("undo 2"));
  model.fire("change:beat");
  target.dispatchEvent(new Event("keydown"));
  assert.equal(scope.size, 4);
  scope.dispose();
  assert.deepEqual(seen, ["beat", "key", "undo 2", "undo 1"]);
  model.fire("change:beat");
  target.dispatchEvent(new Event("keydown"));
  assert.equal(model.count(), 0);
  scope.dispose();
  assert.equal(seen.length, 4, "a second dispose does nothing");
});

test("say fills a template's names and leaves unknown ones; nothing before the words come", () => {
  const words = { "steps.title": "Step {number} of {count}: {title}" };
  assert.equal(say(words, "steps.title", { number: 3, count: 6, title: "Score" }), "Step 3 of 6: Score");
  assert.equal(say(words, "steps.title", { number: 3 }), "Step 3 of {count}: {title}");
  assert.equal(say(null, "steps.title"), "");
  assert.equal(say(words, "no.such"), "");
});
