// The page's host for model.js: the "Toy lesson" / "Real model" tabs, and a small model
// (get/set/on/save_changes: widget_model.js) backed by /api/model/*, with its state in the URL
// beside the lesson's:
//
//   ?view=model&model.text=by+the+river+bank&model.layer=2&model.head=5&model.focus=4&model.beat=score
//
// The model view is built the first time its tab opens, so the lesson alone never loads the
// weights. The beats and the page's words come from /api/presets ("choices", "words"), a
// model's display name from its words (model.name.KEY). A 400 answer names the field at fault:
// the message goes next to that control and the last good head stays on screen; a text the
// model cannot read with no head of it shown (right after a model change) leaves the view
// empty, never another text's numbers beside the text in the box. The view's keys
// act only while its tab shows (step_view.js), so the tabs need no key handling of their own.

import { getFile, getJSON } from "./http.js";
import widget, { modelName } from "./model.js";
import { createFlights } from "./model_requests.js";
import { say } from "./words.js";
import { createModel } from "./widget_model.js";

const P = "model."; // the URL keys of this view; app.js keeps them when it writes the lesson's
const DEFAULTS = { name: "minilm", text: "by the river bank", layer: 0, head: 0, focus: null, beat: 0, word: "bank", a: "by the river bank", b: "at the savings bank" };
const FULL_GRID_MAX = 40; // up to this many tokens the grid shows whole matrices, beyond it focus rows
/**
 * How long another head or focus of the text on screen may take before the status says so. Most
 * answer sooner (a 2,048-token head in about 0.2 s): a status shown and cleared at once only
 * flickers, and each time it re-lays and repaints the whole view, at 2,048 tokens 45 ms of the
 * page's main thread right after the click, on the cores the server is computing the head on.
 */
export const STATUS_DELAY_MS = 400;
/**
 * How long the learner stays on a head before its layer's head view (/api/model/heads) is
 * asked: at 2,048 tokens it takes seconds of the server's time, and a head switch asked while it
 * runs waited behind it (9-14 s).
 */
export const HEADS_DELAY_MS = 700;
/**
 * Above this many tokens the head view is asked only when the learner asks for it: its answer
 * holds every head's n × n weights as plain JSON (at 2,048 tokens 38 million numbers, 75 s to
 * come and tens of seconds of the page's main thread to read and draw).
 */
export const HEAD_VIEW_ASK_OVER = 512;

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

/**
 * The model view's state in a URL query; anything unreadable falls back to the default.
 * @param {string} search
 * @param {{key: string}[]} [beats] the beats' keys in order (/api/presets choices)
 */
export function readModelURL(search, beats = []) {
  const q = new URLSearchParams(search);
  const get = (k) => q.get(P + k);
  const int = (k) => (/^\d+$/.test(get(k) ?? "") ? Number(get(k)) : DEFAULTS[k]);
  const beatParam = get("beat");
  const byKey = beats.findIndex((b) => b.key === beatParam);
  const focus = get("focus");
  return {
    view: q.get("view") === "model" ? "model" : "lesson",
    name: get("name") ?? DEFAULTS.name,
    text: get("text") ?? DEFAULTS.text,
    layer: int("layer"),
    head: int("head"),
    focus: focus === null || focus === "" ? null : /^\d+$/.test(focus) ? Number(focus) : focus,
    beat: byKey >= 0 ? byKey : DEFAULTS.beat,
    word: get("word") ?? DEFAULTS.word,
    a: get("a") ?? DEFAULTS.a,
    b: get("b") ?? DEFAULTS.b,
  };
}

/**
 * The current query with this view's keys replaced (the lesson's keys are kept as they are).
 * @param {string} search
 * @param {Record<string, any>} state
 * @param {{key: string}[]} [beats] the beats' keys in order
 */
export function writeModelURL(search, state, beats = []) {
  const q = new URLSearchParams(search);
  for (const key of [...q.keys()]) if (key === "view" || key.startsWith(P)) q.delete(key);
  if (state.view !== "model") return `?${q}`;
  q.set("view", "model");
  if (state.name !== DEFAULTS.name) q.set(P + "name", state.name);
  q.set(P + "text", state.text);
  q.set(P + "layer", String(state.layer));
  q.set(P + "head", String(state.head));
  if (state.focus !== null && state.focus !== undefined) q.set(P + "focus", String(state.focus));
  const beat = beats[state.beat]?.key ?? beats[0]?.key;
  if (beat) q.set(P + "beat", beat);
  for (const k of ["word", "a", "b"]) if (state[k] !== DEFAULTS[k]) q.set(P + k, state[k]);
  return `?${q}`;
}

function host(el, wanted, page, isActive) {
  const beats = page?.choices?.beats ?? [];
  const KEYS = ["name", "text", "layer", "head", "focus"];
  let good = null; // the request behind the head on screen
  let goodCompare = null;
  let asked = 0;
  let askedCompare = 0;
  let everLoaded = false;
  let statusTimer = 0; // the delayed status of the request on its way (STATUS_DELAY_MS)
  const flights = createFlights(); // a newer question of a kind withdraws the older one
  const ask = (kind, url) => getJSON(url, { signal: flights.signal(kind) });
  const state = () => Object.fromEntries([...KEYS, "beat", "word", "a", "b"].map((k) => [k, model.get(k)]));
  const writeURL = () => {
    if (!isActive()) return;
    const url = writeModelURL(location.search, { view: "model", ...(good ?? state()), beat: model.get("beat"), ...(goodCompare ?? {}) }, beats);
    if (url !== location.search) history.replaceState(null, "", url); // a 2,048-token text's URL is long: written only when it changed
  };

  const model = createModel({
    ...wanted, info: null, trace: null, grid: null, compare: null, status: "", error: null,
    compareError: null, choices: page?.choices ?? null, words: page?.words ?? null, global_keys: true,
    heads: null, mask: null, maskError: null, maskWord: "", maskHow: "mask", occ_a: 1, occ_b: 1,
    matrix: null, matrix_scale: "log", pool: "max", specials: "show", row_index: null, row: null,
    grid_color: "pattern", ranking_sort: { key: "first", descending: true },
  }, (changed) => {
    if (changed.has("name")) switchModel(model.get("name"));
    else if (KEYS.some((k) => changed.has(k))) load();
    else if (changed.has("pool") || changed.has("specials")) matrix();
    if (changed.has("row_index")) row();
    if (changed.has("heads_wanted")) views.askHeads();
    if (["word", "a", "b"].some((k) => changed.has(k))) {
      model.put("occ_a", 1); // another word or sentence: its first place again
      model.put("occ_b", 1);
    }
    if (["word", "a", "b", "occ_a", "occ_b"].some((k) => changed.has(k))) compare();
    if (["maskWord", "maskHow"].some((k) => changed.has(k))) mask();
    writeURL();
  }, { getFile });
  const views = modelViews(model, () => good, ask, flights);
  let askedMatrix = 0;
  let askedRow = 0;

  /** The head on screen (the last good request) as query parameters. */
  const headParams = () => ({ model: good.name, text: good.text, layer: String(good.layer), head: String(good.head) });

  async function matrix() {
    if (!good) return;
    const ticket = ++askedMatrix;
    const q = new URLSearchParams({ ...headParams(), pool: model.get("pool"), specials: model.get("specials") });
    const answer = await ask("matrix", `/api/model/matrix?${q}`);
    if (ticket === askedMatrix && answer.ok) model.put("matrix", answer.body);
  }

  async function row() {
    const index = model.get("row_index");
    if (!good || index === null || index === undefined) return;
    const ticket = ++askedRow;
    const answer = await ask("row", `/api/model/row?${new URLSearchParams({ ...headParams(), row: String(index) })}`);
    if (ticket === askedRow && answer.ok) model.put("row", answer.body);
  }

  async function load({ fallback = false } = {}) {
    const request = Object.fromEntries(KEYS.map((k) => [k, model.get(k)]));
    const ticket = ++asked;
    // a question this one makes moot is withdrawn: the head view of another layer or text, the
    // mask of another text or token, the whole grid of another text (each asked again after
    // this head is shown); one this head still needs (its own layer's head view) goes on
    views.supersede(request);
    if (!good || good.text !== request.text || good.name !== request.name) flights.abort("grid");
    const q = new URLSearchParams({ model: request.name, text: request.text, layer: String(request.layer), head: String(request.head) });
    if (request.focus !== null && request.focus !== undefined) q.set("focus", String(request.focus));
    const grid = model.get("grid");
    const sameText = good && good.text === request.text && good.name === request.name && grid;
    const needGrid = !sameText || (grid.kind === "focus" && grid.focus !== request.focus);
    q.set("grid", needGrid ? "focus" : "none");
    const words = model.get("words");
    clearTimeout(statusTimer);
    if (!everLoaded) model.put("status", say(words, "model.loading", { model: modelName(words, request.name) }));
    else if (sameText) statusTimer = setTimeout(() => model.put("status", say(words, "model.running")), STATUS_DELAY_MS);
    else model.put("status", say(words, "model.running")); // a new text: a whole pass
    const started = performance.now();
    const sameHead = sameText && good.layer === request.layer && good.head === request.head;
    const matrixAnswer = sameHead ? null : ask("matrix", `/api/model/matrix?${new URLSearchParams({ ...Object.fromEntries(["text", "layer", "head"].map((k) => [k, String(request[k])])), model: request.name, pool: model.get("pool"), specials: model.get("specials") })}`);
    // the followed token's row beside the matrix, asked with the head instead of after it: the
    // same text, so the token is already a position of it (a new text's focus is the answer's)
    const rowAsked = sameText && Number.isInteger(request.focus) ? { index: request.focus, ticket: ++askedRow, answer: ask("row", `/api/model/row?${new URLSearchParams({ model: request.name, text: request.text, layer: String(request.layer), head: String(request.head), row: String(request.focus) })}`) } : null;
    const answer = await ask("trace", `/api/model/trace?${q}`);
    if (ticket !== asked || answer.aborted) return; // a newer request is on its way
    clearTimeout(statusTimer);
    model.put("status", "");
    if (answer.ok) {
      everLoaded = true;
      const body = answer.body;
      // with no token asked, the answer's focus is the model's default, the text's last word
      // (models/model_trace.py last_word): the page follows it and keeps no rule of its own
      good = { ...request, focus: body.window.focus, layer: body.model.layer, head: body.model.head };
      // the Export menu's offline page: this text, head and token (the view adds the step)
      const held = { model: good.name, text: good.text, layer: String(good.layer), head: String(good.head), focus: String(good.focus) };
      model.put("export_html", `/api/export/model.html?${new URLSearchParams(held)}`);
      model.put("focus", body.window.focus);
      if (!fallback) model.put("error", null);
      const gridBody = body.grid;
      delete body.grid;
      const heldGrid = model.get("grid");
      if (gridBody) model.put("grid", gridBody);
      // the same text and focus: the grid stands (a new object would rebuild the ranking's rows)
      else if (heldGrid && heldGrid.focus !== body.window.focus) model.put("grid", { ...heldGrid, focus: body.window.focus });
      model.put("trace", body);
      if (matrixAnswer) {
        const m = await matrixAnswer;
        if (ticket !== asked) return;
        if (m.ok) model.put("matrix", m.body);
      }
      model.put("row_index", body.window.focus); // the followed token's numbers, until another row is asked
      if (rowAsked && rowAsked.index === body.window.focus) {
        const r = await rowAsked.answer;
        if (ticket !== asked) return;
        if (rowAsked.ticket === askedRow && r.ok) model.put("row", r.body); // unless another row was asked since
      } else row();
      views.afterTrace();
      model.put("shown_ms", performance.now() - started); // a head switch, measured in the page
      el.dataset.shownAt = String(performance.now()); // when this head was on screen (the tests read it)
      writeURL();
      if (model.get("grid")?.kind === "focus" && body.window.all_tokens.length <= FULL_GRID_MAX) fullGrid(q, ticket);
      return;
    }
    const field = answer.error.field;
    model.put("error", answer.error);
    // a text this model cannot read and no head of it on screen (a model change, a URL): the text
    // stays in the box and the URL, and the view stays empty (FRESH_ANSWERS) beside the message;
    // another text in its place would be numbers of a text the box does not hold
    if (field === "text" && !good) {
      writeURL();
      return;
    }
    const reset = good ?? DEFAULTS; // back to the last head that worked, the message stays
    const key = field === "model" ? "name" : field;
    if (key && key in reset) {
      model.put(key, reset[key]);
      if (key === "text") model.put("focus", reset.focus);
      if (key === "name") info(reset.name); // the model select lists the models of the one we fell back to
    }
    if (!good && field) await load({ fallback: true });
    writeURL();
  }

  const mask = () => views.mask();

  async function fullGrid(q, ticket) {
    q.set("grid", "full");
    const answer = await ask("grid", `/api/model/trace?${q}`);
    if (ticket === asked && answer.ok && answer.body.grid) model.put("grid", answer.body.grid);
  }

  async function compare() {
    const request = { word: model.get("word"), a: model.get("a"), b: model.get("b") };
    const ticket = ++askedCompare;
    const which = { occurrence_a: String(model.get("occ_a")), occurrence_b: String(model.get("occ_b")) };
    const answer = await ask("compare", `/api/model/compare?${new URLSearchParams({ model: good?.name ?? model.get("name"), ...request, ...which })}`);
    if (ticket !== askedCompare || answer.aborted) return;
    if (answer.ok) {
      goodCompare = request;
      model.put("compareError", null);
      model.put("compare", answer.body);
    } else {
      model.put("compareError", answer.error);
      const reset = goodCompare ?? DEFAULTS;
      for (const k of ["word", "a", "b"]) model.put(k, reset[k]);
      for (const k of ["occ_a", "occ_b"]) model.put(k, 1);
    }
    writeURL();
  }

  /**
   * Another model: every question of the old one withdrawn and every answer of it dropped at
   * once (FRESH_ANSWERS, FRESH_HEAD), then the new model's info, head and Compare are asked.
   */
  function switchModel(name) {
    flights.abort();
    asked++; // an answer still on its way belongs to the old model: its ticket is stale
    askedCompare++;
    askedMatrix++;
    askedRow++;
    clearTimeout(statusTimer);
    good = null;
    everLoaded = false; // the status says the new model is loading
    views.reset();
    for (const [key, value] of Object.entries({ ...FRESH_ANSWERS, ...FRESH_HEAD })) model.put(key, value);
    info(name);
    load().then(compare);
  }

  widget.render({ model, el }); // the page keeps the view for its lifetime: no cleanup to call
  function info(name) {
    ask("info", `/api/model/info?model=${encodeURIComponent(name)}`).then((answer) => {
      if (answer.ok && model.get("name") === name) model.put("info", answer.body);
    });
  }
  info(wanted.name ?? DEFAULTS.name);
  load().then(compare); // after the first head, so an unknown model name is reported once
  return { writeURL, model };
}

/**
 * The head view's and the mask panel's questions: /api/model/heads for the text and layer on
 * screen (asked again only when they change), /api/model/mask for the text and focus on screen
 * once a word to mask was given (asked again after every new trace, so its numbers never belong
 * to another text or focus). A newer question wins over an older answer.
 * @param {any} model
 * @param {() => Record<string, any> | null} current the request behind the head on screen
 */
function modelViews(model, current, ask, flights) {
  let headsKey = "";
  let askedHeads = 0;
  let askedMask = 0;
  let headsPending = false; // a head view's question is on its way
  let headsTimer = 0; // the head view is asked once the learner stays on a layer (HEADS_DELAY_MS)
  let maskKey = "";
  let wantedKey = ""; // the long text's layer whose head view the learner asked for
  const headsKeyOf = (q) => JSON.stringify([q.name, q.text, q.layer]);

  async function heads() {
    const good = current();
    if (!good) return;
    const key = headsKeyOf(good);
    if (key === headsKey) return;
    headsKey = key;
    const ticket = ++askedHeads;
    headsPending = true;
    const answer = await ask("heads", `/api/model/heads?${new URLSearchParams({ model: good.name, text: good.text, layer: String(good.layer) })}`);
    if (ticket !== askedHeads || answer.aborted) return; // withdrawn by a newer head: asked again after it
    headsPending = false;
    if (answer.ok) model.put("heads", answer.body);
    else headsKey = "";
  }

  async function mask() {
    const good = current();
    const word = (model.get("maskWord") ?? "").trim();
    if (!good || !word) return;
    const ticket = ++askedMask;
    maskKey = JSON.stringify([good.name, good.text, good.focus]);
    const q = { model: good.name, text: good.text, focus: String(good.focus), mask: word, how: model.get("maskHow") ?? "mask" };
    const answer = await ask("mask", `/api/model/mask?${new URLSearchParams(q)}`);
    if (ticket !== askedMask || answer.aborted) return;
    model.put("maskError", answer.ok ? null : answer.error);
    model.put("mask", answer.ok ? answer.body : null);
  }

  /**
   * A new head is asked: withdraw the questions it makes moot (a head view of another layer or
   * text, a mask of another text or token), so they do not hold the server ahead of it; they
   * are asked again once it is shown. The head view of its own layer is kept.
   */
  function supersede(request) {
    clearTimeout(headsTimer);
    if (headsPending && headsKeyOf(request) !== headsKey) {
      flights.abort("heads");
      headsPending = false;
      headsKey = "";
    }
    if (maskKey && maskKey !== JSON.stringify([request.name, request.text, request.focus])) flights.abort("mask");
  }

  /** The head is shown: the mask is asked now, the head view once the learner stays a moment
   * (a quick run of head switches across layers starts no layer's head view on the way). */
  function afterTrace() {
    mask();
    clearTimeout(headsTimer);
    const good = current();
    const n = model.get("trace")?.window?.n ?? 0;
    if (good && n > HEAD_VIEW_ASK_OVER && headsKeyOf(good) !== wantedKey) {
      if (headsKey !== headsKeyOf(good)) model.put("heads", null); // another layer's lines must not stay
      model.put("heads_wait", n); // the panel offers to ask (model.js)
      return;
    }
    headsTimer = setTimeout(heads, HEADS_DELAY_MS);
  }

  /** The learner asked for the long text's head view: ask it now. */
  function askHeads() {
    const good = current();
    if (!good) return;
    wantedKey = headsKeyOf(good);
    model.put("heads_wait", 0);
    heads();
  }

  /** Another model: nothing asked is remembered, every old answer is stale. */
  function reset() {
    clearTimeout(headsTimer);
    headsPending = false;
    maskKey = "";
    headsKey = "";
    askedHeads++;
    askedMask++;
  }

  return { afterTrace, mask, supersede, reset, askHeads };
}

/** Wire the tabs: show one panel, keep the choice in the URL, build the model view on first use. */
function tabs() {
  const tabLesson = document.getElementById("tab-lesson");
  const tabModel = document.getElementById("tab-model");
  const lessonPanel = document.getElementById("lesson");
  const modelPanel = document.getElementById("real-model");
  if (!tabLesson || !tabModel || !lessonPanel || !modelPanel) return;
  let page = null; // /api/presets: the beats and the words
  let wanted = readModelURL(location.search);
  let view = null;
  let current = "lesson";

  function show(which, { focus = false } = {}) {
    current = which;
    const onModel = which === "model";
    tabLesson.setAttribute("aria-selected", String(!onModel));
    tabModel.setAttribute("aria-selected", String(onModel));
    tabLesson.tabIndex = onModel ? -1 : 0;
    tabModel.tabIndex = onModel ? 0 : -1;
    lessonPanel.hidden = onModel;
    modelPanel.hidden = !onModel;
    document.body.dataset.view = which;
    if (onModel && !view) view = host(modelPanel, wanted, page, () => current === "model");
    if (onModel) view.writeURL();
    else history.replaceState(null, "", writeModelURL(location.search, { view: "lesson" }));
    if (focus) (onModel ? tabModel : tabLesson).focus();
  }
  tabLesson.addEventListener("click", () => show("lesson"));
  tabModel.addEventListener("click", () => show("model"));
  for (const tab of [tabLesson, tabModel]) {
    tab.addEventListener("keydown", (e) => {
      if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
      e.preventDefault(); // the lesson's arrow keys must not step while a tab has the key
      const toModel = e.key === "End" || ((e.key === "ArrowRight" || e.key === "ArrowLeft") && current === "lesson");
      show(toModel ? "model" : "lesson", { focus: true });
    });
  }
  getJSON("/api/presets").then((answer) => {
    page = answer.ok ? answer.body : null;
    wanted = readModelURL(location.search, page?.choices?.beats ?? []);
    if (view && page) for (const k of ["choices", "words"]) view.model.put(k, page[k]); // a tab opened early
    if (wanted.view === "model") show("model");
  });
}

if (typeof document !== "undefined") tabs(); // imported by Node's tests for the URL functions
