// The page's "Toy lesson" / "Real model" tabs. The Real model view is built the first time its
// tab opens (model_host.js), so the lesson alone never loads the weights; its state lives in
// the URL beside the lesson's (model_url.js):
//
//   ?view=model&model.text=by+the+river+bank&model.layer=2&model.head=5&model.focus=4&model.beat=score
//
// The view's keys act only while its tab shows (step_view.js); the tabs' own arrow keys, across
// every view's tab, are tablist.js's.

import { getJSON } from "./http.js";
import { host } from "./model_host.js";
import { readModelURL, writeModelURL } from "./model_url.js";

export { FRESH_ANSWERS, FRESH_HEAD } from "./model_host.js";
export { HEADS_DELAY_MS, HEAD_VIEW_ASK_OVER, STATUS_DELAY_MS } from "./model_timing.js";
export { readModelURL, writeModelURL };

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

  function show(which) {
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
  }
  tabLesson.addEventListener("click", () => show("lesson"));
  tabModel.addEventListener("click", () => show("model"));
  getJSON("/api/presets").then((answer) => {
    page = answer.ok ? answer.body : null;
    wanted = readModelURL(location.search, page?.choices?.beats ?? []);
    if (view && page) for (const k of ["choices", "words"]) view.model.put(k, page[k]); // a tab opened early
    if (wanted.view === "model") show("model");
  });
}

if (typeof document !== "undefined") tabs(); // imported by Node's tests for the URL functions
