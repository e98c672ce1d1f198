// The lesson as a widget: export default { render({ model, el }) }, the anywidget shape.
//
// The model needs only get/set/on/save_changes. It holds what the learner chose ("sentence",
// "mode", "focus", "beat") and what the host computed ("lesson": the /api/lesson answer,
// "presets", "error"). The web page (app.js) backs it with the JSON API; a notebook widget can
// back it with Python. This module builds the controls, the canvas and the table, and never
// computes attention: every number shown is the trace's, formatted by format.js.
//
// Token text and messages go into the page with textContent only, never as markup.

import { heat, inkOn } from "./colors.js";
import { h } from "./dom.js";
import { draw, drawMessage } from "./draw.js";
import { decodeLesson, num } from "./format.js";
import { BEATS, layout } from "./layout.js";
import { createMotion, fitCanvas } from "./picture.js";
import { createStepper, stepControls } from "./stepper.js";
import { readableCells } from "./weights_table.js";

const MODES = [
  ["scaled", "Scaled", "the real formula: scores divided by √dₖ"],
  ["unscaled", "No √dₖ", "a diagnostic: raw dot products, a sharper row"],
  ["uniform", "Uniform", "a diagnostic: every weight 1/n, the scores ignored"],
];
const ANIMATION_MS = 1500;
const PLAY_STEP_MS = 3800;
let instances = 0;

function build(el) {
  const id = `attn${++instances}`;
  const ui = {};
  ui.context = h("select", { id: `${id}-context`, "aria-describedby": `${id}-context-err` });
  ui.contextErr = h("p", { id: `${id}-context-err`, class: "field-error", role: "alert" });
  ui.own = h("input", {
    id: `${id}-own`, type: "text", autocomplete: "off", spellcheck: "false", maxlength: 500,
    placeholder: "e.g. near the water bank", "aria-describedby": `${id}-own-err ${id}-own-help`,
  });
  ui.ownErr = h("p", { id: `${id}-own-err`, class: "field-error", role: "alert" });
  ui.ownHelp = h("p", { id: `${id}-own-help` });
  ui.ownForm = h("form", { class: "field own" }, [
    h("label", { for: `${id}-own` }, ["Your own sentence"]),
    h("div", { class: "inline" }, [ui.own, h("button", { type: "submit" }, ["Show"])]),
    ui.ownErr,
    h("details", { class: "help" }, [h("summary", {}, ["Which words can I use?"]), ui.ownHelp]),
  ]);
  ui.mode = h("select", { id: `${id}-mode`, "aria-describedby": `${id}-mode-err ${id}-mode-help` });
  for (const [value, label] of MODES) ui.mode.append(h("option", { value }, [label]));
  ui.modeHelp = h("p", { id: `${id}-mode-help`, class: "help" });
  ui.modeErr = h("p", { id: `${id}-mode-err`, class: "field-error", role: "alert" });

  ui.steps = stepControls(BEATS.map(([, title]) => title));
  ui.tokens = h("div", { class: "tokens" });
  ui.focusErr = h("p", { class: "field-error", role: "alert" });

  ui.canvas = h("canvas", { role: "img", "aria-label": "The lesson's picture" });
  ui.banner = h("p", { class: "banner", role: "alert", hidden: true });
  ui.beatTitle = h("h2", { class: "beat-title" });
  ui.beatText = h("p", { class: "beat-text" });
  ui.narration = h("div", { class: "narration", role: "status", "aria-live": "polite", "aria-label": "Narration" }, [
    ui.beatTitle,
    ui.beatText,
  ]);
  ui.table = h("table", { class: "weights", "aria-label": "Attention weights" });
  ui.readout = h("p", { class: "readout", "aria-live": "polite" }, [
    "Point at or focus a cell: row i (query) attends to column j (key) with weight w.",
  ]);
  ui.canvasWrap = h("div", { class: "canvas-wrap" }, [ui.canvas]);

  ui.root = h("div", { class: "attnlab" }, [
    h("section", { class: "controls", "aria-label": "Lesson settings" }, [
      h("div", { class: "field" }, [h("label", { for: `${id}-context` }, ["Context"]), ui.context, ui.contextErr]),
      ui.ownForm,
      h("div", { class: "field" }, [h("label", { for: `${id}-mode` }, ["Normalization"]), ui.mode, ui.modeErr, ui.modeHelp]),
    ]),
    h("div", { class: "nav" }, [
      ui.steps.el,
      h("div", { class: "focus-bar", role: "group", "aria-labelledby": `${id}-focus-label` }, [
        h("span", { id: `${id}-focus-label`, class: "focus-label" }, ["Follow the token:"]),
        ui.tokens,
        ui.focusErr,
      ]),
    ]),
    h("div", { class: "stage" }, [
      h("div", { class: "picture" }, [ui.canvasWrap, ui.banner]),
      h("div", { class: "side" }, [ui.narration, h("div", { class: "table-wrap" }, [ui.table]), ui.readout]),
    ]),
  ]);
  el.replaceChildren(ui.root);
  return ui;
}

/** @param {{model: any, el: HTMLElement}} props */
function render({ model, el }) {
  const ui = build(el);
  /** @type {Record<string, any> | null} */
  let trace = null;
  const size = { width: 0, height: 0, ratio: 1 };

  const beat = () => Math.min(BEATS.length - 1, Math.max(0, Number(model.get("beat")) || 0));
  const motion = createMotion(ANIMATION_MS, paint); // the step's animation: paint() reads motion.t
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };

  // --- the picture -------------------------------------------------------------------------
  function resize() {
    const width = Math.max(240, Math.floor(ui.canvasWrap.clientWidth));
    const room = window.innerHeight - 280; // fit the picture on a laptop screen under the controls
    const n = trace?.tokens.length ?? 4; // a phone gets the height the sentence needs
    const height = Math.round(width < 600 ? Math.max(380, 200 + n * 22) : Math.max(440, Math.min(width * 0.72, room)));
    if (fitCanvas(ui.canvas, size, width, height)) paint();
  }

  function paint() {
    const ctx = ui.canvas.getContext("2d");
    if (!ctx || !size.width) return;
    const error = model.get("error");
    if (!trace) {
      drawMessage(ctx, error ? error.message : "Loading the lesson…", size);
      return;
    }
    try {
      const shapes = layout(trace, size, beat(), trace.focus);
      draw(ctx, shapes.shapes, motion.t, size);
      ui.canvas.setAttribute("aria-label", shapes.description);
      ui.canvas.dataset.beat = shapes.beat;
      ui.canvas.dataset.focus = String(trace.focus);
      if (shapes.ray) {
        ui.canvas.dataset.rayFrom = String(shapes.ray.from);
        ui.canvas.dataset.rayTo = String(shapes.ray.to);
      } else {
        delete ui.canvas.dataset.rayFrom;
        delete ui.canvas.dataset.rayTo;
      }
    } catch (err) {
      drawMessage(ctx, `Could not draw this step: ${err instanceof Error ? err.message : String(err)}`, size);
    }
  }

  // --- the words and the table ---------------------------------------------------------------
  function showBeat() {
    const b = beat();
    stepper.show();
    const told = trace?.narration?.[b];
    ui.beatTitle.textContent = `Step ${b + 1} of ${BEATS.length}: ${told ? told.title : BEATS[b][1]}`;
    ui.beatText.textContent = told ? told.text : "";
    ui.root.dataset.beat = BEATS[b][0];
    ui.root.classList.toggle("many", (trace?.tokens.length ?? 0) > 6);
  }

  function readout(i, j) {
    const w = trace.weights[i][j];
    const cols = trace.key_tokens ?? trace.tokens;
    ui.readout.textContent = `Row ${i + 1} (query “${trace.tokens[i]}”) attends to column ${j + 1} (key “${cols[j]}”) with weight ${num(w)}.`;
  }

  function buildTable() {
    const cols = trace.key_tokens ?? trace.tokens;
    const caption = h("caption", {}, [
      "Attention weights: row i is the query token, column j the key token it attends to; each row sums to 1.",
    ]);
    if (trace.axis !== "keys") caption.textContent = "Attention weights: row i is the query, column j the key (this softmax ran down the columns).";
    const head = h("tr", {}, [h("th", { scope: "col", class: "corner" }, ["query ↓ / key →"])]);
    cols.forEach((tok) => head.append(h("th", { scope: "col" }, [tok])));
    const body = h("tbody");
    trace.tokens.forEach((tok, i) => {
      const row = h("tr", { class: i === trace.focus ? "focus" : "" }, [h("th", { scope: "row" }, [tok])]);
      cols.forEach((_, j) => {
        const w = trace.weights[i][j];
        const td = h("td", { tabindex: i === trace.focus && j === 0 ? 0 : -1, "data-i": i, "data-j": j }, [num(w)]);
        td.style.background = heat(w);
        td.style.color = inkOn(w);
        td.title = `row ${i + 1} (query) attends to column ${j + 1} (key) with weight ${num(w)}`;
        row.append(td);
      });
      body.append(row);
    });
    ui.table.replaceChildren(caption, h("thead", {}, [head]), body);
  }

  readableCells(ui.table, { read: readout, ready: () => trace !== null });

  function buildTokens() {
    const buttons = trace.tokens.map((tok, j) => {
      const b = h("button", { type: "button", class: "token", "aria-pressed": j === trace.focus ? "true" : "false" }, [tok]);
      b.addEventListener("click", () => commit({ focus: j }));
      return b;
    });
    ui.tokens.replaceChildren(...buttons);
  }

  function buildContext() {
    const presets = model.get("presets")?.presets ?? [];
    const current = model.get("sentence") ?? "";
    const options = presets.map((p) => h("option", { value: p.sentence }, [p.sentence]));
    const known = presets.some((p) => p.sentence === current);
    options.push(h("option", { value: "", disabled: true, hidden: known }, ["(your own sentence)"]));
    ui.context.replaceChildren(...options);
    ui.context.value = known ? current : "";
    const vocab = model.get("presets")?.vocabulary;
    const most = model.get("presets")?.max_tokens;
    if (vocab) ui.ownHelp.textContent = `Up to ${most ?? "a few"} words from the toy head's vocabulary: ${vocab.join(", ")}.`;
  }

  function showError() {
    const error = model.get("error");
    const field = error?.field ?? null;
    const msg = error?.message ?? "";
    ui.ownErr.textContent = field === "sentence" ? msg : "";
    ui.own.setAttribute("aria-invalid", field === "sentence" ? "true" : "false");
    ui.modeErr.textContent = field === "mode" ? msg : "";
    ui.focusErr.textContent = field === "focus" ? msg : "";
    const elsewhere = error && !["sentence", "mode", "focus"].includes(field);
    ui.banner.hidden = !elsewhere;
    ui.banner.textContent = elsewhere ? msg : "";
    if (!trace) paint();
  }

  function onLesson() {
    const data = model.get("lesson");
    if (!data) return;
    try {
      trace = decodeLesson(data);
      buildTokens();
      buildTable();
      buildContext();
    } catch (err) {
      trace = null;
      model.set("error", { message: `This lesson could not be shown: ${err instanceof Error ? err.message : err}`, field: null });
      showError();
      return;
    }
    ui.mode.value = trace.mode;
    ui.modeHelp.textContent = MODES.find(([value]) => value === trace.mode)?.[2] ?? "";
    if (document.activeElement !== ui.own) ui.own.value = trace.tokens.join(" ");
    showBeat();
    motion.t = 1; // a new context or mode redraws at once, in the same beat
    resize();
    paint();
  }

  // --- stepping ----------------------------------------------------------------------------------
  const stepper = createStepper({
    count: BEATS.length,
    current: beat,
    commit: (b) => commit({ beat: b }),
    stepMs: PLAY_STEP_MS,
    buttons: ui.steps,
  });
  const onKey = stepper.onKey;
  ui.context.addEventListener("change", () => {
    const preset = (model.get("presets")?.presets ?? []).find((p) => p.sentence === ui.context.value);
    if (preset) commit({ sentence: preset.sentence, focus: preset.focus });
  });
  ui.mode.addEventListener("change", () => commit({ mode: ui.mode.value }));
  ui.ownForm.addEventListener("submit", (e) => {
    e.preventDefault();
    commit({ sentence: ui.own.value, focus: null });
  });

  const keyTarget = model.get("global_keys") ? el.ownerDocument : ui.root;
  keyTarget.addEventListener("keydown", onKey);

  model.on("change:lesson", onLesson);
  model.on("change:beat", () => {
    showBeat();
    motion.run();
  });
  model.on("change:error", showError);
  model.on("change:busy", () => ui.root.setAttribute("aria-busy", String(Boolean(model.get("busy")))));
  model.on("change:presets", () => trace && buildContext());
  model.on("change:sentence", () => trace && buildContext());

  const observer = new ResizeObserver(() => resize());
  observer.observe(ui.canvasWrap);
  resize();
  showBeat();
  if (model.get("lesson")) onLesson();
  showError();

  return () => {
    stepper.stop();
    motion.cancel();
    observer.disconnect();
    keyTarget.removeEventListener("keydown", onKey);
  };
}

export default { render };
