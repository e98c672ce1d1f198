// layout.js: the picture of each beat as data, checked without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeLesson, num } from "../../src/attnlab/static/format.js";
import { contrast, heat, inkOn, luminance } from "../../src/attnlab/static/colors.js";
import { argmax, beatKeys, layout, layoutFitted, textProblems, wrap } from "../../src/attnlab/static/layout.js";
import { MIN_FONT } from "../../src/attnlab/static/layout_text.js";

// lessons.json and page.json are written by scripts/make_js_fixtures.py from the Python encoders
const LESSONS = JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8"));
const WORDS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).words;
const BEATS = beatKeys(LESSONS.river);
const river = decodeLesson(LESSONS.river);
const savingsUniform = decodeLesson(LESSONS.savings_uniform);
const longest = decodeLesson(LESSONS.longest);
const SIZES = [
  { width: 820, height: 540 },
  { width: 366, height: 380 },
];
const LONG_NARROW = { width: 366, height: 200 + 12 * 22 }; // lesson.js's canvas for 12 tokens

/** A small hand-made trace with a masked key: 3 tokens, the last one masked for row 0. */
function masked() {
  const t = structuredClone(LESSONS.river);
  const tokens = ["a", "<img src=x onerror=alert(1)>", "c"];
  const rows = (f) => tokens.map((_, i) => tokens.map((_, j) => f(i, j)));
  Object.assign(t, {
    tokens,
    focus: 0,
    pair: [0, 1],
    embeddings: rows(() => 0.5),
    queries: rows(() => 1),
    keys: rows(() => 1),
    values: rows((i, j) => (i === j ? 2 : -1)),
    raw_scores: rows((i, j) => i + j),
    scores: rows((i, j) => (i === 0 && j === 2 ? "-inf" : (i + j) / 2)),
    weights: [[0.3, 0.7, 0], [0.5, 0.25, 0.25], [0.2, 0.2, 0.6]],
    outputs: [[0.1, 0.2, 0.3], [0, 0, 0], [1, 1, 1]],
    mask: [[true, true, false], [true, true, true], [true, true, true]],
    dim_names: null,
    d_k: 3,
    divisor: Math.sqrt(3),
  });
  return decodeLesson(t);
}

/** The layout at `size`, then at the height it asks for (lesson.js grows the canvas so). */
function fitted(trace, size, beat) {
  const { layout: out, height } = layoutFitted(trace, size, beat, trace.focus, WORDS);
  assert.ok(height >= size.height, "the picture never asks for less than it was given");
  assert.ok(out.height <= height, `at the height it asked for (${height}), it asks for no more (${out.height})`);
  return { out, box: { width: size.width, height } };
}

test("every beat lays out at both sizes, inside the canvas", () => {
  for (const [trace, sizes] of [[river, SIZES], [savingsUniform, SIZES], [masked(), SIZES], [longest, [SIZES[0], LONG_NARROW]]]) {
    for (const given of sizes) {
      for (let b = 0; b < BEATS.length; b++) {
        const { out, box: size } = fitted(trace, given, b);
        assert.equal(out.beat, BEATS[b]);
        assert.ok(out.shapes.length > 5, "never an empty picture");
        assert.ok(out.description.length > 0);
        for (const s of out.shapes) {
          const xs = s.kind === "rect" ? [s.x, s.x + s.w] : s.kind === "text" ? [s.x] : [s.x1, s.x2];
          const ys = s.kind === "rect" ? [s.y, s.y + s.h] : s.kind === "text" ? [s.y] : [s.y1, s.y2];
          for (const x of xs) assert.ok(x >= -0.5 && x <= size.width + 0.5, `${out.beat}: x ${x} outside ${size.width}`);
          for (const y of ys) assert.ok(y >= -0.5 && y <= size.height + 0.5, `${out.beat}: y ${y} outside ${size.height} (${s.kind} ${s.text ?? ""})`);
          assert.ok(s.at === undefined || (s.at >= 0 && s.at <= 1), "appear times lie in [0, 1]");
          if (s.kind === "text") assert.equal(typeof s.text, "string");
        }
      }
    }
  }
});

test("beats can be named by key or index", () => {
  const size = SIZES[0];
  assert.deepEqual(layout(river, size, "blend", 3), layout(river, size, 4, 3));
  assert.throws(() => layout(river, size, 6, 3), RangeError);
  assert.throws(() => layout(river, size, "dance", 3), RangeError);
  assert.throws(() => layout(river, size, 0, 4), RangeError);
});

test("matrix cells move right along a row and down along a column", () => {
  const out = layout(river, SIZES[0], "parallel", 3);
  const at = (i, j) => out.cells.find((c) => c.i === i && c.j === j);
  assert.equal(out.cells.length, 16);
  for (let i = 0; i < 4; i++) {
    for (let j = 1; j < 4; j++) {
      assert.ok(at(i, j).x > at(i, j - 1).x, "columns go left to right");
      assert.equal(at(i, j).y, at(i, j - 1).y, "a row is level");
      assert.ok(at(j, i).y > at(j - 1, i).y, "rows go top to bottom");
      assert.ok(at(i, j).x >= at(i, j - 1).x + at(i, j - 1).w, "cells do not overlap");
    }
  }
});

test("row i is labelled with query token i and column j with key token j, in line with the cells", () => {
  for (const beat of ["score", "softmax", "parallel"]) {
    const out = layout(river, SIZES[0], beat, 3, WORDS);
    const rows = out.labels.filter((l) => l.role === "row");
    const cols = out.labels.filter((l) => l.role === "col");
    assert.deepEqual(rows.map((l) => l.text), river.tokens);
    assert.deepEqual(cols.map((l) => l.text), river.tokens);
    for (const c of out.cells) {
      assert.ok(Math.abs(rows[c.i].y - (c.y + c.h / 2)) < 2, `row label ${c.i} beside its cells`);
      assert.ok(Math.abs(cols[c.j].x - (c.x + c.w / 2)) < 2, `column label ${c.j} above its cells`);
    }
    const texts = out.shapes.filter((s) => s.kind === "text").map((s) => s.text);
    assert.ok(texts.includes("query ↓"));
    assert.ok(texts.some((t) => t.startsWith("key →")));
  }
});

test("the score beat fills only the focus row, left to right, with q·k / divisor = s", () => {
  const out = layout(river, SIZES[0], "score", 3);
  assert.deepEqual(out.cells.map((c) => c.i), [3, 3, 3, 3]);
  const times = out.shapes.filter((s) => s.kind === "text" && s.mono && s.text.includes(" / ")).map((s) => s.at);
  assert.deepEqual([...times].sort((a, b) => a - b), times, "cells appear left to right");
  const texts = out.shapes.filter((s) => s.kind === "text").map((s) => s.text);
  for (const line of ["0.92 / 2", "= 0.46", "0 / 2", "4.6 / 2", "= 2.3", "1.38 / 2", "= 0.69"]) {
    assert.ok(texts.includes(line), `${line} is on screen`);
  }
  assert.deepEqual(out.cells.map((c) => c.text), ["0.46", "0", "2.3", "0.69"]);
});

test("the score beat shows the divisor of the mode: 1 without √dₖ, ∞ under Uniform", () => {
  const unscaled = decodeLesson(LESSONS.river_unscaled);
  const texts = (t) => layout(t, SIZES[0], "score", 3).shapes.filter((s) => s.kind === "text").map((s) => s.text);
  assert.ok(texts(unscaled).includes("4.6 / 1"));
  assert.ok(texts(savingsUniform).some((t) => t.endsWith(" / ∞")));
});

/** Every text the canvas writes for a beat, joined: the wrapped lines read as one string. */
const canvasText = (t, beat) => layout(t, SIZES[0], beat, t.focus, WORDS).shapes.filter((s) => s.kind === "text").map((s) => s.text).join(" ");

test("the canvas writes the trace's captions: each beat's heading and notes, word for word", () => {
  for (const name of Object.keys(LESSONS)) {
    const t = decodeLesson(LESSONS[name]);
    for (const beat of BEATS) {
      const c = LESSONS[name].captions.beats[beat];
      const text = canvasText(t, beat);
      assert.ok(text.includes(c.heading), `${name} ${beat}: the heading ${c.heading}`);
      for (const note of c.notes) assert.ok(text.includes(note), `${name} ${beat}: the note ${note}`);
      assert.equal(layout(t, SIZES[0], beat, t.focus, WORDS).description, c.description);
    }
  }
});

test("with a temperature the canvas says T, never √dₖ = √4 = 0.5 (the bug)", () => {
  const t = decodeLesson(LESSONS.river_temperature);
  const score = canvasText(t, "score");
  assert.ok(!score.includes("√4 = 0.5"), score);
  assert.ok(score.includes("T = 0.5"), score);
  assert.ok(score.includes("4.6 / 0.5"), "the cells divide by T");
  const parallel = canvasText(t, "parallel");
  assert.ok(parallel.includes("softmax(QKᵀ/T) with T = 0.5"), parallel);
  assert.ok(!parallel.includes("√dₖ"), parallel);
});

test("the fixed labels are the page's words: none drawn when the words have not come", () => {
  const t = decodeLesson(LESSONS.river);
  assert.ok(canvasText(t, "project").includes(WORDS["canvas.queries"]));
  const bare = layout(t, SIZES[0], "project", 3).shapes.filter((s) => s.kind === "text").map((s) => s.text);
  assert.ok(!bare.includes(WORDS["canvas.queries"]));
});

test("a masked score is written −∞", () => {
  const out = layout(masked(), SIZES[0], "score", 0);
  assert.equal(out.cells[2].text, "−∞");
});

test("the softmax beat prints the focus row's weights as the trace has them", () => {
  const out = layout(river, SIZES[0], "softmax", 3);
  assert.deepEqual(out.cells.map((c) => c.text), ["0.11", "0.07", "0.69", "0.14"]);
  const texts = out.shapes.filter((s) => s.kind === "text").map((s) => s.text);
  assert.ok(texts.includes("river 69%"), "the budget bar names its largest share");
});

test("the violet ray goes from the focus to its largest weight, for every focus", () => {
  for (const trace of [river, masked(), decodeLesson(LESSONS.river)]) {
    for (let f = 0; f < trace.tokens.length; f++) {
      const out = layout(trace, SIZES[0], "blend", f);
      assert.equal(out.ray.from, f);
      assert.equal(out.ray.to, argmax(trace.weights[f]));
      const ray = out.shapes.find((s) => s.kind === "ray");
      const target = out.labels.find((l) => l.role === "token" && l.index === out.ray.to);
      assert.ok(Math.abs(ray.x2 - target.x) < 1, "the arrow lands on the chosen token");
    }
  }
  assert.equal(layout(river, SIZES[0], "blend", 3).ray.to, 2, "bank chooses river");
  assert.equal(layout(river, SIZES[0], "softmax", 3).ray, null, "no ray outside the blend beat");
});

test("the blend beat writes each weight × value and the trace's output", () => {
  const texts = layout(river, SIZES[0], "blend", 3).shapes.filter((s) => s.kind === "text").map((s) => s.text);
  assert.ok(texts.includes("0.69 × [2, 0, 0, 0]"));
  assert.ok(texts.includes("= [1.43, 0.06, 0.14, 0]"));
});

test("the parallel beat fills every cell and highlights the API's pair with both numbers", () => {
  const out = layout(river, SIZES[0], "parallel", 3);
  for (const c of out.cells) assert.equal(c.text, num(river.weights[c.i][c.j]));
  assert.deepEqual([out.pair.i, out.pair.j], river.pair);
  const text = out.shapes.filter((s) => s.kind === "text").map((s) => s.text).join(" ");
  assert.match(text, /bank → river = 0\.69/);
  assert.match(text, /river → bank = 0\.12/);
});

test("token text is carried as data, whatever it contains", () => {
  const out = layout(masked(), SIZES[0], "tokens", 0);
  assert.ok(out.labels.some((l) => l.text === "<img src=x onerror=alert(1)>"));
});

test("the heat scale is light for small weights and dark for large, with readable ink", () => {
  const lum = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).reduce((a, c) => a + c, 0);
  for (let w = 0.1; w <= 1; w += 0.1) assert.ok(lum(heat(w)) < lum(heat(w - 0.1)), `darker at ${w}`);
  assert.equal(inkOn(0.05), "#000000");
  assert.equal(inkOn(0.9), "#ffffff");
  for (let k = 0; k <= 100; k++) {
    const ratio = contrast(luminance(heat(k / 100)), luminance(inkOn(k / 100)));
    assert.ok(ratio >= 4.5, `the number on a cell of weight ${k / 100} has contrast ${ratio.toFixed(2)} (WCAG AA: 4.5)`);
  }
  assert.equal(heat(-1), heat(0));
  assert.equal(heat(2), heat(1));
});

test("wrap keeps words whole and lines short", () => {
  const lines = wrap("the quick brown fox jumps over the lazy dog", 12, 80);
  assert.ok(lines.length > 1);
  assert.equal(lines.join(" "), "the quick brown fox jumps over the lazy dog");
});

test("no text of any beat is too small, squeezed or outside the canvas, at 1280 and 390 px", () => {
  // the canvas widths lesson.js gives at a 1280 × 800 window and on a 390 × 844 phone
  const desktop = { width: 820, height: 540 };
  const phone = { width: 358, height: 380 };
  const cases = Object.entries(LESSONS).flatMap(([name, raw]) => {
    const t = decodeLesson(raw);
    // twelve tokens are too many columns for a phone's canvas (the table below has them all)
    return name === "longest" ? [[name, t, desktop]] : [[name, t, desktop], [name, t, phone]];
  });
  let checked = 0;
  for (const [name, trace, size] of cases) {
    for (let b = 0; b < BEATS.length; b++) {
      const { out, box } = fitted(trace, size, b);
      const bad = textProblems(out.shapes, box, { minSize: MIN_FONT });
      assert.deepEqual(bad.map((p) => `${p.problem}: ${p.text}`), [], `${name}, ${out.beat} at ${size.width} px`);
      checked += out.shapes.filter((sh) => sh.kind === "text").length;
    }
  }
  assert.ok(checked > 500, `checked ${checked} labels`);
});

test("textProblems finds a squeezed, a tiny and an outside label", () => {
  const shapes = [
    { kind: "text", x: 10, y: 20, text: "a long label here", size: 12, maxWidth: 30 },
    { kind: "text", x: 10, y: 40, text: "tiny", size: 8 },
    { kind: "text", x: 95, y: 60, text: "past the edge", size: 12 },
    { kind: "text", x: 10, y: 80, text: "fine", size: 12 },
  ];
  assert.deepEqual(textProblems(shapes, { width: 100, height: 100 }).map((p) => p.problem), ["squeezed", "small", "outside"]);
});

test("the Softmax and Parallel beats carry a heat legend from 0 to 1 with the shown range", () => {
  for (const key of ["softmax", "parallel"]) {
    const out = layout(river, SIZES[0], key, river.focus, WORDS);
    const texts = out.shapes.filter((sh) => sh.kind === "text").map((sh) => sh.text);
    assert.ok(texts.includes(WORDS["canvas.heat_legend"]), key);
    const shown = key === "softmax" ? river.weights[river.focus] : river.weights.flat();
    assert.ok(texts.includes(`${num(Math.min(...shown))} – ${num(Math.max(...shown))}`), `${key}: ${texts.slice(-4)}`);
  }
});

test("a row spending more than 1 (the wrong axis) keeps its budget bar inside the picture", () => {
  const t = structuredClone(river);
  t.weights[t.focus] = [0.5, 0.4, 0.3, 0.2]; // sums to 1.4, as a column softmax may
  const { out, box } = fitted(t, SIZES[0], "softmax");
  const right = Math.max(...out.shapes.filter((sh) => sh.kind === "rect" && !(sh.x === 0 && sh.y === 0)).map((sh) => sh.x + sh.w));
  assert.ok(right <= box.width - 5, `the bar ends at ${right} of ${box.width}`);
  assert.ok(out.shapes.some((sh) => sh.kind === "text" && sh.text === WORDS["canvas.budget_one"]));
});
