// The lab's Predict, then reveal card: with it on, the weights hide until the learner guesses
// which token the focus reads most (here, or by clicking a token in the lesson's picture: the
// model's "guess"); then the verdict (the lesson's "predict") and the Softmax step show. Steps
// past Softmax before a guess are sent back. A panel: {el, update(state, key), dispose()}
// (lab.js's state); lab.js tells the lesson view to hide its weights, and the lesson view asks the
// same question in its own flow under the narration (lesson_guess.js).

import { h } from "./dom.js";
import { card } from "./lab_dom.js";
import { tokenNames } from "./names.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void}} host
 */
export function predictPanel(id, { model, commit }) {
  const box = h("input", { id: `${id}-predict`, type: "checkbox", role: "switch" });
  const body = h("div", { class: "lab-out predict-out", "aria-live": "polite" });
  const el = card(`${id}-predict-card`, "lab.predict.title", "lab.predict.help", [
    h("label", { class: "check" }, [box, " ", h("span", { "data-words": "lab.predict.label" })]),
    body,
  ]);
  /** @type {Record<string, any>} */
  let state = {};

  function show() {
    const { raw, trace, words, predict, guess } = state;
    box.checked = predict;
    if (!predict || !trace) {
      body.replaceChildren(h("p", { class: "lab-note" }, [say(words, "lab.predict.off")]));
      return;
    }
    if (guess === null) {
      const buttons = tokenNames(trace.key_tokens ?? trace.tokens).map((tok, j) => {
        const b = h("button", { type: "button", class: "token guess", "aria-label": say(words, "lab.predict.guess", { token: tok }), "data-j": j }, [tok]);
        b.addEventListener("click", () => commit({ guess: j }));
        return b;
      });
      body.replaceChildren(
        h("p", { class: "ask" }, [say(words, "lab.predict.ask", { token: trace.tokens[trace.focus] })]),
        h("div", { class: "guesses", role: "group", "aria-label": say(words, "lab.predict.guesses") }, buttons),
      );
      return;
    }
    const right = guess === raw.predict.answer;
    const again = h("button", { type: "button" }, [say(words, "lab.predict.again")]);
    again.addEventListener("click", () => commit({ guess: null, beat: Math.min(state.beat, state.softmaxBeat - 1) }));
    body.replaceChildren(h("p", { class: right ? "verdict good" : "verdict warn", role: "status" }, [raw.predict.notes[guess]]), again);
  }

  /** A guess, made here or in the lesson's picture: the verdict, and the Softmax step shows. */
  function onGuess() {
    if (state.guess !== null && !state.predict) return commit({ guess: null });
    show();
    if (state.guess !== null) commit({ beat: state.softmaxBeat });
  }

  /** No weights before a guess: a step to Softmax or past it is sent back, with a nudge. */
  function onBeat() {
    if (state.hiding && state.trace && state.beat >= state.softmaxBeat) {
      body.querySelector(".ask")?.classList.add("nudge");
      commit({ beat: state.softmaxBeat - 1 });
    }
  }

  const onSwitch = () => {
    const changes = { guess: null, predict: box.checked };
    if (box.checked && (Number(model.get("beat")) || 0) >= state.softmaxBeat) changes.beat = 1;
    commit(changes);
  };
  box.addEventListener("change", onSwitch);
  return {
    el,
    keys: ["lesson", "words", "predict", "guess", "beat"],
    /** @param {Record<string, any>} next @param {string} [key] */
    update(next, key) {
      state = next;
      if (!next.trace) return;
      if (key === "guess") return onGuess();
      if (key === "beat") return onBeat();
      show();
      if (key === "lesson") onBeat(); // a link may open on the Softmax step with Predict first on and no guess yet
    },
    dispose: () => box.removeEventListener("change", onSwitch),
  };
}
