// The Real model view as a widget: export default { render({ model, el }) }, like lesson.js.
//
// The model holds what the learner chose ("name", "text", "layer", "head", "focus", "beat",
// "word", "a", "b") and what the host fetched ("info", "trace": one head's /api/model/trace
// answer, "grid": every head at a glance, "compare": the /api/model/compare answer, "status",
// "error", "compareError"). This module builds the controls, the steps, the picture and the
// Real attention weights table, and places the heads grid (model_grid.js) and the Compare
// contexts panel (model_compare.js). It computes no attention: every number shown is the
// API's, formatted by format.js. Text goes in with textContent only.

import { heat, inkOn } from "./colors.js";
import { h } from "./dom.js";
import { draw, drawMessage } from "./draw.js";
import { decodeLesson, num } from "./format.js";
import { comparePanel } from "./model_compare.js";
import { headsGrid } from "./model_grid.js";
import { field } from "./model_dom.js";
import { BEATS, beatLayout, pictureHeight } from "./model_layout.js";
import { createMotion, fitCanvas } from "./picture.js";
import { createStepper, stepControls, TYPING } from "./stepper.js";
import { readableCells } from "./weights_table.js";

const ANIMATION_MS = 1500;
const PLAY_STEP_MS = 3800;
const NAMES = { minilm: "all-MiniLM-L6-v2" };
let instances = 0;

function build(el, model, commit, pickHead) {
  const id = `rm${++instances}`;
  const ui = {};
  // --- settings --------------------------------------------------------------------------------
  ui.text = h("input", { type: "text", autocomplete: "off", spellcheck: "false", maxlength: 2000, "aria-describedby": `${id}-text-help` });
  ui.textHelp = h("p", { id: `${id}-text-help`, class: "help" }, ["Any text, up to 128 tokens counting [CLS] and [SEP]."]);
  const textField = field(`${id}-text`, "Text", ui.text);
  ui.textErr = textField.err;
  ui.textForm = h("form", { class: "field own rm-text" }, [
    h("label", { for: `${id}-text` }, ["Text"]),
    h("div", { class: "inline" }, [ui.text, h("button", { type: "submit" }, ["Run the model"])]),
    ui.textErr,
    ui.textHelp,
  ]);
  ui.name = h("select");
  const nameField = field(`${id}-name`, "Model", ui.name);
  ui.nameErr = nameField.err;
  ui.layer = h("select");
  const layerField = field(`${id}-layer`, "Layer", ui.layer);
  ui.layerErr = layerField.err;
  ui.head = h("select");
  const headField = field(`${id}-head`, "Head", ui.head);
  ui.headErr = headField.err;
  ui.status = h("p", { class: "rm-status", role: "status", "aria-label": "Model status" });
  ui.banner = h("p", { class: "banner", role: "alert", hidden: true });

  // --- the heads grid ------------------------------------------------------------------------
  ui.heads = headsGrid(model, id, pickHead);

  // --- the stepper, the tokens, the picture and the table ----------------------------------------
  ui.steps = stepControls(BEATS.map(([, title]) => title));
  ui.tokens = h("div", { class: "tokens rm-tokens" });
  ui.focusErr = h("p", { class: "field-error", role: "alert" });
  ui.canvas = h("canvas", { role: "img", "aria-label": "One head of the real model, step by step" });
  ui.canvasWrap = h("div", { class: "canvas-wrap rm-picture" }, [ui.canvas]);
  ui.beatTitle = h("h2", { class: "beat-title" });
  ui.beatText = h("p", { class: "beat-text" });
  ui.narration = h("div", { class: "narration", role: "status", "aria-live": "polite", "aria-label": "Narration" }, [ui.beatTitle, ui.beatText]);
  ui.table = h("table", { class: "weights rm-weights", "aria-label": "Real attention weights" });
  ui.readout = h("p", { class: "readout", "aria-live": "polite" }, ["Point at or focus a cell: row i (query) attends to column j (key) with weight w."]);
  ui.which = h("p", { class: "rm-which" });
  ui.compare = comparePanel(model, id, commit);
  ui.intro = h("p", { class: "rm-intro" }, [
    "The lesson's six steps inside a real pretrained transformer, all-MiniLM-L6-v2: type a text, pick a head, follow a token. Every number is the model's own.",
  ]);

  // on a wide screen the heads grid sits beside the settings and the steps, so the picture
  // below starts on the first screen
  ui.root = h("div", { class: "rm" }, [
    h("div", { class: "rm-top" }, [
      h("div", { class: "rm-left" }, [
        ui.intro,
        h("section", { class: "controls", "aria-label": "Real model settings" }, [ui.textForm, nameField.box, layerField.box, headField.box, ui.status]),
        ui.banner,
        h("div", { class: "nav" }, [
          ui.steps.el,
        ]),
        h("div", { class: "focus-bar rm-focus", role: "group", "aria-labelledby": `${id}-focus-label` }, [
          h("span", { id: `${id}-focus-label`, class: "focus-label" }, ["Follow the token:"]),
          ui.tokens,
          ui.focusErr,
        ]),
        ui.which,
      ]),
      ui.heads.el,
    ]),
    h("div", { class: "stage rm-stage" }, [
      h("div", { class: "picture" }, [ui.canvasWrap]),
      h("div", { class: "side" }, [ui.narration, h("div", { class: "table-wrap rm-table-wrap" }, [ui.table]), ui.readout]),
    ]),
    ui.compare.el,
  ]);
  el.replaceChildren(ui.root);
  return ui;
}

const stripImages = new WeakMap();

/**
 * Paint the layout's "strip" shapes (a vector, one colour per entry) over what draw.js painted:
 * each strip is a one-pixel-high image scaled to its box, one drawImage instead of 384 rects.
 * Faded in from its `at` like draw.js's shapes.
 */
function paintStrips(ctx, shapes, t) {
  ctx.imageSmoothingEnabled = false;
  for (const s of shapes) {
    if (s.kind !== "strip" || !s.colors.length) continue;
    const alpha = t >= 1 ? 1 : Math.min(1, Math.max(0, (t - (s.at ?? 0)) / 0.12));
    if (alpha <= 0) continue;
    let image = stripImages.get(s);
    if (!image) {
      image = document.createElement("canvas");
      image.width = s.colors.length;
      image.height = 1;
      const g = image.getContext("2d");
      const data = g.createImageData(s.colors.length, 1);
      s.colors.forEach((c, k) => {
        for (let i = 0; i < 3; i++) data.data[4 * k + i] = parseInt(c.slice(1 + 2 * i, 3 + 2 * i), 16);
        data.data[4 * k + 3] = 255;
      });
      g.putImageData(data, 0, 0);
      stripImages.set(s, image);
    }
    ctx.globalAlpha = alpha;
    ctx.drawImage(image, 0, 0, image.width, 1, s.x, s.y, s.w, s.h);
  }
  ctx.globalAlpha = 1;
}

/** @param {{model: any, el: HTMLElement}} props */
function render({ model, el }) {
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const ui = build(el, model, commit, (layer, head) => {
    stepper.stop();
    commit({ layer, head });
  });
  /** @type {Record<string, any> | null} */
  let trace = null;
  const size = { width: 0, height: 0, ratio: 1 };
  let laid = { trace: null, key: "", out: null }; // the last layout: animation frames only redraw it

  const beat = () => Math.min(BEATS.length - 1, Math.max(0, Number(model.get("beat")) || 0));
  const motion = createMotion(ANIMATION_MS, paint); // the step's animation: paint() reads motion.t

  // --- the picture ---------------------------------------------------------------------------
  function resize() {
    const width = Math.max(300, Math.floor(ui.canvasWrap.clientWidth) || 300);
    const n = trace?.tokens.length ?? 6;
    const height = Math.max(240, pictureHeight(n, width, beat()));
    if (fitCanvas(ui.canvas, size, width, height)) paint();
  }

  function paint() {
    const ctx = ui.canvas.getContext("2d");
    if (!ctx || !size.width) return;
    if (!trace) {
      const error = model.get("error");
      drawMessage(ctx, error ? error.message : model.get("status") || "Loading all-MiniLM-L6-v2…", size);
      return;
    }
    try {
      const shapes = layoutNow();
      draw(ctx, shapes.shapes, motion.t, size);
      paintStrips(ctx, shapes.shapes, motion.t);
      ui.canvas.setAttribute("aria-label", shapes.description);
      ui.canvas.dataset.beat = shapes.beat;
      ui.canvas.dataset.focus = String(trace.focus);
      if (shapes.ray) ui.canvas.dataset.rayTo = String(shapes.ray.to);
      else delete ui.canvas.dataset.rayTo;
      return shapes;
    } catch (err) {
      drawMessage(ctx, `Could not draw this step: ${err instanceof Error ? err.message : String(err)}`, size);
    }
  }

  function layoutNow() {
    const key = `${size.width}x${size.height}:${beat()}:${trace.focus}`;
    if (laid.trace !== trace || laid.key !== key) laid = { trace, key, out: beatLayout(trace, size, beat(), trace.focus) };
    return laid.out;
  }

  /** A long text's picture scrolls: bring the focus row into view when it is out of sight. */
  function showFocusRow() {
    if (!trace) return;
    if (beat() === 5) {
      ui.canvasWrap.scrollTop = 0; // the matrix starts at the top
      return;
    }
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
  function showBeat() {
    const b = beat();
    stepper.show();
    const told = trace?.narration?.[b];
    ui.beatTitle.textContent = `Step ${b + 1} of ${BEATS.length}: ${told ? told.title : BEATS[b][1]}`;
    ui.beatText.textContent = told ? told.text : model.get("status") || "";
    ui.root.dataset.beat = BEATS[b][0];
  }

  function readout(i, j) {
    ui.readout.textContent = `Row ${i + 1} (query “${trace.tokens[i]}”) attends to column ${j + 1} (key “${trace.tokens[j]}”) with weight ${num(trace.weights[i][j])}.`;
  }

  function buildTable() {
    const m = trace.model;
    const caption = h("caption", {}, [
      `Real attention weights of layer ${m.layer}, head ${m.head}: row i is the query token, column j the key token it attends to; each row sums to 1.`,
    ]);
    const head = h("tr", {}, [h("th", { scope: "col", class: "corner" }, ["query ↓ / key →"])]);
    trace.tokens.forEach((tok) => head.append(h("th", { scope: "col" }, [tok])));
    const body = h("tbody");
    trace.tokens.forEach((tok, i) => {
      const row = h("tr", { class: i === trace.focus ? "focus" : "" }, [h("th", { scope: "row" }, [tok])]);
      trace.weights[i].forEach((w, j) => {
        const td = h("td", { tabindex: i === trace.focus && j === 0 ? 0 : -1, "data-i": i, "data-j": j }, [num(w)]);
        td.style.background = heat(w);
        td.style.color = inkOn(w);
        row.append(td);
      });
      body.append(row);
    });
    ui.table.replaceChildren(caption, h("thead", {}, [head]), body);
  }

  readableCells(ui.table, { read: readout, ready: () => trace !== null });

  function buildTokens() {
    ui.tokens.replaceChildren(
      ...trace.tokens.map((tok, j) => {
        const b = h("button", { type: "button", class: "token", "aria-pressed": j === trace.focus ? "true" : "false", "data-index": j }, [tok]);
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
    const names = info?.known_models ?? [model.get("name") ?? "minilm"];
    options(ui.name, names, (v) => (v === "minilm" ? "all-MiniLM-L6-v2 (minilm)" : v), names.includes(model.get("name")) ? model.get("name") : names[0]);
    const L = info?.n_layers ?? 6;
    const H = info?.n_heads ?? 12;
    options(ui.layer, [...Array(L).keys()], (v) => `layer ${v}`, model.get("layer"));
    options(ui.head, [...Array(H).keys()], (v) => `head ${v}`, model.get("head"));
    if (info) ui.intro.textContent = `The lesson's six steps inside a real pretrained transformer, ${NAMES[info.model] ?? info.model} (${info.n_layers} layers × ${info.n_heads} heads, ${info.d_model} numbers per token): type a text, pick a head, follow a token. Every number is the model's own.`;
    if (info) ui.textHelp.textContent = `Any text, up to ${info.max_tokens} tokens counting [CLS] and [SEP] (the tokenizer splits rare words into pieces such as ##s). Each head works with ${info.d_k}-number queries, keys and values.`;
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

  function onTrace() {
    const data = model.get("trace");
    if (!data) return;
    try {
      trace = decodeLesson(data);
      buildTokens();
      buildTable();
    } catch (err) {
      trace = null;
      model.set("error", { message: `This head could not be shown: ${err instanceof Error ? err.message : err}`, field: null });
      return;
    }
    const m = trace.model;
    ui.layer.value = String(m.layer);
    ui.head.value = String(m.head);
    if (document.activeElement !== ui.text && ui.text.getAttribute("aria-invalid") !== "true") ui.text.value = model.get("text");
    ui.which.textContent = `Layer ${m.layer}, head ${m.head} of ${NAMES[m.name] ?? m.name}: ${trace.tokens.length} tokens, queries and keys ${trace.d_k} numbers wide, so scores are divided by √${trace.d_k} = ${num(trace.divisor)}.`;
    ui.heads.mark();
    ui.heads.paint(trace);
    ui.compare.show();
    showBeat();
    motion.t = 1;
    resize();
    paint();
    showFocusRow();
  }

  // --- stepping --------------------------------------------------------------------------------------
  const stepper = createStepper({
    count: BEATS.length,
    current: beat,
    commit: (b) => commit({ beat: b }),
    stepMs: PLAY_STEP_MS,
    buttons: ui.steps,
    keysSkip: `${TYPING}, [role=tablist], .rm-grid, table`, // the tabs, the grid and the table move with arrows
  });
  const stop = stepper.stop;
  ui.textForm.addEventListener("submit", (e) => {
    e.preventDefault();
    stop();
    commit({ text: ui.text.value, focus: null });
  });
  ui.name.addEventListener("change", () => commit({ name: ui.name.value }));
  ui.layer.addEventListener("change", () => commit({ layer: Number(ui.layer.value) }));
  ui.head.addEventListener("change", () => commit({ head: Number(ui.head.value) }));

  model.on("change:trace", onTrace);
  model.on("change:grid", () => ui.heads.paint(trace));
  model.on("change:info", showInfo);
  model.on("change:beat", () => {
    showBeat();
    animate();
  });
  model.on("change:layer", () => {
    ui.heads.mark();
    ui.layer.value = String(model.get("layer"));
    ui.compare.show();
  });
  model.on("change:head", () => {
    ui.heads.mark();
    ui.head.value = String(model.get("head"));
    ui.compare.show();
  });
  model.on("change:error", showError);
  model.on("change:status", showStatus);
  model.on("change:compare", () => {
    ui.compare.showInputs();
    ui.compare.show();
  });
  model.on("change:compareError", ui.compare.showError);

  const observer = new ResizeObserver(() => {
    resize();
    ui.compare.show();
  });
  observer.observe(ui.canvasWrap);
  showInfo();
  ui.text.value = model.get("text") ?? "";
  ui.compare.showInputs();
  resize();
  showBeat();
  showStatus();
  if (model.get("trace")) onTrace();
  showError();

  return { onKey: stepper.onKey, stop, dispose: () => { stop(); motion.cancel(); observer.disconnect(); } };
}

export default { render };
