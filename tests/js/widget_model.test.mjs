// widget_model.js: the anywidget-style model both hosts hand their widget. set() is the
// widget's (sent on save_changes), put() the host's (heard, not sent back).
import assert from "node:assert/strict";
import { test } from "node:test";

import { createModel, kernelServices } from "../../src/attnlab/static/widget_model.js";

test("the model: set marks a change for save_changes, put (the host's) does not", () => {
  const seen = [];
  const model = createModel({ layer: 0, trace: null }, (changed) => seen.push([...changed]));
  const events = [];
  model.on("change:trace", (e) => events.push(e.new));
  model.put("trace", "t1");
  model.set("layer", 3);
  model.set("layer", 3);
  model.save_changes();
  assert.deepEqual(seen, [["layer"]]);
  assert.deepEqual(events, ["t1"]);
  assert.equal(model.get("layer"), 3);
});

test("set fires change events once per real change, and save_changes sends each key once", () => {
  const seen = [];
  const model = createModel({ sentence: "by the river bank", focus: null }, (changed) => seen.push([...changed].sort()));
  const events = [];
  model.on("change:focus", (e) => events.push([e.name, e.new]));
  model.set("focus", 3);
  model.set("focus", 3);
  model.set("sentence", "at the savings bank");
  model.save_changes();
  model.save_changes();
  assert.deepEqual(events, [["focus", 3]]);
  assert.deepEqual(seen, [["focus", "sentence"], []]);
});

test("off removes one handler and leaves the others", () => {
  const model = createModel({ beat: 0 }, () => {});
  const heard = [];
  const a = () => heard.push("a");
  const b = () => heard.push("b");
  model.on("change:beat", a);
  model.on("change:beat", b);
  model.off("change:beat", a);
  model.set("beat", 1);
  assert.deepEqual(heard, ["b"]);
});

/** anywidget's model as far as kernelServices uses it: send, and on/off for "msg:custom". */
function fakeKernelModel() {
  const sent = [];
  let handlers = [];
  return {
    sent,
    listening: () => handlers.length,
    send: (content) => sent.push(content),
    on: (event, f) => event === "msg:custom" && handlers.push(f),
    off: (event, f) => (handlers = handlers.filter((g) => g !== f)),
    reply: (msg) => handlers.forEach((f) => f(msg, [])),
  };
}

test("a lab question in a notebook is a custom message; the kernel's answer, by its id, resolves it", async () => {
  const model = fakeKernelModel();
  const kernel = kernelServices(model);
  const first = kernel.services.ask("sweep", { sentence: "by the river bank", focus: 3 });
  const second = kernel.services.ask("cost", { max_n: 64, kv_cache: false });
  assert.deepEqual(model.sent, [
    { ask: "sweep", id: 1, params: { sentence: "by the river bank", focus: 3 } },
    { ask: "cost", id: 2, params: { max_n: 64, kv_cache: false } },
  ]);
  model.reply({ answer: 2, ok: false, error: { message: "max_n must be ...", field: "max_n" } });
  model.reply({ something: "else" }); // another widget's message: not an answer
  model.reply({ answer: 1, ok: true, body: { tokens: ["by"] } });
  assert.deepEqual(await first, { ok: true, body: { tokens: ["by"] } });
  assert.deepEqual(await second, { ok: false, error: { message: "max_n must be ...", field: "max_n" } });
  // what still waits when the view closes is answered, and nothing listens any more
  const third = kernel.services.ask("sweep", {});
  kernel.dispose();
  assert.equal(model.listening(), 0);
  assert.deepEqual(await third, { ok: false, error: { message: "the view was closed", field: null } });
});
