// lab_state.js: the lab's URL and API parameters and the edit check, without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { LAB_DEFAULTS, LAB_KEYS, labParams, modelKey, readEditNumber, readLabURL, withEdit } from "../../src/attnlab/static/lab_state.js";

const PAGE = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8"));
const LAB = PAGE.lab; // /api/lab: the position kinds, head counts, edit parameters and limit

test("a URL with every lab parameter reads back into the state and writes out the same", () => {
  const search = "temperature=0.5&positions=rope&causal=1&heads=2&shuffle=7&set=bank=1,0,0,1&set_q=river=2,0,0,0&predict=1";
  const state = { mode: "scaled", ...readLabURL(new URLSearchParams(search), LAB) };
  assert.deepEqual(state, {
    mode: "scaled", temperature: 0.5, positions: "rope", causal: true, heads: 2, shuffle: 7,
    edits: { set: { bank: ["1", "0", "0", "1"] }, set_q: { river: ["2", "0", "0", "0"] } }, predict: true,
  });
  assert.equal(new URLSearchParams(labParams(state, { url: true })).toString(), new URLSearchParams(search).toString());
  assert.ok(!labParams(state).some(([k]) => k === "predict"), "predict is the page's, not the API's");
});

test("the defaults write nothing, and unreadable values fall back to them", () => {
  assert.deepEqual(labParams({ mode: "scaled", ...LAB_DEFAULTS }), []);
  const odd = readLabURL(new URLSearchParams("temperature=abc&positions=alibi&causal=maybe&heads=9&shuffle=-1&set=nonsense"), LAB);
  assert.deepEqual(odd, { ...LAB_DEFAULTS });
  // without /api/lab's choices nothing but the defaults is read for them
  const blind = readLabURL(new URLSearchParams("positions=rope&heads=2&set=bank=1,0,0,1"));
  assert.deepEqual([blind.positions, blind.heads, blind.edits], ["none", 1, {}]);
});

test("a temperature goes to the API only with mode Scaled", () => {
  assert.deepEqual(labParams({ mode: "unscaled", temperature: 0.5 }), []);
  assert.deepEqual(labParams({ mode: "scaled", temperature: 0.5 }), [["temperature", "0.5"]]);
});

test("every API error field of the lab names a model key that asks the API again", () => {
  for (const field of [...LAB_KEYS, ...Object.keys(LAB.edit_params)]) assert.ok(LAB_KEYS.includes(modelKey(field, LAB)), field);
  assert.equal(modelKey("set_v", LAB), "edits");
  assert.equal(modelKey("sentence", LAB), null);
});

test("withEdit sets and removes one token's vector without touching the old object", () => {
  const a = {};
  const b = withEdit(a, "set", "bank", ["1", 2, 3, 4]);
  assert.deepEqual(a, {});
  assert.deepEqual(b, { set: { bank: [1, 2, 3, 4] } });
  assert.deepEqual(withEdit(b, "set", "bank", null), {});
});

test("readEditNumber refuses non-numbers, NaN and values beyond ±100 with words for the learner", () => {
  assert.equal(LAB.edit_limit, 100);
  for (const [text, words] of [["abc", "not a number"], ["NaN", "NaN"], ["nan", "NaN"], ["101", "beyond ±100"], ["-1e3", "beyond ±100"], ["", "Type a number"], ["Infinity", "not a number"], ["1,5", "not a number"]]) {
    const read = readEditNumber(text, LAB.edit_limit, PAGE.words);
    assert.equal(read.ok, false, text);
    assert.ok(read.message.includes(words), `${text}: ${read.message}`);
  }
  for (const [text, value] of [["0.5", 0.5], ["-1", -1], ["100", 100], ["−2.5", -2.5], [" 3 ", 3], [".5", 0.5], ["1e1", 10]]) {
    assert.deepEqual(readEditNumber(text, LAB.edit_limit, PAGE.words), { ok: true, value }, text);
  }
});
