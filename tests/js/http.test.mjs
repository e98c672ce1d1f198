// http.js's getJSON: one answer shape for the three hosts, whatever the server or the network
// did. fetch is replaced by a stub for each test; getJSON must never throw.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { clock, getJSON, RETRIES } from "../../src/attnlab/static/http.js";

const realFetch = globalThis.fetch;
const realSleep = clock.sleep;
afterEach(() => {
  globalThis.fetch = realFetch;
  clock.sleep = realSleep;
});

/** Make fetch give `answers` in turn ([status, body, headers]); record the waits between them. */
function answers(list) {
  const asked = [];
  const slept = [];
  clock.sleep = async (ms) => {
    slept.push(ms);
  };
  globalThis.fetch = async (url, init) => {
    asked.push([url, init]);
    const [status, text, headers = {}] = list[Math.min(asked.length - 1, list.length - 1)];
    return new Response(text, { status, headers });
  };
  return { asked, slept };
}

const BUSY = [503, '{"error": "the server is busy with other cost requests: try again in 2 s", "field": null}', { "Retry-After": "2" }];

test("a busy 503 is asked again after its Retry-After, and the later answer is the one given", async () => {
  const { asked, slept } = answers([BUSY, [200, '{"n": [8, 16]}']]);
  assert.deepEqual(await getJSON("/api/cost", { method: "GET" }), { ok: true, body: { n: [8, 16] } });
  assert.equal(asked.length, 2);
  assert.deepEqual(slept, [2000]);
  assert.equal(asked[1][1].method, "GET"); // the same request again
});

test("still busy after RETRIES more asks: the server's message is shown", async () => {
  const { asked, slept } = answers([BUSY]);
  const got = await getJSON("/api/cost");
  assert.deepEqual(got, { ok: false, error: { message: "the server is busy with other cost requests: try again in 2 s", field: null } });
  assert.equal(asked.length, 1 + RETRIES);
  assert.deepEqual(slept, Array(RETRIES).fill(2000));
});

test("a 503 without a Retry-After, or with a long one, is not asked again", async () => {
  for (const headers of [{}, { "Retry-After": "600" }, { "Retry-After": "soon" }]) {
    const { asked, slept } = answers([[503, '{"error": "down", "field": null}', headers]]);
    assert.equal((await getJSON("/api/x")).ok, false);
    assert.equal(asked.length, 1);
    assert.deepEqual(slept, []);
  }
});

/** Make fetch answer `status` with `text` as the body, and remember what it was asked. */
function answer(status, text, statusText = "") {
  const asked = [];
  globalThis.fetch = async (url, init) => {
    asked.push([url, init]);
    return new Response(text, { status, statusText });
  };
  return asked;
}

test("a 200 JSON answer is {ok: true, body}, asked for as JSON", async () => {
  const asked = answer(200, '{"tokens": ["by", "the"]}');
  assert.deepEqual(await getJSON("/api/lesson?sentence=by+the"), { ok: true, body: { tokens: ["by", "the"] } });
  assert.equal(asked[0][0], "/api/lesson?sentence=by+the");
  assert.equal(asked[0][1].headers.Accept, "application/json");
});

test("a 400 answer carries the API's message and the field at fault", async () => {
  answer(400, '{"error": "unknown word \'zebra\'", "field": "sentence"}', "Bad Request");
  assert.deepEqual(await getJSON("/api/lesson"), { ok: false, error: { message: "unknown word 'zebra'", field: "sentence" } });
});

test("an answer that is not JSON names the status, with no field", async () => {
  answer(502, "<html>bad gateway</html>", "Bad Gateway");
  assert.deepEqual(await getJSON("/api/cost"), { ok: false, error: { message: "The server answered 502 Bad Gateway.", field: null } });
});

test("an unreachable server is an answer too, not an exception", async () => {
  globalThis.fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  const got = await getJSON("/api/presets");
  assert.equal(got.ok, false);
  assert.equal(got.error.field, null);
  assert.match(got.error.message, /Could not reach the attnlab server \(Failed to fetch\)/);
});

test("init is passed on (a POST with a body), Accept kept beside its headers", async () => {
  const asked = answer(200, "{}");
  await getJSON("/api/x", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
  const init = asked[0][1];
  assert.equal(init.method, "POST");
  assert.equal(init.body, "{}");
  assert.deepEqual(init.headers, { Accept: "application/json", "Content-Type": "application/json" });
});

test("an aborted question passes its signal to fetch and answers aborted, not unreachable", async () => {
  const controller = new AbortController();
  let seen = null;
  globalThis.fetch = (url, init) => {
    seen = init.signal;
    return new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
  };
  const pending = getJSON("/api/model/trace", { signal: controller.signal });
  controller.abort();
  const answer = await pending;
  assert.equal(seen, controller.signal);
  assert.equal(answer.ok, false);
  assert.equal(answer.aborted, true);
  assert.doesNotMatch(answer.error.message, /Could not reach/);
});

test("a question aborted while it waits to retry a busy 503 is not asked again", async () => {
  const controller = new AbortController();
  const { asked } = answers([BUSY, [200, '{"n": 1}']]);
  clock.sleep = async () => controller.abort();
  const answer = await getJSON("/api/cost", { signal: controller.signal });
  assert.equal(asked.length, 1);
  assert.equal(answer.aborted, true);
});
