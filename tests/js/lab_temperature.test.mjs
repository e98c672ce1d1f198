// lab_temperature.js: the words the Temperature card says for a lesson, without a browser (the
// slider's clicks are tests/browser/test_lab_page.py's). The lessons are the API's (lessons.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeLesson } from "../../src/attnlab/static/format.js";
import { saturationText, temperatureKey } from "../../src/attnlab/static/lab_temperature.js";
import { plot } from "../../src/attnlab/static/plots.js";

const lessons = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));
const { words } = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8"));

test("the slider says Uniform, No √dₖ, √dₖ, sharper or flatter from the lesson's mode and divisor", () => {
  const key = (name) => {
    const trace = decodeLesson(lessons[name]);
    return temperatureKey(trace.mode, trace.divisor, Math.sqrt(trace.d_k));
  };
  assert.equal(key("river"), "sqrt");
  assert.equal(key("river_unscaled"), "unscaled");
  assert.equal(key("savings_uniform"), "uniform");
  assert.equal(key("river_temperature"), "sharper"); // T = 0.5 < √4
  assert.equal(temperatureKey("scaled", 8, 2), "flatter");
  assert.equal(temperatureKey("scaled", 2 + 1e-12, 2), "sqrt"); // √dₖ as the API computes it
});

test("the saturation line prints the API's entropy, largest weight and Jacobian of the focus row", () => {
  const river = lessons.river;
  const sat = river.saturation;
  const line = saturationText({ raw: river, trace: decodeLesson(river), hiding: false, words });
  assert.equal(sat.focus, river.focus);
  assert.equal(
    line,
    "bank's row: entropy 1.38 bits (at most 2), largest weight 0.69. Softmax Jacobian size 0.329 (Frobenius norm), largest entry 0.216:"
      + " the gradient the softmax passes back, which falls toward 0 as the row saturates.",
  );
});

test("before a guess, or down the columns, the line says why it shows no numbers", () => {
  const river = lessons.river;
  const trace = decodeLesson(river);
  assert.equal(saturationText({ raw: river, trace, hiding: true, words }), words["lab.temperature.hidden"]);
  const columns = { ...river, saturation: { ...river.saturation, per: "column" } };
  assert.equal(saturationText({ raw: columns, trace, hiding: false, words }), words["lab.temperature.columns"]);
});

test("the plots' √dₖ and now labels never overlap, near T = 2 or at the frame's edge (issue 27)", () => {
  const size = { width: 228, height: 176 }; // lab_sweep.js's plots
  const x = { domain: [0.1, 10], log: true, label: "temperature T" };
  const y = { domain: [0, 1], label: "weight" };
  const overlap = (a, b) => a[0] < b[1] && b[0] < a[1] && a[2] < b[3] && b[2] < a[3];
  for (const t of [1.6, 1.9, 2.06, 2.2, 2.5, 3, 9.5, 10]) {
    const g = plot({ x, y, series: [], marks: [{ x: 2, label: "√dₖ" }, { x: t, label: "now" }] }, size);
    assert.equal(g.marks.length, 2);
    const [a, b] = g.marks.map((m) => m.box);
    assert.ok(!overlap(a, b), `T = ${t}: the labels' boxes ${a} and ${b} overlap`);
    for (const box of [a, b]) assert.ok(box[0] >= 0 && box[1] <= size.width, `T = ${t}: a label leaves the plot: ${box}`);
  }
});
