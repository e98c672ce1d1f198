// The notebook widget's view: the lesson (lesson.js), the lesson with its lab under it (lab.js),
// a real model's heads (model.js) or a training run (train_view.js), chosen by the model's
// "view" key, inside an element marked .attnlab-nb so the widget's stylesheet (scoped to that class by attnlab.widget.styles) touches
// nothing else in the notebook. The views get anywidget's model with the kernel's services
// (widget_model.kernelServices: the lab's sweep and cost are asked of the kernel). Its cleanup
// runs the inner view's, empties the element and counts the view out of
// globalThis.attnlabLiveViews: a notebook that re-runs a cell or closes an output leaks no view.

import lab from "./lab.js";
import lesson from "./lesson.js";
import realModel from "./model.js";
import train from "./train_view.js";
import { kernelServices } from "./widget_model.js";

/** The lesson, and its lab in an element of its own under it. */
const lessonAndLab = {
  /** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
  render({ model, el }) {
    const top = el.ownerDocument.createElement("div");
    const under = el.ownerDocument.createElement("section");
    under.className = "lab-mount";
    el.replaceChildren(top, under);
    const undoLesson = lesson.render({ model, el: top });
    const undoLab = lab.render({ model, el: under });
    return () => {
      undoLab();
      undoLesson();
    };
  },
};

const VIEWS = { lesson, lab: lessonAndLab, model: realModel, train };

/** anywidget's model as the views read it: get/set/on/off/save_changes, and the services. */
function hosted(model, services) {
  return {
    services,
    get: (key) => model.get(key),
    set: (key, value) => model.set(key, value),
    on: (event, handler) => model.on(event, handler),
    off: (event, handler) => model.off(event, handler),
    save_changes: () => model.save_changes(),
  };
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const live = (globalThis.attnlabLiveViews ??= { count: 0 });
  const view = VIEWS[model.get("view")] ?? lesson;
  const kernel = kernelServices(model);
  el.classList.add("attnlab-nb");
  const cleanup = view.render({ model: hosted(model, kernel.services), el });
  live.count += 1;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    cleanup();
    kernel.dispose();
    el.replaceChildren();
    el.classList.remove("attnlab-nb");
    live.count -= 1;
  };
}

export default { render };
