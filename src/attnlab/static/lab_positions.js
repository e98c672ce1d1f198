// The lab's Positions card: none, sinusoidal or RoPE (the lesson's "positions": the encodings
// added, or each token's rotation and its dials), and the Shuffle check (the lesson's "shuffle":
// which outputs stay the same when the words change places). A panel: {el, update(state),
// dispose()} (lab.js's state).

import { h } from "./dom.js";
import { decodeArray, num, vec } from "./format.js";
import { card, numberTable, ropeDials } from "./lab_dom.js";
import { dimNames } from "./lab_state.js";
import { say } from "./words.js";

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void}} host
 */
export function positionsPanel(id, { model, commit }) {
  const select = h("select", { id: `${id}-pos` });
  const body = h("div", { class: "lab-out" });
  const shuffle = h("button", { type: "button", "data-words": "lab.shuffle.button" });
  const shuffleBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const el = card(`${id}-pos-card`, "lab.positions.title", "lab.positions.help", [
    h("div", { class: "field" }, [h("label", { for: `${id}-pos`, "data-words": "lab.positions.label" }), select]),
    body,
    h("div", { class: "inline-row" }, [shuffle]),
    shuffleBody,
  ], { wide: true });

  function showPositions({ raw, trace, words, choices }) {
    const p = raw.positions;
    /** A token with its position, as the position tables name a row: bank (3). */
    const placed = (tok, i) => say(words, "lab.positions.token_at", { token: tok, position: i });
    const kinds = choices?.positions ?? [p.kind];
    select.replaceChildren(...kinds.map((v) => h("option", { value: v }, [say(words, `lab.positions.${v}`) || v])));
    select.value = p.kind;
    const parts = [h("p", {}, [p.note])];
    if (p.kind === "sinusoidal" && p.encodings) {
      const enc = decodeArray(p.encodings);
      parts.push(numberTable(say(words, "lab.positions.encodings"), [say(words, "lab.positions.token_column"), ...dimNames(trace, words)], trace.tokens.map((tok, i) => [placed(tok, i), ...enc[i].map((x) => num(x))])));
    }
    if (p.kind === "rope" && p.rope) {
      const r = p.rope;
      const ang = decodeArray(r.angles);
      const q = decodeArray(r.queries);
      const rq = decodeArray(r.rotated_queries);
      const rad = (x, places) => say(words, "lab.positions.radians", { angle: num(x, places) });
      const head = ["token_column", "angle_first", "angle_second", "q_before", "q_after"].map((k) => say(words, `lab.positions.${k}`));
      parts.push(numberTable(say(words, "lab.positions.rotation"), head, trace.tokens.map((tok, i) => [
        placed(tok, i), rad(ang[i][0], 3), rad(ang[i][1] ?? 0, 4), vec(q[i]), vec(rq[i]),
      ]), "rope"));
      parts.push(h("div", { class: "scroll-x" }, [ropeDials(trace.tokens, q, rq, ang, words)]));
      parts.push(h("p", { class: "lab-note" }, [say(words, "lab.positions.rope_note")]));
    }
    body.replaceChildren(...parts);
  }

  function showShuffle({ raw, words }) {
    const sh = raw.shuffle;
    if (!sh) {
      shuffleBody.replaceChildren(h("p", { class: "lab-note" }, [say(words, "lab.shuffle.none")]));
      return;
    }
    // with positions added (or a causal mask), an output that moves is what the demo shows, not a
    // fault: no red ✗
    const expected = (raw.positions?.kind ?? "none") !== "none" || Boolean(raw.causal);
    const rows = sh.rows.map((r) => {
      const [cls, sign] = r.unchanged ? ["tick ok", "✓"] : expected ? ["tick shifted", "↔"] : ["tick moved", "✗"];
      const mark = h("span", { class: cls, "aria-hidden": "true" }, [sign]);
      // a move the API counts as a change, but too small for two decimals, is never a bare "0"
      const key = r.unchanged ? "lab.shuffle.same" : num(r.distance) === "0" ? "lab.shuffle.tiny" : "lab.shuffle.moved";
      const told = say(words, key, { token: r.token, distance: num(r.distance) });
      const state = say(words, r.unchanged ? "lab.shuffle.unchanged" : "lab.shuffle.changed");
      return h("li", { class: r.unchanged ? "unchanged" : "moved", "data-token": r.token }, [mark, " ", told, h("span", { class: "sr-only" }, [` (${state})`])]);
    });
    shuffleBody.replaceChildren(
      h("p", {}, [say(words, "lab.shuffle.order", { shuffled: sh.shuffled_tokens.join(" "), tokens: sh.tokens.join(" ") })]),
      h("ul", { class: "shuffle-list", "aria-label": say(words, "lab.shuffle.list") }, rows),
      h("p", { class: sh.all_unchanged || expected ? "good" : "warn" }, [sh.note]),
    );
  }

  const onKind = () => commit({ positions: select.value });
  const onShuffle = () => commit({ shuffle: ((Number(model.get("shuffle")) || 0) % 1000) + 1 });
  select.addEventListener("change", onKind);
  shuffle.addEventListener("click", onShuffle);
  return {
    el,
    keys: ["lesson", "words", "choices"],
    /** @param {Record<string, any>} state */
    update(state) {
      if (!state.trace) return;
      showPositions(state);
      showShuffle(state);
    },
    dispose() {
      select.removeEventListener("change", onKind);
      shuffle.removeEventListener("click", onShuffle);
    },
  };
}
