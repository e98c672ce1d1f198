// The lab's part of the page state: its URL parameters and its /api/lesson parameters.
//
//   ?temperature=0.5&positions=rope&causal=1&heads=2&shuffle=7&set=bank=1,0,0,1&set_q=...&predict=1
//
// Pure (no DOM): app.js reads and writes the URL through these, and sends labParams(state) to
// /api/lesson; a 400 answer's "field" (temperature, set_q, ...) maps back to a model key with
// FIELD_KEYS, so the model can put the last good value back.

export const POSITIONS = ["none", "sinusoidal", "rope"];
/** Edited vectors travel as set (embeddings), set_q, set_k, set_v: TOKEN=x,y,z,w each. */
export const EDIT_PARAMS = { set: "embeddings", set_q: "queries", set_k: "keys", set_v: "values" };
export const LAB_DEFAULTS = Object.freeze({
  temperature: null, positions: "none", causal: false, heads: 1, shuffle: null, edits: {}, predict: false,
});
/** The keys whose change asks the API again. */
export const LAB_KEYS = ["temperature", "positions", "causal", "heads", "shuffle", "edits"];
/** An API error's field -> the model key it belongs to. */
export const FIELD_KEYS = {
  temperature: "temperature", positions: "positions", causal: "causal", heads: "heads", shuffle: "shuffle",
  set: "edits", set_q: "edits", set_k: "edits", set_v: "edits",
};

/**
 * The lab's state a URL asks for; anything unreadable falls back to its default (the API has
 * the last word on the rest, such as a temperature of 0 or an edit with three numbers).
 * @param {URLSearchParams} q
 */
export function readLabURL(q) {
  const t = Number.parseFloat(q.get("temperature") ?? "");
  const heads = q.get("heads") === "2" ? 2 : 1;
  const seed = q.get("shuffle");
  /** @type {Record<string, Record<string, string[]>>} */
  const edits = {};
  for (const param of Object.keys(EDIT_PARAMS)) {
    for (const spec of q.getAll(param)) {
      const at = spec.indexOf("=");
      if (at <= 0) continue;
      (edits[param] ??= {})[spec.slice(0, at).trim()] = spec.slice(at + 1).split(",").map((x) => x.trim());
    }
  }
  return {
    temperature: Number.isFinite(t) && t > 0 ? t : null,
    positions: POSITIONS.includes(q.get("positions") ?? "") ? q.get("positions") : "none",
    causal: ["1", "true", "on"].includes(q.get("causal") ?? ""),
    heads,
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
  if (Number(state.heads) === 2) out.push(["heads", "2"]);
  if (state.shuffle !== null && state.shuffle !== undefined) out.push(["shuffle", String(state.shuffle)]);
  for (const param of Object.keys(EDIT_PARAMS)) {
    for (const [token, xs] of Object.entries(state.edits?.[param] ?? {})) out.push([param, `${token}=${xs.join(",")}`]);
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
 * Read one number typed by the learner, with the API's limits: a finite number within ±limit.
 * Returns {ok: true, value} or {ok: false, message} (the words shown next to the field).
 * @param {string} text
 * @param {number} [limit]
 */
export function readEditNumber(text, limit = 100) {
  const t = String(text).trim().replace(/^\u2212/, "-");
  if (!t) return { ok: false, message: "Type a number here, such as 0.5 or -1." };
  if (/^[+-]?nan$/i.test(t)) return { ok: false, message: "NaN is not a number attention can use; type a finite number." };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { ok: false, message: `“${t}” is not a number; type one such as 0.5 or -1.` };
  const value = Number(t);
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    return { ok: false, message: `${t} is beyond ±${limit}; keep each number between −${limit} and ${limit}.` };
  }
  return { ok: true, value };
}
