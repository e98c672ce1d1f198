// The lab: the lesson's second half, where the learner breaks the lookup on purpose.
// export default { render({ model, el }) }, the anywidget shape, like lesson.js.
//
// The model is the lesson's (app.js): the lab reads "lesson" (the /api/lesson answer) and
// sets the lab's keys (temperature, axis, positions, causal, heads, shuffle, edits, predict;
// see lab_state.js), and the host asks the API again. The temperature sweep and the cost
// come from /api/sweep and /api/cost. Every number shown is the API's, formatted by
// format.js; nothing here computes attention. Three panels live in their own modules:
// lab_temperature.js, lab_edit.js and lab_cost.js; the rest are here.

import { decodeArray, decodeLesson, num, vec } from "./format.js";
import { costPanel } from "./lab_cost.js";
import { h } from "./dom.js";
import { card, heatTable, numberTable, ropeDials } from "./lab_dom.js";
import { editPanel } from "./lab_edit.js";
import { temperaturePanel } from "./lab_temperature.js";
import { layout } from "./layout.js";

const SOFTMAX_BEAT = 3;
const POSITION_LABELS = [["none", "None"], ["sinusoidal", "Sinusoidal"], ["rope", "Rotary (RoPE)"]];
let instances = 0;

/** How far an output moved, never a bare "0" for a move the API counts as a change. */
function distance(d) {
  return num(d) === "0" ? "less than 0.01" : num(d);
}

/** The cards and the table beside them; `panels` are the ones built by their own modules. */
function build(el, id, panels) {
  const ui = {};
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
    ], { wide: true });

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
      h("div", { class: "lab-cards" }, [panels.temperature, axis, causal, positions, reading, panels.edit, heads, predict, panels.cost]),
      now,
    ]),
  ]);
  el.replaceChildren(ui.root);
  return ui;
}

/** @param {{model: any, el: HTMLElement}} props */
function render({ model, el }) {
  const id = `lab${++instances}`;
  const base = model.get("api_base") ?? "";
  const doc = el.ownerDocument;
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const temperature = temperaturePanel(id, { model, commit, base });
  const edit = editPanel(id, { model, commit });
  const ui = build(el, id, { temperature: temperature.el, edit: edit.el, cost: costPanel(id, base) });
  /** @type {Record<string, any> | null} */
  let data = null; // the raw answer
  /** @type {Record<string, any> | null} */
  let trace = null; // decoded
  let cell = null; // [i, j] of the cell being read
  let transposed = false;
  let guess = null;

  const cols = () => trace.key_tokens ?? trace.tokens;
  const who = () => trace.tokens[trace.focus];

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
          { head: "bits", values: byRow ? sums(sat.entropy_bits) : trace.tokens.map(() => "–") },
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
      parts.push(h("div", { class: "scroll-x" }, [ropeDials(trace.tokens, q, rq, ang)]));
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

  /** A cell of head 1's weights: the lesson's table or the lab's own (not head 2's). */
  const readable = (target) => target?.closest('table.weights td[data-i], table.lab-heat[aria-label="Weights with sums"] td[data-i]');

  function onDocClick(e) {
    const target = e.target instanceof Element ? e.target : null;
    const td = readable(target);
    if (td && trace) pick(Number(td.dataset.i), Number(td.dataset.j));
    const canvas = target?.closest(".attnlab canvas");
    if (canvas && trace) canvasClick(canvas, e);
  }

  /** The lesson's table moves its focus with the arrow keys: read each cell it lands on. */
  function onDocFocus(e) {
    const td = readable(e.target instanceof Element ? e.target : null);
    if (td && trace && (cell?.[0] !== Number(td.dataset.i) || cell?.[1] !== Number(td.dataset.j))) pick(Number(td.dataset.i), Number(td.dataset.j));
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
      numberTable("Concatenated outputs", ["token", ...names], trace.tokens.map((tok, i) => [tok, ...concat[i].map((x) => num(x))]), "concat"),
      h("p", {}, [data.heads_note ?? ""]),
    );
  }

  // --- predict --------------------------------------------------------------------------------
  const predicting = () => Boolean(model.get("predict")) && guess === null;

  function showPredict() {
    const on = Boolean(model.get("predict"));
    ui.predict.checked = on;
    placeBar();
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

  /** The question, and the verdict while its Softmax step shows, sit in a bar at the window's foot. */
  function placeBar() {
    const on = Boolean(model.get("predict")) && trace !== null;
    const beat = Number(model.get("beat")) || 0;
    doc.body.classList.toggle("lab-predict-on", on && (guess === null || beat === SOFTMAX_BEAT));
  }

  function onBeat() {
    if (predicting() && trace && (Number(model.get("beat")) || 0) >= SOFTMAX_BEAT) {
      ui.predictBody.querySelector(".ask")?.classList.add("nudge");
      commit({ beat: SOFTMAX_BEAT - 1 }); // no weights before a guess
    }
    placeBar();
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
    for (const [name, fn] of [["temperature", () => temperature.show(data, trace)], ["now", showNow], ["axis", showAxis], ["causal", showCausal], ["positions", showPositions], ["shuffle", showShuffle], ["reading", showReading], ["edits", () => edit.show(data, trace)], ["heads", showHeads], ["predict", showPredict]]) {
      try {
        fn();
      } catch (err) {
        console.warn(`the lab's ${name} panel: ${err instanceof Error ? err.message : err}`);
      }
    }
    onBeat(); // a link may open on the Softmax step with Predict first on and no guess yet
    markMasked();
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

  ui.axis.addEventListener("change", () => commit({ axis: ui.axis.value }));
  ui.causal.addEventListener("change", () => commit({ causal: ui.causal.checked }));
  ui.positions.addEventListener("change", () => commit({ positions: ui.positions.value }));
  ui.shuffle.addEventListener("click", () => commit({ shuffle: ((Number(model.get("shuffle")) || 0) % 1000) + 1 }));
  ui.transpose.addEventListener("click", () => {
    transposed = !transposed;
    showReading();
  });
  ui.heads.addEventListener("change", () => commit({ heads: Number(ui.heads.value) }));
  ui.predict.addEventListener("change", () => {
    guess = null;
    const changes = { predict: ui.predict.checked };
    if (ui.predict.checked && (Number(model.get("beat")) || 0) >= SOFTMAX_BEAT) changes.beat = 1;
    commit(changes);
    showPredict();
  });
  doc.addEventListener("click", onDocClick);
  doc.addEventListener("focusin", onDocFocus);

  model.on("change:lesson", onLesson);
  model.on("change:beat", onBeat);
  if (model.get("lesson")) onLesson();

  return () => {
    doc.removeEventListener("click", onDocClick);
    doc.removeEventListener("focusin", onDocFocus);
    temperature.stop();
  };
}

export default { render };
