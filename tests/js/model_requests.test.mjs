// model_requests.js: a newer question of a kind withdraws the older one, other kinds stay.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createFlights } from "../../src/attnlab/static/model_requests.js";

test("asking a kind again aborts its older question only", () => {
  const flights = createFlights();
  const first = flights.signal("trace");
  const heads = flights.signal("heads");
  const second = flights.signal("trace");
  assert.equal(first.aborted, true);
  assert.equal(second.aborted, false);
  assert.equal(heads.aborted, false);
});

test("abort() with no kind withdraws every question (a model change)", () => {
  const flights = createFlights();
  const signals = ["trace", "matrix", "compare"].map((k) => flights.signal(k));
  flights.abort();
  assert.deepEqual(signals.map((s) => s.aborted), [true, true, true]);
  flights.abort("trace"); // nothing left: no error
});
