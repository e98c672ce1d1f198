// The Real model view's state in the page's URL, beside the lesson's keys:
//
//   ?view=model&model.text=by+the+river+bank&model.layer=2&model.head=5&model.focus=4&model.beat=score
//
// Pure: no DOM (Node's tests import it). The host (model_host.js) writes it after each answer,
// the tabs (model_app.js) read it when the page opens.

const P = "model."; // the URL keys of this view; app.js keeps them when it writes the lesson's
/** What a missing or unreadable key of the URL means; the host falls back to these too. */
export const DEFAULTS = Object.freeze({ name: "minilm", text: "by the river bank", layer: 0, head: 0, focus: null, beat: 0, word: "bank", a: "by the river bank", b: "at the savings bank" });

/**
 * The model view's state in a URL query; anything unreadable falls back to the default.
 * @param {string} search
 * @param {{key: string}[]} [beats] the beats' keys in order (/api/presets choices)
 */
export function readModelURL(search, beats = []) {
  const q = new URLSearchParams(search);
  const get = (k) => q.get(P + k);
  const int = (k) => (/^\d+$/.test(get(k) ?? "") ? Number(get(k)) : DEFAULTS[k]);
  const beatParam = get("beat");
  const byKey = beats.findIndex((b) => b.key === beatParam);
  const focus = get("focus");
  return {
    view: q.get("view") === "model" ? "model" : "lesson",
    name: get("name") ?? DEFAULTS.name,
    text: get("text") ?? DEFAULTS.text,
    layer: int("layer"),
    head: int("head"),
    focus: focus === null || focus === "" ? null : /^\d+$/.test(focus) ? Number(focus) : focus,
    beat: byKey >= 0 ? byKey : DEFAULTS.beat,
    word: get("word") ?? DEFAULTS.word,
    a: get("a") ?? DEFAULTS.a,
    b: get("b") ?? DEFAULTS.b,
  };
}

/**
 * The current query with this view's keys replaced (the lesson's keys are kept as they are).
 * @param {string} search
 * @param {Record<string, any>} state
 * @param {{key: string}[]} [beats] the beats' keys in order
 */
export function writeModelURL(search, state, beats = []) {
  const q = new URLSearchParams(search);
  for (const key of [...q.keys()]) if (key === "view" || key.startsWith(P)) q.delete(key);
  if (state.view !== "model") return `?${q}`;
  q.set("view", "model");
  if (state.name !== DEFAULTS.name) q.set(P + "name", state.name);
  q.set(P + "text", state.text);
  q.set(P + "layer", String(state.layer));
  q.set(P + "head", String(state.head));
  if (state.focus !== null && state.focus !== undefined) q.set(P + "focus", String(state.focus));
  const beat = beats[state.beat]?.key ?? beats[0]?.key;
  if (beat) q.set(P + "beat", beat);
  for (const k of ["word", "a", "b"]) if (state[k] !== DEFAULTS[k]) q.set(P + k, state[k]);
  return `?${q}`;
}
