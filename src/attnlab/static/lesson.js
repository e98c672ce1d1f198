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
//
// It is built from panels, each {el, keys, update(state, key), dispose()}: the settings
// (lesson_controls.js), the focus bar (lesson_focus.js), the picture (lesson_picture.js), the
// weights table (lesson_weights.js) and the line of lab changes, beside the step view
// (step_view.js), the presentation (present.js) and the Export menu. This file lays them out,
// decodes the lesson once per answer and hands the state to the panels that read the key that
// changed. It computes no attention: every number is the trace's, every sentence the API's.

import { fillWords, h } from "./dom.js";
import { lessonHeads } from "./export_data.js";
import { exportMenu } from "./export_menu.js";
import { decodeLesson } from "./format.js";
import { layout } from "./layout.js";
import { controlsPanel } from "./lesson_controls.js";
import { focusPanel } from "./lesson_focus.js";
import { guessPanel } from "./lesson_guess.js";
import { picturePanel } from "./lesson_picture.js";
import { weightsPanel } from "./lesson_weights.js";
import { presentation } from "./present.js";
import { createScope } from "./scope.js";
import { fillStateLine, stateChanges } from "./state_line.js";
import { stepView } from "./step_view.js";
import { say } from "./words.js";

const PLAY_STEP_MS = 3800;
/**
 * The lesson's JSON with the Cheaper section's numbers for it under "cheaper" (tiles of 2, as
 * `attnlab export` writes them), asked of the host; without one (the offline file) the lesson.
 * @param {any} lesson the lesson answer on screen
 * @param {any} model the view's model: the lab options and `services.ask`
 */
async function withCheaper(lesson, model) {
  const ask = model.services?.ask;
  if (!ask || !lesson) return lesson;
  const t = decodeLesson(lesson);
  const got = await ask("cheaper", { // the Cheaper section's own question (lab_cheaper.js), tiles of 2
    sentence: t.tokens.join(" "), focus: t.focus, tile: 2, mode: t.mode, axis: t.axis, temperature: model.get("temperature") ?? null,
    positions: model.get("positions"), causal: model.get("causal"), edits: model.get("edits"),
  });
  return got.ok ? { ...lesson, cheaper: got.body } : lesson;
}

/** The model keys whose change the panels may read (each panel lists its own in `keys`). */
const WATCHED = ["lesson", "error", "presets", "sentence", "choices", "words", "cell", "asking", "beat", "predict", "guess"];
let instances = 0;

/** The line of active lab changes (state_line.js), undone from the lesson. A panel. */
function stateLinePanel({ model, commit }) {
  const el = h("p", { class: "state-line", role: "group", "data-words-label": "lesson.state.name", hidden: true });
  return {
    el,
    keys: ["lesson", "words", "predict"],
    update({ trace, raw, words }) {
      if (!trace) return;
      fillStateLine(el, stateChanges(raw ?? {}, words, { predict: Boolean(model.get("predict")) }), words, commit);
      fillWords(el, words);
    },
    dispose() {},
  };
}

/** The page's order: the settings, the line of changes, the steps and the stage. */
function place(root, { controls, line, steps, focus, tools, picture, weights, guess }) {
  root.append(
    controls.el,
    line.el,
    h("div", { class: "nav" }, [steps.el, focus.el, tools]),
    h("div", { class: "stage" }, [picture.el, h("div", { class: "side" }, [steps.narration, guess.el, weights.el, weights.readout])]),
  );
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const id = `attn${++instances}`;
  const scope = createScope();
  const root = h("div", { class: "attnlab" });
  /** @type {Record<string, any> | null} */
  let trace = null;
  const words = () => model.get("words");
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const state = () => ({
    trace, raw: model.get("lesson"), words: words(), error: model.get("error"), choices: model.get("choices"),
    presets: model.get("presets"), cell: model.get("cell"), asking: Boolean(model.get("asking")),
  });
  const host = { model, commit, beat: () => steps.beat(), presenting: () => present.isOn() };
  const picture = picturePanel(host);
  const present = presentation({ model, scope, root, id, stepMs: PLAY_STEP_MS, onChange: () => picture.resize() });
  const steps = stepView({
    model, scope, root, trace: () => trace, commit, stepMs: present.stepMs, onStep: () => picture.animate(), pageKeys: present.isOn,
    // while a guess is awaited, the Score step's words keep its answer back (the lesson's predict.score_text)
    tell: (told) => (model.get("asking") && told.key === "score" && model.get("lesson")?.predict?.score_text) || told.text,
  });
  const exporter = exportMenu({
    model, scope, id,
    picture: () => (trace && picture.size.width ? { ...picture.shapes(), size: { width: picture.size.width, height: picture.size.height }, title: say(words(), "canvas.lesson") } : null),
    frames: () => (trace && picture.size.width ? { size: { ...picture.size }, shapes: steps.beats().map((_, b) => layout(trace, picture.size, b, trace.focus, words() ?? {}).shapes) } : null),
    numbers: () => (trace ? { matrix: model.get("lesson"), heads: lessonHeads(model.get("lesson")), json: () => withCheaper(model.get("lesson"), model) } : null),
    name: () => [trace?.tokens.join(" "), trace?.tokens[trace.focus], trace?.mode, steps.beats()[steps.beat()]?.key],
    offline: { url: () => model.get("export_html"), beat: () => steps.beat(), note: "export.html_note_lesson" },
  });
  const panels = {
    controls: controlsPanel(id, host), line: stateLinePanel(host), focus: focusPanel(id, host), picture, weights: weightsPanel(host),
    guess: guessPanel(host),
  };
  place(root, { ...panels, steps, tools: h("div", { class: "view-tools" }, [exporter.el, present.el]) });
  el.replaceChildren(root);

  /** Hand the state to every panel that reads `key`. */
  function update(key) {
    const now = state();
    for (const panel of Object.values(panels)) if (panel.keys.includes(key)) panel.update(now, key);
  }

  function onLesson() {
    const data = model.get("lesson");
    if (!data) return;
    try {
      trace = decodeLesson(data);
      for (const name of ["focus", "weights", "controls", "guess"]) panels[name].update(state(), "lesson");
    } catch (err) {
      trace = null;
      picture.fail(say(words(), "lesson.failed", { error: err instanceof Error ? err.message : String(err) }));
      return;
    }
    panels.line.update(state(), "lesson");
    steps.show();
    // five tokens and more: the table needs the full width, so it goes under the picture
    root.classList.toggle("many", (trace.key_tokens ?? trace.tokens).length > 4);
    picture.update(state(), "lesson");
  }

  const showAsking = () => {
    root.classList.toggle("asking", Boolean(model.get("asking")));
    if (trace) for (const name of ["weights", "guess", "picture"]) panels[name].update(state(), "asking");
    steps.show();
  };
  const handlers = {
    lesson: onLesson,
    words: () => {
      fillWords(root, words());
      if (trace) update("words");
      else picture.update(state(), "words");
    },
    asking: showAsking,
  };
  for (const key of WATCHED) scope.on(model, `change:${key}`, () => (handlers[key] ?? (() => update(key)))());
  scope.on(model, "change:busy", () => root.setAttribute("aria-busy", String(Boolean(model.get("busy")))));
  for (const panel of Object.values(panels)) scope.add(() => panel.dispose());

  fillWords(root, words());
  panels.controls.update(state(), "choices");
  picture.resize();
  steps.show();
  showAsking();
  if (model.get("lesson")) onLesson();
  update("error");
  return scope.dispose;
}

export default { render };
