// The steps of a view, shared by the toy lesson (lesson.js) and the Real model (model.js): the
// step buttons (stepper.js: Previous, a pill per beat, Next, Play), the keyboard, and the
// Narration region (the beat's title and the trace's words for it).
//
// The beat lives in the model ("beat", an index); the beats' keys and titles come from the
// model's "choices" (/api/presets) or, before those, from the trace's own narration, so no
// title is written here. The keys act on the view's root, and only while the view is shown: a
// hidden tab's steps keep still. When the model says "global_keys" (the web page), keys pressed
// outside every view (on the page's body) step one view too: the one the learner last pointed
// at or focused, else the first shown that hears them. So with two such views a key inside a
// view steps that view alone, and a key on the body the view last used. The last used view is
// recorded on the document under a global symbol, so views from separate bundles agree.
// Everything subscribed goes through the view's scope (scope.js).

import { fillWords, h } from "./dom.js";
import { createStepper, TYPING } from "./stepper.js";
import { say } from "./words.js";

/** Where the document keeps the root of the step view last used (see the head of this file). */
const LAST_USED = Symbol.for("attnlab.steps.last_used");

/** @param {Element} el */
const isShown = (el) => el.isConnected && (typeof el.checkVisibility === "function" ? el.checkVisibility() : true);

/**
 * @param {{
 *   model: any, scope: ReturnType<import("./scope.js").createScope>, root: Element,
 *   trace: () => Record<string, any> | null, commit: (changes: Record<string, any>) => void,
 *   stepMs: number | (() => number), keysSkip?: string, idle?: () => string, onStep?: () => void,
 *   pageKeys?: () => boolean, tell?: (told: {key: string, title: string, text: string}) => string,
 * }} options `root`: the view's root (where the keys act without global_keys, and whose
 *   visibility gates them); `idle`: the words while there is no trace; `onStep`: after a new beat;
 *   `pageKeys`: whether PageDown / PageUp step too (while presenting); `tell`: a beat's words
 *   (default: the trace's own text)
 */
export function stepView({ model, scope, root, trace, commit, stepMs, keysSkip = TYPING, idle = () => "", onStep = () => {}, pageKeys = () => false, tell = (told) => told.text }) {
  const words = () => model.get("words");
  const prev = h("button", { type: "button", class: "step", "data-words": "steps.previous" });
  const next = h("button", { type: "button", class: "step primary", "data-words": "steps.next" });
  const play = h("button", { type: "button", class: "play" });
  const pills = h("div", { class: "pills" });
  const el = h("section", { class: "stepper", "data-words-label": "steps.name" }, [prev, pills, next, play]);
  const title = h("h2", { class: "beat-title" });
  const text = h("p", { class: "beat-text" });
  const narration = h("div", { class: "narration", role: "status", "aria-live": "polite", "aria-label": "Narration" }, [title, text]);

  /** The beats as [{key, title}], from the API's choices or the trace's narration. */
  const beats = () => model.get("choices")?.beats ?? trace()?.narration?.map(({ key, title: t }) => ({ key, title: t })) ?? [];
  const beat = () => Math.max(0, Math.min(beats().length - 1, Math.floor(Number(model.get("beat")) || 0)));
  const shown = () => isShown(root);

  const stepper = createStepper({
    count: () => beats().length,
    current: beat,
    commit: (b) => (shown() ? commit({ beat: b }) : stepper.stop()), // a hidden view stops playing
    stepMs,
    buttons: { prev, next, play },
    keysSkip,
    keysActive: shown,
    pageKeys,
    playLabel: (playing) => say(words(), playing ? "steps.pause" : "steps.play"),
  });

  let titles = "";
  function buildPills() {
    const all = beats();
    const now = JSON.stringify([all.map((b) => b.title), words()?.["steps.pill"]]);
    if (now === titles) return;
    titles = now;
    pills.replaceChildren(
      ...all.map(({ title: t }, b) => h("button", { type: "button", class: "pill", "aria-label": say(words(), "steps.pill", { number: b + 1, title: t }), "data-beat": b }, [`${b + 1} ${t}`])),
    );
  }

  /** Show the current beat: the pills, Previous / Next at either end, the narration. */
  function show() {
    fillWords(el, words());
    play.textContent = say(words(), stepper.isPlaying() ? "steps.pause" : "steps.play");
    buildPills();
    stepper.show();
    const b = beat();
    for (const pill of pills.children) {
      if (Number(pill.getAttribute("data-beat")) === b) pill.setAttribute("aria-current", "step");
      else pill.removeAttribute("aria-current");
    }
    const all = beats();
    const told = trace()?.narration?.[b];
    const name = told?.title ?? all[b]?.title ?? "";
    title.textContent = name ? say(words(), "steps.title", { number: b + 1, count: all.length, title: name }) : "";
    text.textContent = told ? tell(told) : idle();
    root.setAttribute("data-beat", all[b]?.key ?? "");
  }

  scope.listen(pills, "click", (e) => {
    const pill = e.target instanceof Element ? e.target.closest("[data-beat]") : null;
    if (pill) stepper.goTo(Number(pill.getAttribute("data-beat")));
  });
  root.setAttribute("data-steps", "");
  if (model.get("global_keys")) {
    const doc = root.ownerDocument;
    const used = () => (doc[LAST_USED]?.isConnected ? doc[LAST_USED] : null);
    const mine = (e) => {
      const target = e.target instanceof Element ? e.target : null;
      const inside = target?.closest("[data-steps]");
      if (inside) return inside === root; // a key inside a view is that view's
      const last = used();
      return !last || last === root || !isShown(last); // on the body: the view last used
    };
    for (const type of ["pointerdown", "focusin"]) scope.listen(root, type, () => (doc[LAST_USED] = root));
    scope.listen(doc, "keydown", (e) => mine(e) && stepper.onKey(e));
    scope.add(() => doc[LAST_USED] === root && delete doc[LAST_USED]);
  } else scope.listen(root, "keydown", stepper.onKey);
  scope.on(model, "change:beat", () => {
    show();
    onStep();
  });
  for (const key of ["change:choices", "change:words"]) scope.on(model, key, show);
  scope.add(stepper.stop);

  return { el, narration, beats, beat, show, stop: stepper.stop };
}
