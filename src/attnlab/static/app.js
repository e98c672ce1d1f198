// The web page's host for lesson.js: a tiny model with get/set/on/save_changes (widget_model.js:
// the subset of anywidget's model the widget uses), backed by the JSON API, with the state in
// the URL.
//
//   ?sentence=at+the+savings+bank&mode=unscaled&focus=3&beat=blend
//   (+ the lab's temperature, positions, causal, heads, shuffle, set..., predict: lab_state.js)
//
// save_changes() asks /api/lesson again when the sentence, mode or focus changed, and writes
// the URL, so a copied link reproduces what is on screen. A 400 answer names the field at
// fault; the model keeps the last good lesson and carries the message to the widget.

import widget from "./lesson.js";
import { getJSON } from "./http.js";
import lab from "./lab.js";
import { FIELD_KEYS, LAB_DEFAULTS, LAB_KEYS, labParams, readLabURL } from "./lab_state.js";
import { BEATS } from "./layout.js";
import { createModel } from "./widget_model.js";

const MODES = ["scaled", "unscaled", "uniform"];
const AXES = ["keys", "queries"];
const DEFAULTS = { sentence: "by the river bank", mode: "scaled", axis: "keys", focus: null, beat: 0 };

/** The state a URL asks for; anything unreadable falls back to the default. */
export function readURL(search) {
  const q = new URLSearchParams(search);
  const beatParam = q.get("beat");
  let beat = DEFAULTS.beat;
  if (beatParam !== null) {
    const byKey = BEATS.findIndex(([key]) => key === beatParam);
    const byNumber = Number.parseInt(beatParam, 10) - 1;
    beat = byKey >= 0 ? byKey : byNumber >= 0 && byNumber < BEATS.length ? byNumber : DEFAULTS.beat;
  }
  const focus = q.get("focus");
  return {
    sentence: q.get("sentence") ?? DEFAULTS.sentence,
    mode: q.get("mode") ?? DEFAULTS.mode,
    axis: AXES.includes(q.get("axis") ?? "") ? q.get("axis") : DEFAULTS.axis,
    focus: focus === null || focus === "" ? null : /^\d+$/.test(focus) ? Number(focus) : focus,
    beat,
    ...readLabURL(q),
  };
}

/** The URL query for a state (the defaults are left out, except the sentence). */
export function writeURL(state) {
  const { sentence, mode, axis, focus, beat } = state;
  const q = new URLSearchParams();
  q.set("sentence", sentence);
  q.set("mode", mode);
  if (axis !== DEFAULTS.axis) q.set("axis", axis);
  if (focus !== null && focus !== undefined) q.set("focus", String(focus));
  q.set("beat", BEATS[beat]?.[0] ?? BEATS[0][0]);
  // the Real model tab's keys (model_app.js: view, model.*) ride along unchanged
  for (const [k, v] of new URLSearchParams(globalThis.location?.search ?? "")) {
    if (k === "view" || k.startsWith("model.")) q.append(k, v);
  }
  for (const [name, value] of labParams(state, { url: true })) q.append(name, value);
  return `?${q}`;
}

function start(el) {
  const wanted = readURL(window.location.search);
  /** The request behind the lesson on screen: what the URL and a failed request fall back to. */
  let good = null;
  let asked = 0;

  const model = createModel(
    { ...wanted, lesson: null, presets: null, error: null, global_keys: true },
    (changed) => {
      if (["sentence", "mode", "axis", "focus", ...LAB_KEYS].some((k) => changed.has(k))) load();
      else if (good) history.replaceState(null, "", writeURL({ ...good, beat: model.get("beat"), predict: model.get("predict") }));
    },
  );

  async function load({ fallback = false } = {}) {
    const request = {
      sentence: model.get("sentence"),
      mode: model.get("mode"),
      axis: model.get("axis"),
      focus: model.get("focus"),
      ...Object.fromEntries(LAB_KEYS.map((k) => [k, model.get(k)])),
    };
    const ticket = ++asked;
    const q = new URLSearchParams({ sentence: request.sentence, mode: request.mode, axis: request.axis });
    if (request.focus !== null && request.focus !== undefined) q.set("focus", String(request.focus));
    for (const [name, value] of labParams(request)) q.append(name, value);
    model.set("busy", true);
    const answer = await getJSON(`/api/lesson?${q}`);
    if (ticket !== asked) return; // a newer request has been sent; this answer is stale
    model.set("busy", false);
    if (answer.ok) {
      const lesson = answer.body;
      good = { ...request, focus: lesson.focus };
      model.set("focus", lesson.focus);
      if (!fallback) model.set("error", null);
      model.set("lesson", lesson);
      history.replaceState(null, "", writeURL({ ...good, beat: model.get("beat"), predict: model.get("predict") }));
      return;
    }
    // keep the last good lesson on screen and say what went wrong next to the control
    const reset = good ?? { ...DEFAULTS, ...LAB_DEFAULTS, axis: request.axis };
    const field = answer.error.field;
    const key = FIELD_KEYS[field] ?? field; // a lab parameter (set_q, ...) names its model key
    if (good || ["sentence", "mode", "focus", "axis"].includes(field) || key in LAB_DEFAULTS) {
      model.set("error", answer.error);
      if (key && key in reset) {
        model.set(key, reset[key]);
        if (key === "sentence") model.set("focus", reset.focus);
      } else if (good) {
        for (const k of ["sentence", "mode", "axis", "focus", ...LAB_KEYS]) model.set(k, good[k]);
      }
      if (!good && field !== null) await load({ fallback: true });
      return;
    }
    model.set("error", answer.error);
  }

  widget.render({ model, el });
  const labEl = document.getElementById("lab");
  if (labEl) lab.render({ model, el: labEl });
  getJSON("/api/presets").then((answer) => {
    if (answer.ok) model.set("presets", answer.body);
    else if (!model.get("error")) model.set("error", answer.error);
  });
  load();
}

const mount = document.getElementById("lesson");
if (mount) start(mount);
