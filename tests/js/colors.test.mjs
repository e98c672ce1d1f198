// colors.js: every colour of the lesson's and the lab's files is named there, once; the
// stylesheets use the same colours through the custom properties style.css declares.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { COLORS, CSS_COLORS, heat, inkOn, PLOT, SERIES } from "../../src/attnlab/static/colors.js";

const STATIC = new URL("../../src/attnlab/static/", import.meta.url);
const read = (name) => readFileSync(new URL(name, STATIC), "utf8");
/** The lesson's, the lab's, the drawers' and the hosts' files (the model view's are apart). */
const OURS = /^(lesson|lab|layout|draw|picture|plots|present|step|app|notebook|widget_model)[\w]*\.(js|css)$|^style\.css$/;
const LITERAL = /#[0-9a-fA-F]{3,8}\b|rgba?\(/g;

test("no file of the lesson or the lab writes a colour: colors.js names each", () => {
  const files = readdirSync(STATIC).filter((f) => OURS.test(f));
  assert.ok(files.includes("lesson.js") && files.includes("lab.css") && files.includes("draw.js"), files.join(" "));
  const found = [];
  for (const name of files) {
    let text = read(name).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    if (name === "style.css") text = text.replace(/:root\s*\{[^}]*\}/, ""); // the declarations
    for (const m of text.matchAll(LITERAL)) found.push(`${name}: ${m[0]}`);
  }
  assert.deepEqual(found, []);
});

test("style.css declares exactly colors.js's CSS_COLORS, and the stylesheets use only those", () => {
  const root = /:root\s*\{([^}]*)\}/.exec(read("style.css"))[1];
  const declared = Object.fromEntries([...root.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
  assert.deepEqual(declared, { ...CSS_COLORS });
  for (const name of ["style.css", "lab.css", "present.css"]) {
    for (const m of read(name).matchAll(/var\((--[\w-]+)/g)) assert.ok(m[1] in CSS_COLORS, `${name} uses ${m[1]}, which style.css does not declare`);
  }
});

test("the colours are well formed, and the heat scale, its ink and the plots use them", () => {
  for (const c of [...Object.values(COLORS), ...SERIES, ...Object.values(PLOT)]) assert.match(c, /^#[0-9a-f]{6}$/);
  assert.equal(heat(Number.NaN), COLORS.notANumber);
  assert.equal(inkOn(1), COLORS.paper); // white on the darkest blue
  assert.equal(inkOn(0), COLORS.black);
  assert.equal(PLOT.fit, COLORS.muted);
  assert.equal(CSS_COLORS["--ink"], COLORS.ink);
});
