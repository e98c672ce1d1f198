// The lab: the lesson's second half, where the learner breaks the lookup on purpose.
// export default { render({ model, el }) }, the anywidget shape, like lesson.js.
//
// The model is the lesson's (app.js): the lab reads "lesson" (the /api/lesson answer) and
// sets the lab's keys (temperature, axis, positions, causal, heads, shuffle, edits, predict;
// see lab_state.js), and the host asks the API again. The temperature sweep and the cost
// come from /api/sweep and /api/cost. Every number shown is the API's, formatted by
// format.js; nothing here computes attention.

import { decodeArray, decodeLesson, num, vec } from "./format.js";
import { figure, h, heatTable, legend, numberTable, SERIES, svgPlot } from "./lab_dom.js";
import { labParams, readEditNumber, withEdit } from "./lab_state.js";
import { layout } from "./layout.js";
import { bytes, extent, fromLogFraction, logFraction, seconds } from "./plots.js";

const T_MIN = 0.1;
const T_MAX = 10;
const SQRT_DK = 2;
const SLIDER_STEPS = 400;
const SOFTMAX_BEAT = 3;
const EDIT_LIMIT = 100;
const COST_STAGES = [64, 256, 1024, 2048];
const ROLES = [
  ["set", "Embeddings x", "embedding"],
  ["set_q", "Queries q (head 1)", "query"],
  ["set_k", "Keys k (head 1)", "key"],
  ["set_v", "Values v (head 1)", "value"],
];
const POSITION_LABELS = [["none", "None"], ["sinusoidal", "Sinusoidal"], ["rope", "Rotary (RoPE)"]];
let instances = 0;

/** How far an output moved, never a bare "0" for a move the API counts as a change. */
function distance(d) {
  return num(d) === "0" ? "less than 0.01" : num(d);
}

async function getJSON(url) {
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await response.json().catch(() => null);
    if (response.ok && body) return { ok: true, body };
    return { ok: false, message: body?.error ?? `The server answered ${response.status}.` };
  } catch (err) {
    return { ok: false, message: `Could not reach the attnlab server (${err instanceof Error ? err.message : err}).` };
  }
}

/** A card: a heading, a line of help and its body; `region` makes it a named landmark. */
function card(id, title, help, body, { region = false } = {}) {
  const heading = h("h3", { id: `${id}-h` }, [title]);
  return h("section", { class: "lab-card", "aria-labelledby": region ? `${id}-h` : null, role: region ? "region" : null }, [
    heading,
    h("p", { class: "lab-help" }, [help]),
    ...body,
  ]);
}

function build(el) {
  const id = `lab${++instances}`;
  const ui = {};
  // --- temperature and saturation
  ui.slider = h("input", {
    id: `${id}-t`, type: "range", min: 0, max: SLIDER_STEPS, step: 1, "aria-describedby": `${id}-t-out`,
  });
  ui.tOut = h("output", { id: `${id}-t-out`, for: `${id}-t`, class: "t-out" });
  ui.tMarks = h("div", { class: "t-marks", "aria-hidden": "true" });
  for (const [t, text] of [[T_MIN, "0.1"], [1, "1 = No √dₖ"], [SQRT_DK, "2 = √dₖ"], [T_MAX, "10 → Uniform"]]) {
    const mark = h("span", { class: t === SQRT_DK ? "t-mark sqrt" : "t-mark" }, [text]);
    mark.style.left = `${100 * logFraction(t, T_MIN, T_MAX)}%`;
    ui.tMarks.append(mark);
  }
  ui.tReset = h("button", { type: "button", class: "small" }, ["Back to √dₖ"]);
  ui.satLine = h("p", { class: "sat-line", "aria-live": "polite" });
  ui.sweep = h("div", { class: "plots" });
  ui.sweepNote = h("p", { class: "lab-note" });
  const temperature = card(`${id}-temp`, "Temperature and saturation",
    "The softmax divides every score by a temperature T. The real formula uses T = √dₖ = 2. Lower T sharpens each row toward one key; higher T flattens it toward the uniform row.", [
      h("div", { class: "slider-row" }, [h("label", { for: `${id}-t` }, ["Temperature"]), ui.tOut, ui.tReset]),
      h("div", { class: "slider-wrap" }, [ui.slider, ui.tMarks]),
      ui.satLine,
      ui.sweep,
      ui.sweepNote,
    ]);

  // --- softmax axis
  ui.axis = h("select", { id: `${id}-axis` }, [
    h("option", { value: "keys" }, ["Keys (correct)"]),
    h("option", { value: "queries" }, ["Queries (mistake)"]),
  ]);
  ui.axisBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const axis = card(`${id}-axis-card`, "Softmax axis",
    "The softmax must run across the keys, so each query's row is a budget of 1. Run it down the queries instead and the numbers still look plausible.", [
      h("div", { class: "field" }, [h("label", { for: `${id}-axis` }, ["Softmax axis"]), ui.axis]),
      ui.axisBody,
    ]);

  // --- causal mask
  ui.causal = h("input", { id: `${id}-causal`, type: "checkbox" });
  ui.causalBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const causal = card(`${id}-causal-card`, "Causal mask",
    "A decoder may not look ahead: each token attends only to itself and the tokens before it. The hidden scores become −∞, their weights 0.", [
      h("label", { class: "check" }, [ui.causal, " Causal mask"]),
      ui.causalBody,
    ]);

  // --- positions and shuffle
  ui.positions = h("select", { id: `${id}-pos` }, POSITION_LABELS.map(([v, t]) => h("option", { value: v }, [t])));
  ui.posBody = h("div", { class: "lab-out" });
  ui.shuffle = h("button", { type: "button" }, ["Shuffle tokens"]);
  ui.shuffleBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const positions = card(`${id}-pos-card`, "Word order: shuffle and positions",
    "Attention alone never reads where a token stands. Shuffle the tokens, each with its own embedding, and check each one's output; then add positions and shuffle again.", [
      h("div", { class: "field" }, [h("label", { for: `${id}-pos` }, ["Positions"]), ui.positions]),
      ui.posBody,
      h("div", { class: "inline-row" }, [ui.shuffle]),
      ui.shuffleBody,
    ]);

  // --- reading the matrix
  ui.reading = h("p", { class: "reading", "aria-live": "polite" });
  ui.transpose = h("button", { type: "button", "aria-pressed": "false" }, ["Transpose"]);
  ui.mistaken = h("div", { class: "mistaken", "aria-live": "polite", hidden: true });
  const reading = card(`${id}-read-card`, "Read the matrix",
    "Click any cell of the Attention weights table, the picture's matrix or the table on the right: row i is the query, column j the key.", [
      ui.reading,
      h("div", { class: "inline-row" }, [ui.transpose]),
      ui.mistaken,
    ]);

  // --- edit vectors
  ui.role = h("select", { id: `${id}-role` }, ROLES.map(([v, t]) => h("option", { value: v }, [t])));
  ui.editGrid = h("div", { class: "edit-grid" });
  ui.reset = h("button", { type: "button" }, ["Reset"]);
  ui.editNote = h("p", { class: "lab-note", "aria-live": "polite" });
  ui.editErr = h("p", { class: "field-error", role: "alert" });
  const edit = card(`${id}-edit-card`, "Edit vectors",
    "Change any number (type it, or use the up and down arrow keys for steps of 0.1) and every step recomputes through the API. Numbers must lie between −100 and 100.", [
      h("fieldset", { class: "edit", "aria-labelledby": `${id}-edit-card-h` }, [
        h("div", { class: "field" }, [h("label", { for: `${id}-role` }, ["Which vectors"]), ui.role]),
        ui.editGrid,
        ui.editErr,
        h("div", { class: "inline-row" }, [ui.reset, ui.editNote]),
      ]),
    ]);

  // --- heads
  ui.heads = h("select", { id: `${id}-heads` }, [
    h("option", { value: "1" }, ["1"]),
    h("option", { value: "2" }, ["2"]),
  ]);
  ui.headsBody = h("div", { class: "lab-out" });
  const heads = card(`${id}-heads-card`, "Two heads",
    "A second hand-set head attends by sentence structure instead of meaning. Real models run many heads side by side and join their outputs.", [
      h("div", { class: "field" }, [h("label", { for: `${id}-heads` }, ["Heads"]), ui.heads]),
      ui.headsBody,
    ]);

  // --- predict, then reveal
  ui.predict = h("input", { id: `${id}-predict`, type: "checkbox", role: "switch" });
  ui.predictBody = h("div", { class: "lab-out predict-out", "aria-live": "polite" });
  const predict = card(`${id}-predict-card`, "Predict, then reveal",
    "Before the Softmax step, guess which token the followed word will attend to most. The weights stay hidden until you guess.", [
      h("label", { class: "check" }, [ui.predict, " Predict first"]),
      ui.predictBody,
    ]);

  // --- cost
  ui.measure = h("button", { type: "button", class: "primary" }, ["Measure the cost"]);
  ui.progress = h("progress", { max: COST_STAGES.length, value: 0, hidden: true, "aria-label": "Measuring progress" });
  ui.costStatus = h("p", { class: "lab-note", role: "status" });
  ui.costPlots = h("div", { class: "plots" });
  const cost = card(`${id}-cost`, "Cost",
    "With n tokens the score matrix QKᵀ has n² entries, so time and memory grow like n²·d. Measure one head (d = 64, random vectors) on this machine, from n = 4 to 2048; it takes a few seconds.", [
      h("div", { class: "inline-row" }, [ui.measure, ui.progress]),
      ui.costStatus,
      ui.costPlots,
    ], { region: true });

  // --- the weights now (beside the controls)
  ui.now = h("div", { class: "now-table" });
  ui.nowNote = h("p", { class: "lab-note" });
  const now = h("aside", { class: "lab-now", "aria-labelledby": `${id}-now-h` }, [
    h("h3", { id: `${id}-now-h` }, ["The weights now"]),
    h("p", { class: "lab-help" }, ["Every control changes these numbers: each row with its sum, its entropy in bits (0 when all on one key, 2 when spread over four) and its largest weight; the column sums below."]),
    ui.now,
    ui.nowNote,
  ]);

  ui.root = h("div", { class: "lab" }, [
    h("h2", {}, ["Break the lookup on purpose"]),
    h("p", { class: "lab-intro" }, ["Each control changes one piece of softmax(QKᵀ/√dₖ)V. The picture and the table above follow every change; the link in the address bar keeps it."]),
    h("div", { class: "lab-grid" }, [
      h("div", { class: "lab-cards" }, [temperature, axis, causal, positions, reading, edit, heads, predict, cost]),
      now,
    ]),
  ]);
  el.replaceChildren(ui.root);
  return ui;
}

/** @param {{model: any, el: HTMLElement}} props */
function render({ model, el }) {
  const ui = build(el);
  const base = model.get("api_base") ?? "";
  const doc = el.ownerDocument;
  /** @type {Record<string, any> | null} */
  let data = null; // the raw answer
  /** @type {Record<string, any> | null} */
  let trace = null; // decoded
  let sweepKey = "";
  let sweepData = null;
  let cell = null; // [i, j] of the cell being read
  let transposed = false;
  let guess = null;
  let costData = null;
  let slideTimer = 0;

  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const state = () => Object.fromEntries(["mode", "temperature", "positions", "causal", "heads", "shuffle", "edits"].map((k) => [k, model.get(k)]));
  const cols = () => trace.key_tokens ?? trace.tokens;
  const who = () => trace.tokens[trace.focus];
  /** The divisor as a temperature: T for Scaled, 1 for No √dₖ, ∞ for Uniform. */
  const effectiveT = () => (trace ? trace.divisor : SQRT_DK);

  // --- temperature ----------------------------------------------------------------------------
  function showTemperature() {
    if (!trace) return;
    const t = effectiveT();
    const shown = Number.isFinite(t) ? Math.min(T_MAX, Math.max(T_MIN, t)) : T_MAX;
    if (doc.activeElement !== ui.slider) ui.slider.value = String(Math.round(logFraction(shown, T_MIN, T_MAX) * SLIDER_STEPS));
    const what = trace.mode === "uniform" ? "T = ∞: Uniform, the limit where every weight is 1/n"
      : trace.mode === "unscaled" ? "T = 1: No √dₖ, the raw dot products"
      : Math.abs(t - SQRT_DK) < 1e-9 ? "T = 2 = √dₖ: the real formula"
      : `T = ${num(t, 3)}${t < SQRT_DK ? ", sharper than √dₖ" : ", flatter than √dₖ"}`;
    ui.tOut.textContent = what;
    ui.slider.setAttribute("aria-valuetext", what);
    ui.tReset.hidden = trace.mode === "scaled" && Math.abs(t - SQRT_DK) < 1e-9;
    const sat = data.saturation;
    if (sat && sat.per === "row") {
      const f = trace.focus;
      ui.satLine.textContent = `${who()}'s row: entropy ${num(sat.entropy_bits[f])} bits (at most ${num(sat.max_entropy_bits[f])}), largest weight ${num(sat.max_weight[f])}. `
        + `Softmax Jacobian size ${num(sat.jacobian_frobenius, 3)} (Frobenius norm), largest entry ${num(sat.jacobian_max_abs, 3)}: the gradient the softmax passes back, which falls toward 0 as the row saturates.`;
    } else {
      ui.satLine.textContent = "With the softmax down the columns, each column is the budget: see the column sums on the right.";
    }
    drawSweep();
  }

  function slide() {
    const t = fromLogFraction(Number(ui.slider.value) / SLIDER_STEPS, T_MIN, T_MAX);
    ui.tOut.textContent = `T = ${num(t, 3)}…`;
    clearTimeout(slideTimer);
    slideTimer = window.setTimeout(() => commit({ mode: "scaled", temperature: t }), 120);
  }

  async function loadSweep() {
    const key = JSON.stringify([model.get("sentence"), trace.focus, model.get("positions"), model.get("causal"), model.get("edits")]);
    if (key === sweepKey) return drawSweep();
    sweepKey = key;
    const q = new URLSearchParams({ sentence: trace.tokens.join(" "), focus: String(trace.focus) });
    for (const [k, v] of labParams({ ...state(), temperature: null, heads: 1, shuffle: null })) q.append(k, v);
    const answer = await getJSON(`${base}/api/sweep?${q}`);
    if (key !== sweepKey) return;
    sweepData = answer.ok ? answer.body : null;
    ui.sweepNote.textContent = answer.ok ? "" : `The temperature plot could not be drawn: ${answer.message}`;
    drawSweep();
  }

  function drawSweep() {
    if (!sweepData || !trace) return;
    const ts = sweepData.temperatures;
    const w = decodeArray(sweepData.weights);
    const t = effectiveT();
    const marks = [{ x: SQRT_DK, label: "√dₖ" }];
    if (Number.isFinite(t) && Math.abs(t - SQRT_DK) > 0.05) marks.push({ x: t, label: "now" });
    const x = { domain: [ts[0], ts[ts.length - 1]], log: true, label: "temperature T" };
    const size = { width: 244, height: 180 };
    const keys = sweepData.tokens.map((tok, j) => ({ name: tok, color: SERIES[j % SERIES.length], points: ts.map((T, k) => [T, w[k][j]]) }));
    const focusTok = sweepData.tokens[sweepData.focus];
    const weightsLabel = `${focusTok}'s weight on each key as the temperature goes from ${ts[0]} to ${ts[ts.length - 1]}`;
    const a = svgPlot({ x, y: { domain: [0, 1], label: `${focusTok}'s weights` }, series: keys, marks }, size, weightsLabel);
    const ent = decodeArray(sweepData.entropy_bits);
    const entLabel = `The entropy of ${focusTok}'s row against the temperature`;
    const b = svgPlot({ x, y: { domain: [0, sweepData.max_entropy_bits || 1], label: "entropy (bits)" }, series: [{ name: "entropy", color: "#0072b2", points: ts.map((T, k) => [T, ent[k]]) }], marks }, size, entLabel);
    const jac = decodeArray(sweepData.jacobian_frobenius);
    const jacLabel = `The size of the softmax Jacobian of ${focusTok}'s row against the temperature`;
    const c = svgPlot({ x, y: { domain: extent(jac, { zero: true }), label: "Jacobian size (Frobenius)" }, series: [{ name: "Jacobian size", color: "#d55e00", points: ts.map((T, k) => [T, jac[k]]) }], marks }, size, jacLabel);
    ui.sweep.replaceChildren(
      figure(weightsLabel, [a, legend(keys)]),
      figure(entLabel, [b, h("figcaption", {}, ["0 bits: all on one key. The top: spread evenly."])]),
      figure(jacLabel, [c, h("figcaption", {}, ["Near 0 the softmax passes almost no gradient back."])]),
    );
  }

  // --- the weights now ------------------------------------------------------------------------
  function showNow() {
    const sat = data.saturation;
    const byRow = sat?.per === "row";
    const sums = (xs) => (xs ?? []).map((x) => num(x));
    ui.now.replaceChildren(
      heatTable({
        label: "Weights with sums", rows: trace.tokens, cols: cols(), weights: trace.weights, mask: trace.mask, focus: trace.focus,
        extra: [
          { head: "row sum", values: sums(sat?.row_sums) },
          { head: byRow ? "bits" : "entropy", values: byRow ? sums(sat.entropy_bits) : trace.tokens.map(() => "–") },
          { head: "largest", values: byRow ? sums(sat.max_weight) : trace.tokens.map(() => "–") },
        ],
        footer: { head: "column sum", values: sums(sat?.column_sums) },
      }),
    );
    ui.nowNote.textContent = trace.axis === "keys"
      ? "Each row sums to 1: a query's budget over the keys. The column sums are whatever they happen to be."
      : "Softmax down the columns: now each column sums to 1 and the rows do not, so a query no longer spends a budget of 1.";
  }

  // --- axis -----------------------------------------------------------------------------------
  function showAxis() {
    ui.axis.value = trace.axis;
    const sat = data.saturation;
    if (trace.axis === "keys") {
      ui.axisBody.replaceChildren(h("p", {}, [`Right now every row sums to 1 (${sat.row_sums.map((x) => num(x)).join(", ")}). Pick Queries (mistake) to see what the wrong axis does.`]));
      return;
    }
    const wa = data.wrong_axis;
    const f = trace.focus;
    const right = decodeArray(wa.right_outputs);
    const moved = decodeArray(wa.moved);
    ui.axisBody.replaceChildren(
      h("p", { class: "warn" }, [`Columns now sum to 1 (${sat.column_sums.map((x) => num(x)).join(", ")}); rows do not (${sat.row_sums.map((x) => num(x)).join(", ")}).`]),
      numberTable(`${who()}'s output`, ["softmax across", ...trace.dim_names ?? trace.outputs[f].map((_, d) => `dim ${d + 1}`)], [
        ["keys (correct)", ...right[f].map((x) => num(x))],
        ["queries (mistake)", ...trace.outputs[f].map((x) => num(x))],
      ], "axis-out"),
      h("p", {}, [`${who()}'s output moved by ${num(moved[f])}. `, wa.note]),
    );
  }

  // --- causal ---------------------------------------------------------------------------------
  function showCausal() {
    ui.causal.checked = Boolean(data.causal);
    const sums = data.saturation?.row_sums ?? [];
    ui.causalBody.replaceChildren(
      ...(data.causal
        ? [h("p", {}, [data.causal_note ?? ""]), h("p", {}, [`The upper triangle is greyed: weight 0. Each row still sums to 1: ${sums.map((x) => num(x)).join(", ")}.`])]
        : [h("p", {}, ["Off: every token may look at every other, even those after it."])]),
    );
  }

  // --- positions and shuffle ------------------------------------------------------------------
  function showPositions() {
    const p = data.positions;
    ui.positions.value = p.kind;
    const parts = [h("p", {}, [p.note])];
    if (p.kind === "sinusoidal" && p.encodings) {
      const enc = decodeArray(p.encodings);
      parts.push(numberTable("Position encodings added to the embeddings", ["token (position)", ...(trace.dim_names ?? [])], trace.tokens.map((tok, i) => [`${tok} (${i})`, ...enc[i].map((x) => num(x))])));
    }
    if (p.kind === "rope" && p.rope) {
      const r = p.rope;
      const ang = decodeArray(r.angles);
      const q = decodeArray(r.queries);
      const rq = decodeArray(r.rotated_queries);
      parts.push(numberTable("The rotation of each query", ["token (position)", "angle, dims 1–2", "angle, dims 3–4", "q before", "q after rotation"], trace.tokens.map((tok, i) => [
        `${tok} (${i})`, `${num(ang[i][0], 3)} rad`, `${num(ang[i][1] ?? 0, 4)} rad`, vec(q[i]), vec(rq[i]),
      ]), "rope"));
      parts.push(h("p", { class: "lab-note" }, ["Keys turn by the same angles. A rotation keeps each vector's length, so only the angle between a query and a key, which depends on how far apart they stand, changes their score."]));
    }
    ui.posBody.replaceChildren(...parts);
  }

  function showShuffle() {
    const sh = data.shuffle;
    if (!sh) {
      ui.shuffleBody.replaceChildren(h("p", { class: "lab-note" }, ["Not shuffled yet."]));
      return;
    }
    const rows = sh.rows.map((r) => {
      const mark = h("span", { class: r.unchanged ? "tick ok" : "tick moved", "aria-hidden": "true" }, [r.unchanged ? "✓" : "✗"]);
      const words = r.unchanged ? `${r.token}: the same output as before` : `${r.token}: its output moved by ${distance(r.distance)}`;
      return h("li", { class: r.unchanged ? "unchanged" : "moved", "data-token": r.token }, [mark, " ", words, h("span", { class: "sr-only" }, [r.unchanged ? " (unchanged)" : " (changed)"])]);
    });
    ui.shuffleBody.replaceChildren(
      h("p", {}, [`Shuffled order: ${sh.shuffled_tokens.join(" ")} (was ${sh.tokens.join(" ")}).`]),
      h("ul", { class: "shuffle-list", "aria-label": "Each token's output after the shuffle" }, rows),
      h("p", { class: sh.all_unchanged ? "good" : "warn" }, [sh.note]),
    );
  }

  // --- reading --------------------------------------------------------------------------------
  function showReading() {
    const n = trace.tokens.length;
    if (!cell || cell[0] >= n || cell[1] >= cols().length) cell = [trace.focus, Math.max(0, data.predict?.answer ?? 0)];
    const r = data.readings?.[cell[0]]?.[cell[1]];
    ui.reading.textContent = r ? r.text : "";
    ui.transpose.setAttribute("aria-pressed", String(transposed));
    ui.mistaken.hidden = !transposed || !r;
    if (r) ui.mistaken.replaceChildren(h("p", { class: "mistaken-text" }, [r.mistaken]), h("p", { class: "why" }, [r.why]));
    for (const td of doc.querySelectorAll("td.lab-reading")) td.classList.remove("lab-reading");
    for (const td of doc.querySelectorAll(`table td[data-i="${cell[0]}"][data-j="${cell[1]}"]`)) td.classList.add("lab-reading");
  }

  function pick(i, j) {
    if (!trace) return;
    cell = [i, j];
    transposed = false;
    showReading();
  }

  function onDocClick(e) {
    const target = e.target instanceof Element ? e.target : null;
    const td = target?.closest("table.weights td[data-i], table.lab-heat td[data-i]");
    if (td && trace) pick(Number(td.dataset.i), Number(td.dataset.j));
    const canvas = target?.closest(".attnlab canvas");
    if (canvas && trace) canvasClick(canvas, e);
  }

  function canvasClick(canvas, e) {
    const box = canvas.getBoundingClientRect();
    const x = e.clientX - box.left;
    const y = e.clientY - box.top;
    const beat = Number(model.get("beat")) || 0;
    let shapes;
    try {
      shapes = layout(trace, { width: box.width, height: box.height }, beat, trace.focus);
    } catch {
      return;
    }
    const hit = shapes.cells.find((c) => x >= c.x && x <= c.x + c.w && y >= c.y && y <= c.y + c.h);
    if (hit) pick(hit.i, hit.j);
    if (predicting()) {
      const label = shapes.labels.find((l) => (l.role === "col" || l.role === "token") && Math.abs(l.x - x) < 40 && Math.abs(l.y - y) < 16);
      if (label) makeGuess(label.index);
    }
  }

  // --- edits ----------------------------------------------------------------------------------
  /** The vectors the learner edits for a role: the word embeddings, or head 1's q, k, v (before RoPE turns them). */
  function vectorsFor(param) {
    if (param === "set") return decodeArray(data.positions?.word_embeddings ?? data.embeddings);
    const rope = data.positions?.rope;
    if (param === "set_q") return decodeArray(rope ? rope.queries : data.queries);
    if (param === "set_k") return decodeArray(rope ? rope.keys : data.keys);
    return trace.values;
  }

  function showEdits() {
    const param = ui.role.value;
    const noun = ROLES.find(([p]) => p === param)[2];
    const xs = vectorsFor(param);
    const dims = trace.dim_names ?? xs[0].map((_, d) => `dim ${d + 1}`);
    const edited = model.get("edits") ?? {};
    const seen = new Set();
    const rows = [];
    trace.tokens.forEach((tok, i) => {
      if (seen.has(tok)) return;
      seen.add(tok);
      const errors = [];
      const cells = dims.map((dim, d) => {
        const errId = `${el.id || "lab"}-err-${param}-${i}-${d}`;
        const input = h("input", {
          type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false", size: 5,
          value: num(xs[i][d]), "aria-label": `${tok} ${noun}, ${dim}`, "aria-describedby": errId,
          "data-token": tok, "data-d": d, class: edited[param]?.[tok] ? "edited" : null,
        });
        input.addEventListener("change", () => editOne(param, tok, i, d, input, err));
        input.addEventListener("keydown", (e) => {
          if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
          e.preventDefault();
          const now = readEditNumber(input.value, EDIT_LIMIT);
          if (!now.ok) return;
          input.value = num(now.value + (e.key === "ArrowUp" ? 0.1 : -0.1));
          editOne(param, tok, i, d, input, err);
        });
        const err = h("span", { id: errId, class: "field-error cell-error", role: "alert" });
        errors.push(err);
        return h("td", {}, [input]);
      });
      rows.push(h("tr", {}, [h("th", { scope: "row" }, [tok]), ...cells]));
      // a refusal shows right under the row of the field that caused it
      rows.push(h("tr", { class: "errors" }, [h("td", { colspan: dims.length + 1 }, errors)]));
    });
    ui.editGrid.replaceChildren(
      h("table", { class: "edit-table", "aria-label": `${noun} numbers` }, [
        h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, ["token"]), ...dims.map((d) => h("th", { scope: "col" }, [d]))])]),
        h("tbody", {}, rows),
      ]),
    );
    const count = Object.values(edited).reduce((k, m) => k + Object.keys(m).length, 0);
    ui.editNote.textContent = count ? `${count} vector${count > 1 ? "s" : ""} edited; Reset puts the preset back.` : "The preset's numbers.";
    ui.reset.disabled = count === 0;
    const error = model.get("error");
    ui.editErr.textContent = error && ["set", "set_q", "set_k", "set_v"].includes(error.field) ? `Refused: ${error.message}` : "";
  }

  function editOne(param, tok, i, d, input, err) {
    const read = readEditNumber(input.value, EDIT_LIMIT);
    if (!read.ok) {
      err.textContent = `${input.getAttribute("aria-label")}: ${read.message}`;
      input.setAttribute("aria-invalid", "true");
      return; // the last good lesson stays on screen
    }
    err.textContent = "";
    input.removeAttribute("aria-invalid");
    const xs = vectorsFor(param)[i].slice();
    const current = model.get("edits")?.[param]?.[tok];
    const base = current ? current.map(Number) : xs;
    base[d] = read.value;
    commit({ edits: withEdit(model.get("edits"), param, tok, base) });
  }

  // --- heads ----------------------------------------------------------------------------------
  function showHeads() {
    ui.heads.value = String(data.heads?.length ?? 1);
    const hs = data.heads ?? [];
    if (hs.length < 2) {
      ui.headsBody.replaceChildren(h("p", {}, [`One head, “${hs[0]?.name ?? "meaning"}”: ${hs[0]?.blurb ?? ""}`]));
      return;
    }
    const second = decodeLesson(hs[1]);
    const concat = decodeArray(data.concat_outputs);
    const dims = trace.dim_names ?? [];
    const names = [...dims.map((d) => `h1 ${d}`), ...dims.map((d) => `h2 ${d}`)];
    ui.headsBody.replaceChildren(
      ...hs.map((x, k) => h("p", {}, [h("strong", {}, [`Head ${k + 1} (${x.name}): `]), x.blurb])),
      heatTable({ label: "Head 2 weights", caption: "Head 2's weights (head 1's are the lesson's table above)", rows: second.tokens, cols: second.key_tokens ?? second.tokens, weights: second.weights, mask: second.mask, focus: trace.focus }),
      h("div", { class: "scroll-x" }, [numberTable("Concatenated outputs", ["token", ...names], trace.tokens.map((tok, i) => [tok, ...concat[i].map((x) => num(x))]), "concat")]),
      h("p", {}, [data.heads_note ?? ""]),
    );
  }

  // --- predict --------------------------------------------------------------------------------
  const predicting = () => Boolean(model.get("predict")) && guess === null;

  function showPredict() {
    const on = Boolean(model.get("predict"));
    ui.predict.checked = on;
    doc.body.classList.toggle("lab-predict-on", on && trace !== null);
    doc.body.classList.toggle("lab-predicting", on && guess === null && trace !== null);
    if (!on || !trace) {
      ui.predictBody.replaceChildren(h("p", { class: "lab-note" }, ["Off: the weights show from the start."]));
      return;
    }
    if (guess === null) {
      const buttons = cols().map((tok, j) => {
        const b = h("button", { type: "button", class: "token guess", "aria-label": `Guess ${tok}`, "data-j": j }, [tok]);
        b.addEventListener("click", () => makeGuess(j));
        return b;
      });
      ui.predictBody.replaceChildren(
        h("p", { class: "ask" }, [`Which token will ${who()} attend to most? Look at the queries and keys, or the scores, then click your guess (here, or a token in the picture).`]),
        h("div", { class: "guesses", role: "group", "aria-label": "Your guess" }, buttons),
      );
      return;
    }
    const note = data.predict.notes[guess];
    const right = guess === data.predict.answer;
    const again = h("button", { type: "button" }, ["Guess again"]);
    again.addEventListener("click", () => {
      guess = null;
      commit({ beat: Math.min(Number(model.get("beat")) || 0, SOFTMAX_BEAT - 1) });
      showPredict();
    });
    ui.predictBody.replaceChildren(h("p", { class: right ? "verdict good" : "verdict warn", role: "status" }, [note]), again);
  }

  function makeGuess(j) {
    if (!trace || guess !== null || !model.get("predict")) return;
    guess = j;
    showPredict();
    commit({ beat: SOFTMAX_BEAT });
  }

  function onBeat() {
    if (predicting() && trace && (Number(model.get("beat")) || 0) >= SOFTMAX_BEAT) {
      ui.predictBody.querySelector(".ask")?.classList.add("nudge");
      commit({ beat: SOFTMAX_BEAT - 1 }); // no weights before a guess
    }
  }

  // --- cost -----------------------------------------------------------------------------------
  async function measure() {
    ui.measure.disabled = true;
    ui.progress.hidden = false;
    ui.progress.value = 0;
    for (const [k, maxN] of COST_STAGES.entries()) {
      ui.costStatus.textContent = `Measuring n = 4 to ${maxN}… (${k + 1} of ${COST_STAGES.length})`;
      const answer = await getJSON(`${base}/api/cost?max_n=${maxN}`);
      if (!answer.ok) {
        ui.costStatus.textContent = `The measurement failed: ${answer.message}`;
        break;
      }
      costData = answer.body;
      ui.progress.value = k + 1;
      drawCost();
    }
    if (costData) ui.costStatus.textContent = `Measured ${costData.points.length} sizes, n = ${costData.points[0].n} to ${costData.points[costData.points.length - 1].n}, d = ${costData.d}. Dots: measured; dashed: the fit a + c·n². Times jump when the machine is busy; memory is the steadier line.`;
    ui.measure.disabled = false;
    ui.measure.textContent = "Measure again";
    ui.progress.hidden = true;
  }

  function drawCost() {
    const pts = costData.points;
    const curve = costData.curve;
    const ns = pts.map((p) => p.n);
    const x = { domain: [Math.min(...ns), Math.max(...ns)], log: true, label: "tokens n" };
    const size = { width: 340, height: 220 };
    const one = (key, label, fmt, color) => {
      const ys = [...pts.map((p) => p[key]), ...curve.map((p) => p[key])];
      const series = [
        { name: `measured ${label}`, color, points: pts.map((p) => [p.n, p[key]]), dots: true, width: 1 },
        { name: "fit a + c·n²", color: "#5b5b70", dash: [5, 4], points: curve.map((p) => [p.n, p[key]]) },
      ];
      const name = `${label} against n, measured, with the n² fit`;
      return figure(name, [svgPlot({ x, y: { domain: extent(ys, { log: true }), log: true, label, format: fmt }, series }, size, name), legend(series)]);
    };
    ui.costPlots.replaceChildren(one("seconds", "time per head", seconds, "#0072b2"), one("bytes", "memory", bytes, "#d55e00"));
  }

  // --- wiring ---------------------------------------------------------------------------------
  function onLesson() {
    const raw = model.get("lesson");
    if (!raw) return;
    const focusChanged = trace && (trace.focus !== raw.focus || trace.tokens.join(" ") !== raw.tokens.join(" "));
    data = raw;
    trace = decodeLesson(raw);
    if (focusChanged) {
      guess = null;
      cell = null;
    }
    for (const [name, fn] of [["temperature", showTemperature], ["now", showNow], ["axis", showAxis], ["causal", showCausal], ["positions", showPositions], ["shuffle", showShuffle], ["reading", showReading], ["edits", showEdits], ["heads", showHeads], ["predict", showPredict]]) {
      try {
        fn();
      } catch (err) {
        console.warn(`the lab's ${name} panel: ${err instanceof Error ? err.message : err}`);
      }
    }
    markMasked();
    loadSweep();
  }

  /** Grey the lesson table's masked cells (weight 0 under the causal mask). */
  function markMasked() {
    for (const td of doc.querySelectorAll("table.weights td[data-i]")) {
      const i = Number(td.dataset.i);
      const j = Number(td.dataset.j);
      td.classList.toggle("masked", Boolean(trace.mask && !trace.mask[i][j]));
    }
    showReading();
  }

  ui.slider.addEventListener("input", slide);
  ui.tReset.addEventListener("click", () => commit({ mode: "scaled", temperature: null }));
  ui.axis.addEventListener("change", () => commit({ axis: ui.axis.value }));
  ui.causal.addEventListener("change", () => commit({ causal: ui.causal.checked }));
  ui.positions.addEventListener("change", () => commit({ positions: ui.positions.value }));
  ui.shuffle.addEventListener("click", () => commit({ shuffle: ((Number(model.get("shuffle")) || 0) % 1000) + 1 }));
  ui.transpose.addEventListener("click", () => {
    transposed = !transposed;
    showReading();
  });
  ui.role.addEventListener("change", () => trace && showEdits());
  ui.reset.addEventListener("click", () => {
    for (const err of ui.editGrid.querySelectorAll(".cell-error")) err.textContent = "";
    commit({ edits: {} });
  });
  ui.heads.addEventListener("change", () => commit({ heads: Number(ui.heads.value) }));
  ui.predict.addEventListener("change", () => {
    guess = null;
    const changes = { predict: ui.predict.checked };
    if (ui.predict.checked && (Number(model.get("beat")) || 0) >= SOFTMAX_BEAT) changes.beat = 1;
    commit(changes);
    showPredict();
  });
  ui.measure.addEventListener("click", measure);
  doc.addEventListener("click", onDocClick);

  model.on("change:lesson", onLesson);
  model.on("change:beat", onBeat);
  model.on("change:mode", () => {
    // a temperature replaces √dₖ, so it only goes with Scaled
    if (model.get("mode") !== "scaled" && model.get("temperature") !== null) model.set("temperature", null);
  });
  model.on("change:error", () => trace && showEdits());
  if (model.get("lesson")) onLesson();
  else ui.satLine.textContent = "Loading…";

  return () => {
    doc.removeEventListener("click", onDocClick);
    clearTimeout(slideTimer);
  };
}

export default { render };
