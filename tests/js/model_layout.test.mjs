// model_layout.js: the Real model view's pictures as data, checked without a browser.
// model_trace.json is /api/model/trace?text=by the river bank&layer=2&head=5&focus=bank&grid=focus
// (readings dropped, numbers rounded to 4 decimals); model_compare.json the cosine part of
// /api/model/compare with its defaults.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeLesson, num } from "../../src/attnlab/static/format.js";
import {
  absMax, argmax, beatKeys, reachOf, beatLayout, cosinePlot, diverging, miniHeat, pictureHeight, ropePlot, rowHeight, shortVec,
} from "../../src/attnlab/static/model_layout.js";

const RAW = JSON.parse(readFileSync(new URL("./model_trace.json", import.meta.url), "utf8"));
const trace = decodeLesson(RAW);
const CMP = JSON.parse(readFileSync(new URL("./model_compare.json", import.meta.url), "utf8"));
const WORDS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).words;
const WIDTHS = [900, 420];
const BEATS = beatKeys(trace);

/** A trace of n tokens made from the real one, rows repeated: the shapes of a long text. */
function long(n) {
  const pick = (rows) => Array.from({ length: n }, (_, i) => rows[i % rows.length]);
  const t = structuredClone(trace);
  t.tokens = Array.from({ length: n }, (_, i) => `tok${i}`);
  for (const k of ["embeddings", "queries", "keys", "values", "outputs"]) t[k] = pick(trace[k]);
  for (const k of ["raw_scores", "scores", "weights"]) t[k] = pick(trace[k]).map((row) => pick(row));
  t.focus = n - 1;
  t.pair = [n - 1, 0];
  return t;
}

const texts = (out) => out.shapes.filter((s) => s.kind === "text").map((s) => s.text);

test("every beat lays out inside the canvas, for 6 and for 128 tokens", () => {
  for (const t of [trace, long(128)]) {
    for (const width of WIDTHS) {
      BEATS.forEach((key, b) => {
        const size = { width, height: pictureHeight(t.tokens.length, width, key) };
        const out = beatLayout(t, size, b, t.focus, WORDS);
        assert.equal(out.beat, key);
        assert.equal(out.description, t.captions.beats[key].description, "the canvas's name is the trace's caption");
        for (const s of out.shapes) {
          for (const k of ["x", "y", "w", "h", "x1", "y1", "x2", "y2"]) {
            if (s[k] !== undefined) assert.ok(Number.isFinite(s[k]), `${key} ${s.kind}.${k} = ${s[k]}`);
          }
          if (s.kind === "strip") assert.ok(s.colors.every((c) => /^#[0-9a-f]{6}$/.test(c)), `${key}: a strip colour`);
          if ((s.kind === "rect" || s.kind === "strip") && s.w < width) {
            assert.ok(s.x >= -1 && s.x + s.w <= width + 1, `${key}: a rect leaves the canvas at x=${s.x}`);
            assert.ok(s.y >= -1 && s.y + s.h <= size.height + 1, `${key}: a rect leaves the canvas at y=${s.y}`);
          }
        }
      });
    }
  }
});

test("a vector is one strip with a colour per entry: 384 for a layer's input, 32 for q, k, v", () => {
  const strips = (b) => beatLayout(trace, { width: 900, height: 400 }, b, trace.focus).shapes.filter((s) => s.kind === "strip");
  assert.deepEqual([...new Set(strips(0).map((s) => s.colors.length))], [384]);
  assert.equal(strips(0).length, trace.tokens.length);
  assert.deepEqual([...new Set(strips(1).map((s) => s.colors.length))], [32]);
  assert.equal(strips(1).length, 3 * trace.tokens.length);
});

test("a long text keeps its rows readable: the picture grows instead", () => {
  assert.ok(rowHeight(128) >= 14);
  assert.ok(pictureHeight(128, 900, "score") > 128 * 14);
  assert.ok(pictureHeight(6, 900, "score") < 400);
});

test("the Score beat prints q·k / √32 = score with the API's numbers for every key", () => {
  const out = beatLayout(trace, { width: 900, height: 400 }, 2, trace.focus, WORDS);
  const f = trace.focus;
  const div = num(trace.divisor);
  assert.equal(div, "5.66");
  trace.tokens.forEach((_, j) => {
    assert.ok(texts(out).includes(`${num(trace.raw_scores[f][j])} / ${div} = ${num(trace.scores[f][j])}`));
  });
  assert.ok(texts(out).some((s) => s.includes("√32 = 5.66")));
});

test("the Softmax beat prints each weight of the focus row; Blend points at the largest", () => {
  const f = trace.focus;
  const soft = beatLayout(trace, { width: 900, height: 400 }, 3, f);
  for (const w of trace.weights[f]) assert.ok(texts(soft).includes(num(w)));
  const blend = beatLayout(trace, { width: 900, height: 400 }, 4, f, WORDS);
  const best = argmax(trace.weights[f]);
  assert.deepEqual(blend.ray, { from: f, to: best });
  assert.ok(blend.description.includes(trace.tokens[best]));
  assert.ok(texts(blend).some((s) => s.includes(shortVec(trace.outputs[f], 5))));
});

test("the Parallel beat draws the n × n matrix, each cell heat-coloured, and names the pair", () => {
  const size = { width: 900, height: pictureHeight(6, 900, "parallel") };
  const out = beatLayout(trace, size, 5, trace.focus, WORDS);
  const n = trace.tokens.length;
  const cells = out.shapes.filter((s) => s.kind === "rect" && s.fill && s.w < 60 && s.w > 10);
  assert.equal(cells.length, n * n);
  const [i, j] = trace.pair;
  assert.ok(out.description.includes(num(trace.weights[i][j])));
  // the pair read both ways, in the captions' words, and the note on why they differ
  const pair = out.shapes.filter((s) => s.kind === "text" && s.text.startsWith(RAW.captions.pair[0]));
  assert.equal(pair.length, 1);
  assert.ok(pair[0].text.includes(RAW.captions.pair[1]));
  const note = out.shapes.find((s) => s.kind === "text" && s.text === RAW.captions.beats.parallel.notes[0]);
  assert.ok(note && note.y > pair[0].y && note.y < size.height, "the note sits under the pair, inside the canvas");
});

test("a long text's matrix labels some rows, never overlapping, and always the focus", () => {
  const t = long(128);
  const out = beatLayout(t, { width: 900, height: pictureHeight(128, 900, "parallel") }, 5, t.focus);
  const labels = out.shapes.filter((s) => s.kind === "text" && /^tok\d+$/.test(s.text)).map((s) => s.y);
  assert.ok(labels.length > 10 && labels.length < 128);
  for (let k = 1; k < labels.length; k++) assert.ok(labels[k] - labels[k - 1] >= 9.5, "labels keep apart");
  assert.ok(out.shapes.some((s) => s.text === `tok${t.focus}`));
});

test("a focus or a beat out of range is refused with the numbers", () => {
  assert.throws(() => beatLayout(trace, { width: 900, height: 400 }, 6, 0), /unknown beat 6/);
  assert.throws(() => beatLayout(trace, { width: 900, height: 400 }, 0, 9), /focus 9 is outside 0..5/);
});

test("vectors are written short, colours diverge around 0", () => {
  assert.equal(shortVec([1, 2]), "[1, 2]");
  assert.equal(shortVec([1.234, -2, 3, 4, 5, 6.789]), "[1.23, -2, 3, 4, …, 6.79]");
  assert.equal(diverging(0, 1), "#ffffff");
  assert.notEqual(diverging(1, 1), diverging(-1, 1));
  assert.equal(absMax([[0, -3], [2]]), 3);
  assert.equal(absMax([0, 0]), 1);
  const outlier = [...Array.from({ length: 99 }, (_, k) => (k % 2 ? 0.5 : -0.5)), 40];
  assert.equal(reachOf(outlier), 0.5, "one huge entry does not set the scale");
  assert.equal(diverging(40, reachOf(outlier)), diverging(0.5, 0.5));
});

test("the heads grid's small heatmaps: a matrix cell per weight, or one row as a band", () => {
  const full = miniHeat(trace.weights, { width: 38, height: 38 }, trace.focus);
  const n = trace.tokens.length;
  assert.equal(full.filter((s) => s.fill && s.w < 38).length, n * n);
  assert.ok(full.some((s) => s.stroke), "the focus row is outlined");
  const band = miniHeat(RAW.grid.rows[2][5], { width: 38, height: 38 });
  assert.equal(band.length, 1 + n);
  assert.ok(band.slice(1).some((r) => r.fill === "#081d58"), "the row's largest weight is the darkest colour");
  const longRow = Array.from({ length: 122 }, (_, j) => (j === 121 ? 0.5 : 0.5 / 121));
  const wrapped = miniHeat(longRow, { width: 30, height: 30 }).slice(1);
  assert.equal(wrapped.length, 122);
  assert.ok(wrapped.every((r) => r.w >= 2.5 && r.x + r.w <= 30.5 && r.y + r.h <= 30.5), "every token a visible cell");
  assert.equal(wrapped[121].fill, "#081d58");
});

test("the cosine plot: one labelled point per layer, axes named, the y range shown", () => {
  const size = { width: 520, height: 230 };
  const plot = cosinePlot(CMP.cosine, CMP.cosine_labels, size, WORDS);
  assert.equal(plot.points.length, CMP.cosine.length);
  const values = plot.shapes.filter((s) => s.role === "value").map((s) => s.text);
  assert.deepEqual(values, CMP.cosine.map((c) => num(c)));
  const xt = plot.shapes.filter((s) => s.role === "x-tick").map((s) => s.text);
  assert.deepEqual(xt, ["in", "0", "1", "2", "3", "4", "5"]);
  assert.deepEqual(plot.shapes.filter((s) => s.role === "y-tick").map((s) => s.text), ["0", "0.25", "0.5", "0.75", "1"]);
  assert.ok(plot.shapes.some((s) => s.role === "x-title" && s.text.startsWith("layer")));
  assert.ok(plot.shapes.some((s) => s.role === "y-title" && s.text.includes("0 to 1")));
  // higher cosine, higher point; every point inside the plot
  const [p0, ...rest] = plot.points;
  for (const p of rest) if (p.value < p0.value) assert.ok(p.y > p0.y);
  for (const p of plot.points) assert.ok(p.x > 0 && p.x < size.width && p.y > 0 && p.y < size.height);
  const negative = cosinePlot([1, -0.5], ["embeddings", "layer 0"], size, WORDS);
  assert.ok(negative.shapes.some((s) => s.role === "y-title" && s.text.includes("-1 to 1")));
});

test("each beat's title is the trace's caption heading (words/captions.py)", () => {
  for (const key of BEATS) {
    const out = beatLayout(trace, { width: 900, height: pictureHeight(6, 900, key) }, key, trace.focus, WORDS);
    assert.equal(texts(out)[0], RAW.captions.beats[key].heading);
    assert.ok(texts(out)[1], `${key}: a subtitle from the page's words`);
    assert.ok(!texts(out).some((t) => /undefined|\{\w+\}/.test(t)), `${key}: every template filled`);
  }
});

test("RoPE's curve is one polyline through a point per pixel column, the used distance marked", () => {
  // at 2,048 distances the curve was ~700 separate line shapes (as many SVG elements, built
  // again on every head switch)
  const scores = Array.from({ length: 2048 }, (_, d) => Math.cos(d / 50));
  const size = { width: 620, height: 250 };
  const { shapes } = ropePlot(scores, 300, size, WORDS);
  const curves = shapes.filter((s) => s.role === "curve");
  assert.equal(curves.length, 1);
  assert.equal(curves[0].kind, "polyline");
  const every = Math.floor(2048 / (620 - 56 - 18));
  assert.equal(curves[0].points.length, Math.ceil(2048 / every));
  const [x0, y0] = curves[0].points[0];
  assert.equal(x0, 56);
  assert.ok(Math.abs(y0 - (250 - 44 - ((1 - Math.min(...scores)) / (Math.max(...scores) - Math.min(...scores))) * (250 - 34 - 44))) < 1e-9);
  assert.equal(shapes.filter((s) => s.role === "used").length, 1);
});
