// Presentation mode for a view (lesson.js): the picture and the narration over the whole screen
// in large type, the controls out of the way, the steps at the bottom. The view's model holds
// it ("present": true or false), so a host can keep it in the URL like the rest of the state.
// Entering from the button also asks the browser for full screen; Escape (or leaving full
// screen) ends it. The Play speed control sets how long each step stays when playing.
//
// Keys while presenting are the steps' (stepper.js): → or PageDown next, ← or PageUp back, space
// plays: what a presentation clicker sends. Everything subscribed goes through the view's scope.

import { h } from "./dom.js";
import { say } from "./words.js";

/** How long a step stays while playing, by the speed control's choice; "normal" is the view's. */
export const SPEEDS = { slow: 6500, normal: null, fast: 2000 };

/**
 * @param {{model: any, scope: ReturnType<import("./scope.js").createScope>, root: HTMLElement,
 *   id: string, stepMs: number, onChange?: () => void}} options `root`: the element shown full
 *   screen; `stepMs`: the view's normal time per step; `onChange`: after entering or leaving
 */
export function presentation({ model, scope, root, id, stepMs, onChange = () => {} }) {
  const words = () => model.get("words");
  const doc = root.ownerDocument;
  const button = h("button", { type: "button", class: "present-button", "aria-pressed": "false" });
  const speed = h("select", { id: `${id}-speed` });
  const speedField = h("span", { class: "speed-field" }, [h("label", { for: `${id}-speed`, "data-words": "present.speed" }), speed]);
  const hint = h("p", { class: "present-hint", id: `${id}-present-hint` });
  const el = h("div", { class: "present-tools", role: "group", "data-words-label": "present.label" }, [speedField, button, hint]);
  let fullscreen = false;

  const on = () => Boolean(model.get("present"));
  function label() {
    button.textContent = say(words(), on() ? "present.exit" : "present.enter");
    button.setAttribute("aria-pressed", String(on()));
    hint.textContent = say(words(), "present.hint");
    const was = speed.value || "normal";
    speed.replaceChildren(...Object.keys(SPEEDS).map((k) => h("option", { value: k }, [say(words(), `present.speed_${k}`)])));
    speed.value = was;
    speed.setAttribute("aria-label", say(words(), "present.speed")); // its label hides on a narrow screen
    for (const node of el.querySelectorAll("[data-words]")) node.textContent = say(words(), node.getAttribute("data-words"));
    el.setAttribute("aria-label", say(words(), "present.label"));
  }

  function show({ first = false } = {}) {
    root.classList.toggle("presenting", on());
    if (on()) root.setAttribute("aria-describedby", hint.id);
    else root.removeAttribute("aria-describedby");
    if (!on() && fullscreen && doc.fullscreenElement === root) doc.exitFullscreen?.().catch(() => {});
    if (!on()) fullscreen = false;
    label();
    if (!first) onChange(); // the view is still being built the first time
  }

  function set(value) {
    model.set("present", value);
    model.save_changes();
  }

  scope.listen(button, "click", () => {
    const entering = !on();
    if (entering && root.requestFullscreen && !doc.fullscreenElement) {
      fullscreen = true;
      root.requestFullscreen().catch(() => (fullscreen = false)); // a page may refuse: the mode stays
    }
    set(entering);
    button.focus();
  });
  scope.listen(doc, "fullscreenchange", () => {
    if (fullscreen && doc.fullscreenElement !== root && on()) set(false); // the browser's Esc
  });
  scope.listen(doc, "keydown", (e) => {
    if (e.key === "Escape" && on() && !e.defaultPrevented) {
      e.preventDefault();
      set(false);
    }
  });
  scope.on(model, "change:present", () => show());
  scope.on(model, "change:words", label);
  show({ first: true });
  return {
    el,
    /** The time a step stays while playing, by the speed chosen. */
    stepMs: () => SPEEDS[speed.value] ?? stepMs,
    isOn: on,
  };
}
