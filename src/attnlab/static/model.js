// The Real model view: export default { render({ model, el }) }, the anywidget shape like
// lesson.js; render returns the cleanup that undoes every subscription (scope.js).
//
// The model holds what the learner chose ("name", "text", "layer", "head", "focus", "beat",
// "word", "a", "b"; the view writes these) and what the host fetched ("info": /api/model/info,
// "trace": one head's /api/model/trace answer, "grid": every head at a glance, "compare": the
// /api/model/compare answer, "status", "error", "compareError", "choices" and "words": the
// page's beats and fixed words from /api/presets, "global_keys"). After any change the view
// reads ONE state object from it (model_state.js) and hands it whole to each of its panels,
// `{el, update(state), dispose()}`: the settings, the tokens, the head's notes, the step
// picture, the weights table, the heads grid and ranking, the matrix, RoPE, the head view,
// Mask a token and Compare contexts. This module only builds them and places their elements;
// it touches only `el` and computes no attention: every number shown is the API's.

import { fillWords, h } from "./dom.js";
import { exportMenu } from "./export_menu.js";
import { headView } from "./head_view.js";
import { comparePanel } from "./model_compare.js";
import { decoderPanel } from "./model_decoder.js";
import { headsGrid } from "./model_grid.js";
import { maskPanel } from "./model_mask.js";
import { matrixPanel } from "./model_matrix.js";
import { headNotesPanel, headViewAskPanel, introPanel, windowPanel } from "./model_notes.js";
import { picturePanel } from "./model_picture.js";
import { rankingPanel } from "./model_ranking.js";
import { modelName, settingsPanel } from "./model_settings.js";
import { STATE_KEYS, changes, stateReader } from "./model_state.js";
import { tablePanel } from "./model_table.js";
import { tokensPanel } from "./model_tokens.js";
import { createScope } from "./scope.js";
import { stepView } from "./step_view.js";
import { TYPING } from "./stepper.js";
import { say } from "./words.js";

export { modelName };

const PLAY_STEP_MS = 3800;
let instances = 0;

/** Every panel of the view, built once; the steps come from step_view.js (shared with the lesson). */
function panels(model, id, commit, steps) {
  const pick = (layer, head) => {
    steps.stop();
    commit({ layer, head });
  };
  return {
    settings: settingsPanel(id, commit, () => steps.stop()),
    intro: introPanel(),
    tokens: tokensPanel(id, commit),
    notes: headNotesPanel(),
    window: windowPanel(),
    picture: picturePanel(steps),
    table: tablePanel(),
    grid: headsGrid(model, id, pick, commit),
    ranking: rankingPanel(model, id, pick, commit),
    matrix: matrixPanel(model, id, commit),
    decoder: decoderPanel(model, id),
    headViewAsk: headViewAskPanel(commit),
    headView: headView(model, id),
    mask: maskPanel(model, id, commit),
    compare: comparePanel(model, id, commit),
  };
}

/** The panels that need a model to run (a text to run again, the model's positions, its heads
 * ranked by the API): absent for attention handed in alone (`info.weights_only`), which has
 * only the weights' own panels (the grid, the matrix, the table and the steps they allow). */
const NEEDS_MODEL = ["window", "decoder", "ranking", "headViewAsk", "headView", "mask", "compare"];

/** Where each panel goes: on a wide screen the heads grid sits beside the settings and the
 * steps, so the picture below starts on the first screen. */
function arrange(p, nav, side) {
  return [
    h("div", { class: "rm-top" }, [
      h("div", { class: "rm-left" }, [p.intro.el, p.settings.el, p.settings.banner, nav, p.tokens.el, p.notes.el]),
      p.grid.el,
    ]),
    p.window.el,
    h("div", { class: "stage rm-stage" }, [h("div", { class: "picture" }, [p.picture.el]), side]),
    p.matrix.el,
    p.decoder.el,
    p.ranking.el,
    p.headViewAsk.el,
    p.headView.el,
    p.mask.el,
    p.compare.el,
  ];
}

/** The Export menu: the picture on screen, the head's numbers, the offline page. */
function exporter(model, scope, picture, steps, read) {
  return exportMenu({
    model, scope, id: `rm-export${instances}`,
    paint: picture.paintFinished,
    picture: picture.picture,
    frames: picture.frames,
    numbers: () => {
      const { data, trace } = read();
      const positions = data?.window && !data.window.whole ? data.window.rows : null; // a window's places in the text
      return trace && data ? { matrix: data, heads: [{ layer: data.model.layer, head: data.model.head, trace: data, positions }], json: data } : null;
    },
    // a window of a long text: the CSVs say, before the click, that they hold the rows shown
    numbersNote: () => {
      const w = model.get("trace")?.window; // the model's own: the view's state may not have caught up yet
      return w && !w.whole ? say(model.get("words"), "export.csv_window", { shown: w.rows.length, n: w.n }) : null;
    },
    name: () => {
      const { name, layer, head, trace } = read();
      return [name, trace && `layer ${layer} head ${head}`, trace?.tokens[trace.focus], steps.beats()[steps.beat()]?.key];
    },
    offline: {
      url: () => model.get("export_html"), beat: steps.beat, note: "export.html_note_model",
      // the host's limit (/api/model/info's html_max_tokens): said before the click, not after
      refused: () => {
        const limit = model.get("info")?.html_max_tokens;
        const n = model.get("trace")?.window?.n;
        return limit != null && n > limit ? say(model.get("words"), "export.html_too_long", { n, limit }) : null;
      },
    },
  });
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const scope = createScope();
  const id = `rm${++instances}`;
  const read = stateReader(model);
  let state = read();
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  let p = null; // the panels (the steps need the picture, the picture the steps)
  const root = h("div", { class: "rm" }); // the view's root: the steps' keys act inside it
  const steps = stepView({
    model, scope, root, trace: () => state.trace, commit, stepMs: PLAY_STEP_MS,
    keysSkip: `${TYPING}, [role=tablist], .rm-grid, table`, // the tabs, the grid and the table move with arrows
    idle: () => model.get("status") || "",
    onStep: () => p?.picture.animate(),
  });
  p = panels(model, id, commit, steps);
  const side = h("div", { class: "side" }, [steps.narration, p.table.el]);
  const nav = h("div", { class: "nav" }, [steps.el, h("div", { class: "view-tools" }, [exporter(model, scope, p.picture, steps, () => state).el])]);
  root.replaceChildren(...arrange(p, nav, side));
  el.replaceChildren(root);

  const memo = changes();
  function update() {
    state = read();
    memo.next(state);
    if (memo.changed("words")) fillWords(root, state.words);
    const weightsOnly = Boolean(state.info?.weights_only);
    for (const [name, panel] of Object.entries(p)) {
      if (weightsOnly && NEEDS_MODEL.includes(name)) panel.el.hidden = true; // nothing to show
      else panel.update(state);
    }
    if (memo.changed("status")) root.setAttribute("aria-busy", String(Boolean(state.status)));
    if (memo.changed("trace", "words", "choices") || (!state.trace && memo.changed("status", "error"))) steps.show();
  }
  for (const key of STATE_KEYS) scope.on(model, `change:${key}`, update);
  const observer = new ResizeObserver(() => {
    p.picture.resize();
    p.matrix.paint();
    p.compare.show();
    p.headView.redraw();
  });
  observer.observe(p.picture.el);
  scope.add(() => observer.disconnect());
  p.settings.setText(model.get("text"));
  update();
  return () => {
    for (const panel of Object.values(p)) panel.dispose();
    scope.dispose();
  };
}

export default { render };
