// The lab: the lesson's second half, where the learner breaks the lookup on purpose.
// export default { render({ model, el }) }, the anywidget shape, like lesson.js; render returns
// the cleanup that undoes every subscription.
//
// The model is the lesson's (app.js): the lab reads "lesson" (the /api/lesson answer),
// "choices" (axes, position kinds), "lab" (/api/lab: the temperature range, the edit limit and
// parameters, the head counts, the cost's sizes) and "words" (the page's fixed words: every
// label and sentence here is one of them, by key, lab.*), and sets the lab's keys
// (temperature, axis, positions, causal, heads, shuffle, edits, predict; see lab_state.js), and
// the host asks the API again. It shares three keys with the lesson view, never its DOM:
// "cell" ([i, j], the cell being read, picked in either view), "asking" (true while it waits
// for a guess: each view hides its own weights) and "guess" (the token guessed, in either view).
// The temperature sweep and the cost come from /api/sweep and /api/cost. Every number shown is
// the API's, formatted by format.js; nothing here computes attention. Three panels live in their
// own modules: lab_temperature.js, lab_edit.js and lab_cost.js; the rest are here.

import { decodeArray, decodeLesson, num, vec } from "./format.js";
import { costPanel } from "./lab_cost.js";
import { fillWords, h } from "./dom.js";
import { card, heatTable, numberTable, ropeDials } from "./lab_dom.js";
import { heatKey } from "./lesson_table.js";
import { tokenNames } from "./names.js";
import { editPanel } from "./lab_edit.js";
import { temperaturePanel } from "./lab_temperature.js";
import { createScope } from "./scope.js";
import { say } from "./words.js";

let instances = 0;

/** The cards and the table beside them; `panels` are the ones built by their own modules. */
function build(el, id, panels) {
  const ui = {};
  // --- softmax axis
  ui.axis = h("select", { id: `${id}-axis` });
  ui.axisBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const axis = ui.axisCard = card(`${id}-axis-card`, "lab.axis.title", "lab.axis.help", [
      h("div", { class: "field" }, [h("label", { for: `${id}-axis`, "data-words": "lab.axis.title" }), ui.axis]),
      ui.axisBody,
    ]);

  // --- causal mask
  ui.causal = h("input", { id: `${id}-causal`, type: "checkbox" });
  ui.causalBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const causal = card(`${id}-causal-card`, "lab.causal.title", "lab.causal.help", [
      h("label", { class: "check" }, [ui.causal, " ", h("span", { "data-words": "lab.causal.title" })]),
      ui.causalBody,
    ]);

  // --- positions and shuffle
  ui.positions = h("select", { id: `${id}-pos` });
  ui.posBody = h("div", { class: "lab-out" });
  ui.shuffle = h("button", { type: "button", "data-words": "lab.shuffle.button" });
  ui.shuffleBody = h("div", { class: "lab-out", "aria-live": "polite" });
  const positions = card(`${id}-pos-card`, "lab.positions.title", "lab.positions.help", [
      h("div", { class: "field" }, [h("label", { for: `${id}-pos`, "data-words": "lab.positions.label" }), ui.positions]),
      ui.posBody,
      h("div", { class: "inline-row" }, [ui.shuffle]),
      ui.shuffleBody,
    ], { wide: true });

  // --- reading the matrix
  ui.reading = h("p", { class: "reading", "aria-live": "polite" });
  ui.transpose = h("button", { type: "button", "aria-pressed": "false", "data-words": "lab.reading.transpose" });
  ui.mistaken = h("div", { class: "mistaken", "aria-live": "polite", hidden: true });
  const reading = card(`${id}-read-card`, "lab.reading.title", "lab.reading.help", [
      ui.reading,
      h("div", { class: "inline-row" }, [ui.transpose]),
      ui.mistaken,
    ]);

  // --- heads
  ui.heads = h("select", { id: `${id}-heads` });
  ui.headsBody = h("div", { class: "lab-out" });
  const heads = ui.headsCard = card(`${id}-heads-card`, "lab.heads.title", "lab.heads.help", [
      h("div", { class: "field" }, [h("label", { for: `${id}-heads`, "data-words": "lab.heads.label" }), ui.heads]),
      ui.headsBody,
    ]);

  // --- predict, then reveal
  ui.predict = h("input", { id: `${id}-predict`, type: "checkbox", role: "switch" });
  ui.predictBody = h("div", { class: "lab-out predict-out", "aria-live": "polite" });
  const predict = card(`${id}-predict-card`, "lab.predict.title", "lab.predict.help", [
      h("label", { class: "check" }, [ui.predict, " ", h("span", { "data-words": "lab.predict.label" })]),
      ui.predictBody,
    ]);

  // --- the weights now (beside the controls)
  ui.now = h("div", { class: "now-table" });
  ui.nowNote = h("p", { class: "lab-note" });
  const now = h("aside", { class: "lab-now", "aria-labelledby": `${id}-now-h` }, [
    h("h3", { id: `${id}-now-h`, "data-words": "lab.now.title" }),
    h("p", { class: "lab-help", "data-words": "lab.now.help" }),
    ui.now,
    ui.nowNote,
  ]);

  ui.root = h("div", { class: "lab" }, [
    h("h2", { "data-words": "lab.title" }),
    h("p", { class: "lab-intro", "data-words": "lab.intro" }),
    h("div", { class: "lab-grid" }, [
      h("div", { class: "lab-cards" }, [panels.temperature, axis, causal, positions, reading, panels.edit, heads, predict, panels.cost]),
      now,
    ]),
  ]);
  el.replaceChildren(ui.root);
  return ui;
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const id = `lab${++instances}`;
  const base = model.get("api_base") ?? "";
  const scope = createScope();
  const words = () => model.get("words");
  const commit = (changes) => {
    for (const [key, value] of Object.entries(changes)) model.set(key, value);
    model.save_changes();
  };
  const temperature = temperaturePanel(id, { model, commit, base, scope });
  const edit = editPanel(id, { model, commit, scope });
  const ui = build(el, id, { temperature: temperature.el, edit: edit.el, cost: costPanel(id, { model, base }) });
  /** @type {Record<string, any> | null} */
  let data = null; // the raw answer
  /** @type {Record<string, any> | null} */
  let trace = null; // decoded
  let transposed = false;
  const guess = () => model.get("guess") ?? null;
  /** The beat whose weights a guess must come before: the trace's softmax step. */
  const softmaxBeat = () => Math.max(0, (trace?.narration ?? []).findIndex((b) => b.key === "softmax"));

  const cols = () => trace.key_tokens ?? trace.tokens;
  const who = () => trace.tokens[trace.focus];
  const dims = () => trace.dim_names ?? trace.outputs[0].map((_, d) => say(words(), "lab.dim", { number: d + 1 }));
  /** A token with its position, as the position tables name a row: bank (3). */
  const placed = (tok, i) => say(words(), "lab.positions.token_at", { token: tok, position: i });

  // --- the weights now ------------------------------------------------------------------------
  /** True while Predict first waits for a guess: no weight, nor anything made of them, shows. */
  const hiding = () => Boolean(model.get("predict")) && guess() === null;

  function showNow() {
    const sat = data.saturation;
    const hide = hiding();
    const byRow = sat?.per === "row" && !hide;
    const sums = (xs) => (xs ?? []).map((x) => (hide ? "" : num(x)));
    ui.now.replaceChildren(
      heatTable({
        label: say(words(), "lab.now.table"), rows: trace.tokens, cols: cols(), weights: trace.weights, mask: trace.mask, focus: trace.focus, words: words(), hidden: hide,
        extra: [
          { head: say(words(), "lab.now.row_sum"), values: sums(sat?.row_sums) },
          { head: say(words(), "lab.now.bits"), values: byRow ? sums(sat.entropy_bits) : trace.tokens.map(() => "–") },
          { head: say(words(), "lab.now.largest"), values: byRow ? sums(sat.max_weight) : trace.tokens.map(() => "–") },
        ],
        footer: { head: say(words(), "lab.now.column_sum"), values: sums(sat?.column_sums) },
      }),
      ...(hide ? [] : [heatKey(trace.weights, words())]),
    );
    ui.nowNote.textContent = say(words(), trace.axis === "keys" ? "lab.now.keys" : "lab.now.queries");
  }

  // --- axis -----------------------------------------------------------------------------------
  function showAxis() {
    const axes = model.get("choices")?.axes ?? [trace.axis];
    ui.axis.replaceChildren(...axes.map((v) => h("option", { value: v }, [say(words(), `lab.axis.${v}`) || v])));
    ui.axis.value = trace.axis;
    const sat = data.saturation;
    const sums = (xs) => xs.map((x) => num(x)).join(", ");
    ui.axisCard.classList.toggle("wide", trace.axis !== "keys"); // its output table needs the width
    if (trace.axis === "keys") {
      ui.axisBody.replaceChildren(h("p", {}, [say(words(), "lab.axis.now", { row_sums: sums(sat.row_sums) })]));
      return;
    }
    const wa = data.wrong_axis;
    const f = trace.focus;
    const right = decodeArray(wa.right_outputs);
    const moved = decodeArray(wa.moved);
    ui.axisBody.replaceChildren(
      h("p", { class: "warn" }, [say(words(), "lab.axis.wrong", { column_sums: sums(sat.column_sums), row_sums: sums(sat.row_sums) })]),
      numberTable(say(words(), "lab.axis.output", { token: who() }), [say(words(), "lab.axis.across"), ...dims()], [
        [say(words(), "lab.axis.keys_row"), ...right[f].map((x) => num(x))],
        [say(words(), "lab.axis.queries_row"), ...trace.outputs[f].map((x) => num(x))],
      ], "axis-out"),
      h("p", {}, [say(words(), "lab.axis.moved", { token: who(), distance: num(moved[f]) }), " ", wa.note]),
    );
  }

  // --- causal ---------------------------------------------------------------------------------
  function showCausal() {
    ui.causal.checked = Boolean(data.causal);
    const sums = data.saturation?.row_sums ?? [];
    ui.causalBody.replaceChildren(
      ...(data.causal
        ? [h("p", {}, [data.causal_note ?? ""]), h("p", {}, [say(words(), "lab.causal.on", { row_sums: sums.map((x) => num(x)).join(", ") })])]
        : [h("p", {}, [say(words(), "lab.causal.off")])]),
    );
  }

  // --- positions and shuffle ------------------------------------------------------------------
  function showPositions() {
    const p = data.positions;
    const kinds = model.get("choices")?.positions ?? [p.kind];
    ui.positions.replaceChildren(...kinds.map((v) => h("option", { value: v }, [say(words(), `lab.positions.${v}`) || v])));
    ui.positions.value = p.kind;
    const parts = [h("p", {}, [p.note])];
    if (p.kind === "sinusoidal" && p.encodings) {
      const enc = decodeArray(p.encodings);
      parts.push(numberTable(say(words(), "lab.positions.encodings"), [say(words(), "lab.positions.token_column"), ...dims()], trace.tokens.map((tok, i) => [placed(tok, i), ...enc[i].map((x) => num(x))])));
    }
    if (p.kind === "rope" && p.rope) {
      const r = p.rope;
      const ang = decodeArray(r.angles);
      const q = decodeArray(r.queries);
      const rq = decodeArray(r.rotated_queries);
      const rad = (x, places) => say(words(), "lab.positions.radians", { angle: num(x, places) });
      const head = ["token_column", "angle_first", "angle_second", "q_before", "q_after"].map((k) => say(words(), `lab.positions.${k}`));
      parts.push(numberTable(say(words(), "lab.positions.rotation"), head, trace.tokens.map((tok, i) => [
        placed(tok, i), rad(ang[i][0], 3), rad(ang[i][1] ?? 0, 4), vec(q[i]), vec(rq[i]),
      ]), "rope"));
      parts.push(h("div", { class: "scroll-x" }, [ropeDials(trace.tokens, q, rq, ang, words())]));
      parts.push(h("p", { class: "lab-note" }, [say(words(), "lab.positions.rope_note")]));
    }
    ui.posBody.replaceChildren(...parts);
  }

  function showShuffle() {
    const sh = data.shuffle;
    if (!sh) {
      ui.shuffleBody.replaceChildren(h("p", { class: "lab-note" }, [say(words(), "lab.shuffle.none")]));
      return;
    }
    const rows = sh.rows.map((r) => {
      const mark = h("span", { class: r.unchanged ? "tick ok" : "tick moved", "aria-hidden": "true" }, [r.unchanged ? "✓" : "✗"]);
      // a move the API counts as a change, but too small for two decimals, is never a bare "0"
      const key = r.unchanged ? "lab.shuffle.same" : num(r.distance) === "0" ? "lab.shuffle.tiny" : "lab.shuffle.moved";
      const told = say(words(), key, { token: r.token, distance: num(r.distance) });
      const state = say(words(), r.unchanged ? "lab.shuffle.unchanged" : "lab.shuffle.changed");
      return h("li", { class: r.unchanged ? "unchanged" : "moved", "data-token": r.token }, [mark, " ", told, h("span", { class: "sr-only" }, [` (${state})`])]);
    });
    ui.shuffleBody.replaceChildren(
      h("p", {}, [say(words(), "lab.shuffle.order", { shuffled: sh.shuffled_tokens.join(" "), tokens: sh.tokens.join(" ") })]),
      h("ul", { class: "shuffle-list", "aria-label": say(words(), "lab.shuffle.list") }, rows),
      h("p", { class: sh.all_unchanged ? "good" : "warn" }, [sh.note]),
    );
  }

  // --- reading --------------------------------------------------------------------------------
  /** The cell being read: the model's "cell" (picked in either view), else the focus row's answer. */
  function cellNow() {
    const c = model.get("cell");
    if (c && c[0] < trace.tokens.length && c[1] < cols().length) return c;
    return [trace.focus, Math.max(0, data.predict?.answer ?? 0)];
  }

  function showReading() {
    const cell = cellNow();
    if (model.get("cell") !== cell) commit({ cell }); // the lesson view outlines it too
    const r = hiding() ? null : data.readings?.[cell[0]]?.[cell[1]];
    ui.reading.textContent = r ? r.text : hiding() ? say(words(), "lab.reading.hidden") : "";
    ui.transpose.disabled = hiding();
    ui.transpose.setAttribute("aria-pressed", String(transposed));
    ui.mistaken.hidden = !transposed || !r;
    if (r) ui.mistaken.replaceChildren(h("p", { class: "mistaken-text" }, [r.mistaken]), h("p", { class: "why" }, [r.why]));
    for (const td of ui.now.querySelectorAll("td[data-i]")) {
      td.classList.toggle("reading", Number(td.dataset.i) === cell[0] && Number(td.dataset.j) === cell[1]);
    }
  }

  /** A cell of the lab's own weights table, clicked or reached with the keyboard. */
  function onNowCell(e) {
    const td = e.target instanceof Element ? e.target.closest("td[data-i]") : null;
    const c = model.get("cell");
    if (td && trace && (c?.[0] !== Number(td.dataset.i) || c?.[1] !== Number(td.dataset.j))) commit({ cell: [Number(td.dataset.i), Number(td.dataset.j)] });
  }

  // --- heads ----------------------------------------------------------------------------------
  function showHeads() {
    const counts = model.get("lab")?.heads ?? [];
    ui.heads.replaceChildren(...counts.map((k) => h("option", { value: String(k) }, [String(k)])));
    ui.heads.value = String(data.heads?.length ?? 1);
    const hs = data.heads ?? [];
    if (hs.length < 2) {
      ui.headsCard.classList.remove("wide");
      ui.headsBody.replaceChildren(h("p", {}, [say(words(), "lab.heads.one", { name: hs[0]?.name ?? "", blurb: hs[0]?.blurb ?? "" })]));
      return;
    }
    ui.headsCard.classList.add("wide"); // the joined outputs need the row's width
    const second = decodeLesson(hs[1]);
    const concat = decodeArray(data.concat_outputs);
    const names = hs.flatMap((_, k) => dims().map((d) => say(words(), "lab.heads.dim", { number: k + 1, dim: d })));
    ui.headsBody.replaceChildren(
      ...hs.map((x, k) => h("p", {}, [h("strong", {}, [say(words(), "lab.heads.head", { number: k + 1, name: x.name })]), " ", x.blurb])),
      heatTable({ label: say(words(), "lab.heads.second_table"), caption: say(words(), "lab.heads.second_caption"), rows: second.tokens, cols: second.key_tokens ?? second.tokens, weights: second.weights, mask: second.mask, focus: trace.focus, words: words(), hidden: hiding() }),
      ...(hiding() ? [] : [heatKey(second.weights, words())]),
      numberTable(say(words(), "lab.heads.concat"), [say(words(), "lab.edit.token"), ...names], trace.tokens.map((tok, i) => [tok, ...concat[i].map((x) => num(x))]), "concat"),
      h("p", {}, [data.heads_note ?? ""]),
    );
  }

  // --- predict --------------------------------------------------------------------------------
  const predicting = () => Boolean(model.get("predict")) && guess() === null;

  function showPredict() {
    const on = Boolean(model.get("predict"));
    ui.predict.checked = on;
    placeBar();
    const asking = on && guess() === null && trace !== null;
    ui.root.classList.toggle("asking", asking);
    if (Boolean(model.get("asking")) !== asking) commit({ asking }); // the lesson view hides its weights
    if (!on || !trace) {
      ui.predictBody.replaceChildren(h("p", { class: "lab-note" }, [say(words(), "lab.predict.off")]));
      return;
    }
    if (guess() === null) {
      const buttons = tokenNames(cols()).map((tok, j) => {
        const b = h("button", { type: "button", class: "token guess", "aria-label": say(words(), "lab.predict.guess", { token: tok }), "data-j": j }, [tok]);
        b.addEventListener("click", () => commit({ guess: j }));
        return b;
      });
      ui.predictBody.replaceChildren(
        h("p", { class: "ask" }, [say(words(), "lab.predict.ask", { token: who() })]),
        h("div", { class: "guesses", role: "group", "aria-label": say(words(), "lab.predict.guesses") }, buttons),
      );
      return;
    }
    const note = data.predict.notes[guess()];
    const right = guess() === data.predict.answer;
    const again = h("button", { type: "button" }, [say(words(), "lab.predict.again")]);
    again.addEventListener("click", () => commit({ guess: null, beat: Math.min(Number(model.get("beat")) || 0, softmaxBeat() - 1) }));
    ui.predictBody.replaceChildren(h("p", { class: right ? "verdict good" : "verdict warn", role: "status" }, [note]), again);
  }

  /** A guess, made here or in the lesson's picture: the verdict, and the Softmax step shows. */
  function onGuess() {
    if (!trace) return;
    if (guess() !== null && !model.get("predict")) return commit({ guess: null });
    showPredict();
    if (guess() !== null) commit({ beat: softmaxBeat() });
  }

  /** The question, and the verdict while its Softmax step shows, sit in a bar at the window's foot. */
  function placeBar() {
    const on = Boolean(model.get("predict")) && trace !== null;
    const beat = Number(model.get("beat")) || 0;
    ui.root.classList.toggle("predict-on", on && (guess() === null || beat === softmaxBeat()));
  }

  function onBeat() {
    if (predicting() && trace && (Number(model.get("beat")) || 0) >= softmaxBeat()) {
      ui.predictBody.querySelector(".ask")?.classList.add("nudge");
      commit({ beat: softmaxBeat() - 1 }); // no weights before a guess
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
    if (focusChanged && (guess() !== null || model.get("cell"))) commit({ guess: null, cell: null });
    for (const [name, fn] of [["temperature", () => temperature.show(data, trace)], ["now", showNow], ["axis", showAxis], ["causal", showCausal], ["positions", showPositions], ["shuffle", showShuffle], ["reading", showReading], ["edits", () => edit.show(data, trace)], ["heads", showHeads], ["predict", showPredict]]) {
      try {
        fn();
      } catch (err) {
        console.warn(`the lab's ${name} panel: ${err instanceof Error ? err.message : err}`);
      }
    }
    onBeat(); // a link may open on the Softmax step with Predict first on and no guess yet
  }

  /** The panels that hide their numbers while a guess is awaited, drawn again when that changes. */
  function redrawHidden() {
    for (const fn of [showNow, showReading, showHeads, () => temperature.show(data, trace)]) {
      try {
        fn();
      } catch (err) {
        console.warn(`the lab: ${err instanceof Error ? err.message : err}`);
      }
    }
  }

  function onWords() {
    fillWords(ui.root, words());
    onLesson();
  }

  scope.listen(ui.axis, "change", () => commit({ axis: ui.axis.value }));
  scope.listen(ui.causal, "change", () => commit({ causal: ui.causal.checked }));
  scope.listen(ui.positions, "change", () => commit({ positions: ui.positions.value }));
  scope.listen(ui.shuffle, "click", () => commit({ shuffle: ((Number(model.get("shuffle")) || 0) % 1000) + 1 }));
  scope.listen(ui.transpose, "click", () => {
    transposed = !transposed;
    showReading();
  });
  scope.listen(ui.heads, "change", () => commit({ heads: Number(ui.heads.value) }));
  scope.listen(ui.predict, "change", () => {
    const changes = { guess: null, predict: ui.predict.checked };
    if (ui.predict.checked && (Number(model.get("beat")) || 0) >= softmaxBeat()) changes.beat = 1;
    commit(changes);
    showPredict();
  });
  scope.listen(ui.now, "click", onNowCell);
  scope.listen(ui.now, "focusin", onNowCell);

  scope.on(model, "change:lesson", onLesson);
  scope.on(model, "change:beat", onBeat);
  scope.on(model, "change:guess", onGuess);
  scope.on(model, "change:predict", () => trace && onLesson()); // Predict first, undone from the lesson's line
  scope.on(model, "change:asking", () => trace && redrawHidden());
  scope.on(model, "change:words", onWords);
  scope.on(model, "change:choices", () => trace && onLesson());
  scope.on(model, "change:lab", () => trace && onLesson());
  scope.on(model, "change:cell", () => {
    transposed = false;
    if (trace) showReading();
  });
  scope.add(temperature.stop);
  fillWords(ui.root, words());
  if (model.get("lesson")) onLesson();
  return scope.dispose;
}

export default { render };
