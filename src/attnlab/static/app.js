// The web page's host for the lesson and the lab views (lesson.js, lab.js): one model with
// get/set/on/off/save_changes (widget_model.js: the part of anywidget's model the views use),
// backed by the JSON API, with the state in the URL. The views never see the API or the URL.
//
//   ?sentence=at+the+savings+bank&mode=unscaled&focus=3&beat=blend&cell=3,2&present=1
//   (cell: the cell being read, row and column from 0; present: presentation mode, present.js)
//   (+ the lab's temperature, positions, causal, heads, shuffle, set..., predict: lab_state.js)
//
// It asks /api/presets and /api/lab first: the choices (modes, axes, positions, beats), the
// page's words and the lab's limits (the temperature range and √dₖ, the edit limit and
// parameters, the head counts, the cost's sizes) go into the model as "choices", "words" and
// "lab", so no view repeats them. save_changes() asks
// /api/lesson again when the sentence, mode, axis, focus or a lab option changed, and writes the
// URL otherwise (a step, a cell, a guess ask nothing), so a copied link reproduces what is on
// screen. The host's own updates are put(), never set(): a set would be saved as the learner's
// change with the next step. A 400 answer names the field at fault; the model keeps the last
// good lesson and carries the message to the views. The views' services are the page's: getFile
// (the Export menu's files) and ask(route, params), the lab's questions (lab_state.askURL) put
// to the API.

import { getFile, getJSON } from "./http.js";
import lab from "./lab.js";
import { askURL, LAB_DEFAULTS, LAB_KEYS, labParams, modelKey, readLabURL } from "./lab_state.js";
import lesson from "./lesson.js";
import { createModel } from "./widget_model.js";
import { lessonHeadView } from "./lesson_heads.js";

const DEFAULTS = { sentence: "by the river bank", mode: "scaled", axis: "keys", focus: null, beat: 0 };
/** The keys whose change asks /api/lesson again. */
const LESSON_KEYS = ["sentence", "mode", "axis", "focus", ...LAB_KEYS];

/** A beat in a URL (its key, or its number from 1) as an index into `beats`; null if unreadable. */
function readBeat(param, beats) {
  if (param === null) return null;
  const byKey = beats.findIndex((b) => b.key === param);
  const byNumber = Number.parseInt(param, 10) - 1;
  return byKey >= 0 ? byKey : byNumber >= 0 && byNumber < beats.length ? byNumber : null;
}

/** A cell "i,j" (row, column from 0) in a URL as [i, j]; null if unreadable. @param {string | null} param */
export function readCell(param) {
  const m = /^(\d{1,4}),(\d{1,4})$/.exec(param ?? "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The state a URL asks for; anything unreadable falls back to the default.
 * @param {string} search
 * @param {{choices?: {axes: string[], beats: {key: string}[]}} | null} [page] /api/presets
 * @param {Record<string, any> | null} [lab] /api/lab: the lab's choices (lab_state.readLabURL)
 */
export function readURL(search, page = null, lab = null) {
  const q = new URLSearchParams(search);
  const beats = page?.choices?.beats ?? [];
  const axes = page?.choices?.axes ?? [DEFAULTS.axis];
  const focus = q.get("focus");
  return {
    sentence: q.get("sentence") ?? DEFAULTS.sentence,
    mode: q.get("mode") ?? DEFAULTS.mode,
    axis: axes.includes(q.get("axis") ?? "") ? q.get("axis") : DEFAULTS.axis,
    focus: focus === null || focus === "" ? null : /^\d+$/.test(focus) ? Number(focus) : focus,
    beat: readBeat(q.get("beat"), beats) ?? DEFAULTS.beat,
    cell: readCell(q.get("cell")),
    present: q.get("present") === "1",
    ...readLabURL(q, lab),
  };
}

/**
 * The URL query for a state (the defaults are left out, except the sentence).
 * @param {Record<string, any>} state
 * @param {{key: string}[]} beats the beats' keys, in order (/api/presets choices)
 */
export function writeURL(state, beats = []) {
  const { sentence, mode, axis, focus, beat } = state;
  const q = new URLSearchParams();
  q.set("sentence", sentence);
  q.set("mode", mode);
  if (axis !== DEFAULTS.axis) q.set("axis", axis);
  if (focus !== null && focus !== undefined) q.set("focus", String(focus));
  const key = beats[beat]?.key ?? beats[0]?.key;
  if (key) q.set("beat", key);
  if (Array.isArray(state.cell) && state.cell.length === 2) q.set("cell", state.cell.join(","));
  if (state.present) q.set("present", "1");
  // the other views' keys (view, and each view's prefix.*: model_app.js's model.*, the atlas's
  // atlas.*) ride along unchanged; the lesson's own keys have no dot
  for (const [k, v] of new URLSearchParams(globalThis.location?.search ?? "")) {
    if (k === "view" || k.includes(".")) q.append(k, v);
  }
  for (const [name, value] of labParams(state, { url: true })) q.append(name, value);
  return `?${q}`;
}

async function start(el, labEl) {
  const [presets, limits] = await Promise.all([getJSON("/api/presets"), getJSON("/api/lab")]);
  const page = presets.ok ? presets.body : null;
  const labLimits = limits.ok ? limits.body : null;
  const beats = page?.choices?.beats ?? [];
  const wanted = readURL(window.location.search, page, labLimits);
  // a link with Predict first opens before the Softmax step, the weights hidden from the first
  // paint (the lab asks for the guess; lesson.js and lab.js hide them while "asking")
  const softmax = beats.findIndex((b) => b.key === "softmax");
  if (wanted.predict && softmax > 0) wanted.beat = Math.min(wanted.beat, softmax - 1);
  /** The request behind the lesson on screen: what the URL and a failed request fall back to. */
  let good = null;
  let asked = 0;
  const url = () => writeURL({ ...good, beat: model.get("beat"), predict: model.get("predict"), cell: model.get("cell"), present: model.get("present") }, beats);

  const model = createModel(
    {
      ...wanted, lesson: null, presets: page, choices: page?.choices ?? null, words: page?.words ?? null, lab: labLimits,
      error: presets.ok ? (limits.ok ? null : limits.error) : presets.error, busy: false, global_keys: true, guess: null, asking: Boolean(wanted.predict),
    },
    (changed) => {
      if (LESSON_KEYS.some((k) => changed.has(k))) load();
      else if (good) history.replaceState(null, "", url());
    },
    { getFile, ask: (route, params) => getJSON(askURL(route, params)) },
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
    model.put("busy", true);
    const answer = await getJSON(`/api/lesson?${q}`);
    if (ticket !== asked) return; // a newer request has been sent; this answer is stale
    model.put("busy", false);
    if (answer.ok) {
      const body = answer.body;
      good = { ...request, focus: body.focus };
      model.put("focus", body.focus); // the host's: put, or the next step would ask again
      if (!fallback) model.put("error", null);
      model.put("lesson", body);
      // the Export menu's offline page: this lesson with its lab options (the view adds the step)
      const held = new URLSearchParams(q);
      held.set("focus", String(body.focus));
      model.put("export_html", `/api/export/lesson.html?${held}`);
      history.replaceState(null, "", url());
      return;
    }
    // keep the last good lesson on screen and say what went wrong next to the control
    const reset = good ?? { ...DEFAULTS, ...LAB_DEFAULTS, axis: request.axis };
    const field = answer.error.field;
    const key = modelKey(field, labLimits) ?? field; // a lab parameter (set_q, ...) names its model key
    if (good || ["sentence", "mode", "focus", "axis"].includes(field) || key in LAB_DEFAULTS) {
      model.put("error", answer.error);
      if (key && key in reset) {
        model.put(key, reset[key]);
        if (key === "sentence") model.put("focus", reset.focus);
      } else if (good) {
        for (const k of LESSON_KEYS) model.put(k, good[k]);
      }
      if (!good && field !== null) await load({ fallback: true });
      return;
    }
    model.put("error", answer.error);
  }

  lesson.render({ model, el });
  if (labEl) lab.render({ model, el: labEl });
  const headsEl = document.getElementById("lesson-heads");
  if (headsEl) lessonHeadView({ model, el: headsEl }); // the page keeps it for its lifetime
  load();
}

const mount = globalThis.document?.getElementById("lesson");
if (mount) start(mount, document.getElementById("lab"));
