// The Real model view's state: ONE frozen object read from the model (model.js's keys: what the
// learner chose and what the host fetched) after every change, handed whole to each panel's
// update(state). A panel keeps no copy of the model's keys of its own; it compares the parts
// it draws with the state it drew last (`changed`), so a head switch redraws only what the
// head changes. The host resets a model's answers as a whole (model_host.FRESH_ANSWERS): the
// next state then holds nothing of the previous model. Pure: no DOM (Node's tests import it).

import { visibleToken } from "./names.js";
import { decodeModelTrace } from "./packed.js";
import { say } from "./words.js";

/** The model's keys the view reads: a change of any of them makes a new state. */
export const STATE_KEYS = [
  "name", "text", "layer", "head", "focus", "info", "trace", "grid", "grid_color", "ranking_sort",
  "status", "error", "words", "choices", "compare", "compareError", "heads", "mask", "maskError",
  "matrix", "matrix_scale", "pool", "specials", "row", "export_html", "heads_wait",
];

/** A trace answer decoded for drawing: nested arrays, a window's rows named by position. */
function decodeTrace(data, words) {
  const trace = decodeModelTrace(data);
  if (!trace.window.whole) trace.tokens = trace.tokens.map((tok, k) => say(words, "model.window_token", { token: visibleToken(tok), position: trace.window.rows[k] }));
  else trace.tokens = trace.tokens.map(visibleToken); // a newline token named "\n", never blank
  return trace;
}

/**
 * A reader of the view's state: each call gives the state now, the trace decoded once per
 * answer (and per words: a window's row names are words).
 * @param {{get: (key: string) => any}} model
 * @returns {() => Readonly<Record<string, any>>}
 */
export function stateReader(model) {
  let decodedFor = [undefined, undefined];
  let trace = null;
  let traceError = null;
  return () => {
    const data = model.get("trace") ?? null;
    const words = model.get("words") ?? null;
    if (decodedFor[0] !== data || decodedFor[1] !== words) {
      decodedFor = [data, words];
      try {
        trace = data ? decodeTrace(data, words) : null;
        traceError = null;
      } catch (err) {
        trace = null;
        traceError = err instanceof Error ? err.message : String(err);
      }
    }
    const state = { data, trace, traceError };
    for (const key of STATE_KEYS) if (key !== "trace") state[key] = model.get(key) ?? null;
    return Object.freeze(state);
  };
}

/**
 * A panel's memory of what it drew: changed(...keys) is true when one of those parts of the
 * state differs (by identity) from the last call's, and remembers the new ones.
 */
export function changes() {
  /** @type {Record<string, any> | null} */
  let last = null;
  let now = null;
  return {
    /** Start a state's update (the parts it will be asked about). */
    next(state) {
      last = now;
      now = state;
    },
    /** Did any of these parts change since the last state (all do on the first)? */
    changed(...keys) {
      return last === null || keys.some((k) => !Object.is(last[k], now[k]));
    },
  };
}
