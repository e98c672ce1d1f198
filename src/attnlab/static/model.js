// The Real model view: export default { render({ model, el }) }, the anywidget shape like
// lesson.js; render returns the cleanup that undoes every subscription (scope.js).
//
// The model holds what the learner chose ("name", "text", "layer", "head", "focus", "beat",
// "word", "a", "b"; the view writes these) and what the host fetched ("info": /api/model/info,
// "trace": one head's /api/model/trace answer, "grid": every head at a glance, "compare": the
// /api/model/compare answer, "status", "error", "compareError", "choices" and "words": the
// page's beats and fixed words from /api/presets, "global_keys"). This module builds the
// controls, the steps (step_view.js, shared with the lesson), the picture and the Real attention
// weights table, and places the heads grid (model_grid.js) and the Compare contexts panel
// (model_compare.js). It touches only `el` and computes no attention: every number shown is the
// API's, formatted by format.js. Text goes in with textContent only.

import { heat, inkOn, rgb } from "./colors.js";
import { fillWords, h } from "./dom.js";
import { draw, drawMessage } from "./draw.js";
import { exportMenu } from "./export_menu.js";
import { num } from "./format.js";
import { headView } from "./head_view.js";
import { comparePanel } from "./model_compare.js";
import { headsGrid } from "./model_grid.js";
import { MASKED } from "./matrix_picture.js";
import { decoderPanel } from "./model_decoder.js";
import { matrixPanel } from "./model_matrix.js";
import { rankingPanel } from "./model_ranking.js";
import { decodeModelTrace } from "./packed.js";
import { field } from "./model_dom.js";
import { beatLayout, pictureHeight } from "./model_layout.js";
import { maskPanel } from "./model_mask.js";
import { createMotion, fitCanvas } from "./picture.js";
import { createScope } from "./scope.js";
import { stepView } from "./step_view.js";
import { TYPING } from "./stepper.js";
import { readableCells } from "./weights_table.js";
import { say } from "./words.js";

const ANIMATION_MS = 1500;
const PLAY_STEP_MS = 3800;
let instances = 0;

/** A model's display name: the page's words for it (model.name.KEY), else its key. */
export const modelName = (words, key) => say(words, `model.name.${key}`) || key;

function build(model, commit, pickHead) {
  const id = `rm${++instances}`;
  const ui = { id };
  // --- settings --------------------------------------------------------------------------------
  // a textarea: a 100-word text reads whole; Enter runs the model as the one-line box did,
  // Shift+Enter starts a new line (said under the box)
  ui.text = h("textarea", { rows: 3, autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-text-help ${id}-text-keys` });
  ui.textHelp = h("p", { id: `${id}-text-help`, class: "help" });
  ui.textKeys = h("p", { id: `${id}-text-keys`, class: "help", "data-words": "model.text_keys" });
  const textField = field(`${id}-text`, "model.text", ui.text);
  ui.textErr = textField.err;
  ui.textForm = h("form", { class: "field own rm-text" }, [
    h("label", { for: `${id}-text`, "data-words": "model.text" }),
    h("div", { class: "inline" }, [ui.text, h("button", { type: "submit", "data-words": "model.run" })]),
    ui.textErr,
    ui.textHelp,
    ui.textKeys,
  ]);
  ui.name = h("select");
  const nameField = field(`${id}-name`, "model.model", ui.name);
  ui.nameErr = nameField.err;
  ui.layer = h("select");
  const layerField = field(`${id}-layer`, "model.layer", ui.layer);
  ui.layerErr = layerField.err;
  ui.head = h("select");
  const headField = field(`${id}-head`, "model.head", ui.head);
  ui.headErr = headField.err;
  ui.status = h("p", { class: "rm-status", role: "status", "data-words-label": "model.status" });
  ui.banner = h("p", { class: "banner", role: "alert", hidden: true });

  // --- the heads grid ------------------------------------------------------------------------
  ui.heads = headsGrid(model, id, pickHead, commit);
  ui.ranking = rankingPanel(model, id, pickHead, commit);

  // --- the stepper, the tokens, the picture and the table ----------------------------------------
  ui.nav = h("div", { class: "nav" });
  ui.side = h("div", { class: "side" });
  ui.tokens = h("div", { class: "tokens rm-tokens" });
  ui.focusErr = h("p", { class: "field-error", role: "alert" });
  ui.canvas = h("canvas", { role: "img", "data-words-label": "model.canvas.name" });
  ui.canvasWrap = h("div", { class: "canvas-wrap rm-picture" }, [ui.canvas]);
  ui.table = h("table", { class: "weights rm-weights", "data-words-label": "model.table_name" });
  ui.readout = h("p", { class: "readout", "aria-live": "polite", "data-words": "table.readout_hint" });
  ui.which = h("p", { class: "rm-which" });
  ui.pieces = h("p", { class: "rm-pieces", hidden: true }); // how a word of several pieces is followed
  ui.compare = comparePanel(model, id, commit);
  ui.headView = headView(model, id);
  ui.mask = maskPanel(model, id, commit);
  ui.matrix = matrixPanel(model, id, commit);
  ui.decoder = decoderPanel(model, id);
  ui.windowNote = h("p", { class: "rm-window-note" });
  ui.gqa = h("p", { class: "rm-gqa" });
  ui.intro = h("p", { class: "rm-intro" });

  // on a wide screen the heads grid sits beside the settings and the steps, so the picture
  // below starts on the first screen
  ui.root = h("div", { class: "rm" }, [
    h("div", { class: "rm-top" }, [
      h("div", { class: "rm-left" }, [
        ui.intro,
        h("section", { class: "controls", "data-words-label": "model.settings" }, [ui.textForm, nameField.box, layerField.box, headField.box, ui.status]),
        ui.banner,
        ui.nav,
        h("div", { class: "focus-bar rm-focus", role: "group", "aria-labelledby": `${id}-focus-label` }, [
          h("span", { id: `${id}-focus-label`, class: "focus-label", "data-words": "steps.focus" }),
          ui.tokens,
          ui.focusErr,
        ]),
        ui.which,
        ui.pieces,
        ui.gqa,
      ]),
      ui.heads.el,
    ]),
    ui.windowNote,
    h("div", { class: "stage rm-stage" }, [
      h("div", { class: "picture" }, [ui.canvasWrap]),
      ui.side,
    ]),
    ui.matrix.el,
    ui.decoder.el,
    ui.ranking.el,
    ui.headView.el,
    ui.mask.el,
    ui.compare.el,
  ]);
  return ui;
}

const stripPixels = new WeakMap(); // strip shape -> its ImageData, kept for the animation's frames
const stripCanvases = new Map(); // strip length -> one scratch canvas, shared by every strip
const rgbOf = new Map(); // "#rrggbb" -> [r, g, b]: a strip's colours repeat across strips
let exportMenus = 0;

/** A vector's first numbers as the seed writes them: [1.37, -1.04, …]. */
const shortList = (xs) => `[${xs.map((x) => num(x)).join(", ")}, …]`;

/** The pixels of a strip, one per entry (its colours parsed once per colour). */
function stripImage(colors) {
  const data = new ImageData(colors.length, 1);
  colors.forEach((c, k) => {
    let channels = rgbOf.get(c);
    if (!channels) {
      channels = rgb(c);
      rgbOf.set(c, channels);
    }
    data.data.set(channels, 4 * k);
    data.data[4 * k + 3] = 255;
  });
  return data;
}

/**
 * Paint the layout's "strip" shapes (a vector, one colour per entry) over what draw.js painted:
 * each strip is a one-pixel-high image scaled to its box, one drawImage instead of 384 rects.
 * The image goes through one scratch canvas per length (drawImage copies it at once): a new
 * canvas and context for each of a head's 17 strips took about 10 ms of a 2,048-token head
 * switch (Chrome's profiler). Faded in from its `at` like draw.js's shapes.
 */
function paintStrips(ctx, shapes, t) {
  ctx.imageSmoothingEnabled = false;
  for (const s of shapes) {
    if (s.kind !== "strip" || !s.colors.length) continue;
    const alpha = t >= 1 ? 1 : Math.min(1, Math.max(0, (t - (s.at ?? 0)) / 0.12));
    if (alpha <= 0) continue;
    let pixels = stripPixels.get(s);
    if (!pixels) {
      pixels = stripImage(s.colors);
      stripPixels.set(s, pixels);
    }
    let scratch = stripCanvases.get(pixels.width);
    if (!scratch) {
      scratch = document.createElement("canvas");
      scratch.width = pixels.width;
      scratch.height = 1;
      stripCanvases.set(pixels.width, scratch);
    }
    scratch.getContext("2d").putImageData(pixels, 0, 0);
    ctx.globalAlpha = alpha;
    ctx.drawImage(scratch, 0, 0, pixels.width, 1, s.x, s.y, s.w, s.h);
  }
  ctx.globalAlpha = 1;
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const scope = createScope();
  const doc = el.ownerDocument;
  const words = () => model.get("words");
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const ui = build(model, commit, (layer, head) => {
    steps.stop();
    commit({ layer, head });
  });
  /** @type {Record<string, any> | null} */
  let trace = null;
  const size = { width: 0, height: 0, ratio: 1 };
  let laid = { trace: null, key: "", out: null }; // the last layout: animation frames only redraw it

  const motion = createMotion(ANIMATION_MS, paint); // the step's animation: paint() reads motion.t
  scope.add(motion.cancel);
  const steps = stepView({
    model, scope, root: ui.root, trace: () => trace, commit, stepMs: PLAY_STEP_MS,
    keysSkip: `${TYPING}, [role=tablist], .rm-grid, table`, // the tabs, the grid and the table move with arrows
    idle: () => model.get("status") || "",
    onStep: () => animate(),
  });
  const beat = steps.beat;
  const heightOf = (key) => Math.max(240, pictureHeight(trace?.tokens.length ?? 6, size.width, key));
  const exporter = exportMenu({
    model, scope, id: `rm-export${++exportMenus}`,
    paint: (ctx, shapes, box) => {
      draw(ctx, shapes, 1, box);
      paintStrips(ctx, shapes, 1);
    },
    picture: () => (trace && size.width ? { ...layoutNow(), size: { width: size.width, height: size.height }, title: say(words(), "model.canvas.name") } : null),
    frames: () => {
      if (!trace || !size.width) return null;
      const box = { width: size.width, height: Math.max(...steps.beats().map((b) => heightOf(b.key))) }; // one size for every frame
      return { size: box, shapes: steps.beats().map((_, b) => beatLayout(trace, box, b, trace.focus, words()).shapes) };
    },
    numbers: () => {
      const data = model.get("trace");
      return trace && data ? { matrix: data, heads: [{ layer: data.model.layer, head: data.model.head, trace: data }], json: data } : null;
    },
    name: () => [model.get("name"), trace && `layer ${model.get("layer")} head ${model.get("head")}`, trace?.tokens[trace.focus], steps.beats()[beat()]?.key],
    offline: { url: () => model.get("export_html"), beat, note: "export.html_note_model" },
  });
  ui.nav.append(steps.el, h("div", { class: "view-tools" }, [exporter.el]));
  ui.side.append(steps.narration, h("div", { class: "table-wrap rm-table-wrap" }, [ui.table]), ui.readout);
  el.replaceChildren(ui.root);

  // --- the picture ---------------------------------------------------------------------------
  /** Fit the canvas to its column and the beat; true when that changed its size and painted. */
  function resize() {
    const width = Math.max(300, Math.floor(ui.canvasWrap.clientWidth) || 300);
    const n = trace?.tokens.length ?? 6;
    const room = Math.floor(doc.defaultView.innerHeight * 0.78); // .rm-picture's max-height
    const height = Math.max(240, pictureHeight(n, width, steps.beats()[beat()]?.key ?? "tokens", room));
    if (!fitCanvas(ui.canvas, size, width, height)) return false;
    paint();
    return true;
  }

  function paint() {
    const ctx = ui.canvas.getContext("2d");
    if (!ctx || !size.width) return;
    if (!trace) {
      const error = model.get("error");
      drawMessage(ctx, error ? error.message : model.get("status") || say(words(), "model.loading", { model: modelName(words(), model.get("name")) }), size);
      return;
    }
    const key = steps.beats()[beat()]?.key;
    if (trace.drawn_beats && !trace.drawn_beats.includes(key)) {
      // weights handed in alone: this beat needs Q, K and V, and the picture says so
      drawMessage(ctx, say(words(), "maps.needs_qkv", { title: steps.beats()[beat()]?.title ?? key }), size);
      ui.canvas.setAttribute("aria-label", say(words(), "maps.needs_qkv", { title: steps.beats()[beat()]?.title ?? key }));
      ui.canvas.dataset.beat = key;
      return;
    }
    try {
      const shapes = layoutNow();
      draw(ctx, shapes.shapes, motion.t, size);
      paintStrips(ctx, shapes.shapes, motion.t);
      ui.canvas.setAttribute("aria-label", shapes.description);
      ui.canvas.dataset.beat = shapes.beat;
      ui.canvas.dataset.focus = String(trace.focus);
      const row = shapes.rows[trace.focus];
      if (row) ui.canvas.dataset.focusRow = JSON.stringify({ y: row.y, h: row.h });
      if (shapes.ray) ui.canvas.dataset.rayTo = String(shapes.ray.to);
      else delete ui.canvas.dataset.rayTo;
      return shapes;
    } catch (err) {
      drawMessage(ctx, say(words(), "canvas.failed", { error: err instanceof Error ? err.message : String(err) }), size);
    }
  }

  function layoutNow() {
    const key = `${size.width}x${size.height}:${beat()}:${trace.focus}`;
    if (laid.trace !== trace || laid.key !== key) laid = { trace, key, out: beatLayout(trace, size, beat(), trace.focus, words()) };
    return laid.out;
  }

  /** A long text's picture scrolls: bring the focus row into view when it is out of sight. */
  function showFocusRow() {
    if (!trace) return;
    const row = layoutNow().rows[trace.focus];
    const wrap = ui.canvasWrap;
    if (row && (row.y < wrap.scrollTop || row.y + row.h > wrap.scrollTop + wrap.clientHeight)) {
      wrap.scrollTop = Math.max(0, row.y - wrap.clientHeight / 2);
    }
  }

  function animate() {
    motion.cancel();
    resize();
    showFocusRow();
    motion.run();
  }

  // --- words, table, tokens --------------------------------------------------------------------
  const showBeat = () => steps.show();

  let readCell = null; // the cell the readout tells: recomputed from each new trace, or cleared
  function readout(i, j) {
    readCell = [i, j];
    ui.readout.textContent = say(words(), "table.readout", { row: i + 1, query: trace.tokens[i], col: j + 1, key: (trace.key_tokens ?? trace.tokens)[j], weight: num(trace.weights[i][j]) });
  }

  function buildTable() {
    const m = trace.model;
    const caption = h("caption", {}, [say(words(), "model.table_caption", { layer: m.layer, head: m.head }), m.causal ? ` ${say(words(), "model.table_causal")}` : ""]);
    const head = h("tr", {}, [h("th", { scope: "col", class: "corner" }, [say(words(), "table.corner")])]);
    (trace.key_tokens ?? trace.tokens).forEach((tok) => head.append(h("th", { scope: "col" }, [tok])));
    const body = h("tbody");
    trace.tokens.forEach((tok, i) => {
      const row = h("tr", { class: i === trace.focus ? "focus" : "" }, [h("th", { scope: "row" }, [tok])]);
      trace.weights[i].forEach((w, j) => {
        const masked = trace.mask ? !trace.mask[i][j] : false;
        const td = h("td", { tabindex: i === trace.focus && j === 0 ? 0 : -1, "data-i": i, "data-j": j, class: masked ? "masked" : "" }, [num(w)]);
        td.style.background = masked ? MASKED : heat(w);
        td.style.color = masked ? "#5b5b70" : inkOn(w);
        row.append(td);
      });
      body.append(row);
    });
    ui.table.replaceChildren(caption, h("thead", {}, [head]), body);
  }

  readableCells(ui.table, { read: readout, ready: () => trace !== null, scope });

  let tokensShown = null; // the token list the buttons were built for
  function buildTokens() {
    const all = trace.window.all_tokens;
    const focus = trace.window.focus;
    if (tokensShown && tokensShown.length === all.length && tokensShown.every((tok, j) => tok === all[j])) {
      // another head of the same text: 2,048 buttons stay, only the pressed one moves (the
      // others' attribute is not written again: 2,048 writes restyled the bar on every switch)
      for (const b of ui.tokens.children) {
        const pressed = String(Number(b.dataset.index) === focus);
        if (b.getAttribute("aria-pressed") !== pressed) b.setAttribute("aria-pressed", pressed);
      }
      return;
    }
    tokensShown = all;
    ui.tokens.replaceChildren(
      ...all.map((tok, j) => {
        const b = h("button", { type: "button", class: "token", "aria-pressed": j === focus ? "true" : "false", "data-index": j }, [tok]);
        b.addEventListener("click", () => commit({ focus: j }));
        return b;
      }),
    );
  }

  // --- settings ------------------------------------------------------------------------------------
  function options(select, values, label, current) {
    select.replaceChildren(...values.map((v) => h("option", { value: String(v) }, [label(v)])));
    select.value = String(current);
  }

  function showInfo() {
    const info = model.get("info");
    // the models, layers and heads are /api/model/info's; none are offered before it answers
    const names = info?.known_models ?? [];
    options(ui.name, names, (v) => (modelName(words(), v) === v ? v : say(words(), "model.name_option", { model: modelName(words(), v), id: v })), names.includes(model.get("name")) ? model.get("name") : names[0] ?? "");
    options(ui.layer, [...Array(info?.n_layers ?? 0).keys()], (v) => say(words(), "model.layer_option", { layer: v }), model.get("layer"));
    const g = info ? info.n_heads / (info.n_kv_heads || info.n_heads) : 1;
    options(ui.head, [...Array(info?.n_heads ?? 0).keys()], (v) => (g > 1 ? say(words(), "model.head_option_gqa", { head: v, kv: Math.floor(v / g) }) : say(words(), "model.head_option", { head: v })), model.get("head"));
    const weightsOnly = Boolean(info?.weights_only); // attention handed in alone: no text to run, nothing to compare
    ui.textForm.hidden = weightsOnly;
    ui.name.closest(".field").hidden = weightsOnly;
    ui.compare.el.hidden = weightsOnly;
    if (info) ui.intro.textContent = say(words(), weightsOnly ? "maps.intro" : info.causal ? "model.intro_decoder" : "model.intro", { model: modelName(words(), info.model), n_layers: info.n_layers, n_heads: info.n_heads, d_model: info.d_model });
    if (info?.max_text_chars) ui.text.maxLength = info.max_text_chars; // the API's own limit, so a long text reaches it and its message
    if (info) ui.textHelp.textContent = say(words(), info.causal ? "model.text_help_decoder" : "model.text_help", { max_tokens: info.max_tokens, d_k: info.d_k });
    ui.heads.build();
  }

  // --- errors and status ------------------------------------------------------------------------------
  function showError() {
    const error = model.get("error");
    const fieldName = error?.field ?? null;
    const msg = error?.message ?? "";
    const slots = { text: ui.textErr, model: ui.nameErr, layer: ui.layerErr, head: ui.headErr, focus: ui.focusErr };
    for (const [name, slot] of Object.entries(slots)) slot.textContent = fieldName === name ? msg : "";
    ui.text.setAttribute("aria-invalid", String(fieldName === "text"));
    const elsewhere = Boolean(error) && !(fieldName in slots);
    ui.banner.hidden = !elsewhere;
    ui.banner.textContent = elsewhere ? msg : "";
    if (!trace) {
      paint();
      showBeat();
    }
  }

  function showStatus() {
    const status = model.get("status") || "";
    ui.status.textContent = status;
    ui.root.setAttribute("aria-busy", String(Boolean(status)));
    if (!trace) {
      paint();
      showBeat();
    }
  }

  /** A new trace (another head, text or focus): the readout says the new numbers, or the hint. */
  function refreshReadout() {
    const [i, j] = readCell ?? [-1, -1];
    if (trace && i >= 0 && i < trace.tokens.length && j < trace.tokens.length) readout(i, j);
    else {
      readCell = null;
      ui.readout.textContent = say(words(), "table.readout_hint");
    }
  }

  function onTrace() {
    const data = model.get("trace");
    if (!data) return;
    try {
      trace = decodeModelTrace(data);
      // a window of a long text: each row names its position, so the gaps between rows show
      if (!trace.window.whole) trace.tokens = trace.tokens.map((tok, k) => say(words(), "model.window_token", { token: tok, position: trace.window.rows[k] }));
      buildTokens();
      buildTable();
      refreshReadout();
    } catch (err) {
      trace = null;
      ui.banner.hidden = false;
      ui.banner.textContent = say(words(), "canvas.failed", { error: err instanceof Error ? err.message : String(err) });
      return;
    }
    const m = trace.model;
    ui.layer.value = String(m.layer);
    ui.head.value = String(m.head);
    if (doc.activeElement !== ui.text && ui.text.getAttribute("aria-invalid") !== "true") ui.text.value = model.get("text");
    ui.which.textContent = say(words(), trace.weights_only ? "maps.which" : "model.which", { layer: m.layer, head: m.head, model: modelName(words(), m.name), n: trace.tokens.length, d_k: trace.d_k, divisor: trace.captions?.divisor ?? num(trace.divisor) });
    ui.gqa.textContent = gqaLine(trace);
    ui.windowNote.textContent = windowLine(trace);
    ui.windowNote.hidden = trace.window.whole;
    ui.heads.mark();
    ui.heads.paint(trace);
    const held = model.get("matrix");
    if (held && held.layer === m.layer && held.head === m.head && held.n === trace.window.n) ui.matrix.paint(); // else its own answer paints it
    ui.decoder.show();
    ui.compare.showHead();
    ui.pieces.hidden = !trace.word;
    ui.pieces.textContent = trace.word?.note ?? "";
    showBeat();
    motion.t = 1;
    if (!resize()) paint(); // a new size paints already: once is enough
    showFocusRow();
  }

  /** Which query heads read this head's keys and values, and that they are the same numbers. */
  function gqaLine(t) {
    const g = t.gqa;
    if (!g) return "";
    if (g.group.length === 1) return say(words(), "model.gqa.own", { n_heads: t.model.n_heads });
    const vectors = g.group.map((hd, k) => say(words(), "model.gqa.vector", { head: hd, vector: shortList(g.keys[k]) })).join("; ");
    return say(words(), g.group_identical ? "model.gqa.shared" : "model.gqa.differ", { heads: g.group.join(", "), kv: g.kv_head, token: t.focus_token, vectors });
  }

  function windowLine(t) {
    const w = t.window;
    return say(words(), "model.window", { shown: w.rows.length, n: w.n, token: t.focus_token, weight: num(w.shown_weight) });
  }

  // --- wiring --------------------------------------------------------------------------------------
  scope.listen(ui.textForm, "submit", (e) => {
    e.preventDefault();
    steps.stop();
    commit({ text: ui.text.value, focus: null });
  });
  scope.listen(ui.text, "keydown", (e) => {
    if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
    e.preventDefault(); // Enter runs the model; Shift+Enter is a new line
    ui.textForm.requestSubmit();
  });
  scope.listen(ui.name, "change", () => commit({ name: ui.name.value }));
  scope.listen(ui.layer, "change", () => commit({ layer: Number(ui.layer.value) }));
  scope.listen(ui.head, "change", () => commit({ head: Number(ui.head.value) }));

  scope.on(model, "change:trace", onTrace);
  scope.on(model, "change:matrix", ui.matrix.onMatrix);
  scope.on(model, "change:matrix_scale", () => {
    ui.matrix.showOptions();
    ui.matrix.paint();
  });
  scope.on(model, "change:row", ui.matrix.showRow);
  scope.on(model, "change:grid", () => {
    ui.heads.paint(trace);
    ui.ranking.build();
  });
  scope.on(model, "change:grid_color", () => {
    ui.heads.build();
    ui.heads.paint(trace);
  });
  scope.on(model, "change:ranking_sort", ui.ranking.build);
  scope.on(model, "change:info", showInfo);
  scope.on(model, "change:words", () => {
    fillWords(ui.root, words());
    ui.mask.showInputs();
    ui.headView.show();
    showInfo();
    ui.matrix.showOptions();
    ui.compare.show(); // its plot's words (a head's rows follow in onTrace)
    if (trace) onTrace();
  });
  scope.on(model, "change:layer", () => {
    ui.ranking.mark();
    ui.heads.mark();
    ui.layer.value = String(model.get("layer"));
    ui.compare.showHead();
  });
  scope.on(model, "change:head", () => {
    ui.ranking.mark();
    ui.heads.mark();
    ui.head.value = String(model.get("head"));
    ui.compare.showHead();
    ui.headView.follow();
    ui.mask.show();
  });
  scope.on(model, "change:heads", ui.headView.show);
  scope.on(model, "change:mask", ui.mask.show);
  scope.on(model, "change:maskError", ui.mask.showError);
  scope.on(model, "change:error", showError);
  scope.on(model, "change:status", showStatus);
  scope.on(model, "change:compare", () => {
    ui.compare.showInputs();
    ui.compare.show();
  });
  scope.on(model, "change:compareError", ui.compare.showError);

  const observer = new ResizeObserver(() => {
    resize();
    ui.matrix.paint();
    ui.compare.show();
    ui.headView.redraw();
  });
  observer.observe(ui.canvasWrap);
  scope.add(() => observer.disconnect());
  fillWords(ui.root, words());
  showInfo();
  ui.matrix.showOptions();
  ui.text.value = model.get("text") ?? "";
  ui.compare.showInputs();
  ui.mask.showInputs();
  if (model.get("heads")) ui.headView.show();
  resize();
  showBeat();
  showStatus();
  if (model.get("trace")) onTrace();
  showError();
  return scope.dispose;
}

export default { render };
