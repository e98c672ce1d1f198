// The lesson as a view: export default { render({ model, el }) }, the anywidget shape; render
// returns the cleanup that undoes every subscription (scope.js).
//
// The model needs only get/set/on/off/save_changes. The view reads
//   "lesson"   the /api/lesson answer (with its narration and captions)
//   "choices"  modes and beats (/api/presets "choices");  "words"  the page's fixed words
//   "presets"  the Context presets and vocabulary;  "error", "busy"  from the host
//   "beat", "sentence"  the learner's;  "global_keys"  keys on the whole document (the web page)
//   "asking"   true while the lab waits for a guess: the weights are hidden
//   "cell"     [i, j], the cell being read: outlined in the table
//   "present"  true while presenting (present.js): the picture and the words full screen
// and writes "sentence", "mode", "focus", "beat", "cell" (a cell clicked or focused, in the table
// or the picture), "guess" (a token clicked in the picture while "asking") and "present". Its
// Export menu (export_menu.js) saves the picture and the numbers of the state on screen.
// It touches only `el`, builds the controls, the canvas and the table, and computes no attention:
// every number is the trace's, every sentence the API's. Text goes in with textContent only.

import { fillWords, h } from "./dom.js";
import { draw, drawMessage } from "./draw.js";
import { lessonHeads } from "./export_data.js";
import { exportMenu } from "./export_menu.js";
import { decodeLesson, num } from "./format.js";
import { beatKeys, layout, layoutFitted } from "./layout.js";
import { heatKey, tableParts, tableReadout, tableStage } from "./lesson_table.js";
import { tokenNames } from "./names.js";
import { createMotion, fitCanvas } from "./picture.js";
import { presentation } from "./present.js";
import { createScope } from "./scope.js";
import { fillStateLine, stateChanges } from "./state_line.js";
import { stepView } from "./step_view.js";
import { readableCells } from "./weights_table.js";
import { say } from "./words.js";

const ANIMATION_MS = 1500;
const PLAY_STEP_MS = 3800;
/** The least room the picture's layout is drawn in while presenting (CSS pixels); less is scaled. */
const PRESENT_MIN = { width: 480, height: 380 };
let instances = 0;

function build(id) {
  const ui = {};
  ui.context = h("select", { id: `${id}-context`, "aria-describedby": `${id}-context-err` });
  ui.contextErr = h("p", { id: `${id}-context-err`, class: "field-error", role: "alert" });
  ui.own = h("input", {
    id: `${id}-own`, type: "text", autocomplete: "off", spellcheck: "false", maxlength: 500,
    "data-words-placeholder": "lesson.own_placeholder", "aria-describedby": `${id}-own-err ${id}-own-help`,
  });
  ui.ownErr = h("p", { id: `${id}-own-err`, class: "field-error", role: "alert" });
  ui.ownHelp = h("p", { id: `${id}-own-help` });
  ui.ownForm = h("form", { class: "field own" }, [
    h("label", { for: `${id}-own`, "data-words": "lesson.own_label" }),
    h("div", { class: "inline" }, [ui.own, h("button", { type: "submit", "data-words": "lesson.own_show" })]),
    ui.ownErr,
    h("details", { class: "help" }, [h("summary", { "data-words": "lesson.own_which" }), ui.ownHelp]),
  ]);
  ui.mode = h("select", { id: `${id}-mode`, "aria-describedby": `${id}-mode-err ${id}-mode-help` });
  ui.modeHelp = h("p", { id: `${id}-mode-help`, class: "help" });
  ui.modeErr = h("p", { id: `${id}-mode-err`, class: "field-error", role: "alert" });
  ui.tokens = h("div", { class: "tokens" });
  ui.focusErr = h("p", { class: "field-error", role: "alert" });
  ui.canvas = h("canvas", { role: "img", "data-words-label": "canvas.lesson" });
  ui.banner = h("p", { class: "banner", role: "alert", hidden: true });
  ui.table = h("table", { class: "weights", "data-words-label": "table.name" });
  ui.readout = h("p", { class: "readout", "aria-live": "polite", "data-words": "table.readout_hint" });
  ui.showAll = h("button", { type: "button", class: "small show-all", "aria-pressed": "false", "data-words": "table.show_all" });
  ui.showAllNote = h("p", { class: "lab-note show-all-note", hidden: true, "data-words": "table.show_all_hidden" });
  ui.heatKey = h("div", { class: "heat-key-wrap" });
  ui.state = h("p", { class: "state-line", role: "group", "data-words-label": "lesson.state.name", hidden: true });
  ui.canvasWrap = h("div", { class: "canvas-wrap" }, [ui.canvas]);
  ui.nav = h("div", { class: "nav" });
  ui.side = h("div", { class: "side" });
  ui.root = h("div", { class: "attnlab" }, [
    h("section", { class: "controls", "data-words-label": "lesson.settings" }, [
      h("div", { class: "field" }, [h("label", { for: `${id}-context`, "data-words": "lesson.context" }), ui.context, ui.contextErr]),
      ui.ownForm,
      h("div", { class: "field" }, [h("label", { for: `${id}-mode`, "data-words": "lesson.mode" }), ui.mode, ui.modeErr, ui.modeHelp]),
    ]),
    ui.state,
    ui.nav,
    h("div", { class: "stage" }, [h("div", { class: "picture" }, [ui.canvasWrap, ui.banner]), ui.side]),
  ]);
  return ui;
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const id = `attn${++instances}`;
  const scope = createScope();
  const ui = build(id);
  const doc = el.ownerDocument;
  /** @type {Record<string, any> | null} */
  let trace = null;
  const size = { width: 0, height: 0, ratio: 1 };
  let zoom = 1; // CSS pixels per layout pixel: below 1 only while presenting in a small room
  let baseHeight = 0; // the canvas height the window gives; a beat that needs more grows it
  let showAll = false; // the learner asked for the final weights at every beat
  /** @type {[number, number] | null} */
  let reading = null; // the cell the readout tells, recomputed whenever its numbers change
  const words = () => model.get("words");
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const motion = createMotion(ANIMATION_MS, paint); // the step's animation: paint() reads motion.t
  scope.add(motion.cancel);
  const present = presentation({ model, scope, root: ui.root, id, stepMs: PLAY_STEP_MS, onChange: () => resize() });
  const steps = stepView({
    model, scope, root: ui.root, trace: () => trace, commit, stepMs: present.stepMs, onStep: () => motion.run(), pageKeys: present.isOn,
  });
  const exporter = exportMenu({
    model, scope, id,
    picture: () => (trace && size.width ? { ...shapesNow(), size: { width: size.width, height: size.height }, title: say(words(), "canvas.lesson") } : null),
    frames: () => (trace && size.width ? { size: { ...size }, shapes: steps.beats().map((_, b) => layout(trace, size, b, trace.focus, words() ?? {}).shapes) } : null),
    numbers: () => (trace ? { matrix: model.get("lesson"), heads: lessonHeads(model.get("lesson")), json: model.get("lesson") } : null),
    name: () => [trace?.tokens.join(" "), trace?.tokens[trace.focus], trace?.mode, steps.beats()[steps.beat()]?.key],
    offline: { url: () => model.get("export_html"), beat: () => steps.beat(), note: "export.html_note_lesson" },
  });
  ui.nav.append(
    steps.el,
    h("div", { class: "focus-bar", role: "group", "aria-labelledby": `${id}-focus-label` }, [
      h("span", { id: `${id}-focus-label`, class: "focus-label", "data-words": "steps.focus" }),
      ui.tokens,
      ui.focusErr,
    ]),
    h("div", { class: "view-tools" }, [exporter.el, present.el]),
  );
  ui.side.append(steps.narration, h("div", { class: "table-wrap" }, [ui.table, ui.heatKey, h("div", { class: "inline-row" }, [ui.showAll]), ui.showAllNote]), ui.readout);
  el.replaceChildren(ui.root);

  // --- the picture -------------------------------------------------------------------------
  function resize() {
    if (present.isOn()) {
      // presenting: the picture fills the room present.css gives it; a room smaller than the
      // layout needs (a projector at 200 % zoom) draws the layout at PRESENT_MIN, scaled down
      const box = { width: Math.floor(ui.canvasWrap.clientWidth), height: Math.floor(ui.canvasWrap.clientHeight) };
      if (box.width <= 0 || box.height <= 0) return;
      zoom = Math.min(1, box.width / PRESENT_MIN.width, box.height / PRESENT_MIN.height);
      if (fitCanvas(ui.canvas, size, box.width, box.height, zoom)) paint();
      return;
    }
    zoom = 1;
    const width = Math.max(240, Math.floor(ui.canvasWrap.clientWidth));
    const room = (doc.defaultView?.innerHeight ?? 800) - 280; // fit the picture under the controls
    const n = trace?.tokens.length ?? 4; // a phone gets the height the sentence needs
    const height = Math.round(width < 600 ? Math.max(380, 200 + n * 22) : Math.max(440, Math.min(width * 0.72, room)));
    baseHeight = height;
    if (fitCanvas(ui.canvas, size, width, neededHeight(width, height))) paint();
  }

  /** The height the beat on screen needs at `width` (never less than `height`). */
  function neededHeight(width, height) {
    if (!trace) return height;
    try {
      return layoutFitted(trace, { width, height }, steps.beat(), trace.focus, words() ?? {}).height;
    } catch {
      return height;
    }
  }

  const shapesNow = (box = size) => layout(trace, box, steps.beat(), trace.focus, words() ?? {});

  function paint() {
    const ctx = ui.canvas.getContext("2d");
    if (!ctx || !size.width) return;
    const error = model.get("error");
    if (!trace) {
      drawMessage(ctx, error ? error.message : say(words(), "lesson.loading"), size);
      return;
    }
    try {
      if (!present.isOn()) {
        // the beat's own height (presenting, the room sets the size and the zoom)
        const need = neededHeight(size.width, baseHeight || size.height);
        if (need !== size.height) fitCanvas(ui.canvas, size, size.width, need);
      }
      const shapes = shapesNow();
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
      drawMessage(ctx, say(words(), "canvas.failed", { error: err instanceof Error ? err.message : String(err) }), size);
    }
  }

  /** A click on the picture: a cell is read (the lab listens), a token answers the lab's question. */
  function canvasClick(e) {
    if (!trace) return;
    const box = ui.canvas.getBoundingClientRect();
    const x = (e.clientX - box.left) / zoom;
    const y = (e.clientY - box.top) / zoom;
    let shapes;
    try {
      shapes = shapesNow({ width: box.width / zoom, height: box.height / zoom });
    } catch {
      return;
    }
    const hit = shapes.cells.find((c) => x >= c.x && x <= c.x + c.w && y >= c.y && y <= c.y + c.h);
    if (hit) commit({ cell: [hit.i, hit.j] });
    if (model.get("asking")) {
      const label = shapes.labels.find((l) => (l.role === "col" || l.role === "token") && Math.abs(l.x - x) < 40 && Math.abs(l.y - y) < 16);
      if (label) commit({ guess: label.index });
    }
  }

  // --- the words and the table ---------------------------------------------------------------
  const asking = () => Boolean(model.get("asking"));
  const stageNow = () => tableStage(beatKeys(trace), steps.beat(), { asking: asking(), showAll });

  function readout(i, j) {
    reading = [i, j];
    showReadout();
  }

  /** The readout of the cell last read, at the numbers on screen now (or the hint, if none). */
  function showReadout() {
    const cols = trace ? trace.key_tokens ?? trace.tokens : [];
    if (!trace || !reading || reading[0] >= trace.tokens.length || reading[1] >= cols.length) {
      reading = null;
      ui.readout.textContent = say(words(), "table.readout_hint");
      return;
    }
    ui.readout.textContent = tableReadout(trace, stageNow(), reading[0], reading[1], words());
  }

  function buildTable() {
    const stage = stageNow();
    ui.table.replaceChildren(...tableParts(trace, stage, words(), { asking: asking() }));
    ui.table.dataset.stage = stage;
    ui.table.closest(".table-wrap")?.classList.toggle("pending", stage === "pending");
    ui.heatKey.replaceChildren(...(stage === "weights" ? [heatKey(trace.weights, words())] : []));
    ui.showAll.setAttribute("aria-pressed", String(showAll));
    ui.showAll.disabled = asking();
    ui.showAllNote.hidden = !asking();
    showCell();
    showReadout();
  }

  /** The line of active lab changes, and the Normalization help that a temperature replaces. */
  function showState() {
    fillStateLine(ui.state, stateChanges(model.get("lesson") ?? {}, words(), { predict: Boolean(model.get("predict")) }), words(), commit);
    fillWords(ui.state, words());
  }

  /** Outline the cell being read (model "cell"), wherever it was picked. */
  function showCell() {
    const [ci, cj] = model.get("cell") ?? [-1, -1];
    for (const td of ui.table.querySelectorAll("td[data-i]")) {
      td.classList.toggle("reading", Number(td.dataset.i) === ci && Number(td.dataset.j) === cj);
    }
  }

  function showAsking() {
    ui.root.classList.toggle("asking", asking());
    if (trace) buildTable();
  }

  function buildTokens() {
    const buttons = tokenNames(trace.tokens).map((tok, j) => { // a repeated word by its place
      const b = h("button", { type: "button", class: "token", "aria-pressed": j === trace.focus ? "true" : "false" }, [tok]);
      b.addEventListener("click", () => commit({ focus: j }));
      return b;
    });
    ui.tokens.replaceChildren(...buttons);
  }

  function buildChoices() {
    const modes = model.get("choices")?.modes ?? [];
    const now = ui.mode.value || trace?.mode || model.get("mode");
    ui.mode.replaceChildren(...modes.map((m) => h("option", { value: m.value }, [m.label])));
    ui.mode.value = trace?.mode ?? now ?? "";
    const t = trace?.temperature;
    ui.modeHelp.textContent = t !== null && t !== undefined && ui.mode.value === "scaled"
      ? say(words(), "lesson.mode_temperature", { t: num(Number(t), 3), root: num(Math.sqrt(trace.d_k)) })
      : modes.find((m) => m.value === ui.mode.value)?.help ?? "";
  }

  function buildContext() {
    const presets = model.get("presets")?.presets ?? [];
    const current = model.get("sentence") ?? "";
    const options = presets.map((p) => h("option", { value: p.sentence }, [p.sentence]));
    const known = presets.some((p) => p.sentence === current);
    options.push(h("option", { value: "", disabled: true, hidden: known }, [say(words(), "lesson.own_sentence")]));
    ui.context.replaceChildren(...options);
    ui.context.value = known ? current : "";
    const vocab = model.get("presets")?.vocabulary;
    if (vocab) ui.ownHelp.textContent = say(words(), "lesson.own_help", { max_tokens: model.get("presets")?.max_tokens ?? "", vocabulary: vocab.join(", ") });
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
      ui.banner.hidden = false;
      ui.banner.textContent = say(words(), "lesson.failed", { error: err instanceof Error ? err.message : String(err) });
      paint();
      return;
    }
    buildChoices();
    showState();
    if (doc.activeElement !== ui.own) ui.own.value = trace.tokens.join(" ");
    steps.show();
    // five tokens and more: the table needs the full width, so it goes under the picture
    ui.root.classList.toggle("many", (trace.key_tokens ?? trace.tokens).length > 4);
    motion.t = 1; // a new context or mode redraws at once, in the same beat
    resize();
    paint();
  }

  function onWords() {
    fillWords(ui.root, words());
    if (trace) {
      buildTable();
      buildContext();
      showState();
    }
    paint();
  }

  readableCells(ui.table, { read: readout, ready: () => trace !== null, scope });
  scope.listen(ui.table, "click", (e) => {
    const td = e.target instanceof Element ? e.target.closest("td[data-i]") : null;
    if (td && trace) commit({ cell: [Number(td.dataset.i), Number(td.dataset.j)] });
  });
  scope.listen(ui.table, "focusin", (e) => {
    const td = e.target instanceof Element ? e.target.closest("td[data-i]") : null;
    const cell = model.get("cell");
    const at = td ? [Number(td.dataset.i), Number(td.dataset.j)] : null;
    if (at && trace && (cell?.[0] !== at[0] || cell?.[1] !== at[1])) commit({ cell: at });
  });
  scope.listen(ui.canvas, "click", canvasClick);
  scope.listen(ui.showAll, "click", () => {
    showAll = !showAll;
    if (trace) buildTable();
  });
  scope.listen(ui.context, "change", () => {
    const preset = (model.get("presets")?.presets ?? []).find((p) => p.sentence === ui.context.value);
    if (preset) commit({ sentence: preset.sentence, focus: preset.focus });
  });
  scope.listen(ui.mode, "change", () => commit({ mode: ui.mode.value }));
  scope.listen(ui.ownForm, "submit", (e) => {
    e.preventDefault();
    commit({ sentence: ui.own.value, focus: null });
  });

  scope.on(model, "change:lesson", onLesson);
  scope.on(model, "change:error", showError);
  scope.on(model, "change:busy", () => ui.root.setAttribute("aria-busy", String(Boolean(model.get("busy")))));
  scope.on(model, "change:presets", () => trace && buildContext());
  scope.on(model, "change:sentence", () => trace && buildContext());
  scope.on(model, "change:choices", buildChoices);
  scope.on(model, "change:words", onWords);
  scope.on(model, "change:cell", showCell);
  scope.on(model, "change:asking", showAsking);
  scope.on(model, "change:beat", () => trace && buildTable()); // the table follows the beat
  scope.on(model, "change:predict", () => trace && showState());

  const observer = new ResizeObserver(() => resize());
  observer.observe(ui.canvasWrap);
  scope.add(() => observer.disconnect());
  fillWords(ui.root, words());
  buildChoices();
  resize();
  steps.show();
  showAsking();
  if (model.get("lesson")) onLesson();
  showError();
  return scope.dispose;
}

export default { render };
