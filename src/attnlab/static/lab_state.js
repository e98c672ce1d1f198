// The lab's part of the page state: its URL parameters and its /api/lesson parameters.
//
//   ?temperature=0.5&positions=rope&causal=1&heads=2&shuffle=7&set=bank=1,0,0,1&set_q=...&predict=1
//
// Pure (no DOM): app.js reads and writes the URL through these, and sends labParams(state) to
// /api/lesson; a 400 answer's "field" (temperature, set_q, ...) maps back to a model key with
// modelKey, so the model can put the last good value back. Which position kinds, head counts
// and edit parameters exist is the API's (/api/lab: "positions", "heads", "edit_params"); the
// words of a refused number are the page's (words/page.py "lab.edit.*").

import { decodeLesson, num } from "./format.js";
import { say } from "./words.js";

export const LAB_DEFAULTS = Object.freeze({
  temperature: null, positions: "none", causal: false, heads: 1, shuffle: null, edits: {}, predict: false,
});
/** The keys whose change asks the API again. */
export const LAB_KEYS = ["temperature", "positions", "causal", "heads", "shuffle", "edits"];

/**
 * The model key an API error's field belongs to: an edit parameter (set, set_q, ... : /api/lab's
 * edit_params) is "edits", a lab option is itself; null for a field that is not the lab's.
 * @param {string | null} field
 * @param {{edit_params?: Record<string, string>} | null} [lab] /api/lab
 */
export function modelKey(field, lab = null) {
  if (field !== null && Object.hasOwn(lab?.edit_params ?? {}, field)) return "edits";
  return field !== null && LAB_KEYS.includes(field) ? field : null;
}

/**
 * The lab's state a URL asks for; anything unreadable, or not among /api/lab's choices, falls
 * back to its default (the API has the last word on the rest, such as a temperature of 0 or an
 * edit with three numbers).
 * @param {URLSearchParams} q
 * @param {{positions?: string[], heads?: number[], edit_params?: Record<string, string>} | null} [lab] /api/lab
 */
export function readLabURL(q, lab = null) {
  const t = Number.parseFloat(q.get("temperature") ?? "");
  const heads = Number(q.get("heads"));
  const seed = q.get("shuffle");
  /** @type {Record<string, Record<string, string[]>>} */
  const edits = {};
  for (const param of Object.keys(lab?.edit_params ?? {})) {
    for (const spec of q.getAll(param)) {
      const at = spec.indexOf("=");
      if (at <= 0) continue;
      (edits[param] ??= {})[spec.slice(0, at).trim()] = spec.slice(at + 1).split(",").map((x) => x.trim());
    }
  }
  return {
    temperature: Number.isFinite(t) && t > 0 ? t : null,
    positions: (lab?.positions ?? []).includes(q.get("positions") ?? "") ? q.get("positions") : LAB_DEFAULTS.positions,
    causal: ["1", "true", "on"].includes(q.get("causal") ?? ""),
    heads: (lab?.heads ?? []).includes(heads) ? heads : LAB_DEFAULTS.heads,
    shuffle: seed !== null && /^\d{1,9}$/.test(seed) ? Number(seed) : null,
    edits,
    predict: q.get("predict") === "1",
  };
}

/**
 * The lab's parameters for /api/lesson (and the URL): only those away from their defaults.
 * @param {Record<string, any>} state
 * @param {{url?: boolean}} [options] url: also the page-only `predict`
 * @returns {[string, string][]}
 */
export function labParams(state, { url = false } = {}) {
  /** @type {[string, string][]} */
  const out = [];
  if (state.temperature !== null && state.temperature !== undefined && state.mode === "scaled") {
    out.push(["temperature", String(state.temperature)]);
  }
  if (state.positions && state.positions !== "none") out.push(["positions", state.positions]);
  if (state.causal) out.push(["causal", "1"]);
  if (state.heads !== undefined && Number(state.heads) !== LAB_DEFAULTS.heads) out.push(["heads", String(state.heads)]);
  if (state.shuffle !== null && state.shuffle !== undefined) out.push(["shuffle", String(state.shuffle)]);
  for (const [param, vectors] of Object.entries(state.edits ?? {})) {
    for (const [token, xs] of Object.entries(vectors)) out.push([param, `${token}=${xs.join(",")}`]);
  }
  if (url && state.predict) out.push(["predict", "1"]);
  return out;
}

/**
 * `edits` with one token's vector set (or removed when `xs` is null), as a new object.
 * @param {Record<string, Record<string, any[]>>} edits
 * @param {string} param set | set_q | set_k | set_v
 * @param {string} token
 * @param {any[] | null} xs
 */
export function withEdit(edits, param, token, xs) {
  const next = Object.fromEntries(Object.entries(edits ?? {}).map(([p, m]) => [p, { ...m }]));
  if (xs === null) {
    if (next[param]) delete next[param][token];
    if (next[param] && !Object.keys(next[param]).length) delete next[param];
  } else (next[param] ??= {})[token] = xs.map((x) => Number(x));
  return next;
}

/**
 * Read one number typed by the learner, with the API's limits: a finite number within ±limit
 * (/api/lab's edit_limit). Returns {ok: true, value} or {ok: false, message}, the message the
 * page's words (lab.edit.*) for what is wrong.
 * @param {string} text
 * @param {number} limit
 * @param {Record<string, string> | null | undefined} words the page's words (/api/presets)
 */
export function readEditNumber(text, limit, words) {
  const t = String(text).trim().replace(/^\u2212/, "-");
  if (!t) return { ok: false, message: say(words, "lab.edit.empty") };
  if (/^[+-]?nan$/i.test(t)) return { ok: false, message: say(words, "lab.edit.nan") };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { ok: false, message: say(words, "lab.edit.not_number", { text: t }) };
  const value = Number(t);
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    return { ok: false, message: say(words, "lab.edit.beyond", { text: t, limit: num(limit) }) };
  }
  return { ok: true, value };
}

/**
 * The lab's questions a host answers (`model.services.ask(route, params)`), by route: the
 * page's host (app.js) asks the JSON API at askURL's address; the notebook's (notebook.js) sends
 * them to the kernel (widget/lab_answers.py), which computes with the same core functions.
 *   sweep  {sentence, focus, positions, causal, edits}: the focus row per temperature
 *   cost   {max_n, kv_cache}: attention's time and memory up to n (and the key/value cache)
 *   cheaper {sentence, focus, tile, mode, axis, temperature, positions, causal, edits}: the Cheaper
 *          attention cards (lab_cheaper.js)
 *   price  {}: each cheaper form's time and memory against n (lab_cheaper_price.js)
 *   models {}: each real model's key/value cache per token per layer (lab_cheaper_models.js)
 *   kv     {}: SmolLM2 decoding a short text on a cache against the whole pass
 */
export const ASK_ROUTES = Object.freeze(["sweep", "cost", "cheaper", "price", "one_projection", "models", "kv"]);

/**
 * The API address of a lab question (pure: the page's host fetches it).
 * @param {string} route one of ASK_ROUTES
 * @param {Record<string, any>} params
 * @returns {string}
 */
export function askURL(route, params) {
  if (route === "sweep") {
    const q = new URLSearchParams({ sentence: params.sentence, focus: String(params.focus) });
    for (const [k, v] of labParams({ positions: params.positions, causal: params.causal, edits: params.edits })) q.append(k, v);
    return `/api/sweep?${q}`;
  }
  if (route === "cheaper") {
    const q = new URLSearchParams({ sentence: params.sentence, focus: String(params.focus), tile: String(params.tile) });
    if (params.mode && params.mode !== "scaled") q.append("mode", params.mode);
    if (params.axis && params.axis !== "keys") q.append("axis", params.axis);
    for (const [k, v] of labParams({ mode: params.mode ?? "scaled", temperature: params.temperature, positions: params.positions, causal: params.causal, edits: params.edits })) q.append(k, v);
    return `/api/cheaper?${q}`;
  }
  if (route === "price") return "/api/cheaper/price";
  if (route === "models") return "/api/cheaper/models";
  if (route === "kv") return "/api/cheaper/kv?model=smollm2";
  if (route === "one_projection") return `/api/lesson?${new URLSearchParams({ sentence: params.sentence })}`; // its one_projection
  if (route === "cost") return `/api/cost?max_n=${Number(params.max_n)}${params.kv_cache ? "&kv_cache=true" : ""}`;
  throw new Error(`unknown lab question ${JSON.stringify(route)}: expected one of ${ASK_ROUTES.join(", ")}`);
}

/**
 * The lab's state on screen, read once from the model per change: what every panel's
 * update(state) reads (lab.js). Pure: `get` is the model's get.
 * @param {(key: string) => any} get
 */
export function labViewState(get) {
  const raw = get("lesson") ?? null;
  const trace = raw ? decodeLesson(raw) : null;
  const predict = Boolean(get("predict"));
  const guess = get("guess") ?? null;
  const state = {
    raw, trace, words: get("words"), choices: get("choices"), limits: get("lab"), predict, guess,
    /** True while Predict first waits for a guess: no weight, nor anything made of them, shows. */
    hiding: predict && guess === null,
    cell: get("cell") ?? null, beat: Number(get("beat")) || 0,
    positions: get("positions"), causal: get("causal"), edits: get("edits"), error: get("error"),
    /** The cell being read: the model's "cell" (picked in either view), else the focus row's answer (none while hiding). */
    reading: /** @type {[number, number] | null} */ (null),
    /** The beat whose weights a guess must come before: the trace's softmax step. */
    softmaxBeat: Math.max(0, (trace?.narration ?? []).findIndex((b) => b.key === "softmax")),
  };
  if (trace) {
    const c = state.cell;
    const cols = (trace.key_tokens ?? trace.tokens).length;
    // none picked: the focus row's answer, once there is no guess to give away
    const picked = c && c[0] < trace.tokens.length && c[1] < cols ? c : null;
    state.reading = picked ?? (state.hiding ? null : [trace.focus, Math.max(0, raw.predict?.answer ?? 0)]);
  }
  return state;
}

/** The names of a trace's dimensions: its own, else "dimension 1", ... (the page's words). */
export function dimNames(trace, words) {
  return trace.dim_names ?? trace.outputs[0].map((_, d) => say(words, "lab.dim", { number: d + 1 }));
}
