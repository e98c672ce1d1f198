// The host of a real model's text saved as one HTML file: the Real model view (model.js) on a
// model (widget_model.js) whose heads are the file's own, every layer and head for one text and
// one token followed (keyed "layer|head"), with the heads grid. Another text, token, the
// Compare contexts panel or the Mask a token panel (each of which runs the model again) puts
// the page's message on screen and keeps the head shown.

import view from "./model.js";
import { fileData, notHeld, showNote } from "./standalone_host.js";
import { createModel } from "./widget_model.js";

function start(el) {
  const data = fileData(document);
  const { state } = data;
  const held = (layer, head) => {
    const one = data.heads[`${layer}|${head}`];
    if (!one) return null;
    const shared = Object.fromEntries((data.shared ?? []).map((k) => [k, data.arrays[one[k].ref]])); // kept once: a GQA group's keys and values, the mask
    return { ...one, ...shared, embeddings: data.embeddings[layer] }; // the layer's input, kept once
  };
  let good = { ...state };
  const model = createModel(
    {
      ...state, word: "", a: "", b: "", info: data.info, trace: held(state.layer, state.head), grid: data.grid, compare: null,
      status: "", error: null, compareError: notHeld(data, null), maskError: notHeld(data, null), mask: null, choices: data.choices, words: data.words, global_keys: true,
    },
    (changed) => {
      if (changed.has("maskWord") || changed.has("maskHow")) model.put("maskError", notHeld(data, null)); // said again: no run here
      if (["name", "text", "focus"].some((k) => changed.has(k)) && (model.get("name") !== good.name || model.get("text") !== good.text || model.get("focus") !== good.focus)) {
        const field = changed.has("text") ? "text" : changed.has("focus") ? "focus" : "model";
        for (const k of ["name", "text", "focus"]) model.put(k, good[k]);
        model.put("error", notHeld(data, field));
        return;
      }
      if (changed.has("layer") || changed.has("head")) {
        const found = held(model.get("layer"), model.get("head"));
        if (!found) {
          model.put("layer", good.layer);
          model.put("head", good.head);
          model.put("error", notHeld(data, "head"));
          return;
        }
        good = { ...good, layer: model.get("layer"), head: model.get("head") };
        model.put("error", null);
        model.put("trace", found);
      }
    },
  );
  showNote(document, data);
  view.render({ model, el });
}

start(document.getElementById("attnlab-view"));
