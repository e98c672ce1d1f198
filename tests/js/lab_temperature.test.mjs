// lab_temperature.js: the words the Temperature card says for a lesson, without a browser (the
// slider's clicks are tests/browser/test_lab_page.py's). The lessons are the API's (lessons.json).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeLesson } from "../../src/attnlab/static/format.js";
import { saturationText, temperatureKey } from "../../src/attnlab/static/lab_temperature.js";

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
