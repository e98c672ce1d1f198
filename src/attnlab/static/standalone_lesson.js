// The host of a lesson saved as one HTML file: the lesson view (lesson.js) on a model
// (widget_model.js) whose lessons are the file's own, one per normalization and token followed
// (keyed "mode|focus"). A step, a cell or a token changes nothing but the model; a sentence the
// file does not hold puts the page's message next to the control and keeps the lesson shown.

import lesson from "./lesson.js";
import { fileData, notHeld, showNote } from "./standalone_host.js";
import { createModel } from "./widget_model.js";

function start(el) {
  const data = fileData(document);
  const { state } = data;
  const held = (mode, focus) => data.lessons[`${mode}|${focus}`] ?? null;
  let good = { ...state };
  const model = createModel(
    {
      ...state, lesson: held(state.mode, state.focus), presets: data.presets, choices: data.choices, words: data.words, lab: null,
      error: null, busy: false, global_keys: true, cell: null, guess: null, asking: false,
    },
    (changed) => {
      if (!["sentence", "mode", "focus", "axis"].some((k) => changed.has(k))) return;
      const focus = model.get("focus") ?? good.focus;
      const found = model.get("sentence") === good.sentence && model.get("axis") === good.axis ? held(model.get("mode"), focus) : null;
      if (found) {
        good = { ...good, mode: model.get("mode"), focus };
        model.put("error", null);
        model.put("lesson", found);
        return;
      }
      const field = changed.has("sentence") ? "sentence" : changed.has("mode") ? "mode" : "focus";
      for (const k of ["sentence", "mode", "focus", "axis"]) model.put(k, good[k]);
      model.put("error", notHeld(data, field));
    },
  );
  showNote(document, data);
  lesson.render({ model, el });
}

start(document.getElementById("attnlab-view"));
