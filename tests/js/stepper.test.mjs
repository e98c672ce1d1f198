// stepper.js: the steps' buttons, keys and player, shared by the lesson and the Real model view.
// The buttons are bare EventTargets (step_view.js builds the real ones) and the clock a fake that runs its timers on tick(), so the
// playing is checked step by step without a browser or real time.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { createStepper, TYPING } from "../../src/attnlab/static/stepper.js";

const STEP_MS = 3800;
const WORDS = JSON.parse(readFileSync(new URL("./page.json", import.meta.url), "utf8")).words;

/** A clock whose timers run only when told: tick() runs the pending ones, in order. */
function fakeClock() {
  let id = 0;
  const pending = new Map();
  return {
    setTimeout(f, ms) {
      pending.set(++id, { f, ms });
      return id;
    },
    clearTimeout(timer) {
      pending.delete(timer);
    },
    pending: () => [...pending.values()].map((p) => p.ms),
    tick() {
      const due = [...pending.entries()];
      pending.clear();
      for (const [, p] of due) p.f();
    },
  };
}

/** A button as the stepper uses one: click events, textContent and attributes. */
function button(text = "") {
  const attrs = new Map();
  return Object.assign(new EventTarget(), {
    textContent: text,
    attrs,
    setAttribute: (name, value) => attrs.set(name, String(value)),
    removeAttribute: (name) => attrs.delete(name),
  });
}
const click = (target) => target.dispatchEvent(new Event("click"));

/** A stepper over `count` steps whose model is a plain variable, with every commit recorded. */
function setup({ count = 6, at = 0, keysSkip } = {}) {
  const clock = fakeClock();
  const buttons = { prev: button("Previous step"), next: button("Next step"), play: button("Play"), pills: [...Array(count)].map(() => button()) };
  const model = { beat: at, commits: [] };
  const stepper = createStepper({
    count,
    current: () => model.beat,
    commit: (b) => {
      model.commits.push(b);
      model.beat = b;
    },
    stepMs: STEP_MS,
    buttons,
    playLabel: (playing) => WORDS[playing ? "steps.pause" : "steps.play"],
    keysSkip,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
  });
  return { clock, buttons, model, stepper };
}

/** A keydown as the stepper sees it: a key, a target with closest(selector), preventDefault. */
function key(k, { inside = [], ...mods } = {}) {
  const e = {
    key: k, altKey: false, ctrlKey: false, metaKey: false, defaultPrevented: false, ...mods,
    target: { closest: (sel) => (inside.some((tag) => sel.split(", ").includes(tag)) ? {} : null) },
    preventDefault() {
      e.defaultPrevented = true;
    },
  };
  return e;
}

test("Next, Previous and the pills commit the step they name, clamped to the steps there are", () => {
  const { buttons, model } = setup({ at: 0 });
  click(buttons.next);
  click(buttons.next);
  assert.deepEqual(model.commits, [1, 2]);
  click(buttons.prev);
  click(buttons.pills[5]);
  click(buttons.next); // already on the last step: nothing to commit
  assert.deepEqual(model.commits, [1, 2, 1, 5]);
  click(buttons.pills[0]);
  click(buttons.prev); // already on the first
  assert.deepEqual(model.commits, [1, 2, 1, 5, 0]);
});

test("Play steps once every stepMs, stops on the last step and says Play again", () => {
  const { clock, buttons, model, stepper } = setup({ count: 3, at: 0 });
  click(buttons.play);
  assert.equal(buttons.play.textContent, "Pause");
  assert.equal(stepper.isPlaying(), true);
  assert.deepEqual(clock.pending(), [STEP_MS]);
  clock.tick();
  clock.tick();
  assert.deepEqual(model.commits, [1, 2]);
  assert.equal(stepper.isPlaying(), true, "the last step is shown for a full stepMs");
  clock.tick();
  assert.equal(stepper.isPlaying(), false);
  assert.equal(buttons.play.textContent, "Play");
  assert.deepEqual(clock.pending(), [], "no timer is left behind");
});

test("Play on the last step starts again from the first", () => {
  const { clock, buttons, model } = setup({ count: 4, at: 3 });
  click(buttons.play);
  assert.deepEqual(model.commits, [0]);
  clock.tick();
  assert.deepEqual(model.commits, [0, 1]);
});

test("a learner's step, Pause and stop() all end the playing; the player's steps do not", () => {
  for (const end of [(s) => click(s.buttons.next), (s) => click(s.buttons.play), (s) => s.stepper.stop(), (s) => click(s.buttons.pills[4])]) {
    const s = setup({ at: 0 });
    click(s.buttons.play);
    s.clock.tick(); // the player's own step keeps it playing
    assert.equal(s.stepper.isPlaying(), true);
    end(s);
    assert.equal(s.stepper.isPlaying(), false);
    assert.equal(s.buttons.play.textContent, "Play");
    assert.deepEqual(s.clock.pending(), []);
  }
});

test("toggle plays and pauses, and a second start does not leave two timers", () => {
  const { clock, stepper } = setup();
  stepper.toggle();
  stepper.start();
  assert.deepEqual(clock.pending(), [STEP_MS]);
  stepper.toggle();
  assert.equal(stepper.isPlaying(), false);
  assert.deepEqual(clock.pending(), []);
});

test("arrow keys step and space plays; each key it takes is kept from the page", () => {
  const { model, stepper } = setup({ at: 2 });
  const right = key("ArrowRight");
  stepper.onKey(right);
  assert.equal(right.defaultPrevented, true);
  stepper.onKey(key("ArrowLeft"));
  stepper.onKey(key("ArrowLeft"));
  assert.deepEqual(model.commits, [3, 2, 1]);
  stepper.onKey(key(" "));
  assert.equal(stepper.isPlaying(), true);
  const other = key("Enter");
  stepper.onKey(other);
  assert.equal(other.defaultPrevented, false, "a key the stepper does not use is left alone");
});

test("keys typed into a control, with a modifier, or already taken are left alone", () => {
  const { model, stepper } = setup({ at: 2 });
  for (const e of [key("ArrowRight", { inside: ["input"] }), key("ArrowRight", { altKey: true }), key("ArrowLeft", { ctrlKey: true }), key("ArrowRight", { defaultPrevented: true })]) {
    stepper.onKey(e);
  }
  assert.deepEqual(model.commits, []);
  const space = key(" ", { inside: ["button"] }); // a focused button's own space click
  stepper.onKey(space);
  assert.equal(stepper.isPlaying(), false);
  assert.equal(space.defaultPrevented, false);
});

test("keysSkip widens where the keys belong to the page (the Real model's grid and table)", () => {
  const { model, stepper } = setup({ at: 2, keysSkip: `${TYPING}, table` });
  stepper.onKey(key("ArrowRight", { inside: ["table"] }));
  stepper.onKey(key("ArrowRight", { inside: ["textarea"] }));
  assert.deepEqual(model.commits, []);
  stepper.onKey(key("ArrowRight"));
  assert.deepEqual(model.commits, [3]);
});

test("show marks the current pill, and Previous or Next as unusable at either end", () => {
  const { buttons, model, stepper } = setup({ count: 3, at: 0 });
  stepper.show();
  assert.deepEqual(buttons.pills.map((p) => p.attrs.get("aria-current") ?? null), ["step", null, null]);
  assert.equal(buttons.prev.attrs.get("aria-disabled"), "true");
  assert.equal(buttons.next.attrs.get("aria-disabled"), "false");
  model.beat = 2;
  stepper.show();
  assert.deepEqual(buttons.pills.map((p) => p.attrs.get("aria-current") ?? null), [null, null, "step"]);
  assert.equal(buttons.prev.attrs.get("aria-disabled"), "false");
  assert.equal(buttons.next.attrs.get("aria-disabled"), "true");
});
