// The page's host for model.js: a small model (get/set/on/save_changes: widget_model.js) backed
// by /api/model/*, its state written to the URL (model_url.js). The beats and the page's words
// come from /api/presets ("choices", "words"), a model's display name from its words
// (model.name.KEY). A 400 answer names the field at fault: the message goes next to that
// control and the last good head stays on screen; a text the model cannot read with no head of
// it shown (right after a model change) leaves the view empty, never another text's numbers
// beside the text in the box.
//
// The host is one object `H` (hostOf) handed to small functions, one per question: the head
// (loadHead, its answer headShown, its refusal headRefused), its matrix and row, the whole
// grid, Compare, the model's info, and a model change (switchModel). Each kind of question has
// a ticket: an answer whose ticket is not the last one asked is stale and paints nothing.

import { getFile, getJSON } from "./http.js";
import widget, { modelName } from "./model.js";
import { createFlights } from "./model_requests.js";
import { STATUS_DELAY_MS } from "./model_timing.js";
import { DEFAULTS, writeModelURL } from "./model_url.js";
import { modelViews } from "./model_view_asks.js";
import { say } from "./words.js";
import { createModel } from "./widget_model.js";

const KEYS = ["name", "text", "layer", "head", "focus"]; // the keys a head is asked with
const FULL_GRID_MAX = 40; // up to this many tokens the grid shows whole matrices, beyond it focus rows

/**
 * Every answer the host holds for one model, empty. A model change puts this whole object back
 * (with FRESH_HEAD) before it asks anything of the new model: no answer of the previous model
 * (its info, head, grid, Compare, head view, mask, matrix) stays beside the next one's, and
 * the old model's layer, head and focus are never asked of the new one.
 */
export const FRESH_ANSWERS = Object.freeze({
  info: null, trace: null, grid: null, compare: null, compareError: null, heads: null, mask: null,
  maskError: null, matrix: null, row_index: null, row: null, error: null, export_html: null,
  heads_wait: 0,
});
/** The head a new model opens on: its first layer and head, the token the page picks. */
export const FRESH_HEAD = Object.freeze({ layer: 0, head: 0, focus: null });

/** The model's keys before any answer: what the URL asked, the page's words, the panels' choices. */
function initialKeys(wanted, page) {
  return {
    ...wanted, info: null, trace: null, grid: null, compare: null, status: "", error: null,
    compareError: null, choices: page?.choices ?? null, words: page?.words ?? null, global_keys: true,
    heads: null, mask: null, maskError: null, maskWord: "", maskHow: "mask", occ_a: 1, occ_b: 1,
    matrix: null, matrix_scale: "log", pool: "max", specials: "show", row_index: null, row: null,
    grid_color: "pattern", ranking_sort: { key: "first", descending: true },
  };
}

/** The host's memory: the head on screen (`good`), each kind's ticket, the status timer. */
function hostOf(el, page, isActive) {
  const flights = createFlights(); // a newer question of a kind withdraws the older one
  const beats = page?.choices?.beats ?? [];
  const H = {
    el, flights, model: null, views: null, good: null, goodCompare: null, everLoaded: false,
    statusTimer: 0, tickets: { trace: 0, compare: 0, matrix: 0, row: 0 },
    ask: (kind, url) => getJSON(url, { signal: flights.signal(kind) }),
    state: () => Object.fromEntries([...KEYS, "beat", "word", "a", "b"].map((k) => [k, H.model.get(k)])),
    writeURL: () => {
      if (!isActive()) return;
      const url = writeModelURL(location.search, { view: "model", ...(H.good ?? H.state()), beat: H.model.get("beat"), ...(H.goodCompare ?? {}) }, beats);
      if (url !== location.search) history.replaceState(null, "", url); // a 2,048-token text's URL is long: written only when it changed
    },
  };
  return H;
}

/** A new question of `kind`: its ticket. `stale(H, kind, t)`: a later one was asked since. */
const ticket = (H, kind) => ++H.tickets[kind];
const stale = (H, kind, t) => t !== H.tickets[kind];

/** The learner's choices, saved by the view: ask what they change. */
function onSave(H, changed) {
  const { model } = H;
  if (changed.has("name")) switchModel(H, model.get("name"));
  else if (KEYS.some((k) => changed.has(k))) loadHead(H);
  else if (changed.has("pool") || changed.has("specials")) askMatrix(H);
  if (changed.has("row_index")) askRow(H);
  if (changed.has("heads_wanted")) H.views.askHeads();
  if (["word", "a", "b"].some((k) => changed.has(k))) {
    model.put("occ_a", 1); // another word or sentence: its first place again
    model.put("occ_b", 1);
  }
  if (["word", "a", "b", "occ_a", "occ_b"].some((k) => changed.has(k))) askCompare(H);
  if (["maskWord", "maskHow"].some((k) => changed.has(k))) H.views.mask();
  H.writeURL();
}

/** A head (model, text, layer, head) as query parameters. */
const headParams = (r) => ({ model: r.name, text: r.text, layer: String(r.layer), head: String(r.head) });
const matrixURL = (H, r) => `/api/model/matrix?${new URLSearchParams({ ...headParams(r), pool: H.model.get("pool"), specials: H.model.get("specials") })}`;
const rowURL = (r, index) => `/api/model/row?${new URLSearchParams({ ...headParams(r), row: String(index) })}`;

/** The head on screen's whole matrix, with the pooling and specials chosen. */
async function askMatrix(H) {
  if (!H.good) return;
  const t = ticket(H, "matrix");
  const answer = await H.ask("matrix", matrixURL(H, H.good));
  if (!stale(H, "matrix", t) && answer.ok) H.model.put("matrix", answer.body);
}

/** The asked row's numbers (row_index) of the head on screen. */
async function askRow(H) {
  const index = H.model.get("row_index");
  if (!H.good || index === null || index === undefined) return;
  const t = ticket(H, "row");
  const answer = await H.ask("row", rowURL(H.good, index));
  if (!stale(H, "row", t) && answer.ok) H.model.put("row", answer.body);
}

/** The trace's query for `request`, and whether it is of the text (and head) on screen. */
function headQuery(H, request) {
  const { good } = H;
  const q = new URLSearchParams(headParams(request));
  if (request.focus !== null && request.focus !== undefined) q.set("focus", String(request.focus));
  const grid = H.model.get("grid");
  const sameText = Boolean(good && good.text === request.text && good.name === request.name && grid);
  const needGrid = !sameText || (grid.kind === "focus" && grid.focus !== request.focus);
  q.set("grid", needGrid ? "focus" : "none");
  return { q, sameText, sameHead: sameText && good.layer === request.layer && good.head === request.head };
}

/** The status while a head is asked: at once for a model's first head or a new text, late for
 * another head of the text on screen (STATUS_DELAY_MS). */
function showAsking(H, request, sameText) {
  const { model } = H;
  const words = model.get("words");
  clearTimeout(H.statusTimer);
  if (!H.everLoaded) model.put("status", say(words, "model.loading", { model: modelName(words, request.name) }));
  else if (sameText) H.statusTimer = setTimeout(() => model.put("status", say(words, "model.running")), STATUS_DELAY_MS);
  else model.put("status", say(words, "model.running")); // a new text: a whole pass
}

/** Ask the head the model holds now; its matrix and the followed token's row go with it. */
async function loadHead(H, { fallback = false } = {}) {
  const request = Object.fromEntries(KEYS.map((k) => [k, H.model.get(k)]));
  const t = ticket(H, "trace");
  // a question this one makes moot is withdrawn: the head view of another layer or text, the
  // mask of another text or token, the whole grid of another text (each asked again after
  // this head is shown); one this head still needs (its own layer's head view) goes on
  H.views.supersede(request);
  if (!H.good || H.good.text !== request.text || H.good.name !== request.name) H.flights.abort("grid");
  const { q, sameText, sameHead } = headQuery(H, request);
  showAsking(H, request, sameText);
  const started = performance.now();
  const matrix = sameHead ? null : H.ask("matrix", matrixURL(H, request));
  // the followed token's row beside the matrix, asked with the head instead of after it: the
  // same text, so the token is already a position of it (a new text's focus is the answer's)
  const row = sameText && Number.isInteger(request.focus) ? { index: request.focus, ticket: ticket(H, "row"), answer: H.ask("row", rowURL(request, request.focus)) } : null;
  const answer = await H.ask("trace", `/api/model/trace?${q}`);
  if (stale(H, "trace", t) || answer.aborted) return; // a newer request is on its way
  clearTimeout(H.statusTimer);
  H.model.put("status", "");
  if (answer.ok) await headShown(H, { request, body: answer.body, t, q, started, matrix, row, fallback });
  else await headRefused(H, answer.error);
}

/** The head came: it goes on screen with its grid, matrix and row, then the views' questions. */
async function headShown(H, { request, body, t, q, started, matrix, row, fallback }) {
  const { model } = H;
  H.everLoaded = true;
  // with no token asked, the answer's focus is the model's default, the text's last word
  // (models/model_trace.py last_word): the page follows it and keeps no rule of its own
  const focus = body.window.focus;
  H.good = { ...request, focus, layer: body.model.layer, head: body.model.head };
  // the Export menu's offline page: this text, head and token (the view adds the step)
  model.put("export_html", `/api/export/model.html?${new URLSearchParams({ ...headParams(H.good), focus: String(focus) })}`);
  model.put("focus", focus);
  if (!fallback) model.put("error", null);
  const gridBody = body.grid;
  delete body.grid;
  const heldGrid = model.get("grid");
  if (gridBody) model.put("grid", gridBody);
  // the same text and focus: the grid stands (a new object would rebuild the ranking's rows)
  else if (heldGrid && heldGrid.focus !== focus) model.put("grid", { ...heldGrid, focus });
  model.put("trace", body);
  if (matrix) {
    const m = await matrix;
    if (stale(H, "trace", t)) return;
    if (m.ok) model.put("matrix", m.body);
  }
  model.put("row_index", focus); // the followed token's numbers, until another row is asked
  if (row && row.index === focus) {
    const r = await row.answer;
    if (stale(H, "trace", t)) return;
    if (!stale(H, "row", row.ticket) && r.ok) model.put("row", r.body); // unless another row was asked since
  } else askRow(H);
  H.views.afterTrace();
  model.put("shown_ms", performance.now() - started); // a head switch, measured in the page
  H.el.dataset.shownAt = String(performance.now()); // when this head was on screen (the tests read it)
  H.writeURL();
  if (model.get("grid")?.kind === "focus" && body.window.all_tokens.length <= FULL_GRID_MAX) fullGrid(H, q, t);
}

/** The head was refused: the message stays, the choice at fault goes back to the last good head. */
async function headRefused(H, error) {
  const { model } = H;
  const field = error.field;
  model.put("error", error);
  // a text this model cannot read and no head of it on screen (a model change, a URL): the text
  // stays in the box and the URL, and the view stays empty (FRESH_ANSWERS) beside the message;
  // another text in its place would be numbers of a text the box does not hold
  if (field === "text" && !H.good) {
    H.writeURL();
    return;
  }
  const reset = H.good ?? DEFAULTS; // back to the last head that worked, the message stays
  const key = field === "model" ? "name" : field;
  if (key && key in reset) {
    model.put(key, reset[key]);
    if (key === "text") model.put("focus", reset.focus);
    if (key === "name") askInfo(H, reset.name); // the model select lists the models of the one we fell back to
  }
  if (!H.good && field) await loadHead(H, { fallback: true });
  H.writeURL();
}

/** A short text's grid of whole matrices, after its head is on screen. */
async function fullGrid(H, q, t) {
  q.set("grid", "full");
  const answer = await H.ask("grid", `/api/model/trace?${q}`);
  if (!stale(H, "trace", t) && answer.ok && answer.body.grid) H.model.put("grid", answer.body.grid);
}

/** Compare contexts: the word in two sentences; a refusal puts the last good ones back. */
async function askCompare(H) {
  const { model } = H;
  const request = { word: model.get("word"), a: model.get("a"), b: model.get("b") };
  const t = ticket(H, "compare");
  const which = { occurrence_a: String(model.get("occ_a")), occurrence_b: String(model.get("occ_b")) };
  const answer = await H.ask("compare", `/api/model/compare?${new URLSearchParams({ model: H.good?.name ?? model.get("name"), ...request, ...which })}`);
  if (stale(H, "compare", t) || answer.aborted) return;
  if (answer.ok) {
    H.goodCompare = request;
    model.put("compareError", null);
    model.put("compare", answer.body);
  } else {
    model.put("compareError", answer.error);
    const reset = H.goodCompare ?? DEFAULTS;
    for (const k of ["word", "a", "b"]) model.put(k, reset[k]);
    for (const k of ["occ_a", "occ_b"]) model.put(k, 1);
  }
  H.writeURL();
}

/**
 * Another model: every question of the old one withdrawn and every answer of it dropped at
 * once (FRESH_ANSWERS, FRESH_HEAD), then the new model's info, head and Compare are asked.
 */
function switchModel(H, name) {
  H.flights.abort();
  for (const kind of Object.keys(H.tickets)) ticket(H, kind); // an answer on its way belongs to the old model
  clearTimeout(H.statusTimer);
  H.good = null;
  H.everLoaded = false; // the status says the new model is loading
  H.views.reset();
  for (const [key, value] of Object.entries({ ...FRESH_ANSWERS, ...FRESH_HEAD })) H.model.put(key, value);
  askInfo(H, name);
  loadHead(H).then(() => askCompare(H));
}

/** A model's sizes and limits, kept only while that model is still the one chosen. */
function askInfo(H, name) {
  H.ask("info", `/api/model/info?model=${encodeURIComponent(name)}`).then((answer) => {
    if (answer.ok && H.model.get("name") === name) H.model.put("info", answer.body);
  });
}

/**
 * Build the Real model view in `el`, backed by the API. The page keeps the view for its
 * lifetime: there is no cleanup to call. @returns {{writeURL: () => void, model: any}}
 */
export function host(el, wanted, page, isActive) {
  const H = hostOf(el, page, isActive);
  H.model = createModel(initialKeys(wanted, page), (changed) => onSave(H, changed), { getFile });
  H.views = modelViews(H.model, () => H.good, H.ask, H.flights);
  widget.render({ model: H.model, el });
  askInfo(H, wanted.name ?? DEFAULTS.name);
  loadHead(H).then(() => askCompare(H)); // after the first head, so an unknown model name is reported once
  return { writeURL: H.writeURL, model: H.model };
}
