// The head view (head_view.js) under the toy lesson: the lesson's head (or its two heads with
// Heads = 2) from the /api/lesson answer on screen, in the form the head view draws an
// /api/model/heads answer in (head_view_layout.matrixHeads: every key of every row, as a short
// text's answer holds them). The toy has one layer, so only the heads are offered, no means. While the lab asks for a guess
// ("asking", Predict first) the panel is hidden: its lines are the weights being guessed. It
// sits in a closed disclosure ("Head view of the toy head"), so the lesson's own picture stays
// the page's one image until the learner opens it.

import { decodeArray } from "./format.js";
import { headView } from "./head_view.js";
import { matrixHeads } from "./head_view_layout.js";
import { fillWords, h } from "./dom.js";

/**
 * @param {{model: any, el: HTMLElement}} props the lesson's model (app.js) and the panel's box
 * @returns {() => void} the cleanup
 */
export function lessonHeadView({ model, el }) {
  let data = null;
  const adapter = { get: (key) => (key === "heads" ? data : key === "head" ? 0 : model.get(key)) };
  const view = headView(adapter, "lesson", { decode: (heads) => heads }); // built in that form here
  const details = h("details", { class: "lesson-hv" }, [h("summary", { "data-words": "model.hv.lesson" }), view.el]);
  el.replaceChildren(details);
  details.addEventListener("toggle", () => view.redraw()); // a closed panel has no width to draw in

  function update() {
    const lesson = model.get("lesson");
    const runs = lesson?.heads?.length ? lesson.heads : lesson ? [lesson] : [];
    data = !lesson || model.get("asking") ? null : matrixHeads({ tokens: lesson.tokens, matrices: runs.map((r) => decodeArray(r.weights)) });
    view.show();
    details.hidden = !data;
  }
  const words = () => {
    fillWords(el, model.get("words"));
    update();
  };
  const events = [["change:lesson", update], ["change:asking", update], ["change:words", words]];
  for (const [name, fn] of events) model.on(name, fn);
  const resize = new ResizeObserver(() => view.redraw());
  resize.observe(el);
  words();
  return () => {
    for (const [name, fn] of events) model.off(name, fn);
    resize.disconnect();
    el.replaceChildren();
  };
}
