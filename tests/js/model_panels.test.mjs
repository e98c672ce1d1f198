// The Real model view's state is one object read whole (the panels' sizes: panel_size.test.mjs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { STATE_KEYS, changes, stateReader } from "../../src/attnlab/static/model_state.js";

/** A model as the hosts make one: get, and a way to change a key. */
function fakeModel(values) {
  const state = { ...values };
  return { get: (k) => state[k], put: (k, v) => (state[k] = v) };
}

test("the state is one frozen object; its trace is decoded once per answer", () => {
  const trace = JSON.parse(readFileSync(new URL("./model_trace.json", import.meta.url), "utf8"));
  const model = fakeModel({ trace, layer: 2, head: 5, words: null });
  const read = stateReader(model);
  const a = read();
  const b = read();
  assert.ok(Object.isFrozen(a));
  assert.equal(a.trace, b.trace, "the same answer is not decoded again");
  assert.equal(a.data, trace);
  for (const key of STATE_KEYS) assert.ok(key in a, key);
  model.put("trace", null); // a model change: the answers reset, and the state holds none
  const c = read();
  assert.equal(c.trace, null);
  assert.equal(c.data, null);
});

test("changes() says which parts changed since the last state", () => {
  const memo = changes();
  memo.next({ trace: 1, head: 0 });
  assert.equal(memo.changed("trace"), true); // the first state: everything is new
  memo.next({ trace: 1, head: 3 });
  assert.equal(memo.changed("trace"), false);
  assert.equal(memo.changed("head"), true);
});

test("a newline token is named \"\\n\" in the decoded trace's labels, in a window too", () => {
  // bug: a byte-level "\n" token was a blank row label, "#1911" with nothing before it in a window
  const base = JSON.parse(readFileSync(new URL("./model_trace.json", import.meta.url), "utf8"));
  const trace = structuredClone(base);
  trace.tokens[1] = "\n";
  const whole = stateReader(fakeModel({ trace, words: null }))().trace;
  assert.equal(whole.tokens[1], JSON.stringify("\n"));
  assert.equal(whole.tokens[0], base.tokens[0]);
  const windowed = structuredClone(trace);
  windowed.window.whole = false;
  const words = { "model.window_token": "{token} #{position}" };
  const shown = stateReader(fakeModel({ trace: windowed, words }))().trace;
  assert.equal(shown.tokens[1], `${JSON.stringify("\n")} #${windowed.window.rows[1]}`);
});
