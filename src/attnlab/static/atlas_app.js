// The page's "Head atlas" tab: the Atlas view (atlas.js) on a model (widget_model.js) backed by
// GET /api/atlas, built the first time the tab opens; the tab itself is tablist.js's ownTab
// (pressing another tab hides this panel, pressing this one hides theirs). Its state rides
// in the URL beside the others' (the lesson's and the Real model's keys are kept):
//
//   ?view=atlas&atlas.name=minilm-wordnet&atlas.statistic=sink&atlas.layer=2&atlas.head=5
//
// An exemplar's link opens the Real model view (?view=model&model.text=…&model.layer=…).

import view from "./atlas.js";
import { fill } from "./atlas_layout.js";
import { getJSON } from "./http.js";
import { ownTab } from "./tablist.js";
import { createModel } from "./widget_model.js";

const P = "atlas.";

/** The Atlas view's state in a URL query (pure: Node's tests import it). */
export function readAtlasURL(search) {
  const q = new URLSearchParams(search);
  const int = (k) => (/^\d{1,4}$/.test(q.get(P + k) ?? "") ? Number(q.get(P + k)) : 0);
  return { view: q.get("view"), name: q.get(P + "name"), statistic: q.get(P + "statistic"), layer: int("layer"), head: int("head") };
}

/** The query with this view's keys written (and view=atlas), every other key kept. */
export function writeAtlasURL(search, state) {
  const q = new URLSearchParams(search);
  for (const key of [...q.keys()]) if (key === "view" || key.startsWith(P) || key.startsWith("model.")) q.delete(key);
  q.set("view", "atlas");
  if (state.name) q.set(P + "name", state.name);
  if (state.statistic) q.set(P + "statistic", state.statistic);
  q.set(P + "layer", String(state.layer));
  q.set(P + "head", String(state.head));
  return `?${q}`;
}

function tab() {
  const button = document.getElementById("tab-atlas");
  const panel = document.getElementById("atlas");
  if (!button || !panel) return;
  const wanted = readAtlasURL(location.search);
  let model = null;

  async function load(name) {
    const listed = await getJSON("/api/atlas/names");
    if (!listed.ok) return model.put("error", listed.error);
    const { names, words } = listed.body;
    if (!names.length) {
      model.put("words", words);
      return model.put("error", null);
    }
    const found = !name || names.includes(name);
    model.put("note", found ? null : fill(words["atlas.fallback"], { name, shown: names[0] }));
    if (!found || !name) name = names[0];
    const answer = await getJSON(`/api/atlas?name=${encodeURIComponent(name)}`);
    if (answer.ok) {
      model.put("error", null);
      model.put("atlas", answer.body);
      if (!answer.body.statistics.some((s) => s.key === model.get("statistic"))) model.put("statistic", answer.body.statistics[0].key);
      model.put("name", answer.body.name);
    } else {
      model.put("error", answer.error);
    }
    url();
  }
  const url = () => {
    if (panel.hidden || !model) return;
    history.replaceState(null, "", writeAtlasURL(location.search, { name: model.get("name"), statistic: model.get("statistic"), layer: model.get("layer"), head: model.get("head") }));
  };

  const show = ownTab(button, panel, "atlas", () => {
    if (!model) {
      model = createModel(
        { atlas: null, error: null, words: null, note: null, name: wanted.name, statistic: wanted.statistic, layer: wanted.layer, head: wanted.head, sort: null, links: true },
        (changed) => (changed.has("name") ? load(model.get("name")) : url()),
      );
      view.render({ model, el: panel });
      load(wanted.name);
    } else url();
  });
  if (wanted.view === "atlas") show();
}

if (typeof document !== "undefined") tab();
