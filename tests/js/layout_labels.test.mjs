// layout.js's bar labels at the page's two canvas widths: the Softmax step's budget bar names
// every key beside its share (a narrow share once showed "7%" with no word), and the Blend
// step's bar columns are named in full (a phone once read "ge… fi… fu… am…"). Issue 27.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeLesson, percent } from "../../src/attnlab/static/format.js";
import { layout } from "../../src/attnlab/static/layout.js";
import { tokenNames } from "../../src/attnlab/static/names.js";

const LESSONS = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));
const WORDS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).words;
const SIZES = [
  { width: 820, height: 540 }, // 1280×800's canvas
  { width: 366, height: 380 }, // 390×844's canvas
];
const texts = (out) => out.shapes.filter((s) => s.kind === "text" && s.text).map((s) => s.text);

for (const [name, raw] of Object.entries(LESSONS)) {
  for (const size of SIZES) {
    test(`${name} at ${size.width}: each budget label names its key`, () => {
      const trace = decodeLesson(raw);
      const out = layout(trace, size, "softmax", trace.focus, WORDS);
      const all = texts(out);
      assert.ok(!all.some((t) => /^\d+(\.\d+)?%$/.test(t)), `a bare percentage: ${all.join(" | ")}`);
      const cols = tokenNames(trace.key_tokens ?? trace.tokens);
      trace.weights[trace.focus].forEach((w, j) => {
        if (!(Number.isFinite(w) && w > 0)) return;
        assert.ok(all.includes(`${cols[j]} ${percent(w)}`), `no label "${cols[j]} ${percent(w)}"`);
      });
    });
  }
}

for (const size of SIZES) {
  test(`the blend bars' dimensions are named in full at ${size.width}`, () => {
    const trace = decodeLesson(LESSONS.river);
    const all = texts(layout(trace, size, "blend", trace.focus, WORDS));
    assert.ok(!all.some((t) => t.endsWith("…")), `a cut name: ${all.filter((t) => t.endsWith("…"))}`);
    const joined = all.join(" ");
    for (const dim of trace.dim_names) assert.ok(joined.includes(dim), `${dim} is not named`);
  });
}
