// The Atlas view's layout on /api/atlas's answer (tests/js/atlas.json, the pattern model's
// hand-built heads): the picture's cells carry the answer's means and ranks, the colour scale
// spans its range, the table sorts both ways with heads without a value last, the card ranks a
// head among the model's, and an exemplar's link opens the Real model view on it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  ariaSort, cardLines, exemplarsOf, fill, gridCells, nextSort, realModelHref, scaled, shown, sortRows, statisticOf, tableRows,
} from "../../src/attnlab/static/atlas_layout.js";
import { readModelURL } from "../../src/attnlab/static/model_url.js";

const atlas = JSON.parse(readFileSync(new URL("./atlas.json", import.meta.url), "utf8"));
const previous = statisticOf(atlas, "previous");

test("the picture's cells are the answer's means and ranks, coloured over its range", () => {
  const cells = gridCells(previous);
  assert.equal(cells.length, atlas.layers);
  assert.equal(cells[0].length, atlas.heads);
  for (const row of cells) for (const c of row) {
    assert.equal(c.value, previous.means[c.layer][c.head]);
    assert.equal(c.rank, previous.ranks[c.layer][c.head]);
  }
  assert.equal(cells[0][0].value, 1); // layer 0 head 0 is the hand-built previous-token head
  assert.equal(cells[0][0].rank, 1);
  assert.equal(scaled(previous.high, previous.low, previous.high), 1);
  assert.equal(scaled(previous.low, previous.low, previous.high), 0);
  assert.notEqual(cells[0][0].fill, gridCells(previous)[1][1].fill);
});

test("a statistic with no value anywhere keeps its cells grey and its range empty", () => {
  const induction = statisticOf(atlas, "induction");
  assert.ok(induction.means.flat().every((x) => x !== null)); // the probes ran
  const none = { ...previous, means: previous.means.map((r) => r.map(() => null)), low: null, high: null };
  assert.ok(Number.isNaN(scaled(null, null, null)));
  assert.equal(new Set(gridCells(none).flat().map((c) => c.fill)).size, 1);
  assert.equal(shown(null, "no value"), "no value");
});

test("the table sorts largest first, reverses, and puts heads without a value last", () => {
  const rows = tableRows(atlas);
  assert.equal(rows.length, atlas.layers * atlas.heads);
  const c = atlas.statistics.indexOf(previous);
  const down = sortRows(rows, { column: c, descending: true }).map((r) => r.values[c]);
  assert.deepEqual(down, [...down].sort((a, b) => b - a));
  const up = sortRows(rows, { column: c, descending: false }).map((r) => r.values[c]);
  assert.deepEqual(up, [...up].sort((a, b) => a - b));
  const holed = rows.map((r, i) => (i === 0 ? { ...r, values: r.values.map(() => null) } : r));
  for (const descending of [true, false]) {
    const sorted = sortRows(holed, { column: c, descending });
    assert.equal(sorted.at(-1).values[c], null);
  }
  const byHead = sortRows(rows, { column: "head", descending: false });
  assert.deepEqual([byHead[0].layer, byHead[0].head, byHead.at(-1).layer], [0, 0, atlas.layers - 1]);
});

test("a header press sorts a new column largest first and reverses the same one", () => {
  const sort = { column: 2, descending: true };
  assert.deepEqual(nextSort(2, sort), { column: 2, descending: false });
  assert.deepEqual(nextSort(4, sort), { column: 4, descending: true });
  assert.deepEqual(nextSort("head", sort), { column: "head", descending: false });
  assert.equal(ariaSort(2, sort), "descending");
  assert.equal(ariaSort(3, sort), "none");
  assert.equal(ariaSort(2, { column: 2, descending: false }), "ascending");
});

test("the card ranks a head among the model's heads, every statistic", () => {
  const lines = cardLines(atlas, 1, 1); // the hand-built self head
  assert.equal(lines.length, atlas.statistics.length);
  const self = lines.find((l) => l.key === "self");
  assert.equal(self.value, 1);
  assert.equal(self.rank, 1);
  assert.equal(self.of, atlas.layers * atlas.heads);
  assert.equal(self.marks.length, self.of);
  assert.equal(self.at, 1);
});

test("an exemplar's link opens the Real model view on its text, head and token", () => {
  const found = exemplarsOf(atlas, previous, 0, 0);
  assert.ok(found.length > 0);
  assert.equal(found[0].passage, atlas.passages[found[0].text]);
  const state = readModelURL(realModelHref(atlas, 0, 0, found[0]));
  assert.deepEqual(
    { view: state.view, name: state.name, text: state.text, layer: state.layer, head: state.head, focus: state.focus },
    { view: "model", name: atlas.real_model, text: found[0].passage, layer: 0, head: 0, focus: found[0].position },
  );
  assert.equal(realModelHref({ ...atlas, real_model: null }, 0, 0, found[0]), null);
  assert.equal(fill("L{layer} H{head} {x}", { layer: 2, head: 3 }), "L2 H3 {x}");
});

test("the tab's state rides in the URL beside the lesson's keys, the Real model's left", async () => {
  const { readAtlasURL, writeAtlasURL } = await import("../../src/attnlab/static/atlas_app.js");
  const search = writeAtlasURL("?sentence=by+the+river+bank&model.text=x&view=model", { name: "m", statistic: "sink", layer: 2, head: 5 });
  const q = new URLSearchParams(search);
  assert.equal(q.get("sentence"), "by the river bank");
  assert.equal(q.get("model.text"), null);
  assert.deepEqual(readAtlasURL(search), { view: "atlas", name: "m", statistic: "sink", layer: 2, head: 5 });
  assert.deepEqual(readAtlasURL("?atlas.layer=-1&atlas.head=x"), { view: null, name: null, statistic: null, layer: 0, head: 0 });
});
