// The notebook widget's view: the lesson (lesson.js) or a real model's heads (model.js), chosen by
// the model's "view" key, inside an element marked .attnlab-nb so the widget's stylesheet (scoped
// to that class by attnlab.widget.styles) touches nothing else in the notebook. Its cleanup runs
// the inner view's, empties the element and counts the view out of
// globalThis.attnlabLiveViews: a notebook that re-runs a cell or closes an output leaks no view.

import lesson from "./lesson.js";
import realModel from "./model.js";

const VIEWS = { lesson, model: realModel };

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const live = (globalThis.attnlabLiveViews ??= { count: 0 });
  const view = VIEWS[model.get("view")] ?? lesson;
  el.classList.add("attnlab-nb");
  const cleanup = view.render({ model, el });
  live.count += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    cleanup();
    el.replaceChildren();
    el.classList.remove("attnlab-nb");
    live.count -= 1;
  };
}

export default { render };
