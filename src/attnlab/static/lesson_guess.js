// The lesson's own line for Predict first: while the lab asks for a guess ("asking"), the
// question and a button per key sit in the page's flow under the narration, so they cover
// nothing the learner must read (the scores in the picture and the table, Export, Present);
// after the guess, on the Softmax step, the verdict (the lesson's "predict" notes) and Guess
// again. It reads the model's "predict", "guess", "asking" and "beat" and writes "guess" (and
// "beat" for Guess again), like the lab's card; it never touches the lab's DOM. A panel:
// {el, keys, update(state, key), dispose()} (lesson.js).

import { h } from "./dom.js";
import { tokenNames } from "./names.js";
import { say } from "./words.js";

/** @param {{model: any, commit: (changes: Record<string, any>) => void}} host */
export function guessPanel({ model, commit }) {
  const el = h("div", { class: "lesson-guess", hidden: true, "aria-live": "polite" });

  /** @param {{trace: Record<string, any> | null, raw: any, words: any}} state */
  function update({ trace, raw, words }) {
    const softmax = Math.max(0, (trace?.narration ?? []).findIndex((b) => b.key === "softmax"));
    const beat = Number(model.get("beat")) || 0;
    const guess = model.get("guess");
    const on = Boolean(model.get("predict")) && trace !== null && raw?.predict;
    if (on && model.get("asking") && guess === null) {
      const buttons = tokenNames(trace.key_tokens ?? trace.tokens).map((tok, j) => {
        const b = h("button", { type: "button", class: "token guess", "aria-label": say(words, "lab.predict.guess", { token: tok }) }, [tok]);
        b.addEventListener("click", () => commit({ guess: j }));
        return b;
      });
      el.replaceChildren(
        h("p", { class: "ask" }, [say(words, "lesson.guess.ask", { token: tokenNames(trace.tokens)[trace.focus] })]),
        h("div", { class: "guesses", role: "group", "aria-label": say(words, "lesson.guess.group") }, buttons),
      );
      el.hidden = false;
    } else if (on && guess !== null && guess < raw.predict.notes.length && beat === softmax) {
      const right = guess === raw.predict.answer;
      const again = h("button", { type: "button" }, [say(words, "lab.predict.again")]);
      again.addEventListener("click", () => commit({ guess: null, beat: Math.min(beat, softmax - 1) }));
      el.replaceChildren(h("p", { class: right ? "verdict good" : "verdict warn" }, [raw.predict.notes[guess]]), again);
      el.hidden = false;
    } else {
      el.replaceChildren();
      el.hidden = true;
    }
  }

  return { el, keys: ["lesson", "words", "asking", "guess", "beat", "predict"], update, dispose() {} };
}
