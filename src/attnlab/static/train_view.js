// The Train view: pick an experiment and a seed, Play / Pause / Step / Stop, a speed; the
// curves drawn as each chunk of steps arrives; a scrubber over the saved checkpoints showing
// the attention maps at that step; the words of the phase the run has reached.
//
// A guest view (anywidget's contract): render({model, el}) touches only `el`, reads the catalog
// from model.get("train_catalog") (GET /api/train's answer, or the widget's trait) and returns
// a cleanup. The run itself comes from a trainer with start / next / stop, each resolving with
// an answer {ok, body | error} as http.js getJSON does:
//   model.services.train   the page's (train_app.js): POST /api/train/start|next|stop, the
//                          steps computed in the server's training worker as they are asked for
//   replayTrainer(run)     the notebook's: a whole run the kernel computed (the widget's
//                          "train_run", the same chunk answer), handed out a chunk at a time
// Pause and Stop are the view no longer asking for the next chunk; Stop also tells the trainer
// to forget the run. Every number and sentence shown is the answer's; the labels are the
// catalog's (words/training.py).

import { COLORS, SERIES } from "./colors.js";
import { SANS } from "./draw.js";
import { h } from "./dom.js";
import { decodeNumber, g2, num } from "./format.js";
import { curveShapes, mapShapes } from "./train_layout.js";

const CURVE = { width: 360, height: 150 };
const MAP = { width: 240, height: 240 };
const SCALE = 2; // canvas pixels per CSS pixel
const PAUSE_MS = { 1: 120, 5: 60, 20: 0 }; // between requests at each speed, so growth is seen
const LOG_MEASURES = new Set(["grad_norm"]); // spans many powers of ten: a log axis, values as 8e-05
const SHARE_MEASURES = new Set(["weight_river", "weight_savings", "hit"]); // never above 1

/** The catalog's label `key` with {name} fields filled. */
function label(catalog, key, fields = {}) {
  const text = catalog?.labels?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(fields[k] ?? ""));
}

/**
 * A trainer over a run computed already (the notebook's): the same answers as the server's,
 * cut into chunks of the size asked.
 * @param {any} run the whole run as one chunk answer (encode/train_json.py TrainChunkAnswer)
 */
export function replayTrainer(run) {
  let at = 0;
  return {
    async start() {
      at = 0;
      return { ok: true, body: { job: run.job, experiment: run.experiment, steps: run.steps, seed: run.seed } };
    },
    async next(job, count) {
      const points = run.points.slice(at, at + count);
      at += points.length;
      const last = points.at(-1)?.step ?? -1;
      const from = points[0]?.step ?? Infinity;
      const done = at >= run.points.length;
      return {
        ok: true,
        body: {
          ...run, points, done, next_step: last + 1,
          checkpoints: run.checkpoints.filter((c) => c.step >= from && c.step <= last),
          phase: done ? run.phase : "", summary: done ? run.summary : [],
        },
      };
    },
    async stop(job) {
      return { ok: true, body: { job, stopped: true, at_step: at - 1 } };
    },
  };
}

/** A legend's colour chip, coloured through the CSSOM (the page's CSP refuses style attributes). */
function swatch(color) {
  const chip = h("span", { class: "swatch", "aria-hidden": "true" }, []);
  chip.style.background = color;
  return chip;
}

function drawCurves(canvas, shapes) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(SCALE, 0, 0, SCALE, 0, 0);
  ctx.clearRect(0, 0, CURVE.width, CURVE.height);
  ctx.strokeStyle = COLORS.grid;
  ctx.strokeRect(shapes.frame.x, shapes.frame.y, shapes.frame.width, shapes.frame.height);
  ctx.font = `11px ${SANS}`;
  ctx.fillStyle = COLORS.muted;
  for (const l of shapes.labels) {
    ctx.textAlign = l.align;
    ctx.fillText(l.text, l.x, l.y);
  }
  ctx.lineWidth = 1.6;
  for (const line of shapes.lines) {
    ctx.strokeStyle = line.color;
    ctx.beginPath();
    line.points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.stroke();
  }
  if (shapes.mark) {
    ctx.strokeStyle = COLORS.violet;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(shapes.mark.x, shapes.mark.y0);
    ctx.lineTo(shapes.mark.x, shapes.mark.y1);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

function drawMap(canvas, shapes) {
  canvas.width = shapes.size.width * SCALE;
  canvas.height = shapes.size.height * SCALE;
  canvas.style.width = `${shapes.size.width}px`;
  canvas.style.height = `${shapes.size.height}px`;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(SCALE, 0, 0, SCALE, 0, 0);
  ctx.font = `11px ${SANS}`;
  for (const c of shapes.cells) {
    ctx.fillStyle = c.fill;
    ctx.fillRect(c.x, c.y, c.size, c.size);
    if (c.text) {
      ctx.fillStyle = c.ink;
      ctx.textAlign = "center";
      ctx.fillText(c.text, c.x + c.size / 2, c.y + c.size / 2 + 4);
    }
  }
  ctx.fillStyle = COLORS.ink;
  for (const l of shapes.labels) {
    ctx.textAlign = l.align;
    ctx.fillText(l.text, l.x, l.y);
  }
  if (shapes.outline) {
    ctx.strokeStyle = COLORS.violet;
    ctx.lineWidth = 2;
    const o = shapes.outline;
    ctx.strokeRect(o.x, o.y, o.width, o.height);
  }
}

/** The view's elements (`parts`) and its root, labelled from the catalog. */
function buildParts(L, experiments, speeds, intro) {
  const p = {
    pick: h("select", { "data-train": "experiment" }, experiments.map((e) => h("option", { value: e.name }, [e.title]))),
    seed: h("input", { type: "number", min: 0, step: 1, value: 0, "data-train": "seed", inputmode: "numeric" }),
    steps: h("input", { type: "number", min: 1, step: 1, "data-train": "steps", inputmode: "numeric" }),
    speed: h("select", { "data-train": "speed" }, speeds.map((n, i) => h("option", { value: n, selected: i === 1 }, [L(["speed_slow", "speed_medium", "speed_fast"][i] ?? "speed")]))),
    play: h("button", { type: "button", class: "primary", "data-train": "play", "aria-label": L("play_aria") }, [L("play")]),
    step: h("button", { type: "button", "data-train": "step", "aria-label": L("step_aria") }, [L("step")]),
    stop: h("button", { type: "button", "data-train": "stop", "aria-label": L("stop_aria"), disabled: true }, [L("stop")]),
    status: h("p", { class: "train-status", role: "status", "data-train": "status" }, [L("no_run")]),
    atStep: h("output", { "data-train": "at-step" }, ["–"]),
    watch: h("p", { class: "train-watch" }, []),
    phase: h("p", { class: "train-phase", "data-train": "phase" }, []),
    curves: h("div", { class: "train-curves" }, []),
    scrub: h("input", { type: "range", min: 0, max: 0, value: 0, step: 1, disabled: true, "data-train": "scrub", "aria-label": L("scrub") }),
    scrubAt: h("output", { "data-train": "scrub-at" }, ["–"]),
    ckLine: h("p", { class: "train-ck-line", "data-train": "ck-line" }, []),
    maps: h("div", { class: "train-maps", "data-train": "maps" }, []),
    summary: h("ul", { class: "train-summary", "data-train": "summary" }, []),
    error: h("p", { class: "train-error", role: "alert", hidden: true }, []),
  };
  p.root = h("section", { class: "train", "aria-labelledby": "train-heading" }, [
    h("h2", { id: "train-heading" }, [L("heading")]),
    h("p", { class: "train-intro" }, [L(intro)]),
    h("div", { class: "train-controls" }, [
      h("label", {}, [L("experiment"), " ", p.pick]),
      h("label", {}, [L("seed"), " ", p.seed]),
      h("label", {}, [L("steps"), " ", p.steps]),
      h("label", {}, [L("speed"), " ", p.speed]),
      h("span", { class: "train-buttons" }, [p.play, p.step, p.stop]),
    ]),
    p.error, p.status, h("p", { class: "train-count" }, [`${L("step_now")} `, p.atStep]),
    h("h3", {}, [L("watch")]), p.watch, p.phase,
    h("h3", {}, [L("curves")]), p.curves,
    h("h3", {}, [L("maps")]),
    h("div", { class: "train-scrub" }, [h("label", {}, [L("scrub"), " ", p.scrub]), " ", p.scrubAt]),
    p.ckLine, p.maps,
    h("h3", {}, [L("summary")]), p.summary,
  ]);
  return p;
}

/** One panel a measure: the run's curve of each variant, and its latest value in the legend;
 * `mark` is the step of the checkpoint the scrubber shows when it is not the latest, or null. */
function drawCurvePanels(parts, catalog, L, run, mark = null) {
  const e = catalog.experiments.find((x) => x.name === run.experiment);
  const stepsAxis = run.points.map((p) => p.step);
  // the legend's values: the scrubbed checkpoint's step (the last point at or before it), else the latest
  const last = mark === null ? run.points.at(-1) : run.points.findLast((p) => p.step <= mark) ?? run.points[0];
  parts.curves.replaceChildren(
    ...(e?.measures ?? []).map((measure) => {
      const series = (e.variants ?? [])
        .map((v, i) => ({ key: `${v}.${measure}`, variant: v, color: SERIES[i % SERIES.length], steps: stepsAxis, values: run.points.map((p) => decodeNumber(p.values[`${v}.${measure}`])) }))
        .filter((s) => s.values.some((x) => Number.isFinite(x)));
      const name = catalog.measure_names?.[measure] ?? measure;
      const canvas = h("canvas", { width: CURVE.width * SCALE, height: CURVE.height * SCALE, role: "img", "aria-label": L("curve_aria", { measure: name }) });
      canvas.style.width = `${CURVE.width}px`; // the CSSOM: the page's CSP refuses style attributes
      const log = LOG_MEASURES.has(measure);
      const shapes = curveShapes(series, { steps: run.steps, width: CURVE.width, height: CURVE.height, log, top: SHARE_MEASURES.has(measure) ? 1 : null, mark });
      drawCurves(canvas, shapes);
      canvas.dataset.drawn = String(shapes.lines[0]?.points.length ?? 0); // the points on the canvas
      canvas.dataset.mark = mark === null ? "" : String(mark);
      const write = (v) => (log ? g2(v) : num(v, 3));
      const at = h("li", { class: "train-legend-at", "data-legend-step": last?.step ?? "" }, [last ? L("legend_at", { step: last.step }) : ""]);
      const legend = series.map((s) => h("li", {}, [
        swatch(s.color), `${catalog.variant_names?.[s.variant] ?? s.variant}: `,
        h("span", { "data-value": s.key }, [last ? write(decodeNumber(last.values[s.key])) : ""]),
      ]));
      return h("figure", { class: "train-curve", "data-measure": measure }, [h("figcaption", {}, [name]), canvas, h("ul", { class: "train-legend" }, [at, ...legend])]);
    }),
  );
}

/** The checkpoint the scrubber is on (the newest while `follow`): its maps, its words, the
 * phase line at its step and a mark on the curves (none while following the latest step). */
function drawCheckpoint(parts, L, catalog, run, follow, latestPhase = "") {
  const cks = run?.checkpoints ?? [];
  const { scrub, scrubAt, ckLine, maps } = parts;
  scrub.max = String(Math.max(0, cks.length - 1));
  scrub.disabled = cks.length === 0;
  if (follow) scrub.value = scrub.max;
  const ck = cks[Number(scrub.value)];
  if (!ck) {
    if (run) drawCurvePanels(parts, catalog, L, run);
    maps.replaceChildren();
    scrubAt.textContent = "–";
    ckLine.textContent = "";
    return;
  }
  const latest = follow || ck.step === run.points.at(-1)?.step;
  parts.phase.textContent = latest ? latestPhase : ck.phase ?? latestPhase;
  drawCurvePanels(parts, catalog, L, run, latest ? null : ck.step);
  scrubAt.textContent = L("at_step", { step: ck.step, steps: run.steps });
  scrub.setAttribute("aria-valuetext", scrubAt.textContent);
  ckLine.textContent = ck.line;
  maps.replaceChildren(
    ...ck.maps.map((m) => {
      const weights = m.weights.map((r) => r.map(decodeNumber));
      const canvas = h("canvas", { role: "img", "aria-label": L("map_aria", { name: m.name }) });
      drawMap(canvas, mapShapes(weights, m.tokens, { ...MAP, row: m.row }));
      const [variant, ...rest] = m.name.split(": "); // "scaled: by the river bank" → "Scaled: …"
      const title = [catalog.variant_names?.[variant] ?? variant, ...rest].join(": ");
      const figure = [h("figcaption", {}, [title]), canvas];
      if (m.row !== null && m.row !== undefined) {
        const cells = m.tokens.flatMap((t, j) => [h("span", { class: "train-cell", "data-key": t }, [`${t} ${num(weights[m.row][j])}`]), j < m.tokens.length - 1 ? " · " : ""]);
        figure.push(h("p", { class: "train-row", "data-row-of": m.name }, [`${L("row_of", { word: m.tokens[m.row] })}: `, ...cells]));
      }
      return h("figure", { class: "train-map", "data-step": ck.step }, figure);
    }),
  );
}

/** The run the fields ask for, or the error naming the field that is not a whole number in
 * range: the catalog's limits and words/training.py's message, as the server would refuse. */
function checked(parts, catalog, L) {
  const e = catalog.experiments.find((x) => x.name === parts.pick.value);
  const max = e?.max_steps ?? 1;
  const seedText = parts.seed.value.trim();
  const stepsText = parts.steps.value.trim();
  const whole = (t) => /^\d+$/.test(t);
  const quoted = (t) => (t === "" ? "nothing" : JSON.stringify(t));
  if (!whole(stepsText) || Number(stepsText) < 1 || Number(stepsText) > max) return { error: { message: L("steps_bad", { max, got: quoted(stepsText) }), field: "steps" } };
  if (!whole(seedText) || Number(seedText) > 2 ** 32 - 1) return { error: { message: L("seed_bad", { got: quoted(seedText) }), field: "seed" } };
  return { experiment: parts.pick.value, steps: Number(stepsText), seed: Number(seedText) };
}
/** The buttons and fields as the run `st` allows them. */
function setButtons(parts, st, L, locked) {
  parts.play.textContent = st.playing ? L("pause") : L("play");
  parts.play.dataset.train = st.playing ? "pause" : "play";
  parts.play.setAttribute("aria-label", L(st.playing ? "pause_aria" : "play_aria"));
  parts.play.setAttribute("aria-pressed", String(st.playing));
  parts.stop.disabled = !st.run?.job || Boolean(st.run?.done);
  parts.step.disabled = st.playing; // after a stop or the end, Step starts a new run
  // while a run plays its settings are fixed (an edit would not reach it); paused, an edit
  // starts afresh (reset). The notebook's one run keeps them fixed always.
  if (!locked) for (const control of [parts.pick, parts.seed, parts.steps]) control.disabled = st.playing;
}
/** The run states said with the run's seed. */
const RUN_STATES = new Set(["running", "paused", "stopped", "finished", "new_run"]);

/** The status line for `key`: its words, the run's seed, and after a finished run what Play or
 * Step does now (`locked`: a notebook's given run, played again). */
function statusLine(L, run, key, fields, locked) {
  const seed = run && RUN_STATES.has(key) ? ` ${L("seed_used", { seed: run.seed })}` : "";
  const next = key === "finished" ? ` ${L(locked ? "finished_next_kernel" : "finished_next")}` : "";
  return L(key, fields) + seed + next;
}

/**
 * The run on screen and what the buttons do: start, ask for the next chunk while playing,
 * pause, step, stop, reset. `st` holds the run ({job, experiment, steps, points, checkpoints,
 * done}) and whether it plays; a chunk answered after a stop or a reset is dropped (`ticket`).
 */
function controller(parts, trainer, L, catalog, locked = false) {
  const st = { run: null, playing: false, asking: false, ticket: 0, alive: true, follow: true, phase: "" };
  const say = (key, fields) => (parts.status.textContent = statusLine(L, st.run, key, fields, locked));
  const lastStep = () => st.run?.points.at(-1)?.step ?? 0;
  const buttons = () => setButtons(parts, st, L, locked);
  function showError(e) {
    parts.error.hidden = !e;
    parts.error.textContent = e ? e.message : "";
  }
  function take(body) {
    st.run.points.push(...body.points);
    st.run.checkpoints.push(...body.checkpoints);
    st.run.done = body.done;
    st.phase = body.phase;
    parts.phase.textContent = body.phase;
    parts.summary.replaceChildren(...body.summary.map((line) => h("li", {}, [line])));
    parts.atStep.textContent = st.run.points.length ? String(lastStep()) : "–";
    drawCheckpoint(parts, L, catalog, st.run, st.follow, st.phase); // the curves too
  }
  async function begin() {
    const mine = ++st.ticket;
    const wanted = checked(parts, catalog, L);
    showError(wanted.error ?? null);
    if (wanted.error) return say("no_run"), false;
    say("starting");
    const answer = await trainer.start(wanted);
    if (!st.alive || mine !== st.ticket) return false;
    showError(answer.ok ? null : answer.error);
    if (!answer.ok) return say("no_run"), false;
    st.run = { ...answer.body, points: [], checkpoints: [], done: false };
    st.follow = true;
    return true;
  }
  async function chunk() {
    if (st.asking || !st.run || st.run.done) return;
    st.asking = true;
    const mine = st.ticket;
    const answer = await trainer.next(st.run.job, Number(parts.speed.value));
    if (!st.alive || mine !== st.ticket || !st.run) return; // stopped or replaced meanwhile
    st.asking = false;
    if (!answer.ok) return showError(answer.error), (st.playing = false), buttons();
    take(answer.body);
    if (st.run.done) (st.playing = false), say("finished", { steps: st.run.steps });
    else say(st.playing ? "running" : "paused", { step: lastStep(), steps: st.run.steps });
    buttons();
  }
  async function loop() {
    while (st.alive && st.playing && st.run && !st.run.done) {
      await chunk();
      if (st.playing) await new Promise((r) => setTimeout(r, PAUSE_MS[parts.speed.value] ?? 0));
    }
    buttons();
  }
  return {
    st, buttons,
    async play() {
      if (st.playing) {
        st.playing = false;
        if (st.run) say("paused", { step: lastStep(), steps: st.run.steps });
        return buttons();
      }
      if ((!st.run || st.run.done) && !(await begin())) return;
      st.playing = true;
      buttons();
      say("running", { step: lastStep(), steps: st.run.steps });
      loop();
    },
    async step() {
      if (st.playing || st.asking) return;
      const again = Boolean(st.run?.done); // a finished or stopped run: Step starts a new one, and says so
      if ((!st.run || st.run.done) && !(await begin())) return;
      await chunk();
      if (again && st.run && !st.run.done && !st.playing) say("new_run", { step: lastStep(), steps: st.run.steps });
    },
    stop() {
      if (!st.run?.job) return;
      trainer.stop(st.run.job);
      const at = lastStep();
      Object.assign(st, { playing: false, asking: false, ticket: st.ticket + 1 }); // a chunk on its way is dropped
      st.run = { ...st.run, done: true, job: null };
      say("stopped", { step: at });
      const focused = globalThis.document?.activeElement === parts.stop;
      buttons();
      if (focused) parts.play.focus(); // Stop disables itself: the key goes to Play, not the page
    },
    reset() {
      if (st.run?.job && !st.run.done) trainer.stop(st.run.job);
      Object.assign(st, { run: null, playing: false, asking: false, ticket: st.ticket + 1 });
      for (const el of [parts.curves, parts.maps, parts.summary]) el.replaceChildren();
      for (const el of [parts.phase, parts.ckLine]) el.textContent = "";
      parts.scrub.disabled = true;
      parts.scrubAt.textContent = "–";
      parts.atStep.textContent = "–";
      say("no_run");
      buttons();
    },
  };
}

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const catalog = model.get("train_catalog") ?? { experiments: [], labels: {} };
  const given = model.get("train_run");
  const replay = Boolean(given) && !model.services?.train;
  const trainer = model.services?.train ?? (given ? replayTrainer(given) : null);
  const L = (key, fields) => label(catalog, key, fields);
  const parts = buildParts(L, catalog.experiments, catalog.speeds ?? [1, 5, 20], replay ? "intro_kernel" : "intro");
  el.replaceChildren(parts.root);
  const fresh = () => {
    const e = catalog.experiments.find((x) => x.name === parts.pick.value) ?? catalog.experiments[0];
    parts.steps.value = String(e?.default_steps ?? 100);
    parts.steps.max = String(e?.max_steps ?? 100);
    parts.watch.textContent = e?.watch ?? "";
  };
  if (replay) parts.pick.value = given.experiment; // the kernel's one run, which the view cannot change
  fresh();
  if (replay) {
    parts.seed.value = String(given.seed);
    parts.steps.value = String(given.steps);
    for (const control of [parts.pick, parts.seed, parts.steps]) control.disabled = true;
  }
  const c = controller(parts, trainer ?? replayTrainer({ points: [], checkpoints: [] }), L, catalog, replay);
  const on = [
    [parts.pick, "change", () => (fresh(), c.reset())],
    [parts.seed, "change", () => c.reset()],
    [parts.steps, "change", () => c.reset()],
    [parts.play, "click", () => c.play()],
    [parts.step, "click", () => c.step()],
    [parts.stop, "click", () => c.stop()],
    [parts.scrub, "input", () => {
      c.st.follow = Number(parts.scrub.value) === Number(parts.scrub.max);
      drawCheckpoint(parts, L, catalog, c.st.run, c.st.follow, c.st.phase);
    }],
  ];
  for (const [target, event, fn] of on) target.addEventListener(event, fn);
  c.buttons();
  return () => {
    if (c.st.run?.job && !c.st.run.done) trainer?.stop(c.st.run.job);
    Object.assign(c.st, { alive: false, playing: false });
    for (const [target, event, fn] of on) target.removeEventListener(event, fn);
    el.replaceChildren();
  };
}

export default { render };
