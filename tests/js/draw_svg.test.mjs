// draw_svg.js paints the layout's shapes as SVG: every text as a <text>, the shapes the canvas
// hides at the beat's end left out, the texts the canvas squeezes squeezed the same way.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { drawSVG, escapeXML } from "../../src/attnlab/static/draw_svg.js";
import { decodeLesson } from "../../src/attnlab/static/format.js";
import { layout } from "../../src/attnlab/static/layout.js";

const river = decodeLesson(JSON.parse(readFileSync(new URL("./lessons.json", import.meta.url), "utf8")).river);
const { words } = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8"));
const SIZE = { width: 820, height: 540 };

const texts = (svg) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

for (const beat of ["tokens", "project", "score", "softmax", "blend", "parallel"]) {
  test(`the ${beat} beat's every shown text is an SVG <text>`, () => {
    const L = layout(river, SIZE, beat, river.focus, words);
    const svg = drawSVG(L.shapes, SIZE);
    const shown = L.shapes.filter((s) => s.kind === "text" && !(s.until !== undefined && s.until <= 1));
    assert.deepEqual(texts(svg), shown.map((s) => escapeXML(s.text)));
    const count = (tag) => (svg.match(new RegExp(`<${tag}[ >]`, "g")) ?? []).length;
    assert.equal(count("rect"), L.shapes.filter((s) => s.kind === "rect").length);
    assert.equal(count("line"), L.shapes.filter((s) => s.kind === "line").length);
    assert.equal(count("path"), L.shapes.filter((s) => s.kind === "ray").length);
    assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="820" height="540"/);
  });
}

test("the blend beat's ray is a path with its arrowhead", () => {
  const L = layout(river, SIZE, "blend", river.focus, words);
  const svg = drawSVG(L.shapes, SIZE);
  assert.match(svg, /<path d="M[\d. ]+(L[\d. ]+)+" fill="none" stroke="[^"]+" stroke-width="[\d.]+" stroke-linecap="round"\/><polygon points=/);
});

test("the score beat shows the focus row's numbers as text", () => {
  const svg = drawSVG(layout(river, SIZE, "score", river.focus, words).shapes, SIZE);
  for (const shown of ["0.92 / 2", "= 0.46", "4.6 / 2", "= 2.3", "1.38 / 2", "= 0.69"]) assert.ok(texts(svg).includes(shown), shown);
});

test("a text wider than its maxWidth is squeezed, as the canvas does; others are not", () => {
  const shapes = [
    { kind: "text", x: 0, y: 10, text: "wide & long", size: 12, maxWidth: 50 },
    { kind: "text", x: 0, y: 30, text: "short", size: 12, maxWidth: 50 },
    { kind: "text", x: 0, y: 50, text: "gone", size: 12, until: 0.5 },
  ];
  const svg = drawSVG(shapes, { width: 100, height: 60 }, { measure: (t) => t.length * 7 });
  assert.match(svg, /textLength="50" lengthAdjust="spacingAndGlyphs"[^>]*>wide &amp; long</);
  assert.doesNotMatch(svg, /textLength="50"[^>]*>short</);
  assert.doesNotMatch(svg, />gone</);
});

test("a title and description name the picture", () => {
  const svg = drawSVG([], { width: 10, height: 10 }, { title: "The <lesson>", description: "a & b" });
  assert.match(svg, /<title>The &lt;lesson&gt;<\/title><desc>a &amp; b<\/desc>/);
});
