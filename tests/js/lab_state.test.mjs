// lab_state.js: the lab's URL and API parameters and the edit check, without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ASK_ROUTES, askURL, LAB_DEFAULTS, LAB_KEYS, labParams, labViewState, modelKey, readEditNumber, readLabURL, withEdit } from "../../src/attnlab/static/lab_state.js";

const PAGE = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8"));
const LAB = PAGE.lab; // /api/lab: the position kinds, head counts, edit parameters and limit
const LESSONS = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));

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

test("a lab question is the API's address on the page: the sweep with the lesson's lab options, the cost's sizes", () => {
  assert.deepEqual(ASK_ROUTES, ["sweep", "cost", "cheaper", "price", "one_projection", "models", "kv"]);
  assert.equal(askURL("models", {}), "/api/cheaper/models");
  assert.equal(askURL("kv", {}), "/api/cheaper/kv?model=smollm2");
  assert.equal(askURL("price", {}), "/api/cheaper/price");
  assert.equal(askURL("one_projection", { sentence: "at the savings bank" }), "/api/lesson?sentence=at+the+savings+bank");
  const cheaper = new URL(askURL("cheaper", { sentence: "at the savings bank", focus: 3, tile: 1, mode: "scaled", temperature: 0.5, causal: true }), "http://x");
  assert.equal(cheaper.pathname, "/api/cheaper");
  assert.deepEqual([...cheaper.searchParams], [["sentence", "at the savings bank"], ["focus", "3"], ["tile", "1"], ["temperature", "0.5"], ["causal", "1"]]);
  // the lesson's softmax axis goes with it: over the queries the tiled card has no form to check
  const wrong = new URL(askURL("cheaper", { sentence: "by the river bank", focus: 3, tile: 2, mode: "scaled", axis: "queries" }), "http://x");
  assert.equal(wrong.searchParams.get("axis"), "queries");
  assert.ok(!askURL("cheaper", { sentence: "the bank", focus: 1, tile: 2, axis: "keys" }).includes("axis"));
  const sweep = askURL("sweep", { sentence: "by the river bank", focus: 3, positions: "rope", causal: true, edits: { set: { bank: [1, 0, 0, 1] } } });
  const [path, query] = sweep.split("?");
  assert.equal(path, "/api/sweep");
  assert.deepEqual([...new URLSearchParams(query)], [["sentence", "by the river bank"], ["focus", "3"], ["positions", "rope"], ["causal", "1"], ["set", "bank=1,0,0,1"]]);
  // a temperature never goes with the sweep: it sweeps them all
  assert.ok(!askURL("sweep", { sentence: "the bank", focus: 1, temperature: 0.5, mode: "scaled" }).includes("temperature"));
  assert.equal(askURL("cost", { max_n: 256, kv_cache: false }), "/api/cost?max_n=256");
  assert.equal(askURL("cost", { max_n: 2048, kv_cache: true }), "/api/cost?max_n=2048&kv_cache=true");
  assert.throws(() => askURL("weights", {}), /unknown lab question "weights": expected one of sweep, cost/);
});

test("the lab's state: the cell read is the model's, or the focus row's answer; Predict first hides both", () => {
  const values = { lesson: LESSONS.river, predict: true, guess: null, cell: null, beat: "2" };
  const state = labViewState((k) => values[k]);
  assert.equal(state.trace.tokens.join(" "), "by the river bank");
  assert.equal(state.hiding, true);
  assert.equal(state.beat, 2);
  assert.equal(state.softmaxBeat, LESSONS.river.narration.findIndex((b) => b.key === "softmax"));
  // while the guess is awaited no cell is read by default: the default cell is the answer
  assert.equal(state.reading, null);
  const guessed = labViewState((k) => ({ ...values, guess: 0 })[k]);
  assert.deepEqual(guessed.reading, [LESSONS.river.focus, LESSONS.river.predict.answer]);
  const picked = labViewState((k) => ({ ...values, guess: 1, cell: [1, 2] })[k]);
  assert.equal(picked.hiding, false);
  assert.deepEqual(picked.reading, [1, 2]);
  // a cell outside the sentence (left from a longer one) is not read
  assert.deepEqual(labViewState((k) => ({ ...values, cell: [9, 0] })[k]).reading, state.reading);
  assert.equal(labViewState(() => undefined).trace, null);
});
