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
import { decodeNumber, num } from "./format.js";
import { curveShapes, mapShapes } from "./train_layout.js";

const CURVE = { width: 360, height: 150 };
const MAP = { width: 240, height: 240 };
const SCALE = 2; // canvas pixels per CSS pixel
const PAUSE_MS = { 1: 120, 5: 60, 20: 0 }; // between requests at each speed, so growth is seen

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

/** @param {{model: any, el: HTMLElement}} props @returns {() => void} the cleanup */
function render({ model, el }) {
  const catalog = model.get("train_catalog");
  const given = model.get("train_run");
  const trainer = model.services?.train ?? (given ? replayTrainer(given) : null);
  const experiments = catalog?.experiments ?? [];
  const L = (key, fields) => label(catalog, key, fields);

  const pick = h("select", { "data-train": "experiment" }, experiments.map((e) => h("option", { value: e.name }, [e.title])));
  const seed = h("input", { type: "number", min: 0, step: 1, value: 0, "data-train": "seed", inputmode: "numeric" });
  const steps = h("input", { type: "number", min: 1, step: 1, "data-train": "steps", inputmode: "numeric" });
  const speed = h("select", { "data-train": "speed" }, (catalog?.speeds ?? [1, 5, 20]).map((n, i) => h("option", { value: n, selected: i === 1 }, [L(["speed_slow", "speed_medium", "speed_fast"][i] ?? "speed")])));
  const play = h("button", { type: "button", class: "primary", "data-train": "play" }, [L("play")]);
  const stepButton = h("button", { type: "button", "data-train": "step" }, [L("step")]);
  const stopButton = h("button", { type: "button", "data-train": "stop", disabled: true }, [L("stop")]);
  const status = h("p", { class: "train-status", role: "status", "data-train": "status" }, [L("no_run")]);
  const count = h("p", { class: "train-count" }, [`${L("step_now")} `, h("output", { "data-train": "at-step" }, ["–"])]);
  const watch = h("p", { class: "train-watch" }, []);
  const phase = h("p", { class: "train-phase", "data-train": "phase" }, []);
  const curves = h("div", { class: "train-curves" }, []);
  const scrub = h("input", { type: "range", min: 0, max: 0, value: 0, step: 1, disabled: true, "data-train": "scrub", "aria-label": L("scrub") });
  const scrubAt = h("output", { "data-train": "scrub-at" }, ["–"]);
  const ckLine = h("p", { class: "train-ck-line", "data-train": "ck-line" }, []);
  const maps = h("div", { class: "train-maps", "data-train": "maps" }, []);
  const summary = h("ul", { class: "train-summary", "data-train": "summary" }, []);
  const error = h("p", { class: "train-error", role: "alert", hidden: true }, []);

  el.replaceChildren(
    h("section", { class: "train", "aria-labelledby": "train-heading" }, [
      h("h2", { id: "train-heading" }, [L("heading")]),
      h("p", { class: "train-intro" }, [L(given && !model.services?.train ? "intro_kernel" : "intro")]),
      h("div", { class: "train-controls" }, [
        h("label", {}, [L("experiment"), " ", pick]),
        h("label", {}, [L("seed"), " ", seed]),
        h("label", {}, [L("steps"), " ", steps]),
        h("label", {}, [L("speed"), " ", speed]),
        h("span", { class: "train-buttons" }, [play, stepButton, stopButton]),
      ]),
      error, status, count,
      h("h3", {}, [L("watch")]), watch, phase,
      h("h3", {}, [L("curves")]), curves,
      h("h3", {}, [L("maps")]),
      h("div", { class: "train-scrub" }, [h("label", {}, [L("scrub"), " ", scrub]), " ", scrubAt]),
      ckLine, maps,
      h("h3", {}, [L("summary")]), summary,
    ]),
  );

  let run = null; // {job, experiment, steps, seed, points: [], checkpoints: [], done}
  let playing = false;
  let asking = false;
  let ticket = 0;
  let alive = true;
  let follow = true; // the scrubber follows the newest checkpoint until the learner moves it

  const chosen = () => experiments.find((e) => e.name === pick.value) ?? experiments[0];
  function fresh() {
    const e = chosen();
    steps.value = String(e?.default_steps ?? 100);
    steps.max = String(e?.max_steps ?? 100);
    watch.textContent = e?.watch ?? "";
  }
  fresh();
  if (given && !model.services?.train) {
    // the kernel's one run: its experiment, seed and length, which the view cannot change
    pick.value = given.experiment;
    fresh();
    seed.value = String(given.seed);
    steps.value = String(given.steps);
    for (const control of [pick, seed, steps]) control.disabled = true;
  }

  function say(key, fields) {
    status.textContent = L(key, fields);
  }
  function showError(e) {
    error.hidden = !e;
    error.textContent = e ? e.message : "";
  }
  function buttons() {
    play.textContent = playing ? L("pause") : L("play");
    play.dataset.train = playing ? "pause" : "play";
    play.setAttribute("aria-pressed", String(playing));
    stopButton.disabled = !run?.job || Boolean(run?.done);
    stepButton.disabled = playing || Boolean(run?.done);
  }

  function drawCurvePanels() {
    const e = experiments.find((x) => x.name === run.experiment);
    const stepsAxis = run.points.map((p) => p.step);
    curves.replaceChildren(
      ...(e?.measures ?? []).map((measure) => {
        const series = (e.variants ?? [])
          .map((v, i) => ({ key: `${v}.${measure}`, variant: v, color: SERIES[i % SERIES.length], steps: stepsAxis, values: run.points.map((p) => decodeNumber(p.values[`${v}.${measure}`])) }))
          .filter((s) => s.values.some((x) => Number.isFinite(x)));
        const canvas = h("canvas", { width: CURVE.width * SCALE, height: CURVE.height * SCALE, role: "img", "aria-label": L("curve_aria", { measure: catalog.measure_names?.[measure] ?? measure }) });
        canvas.style.width = `${CURVE.width}px`; // the CSSOM: the page's CSP refuses style attributes
        drawCurves(canvas, curveShapes(series, { steps: run.steps, width: CURVE.width, height: CURVE.height }));
        const last = run.points.at(-1);
        return h("figure", { class: "train-curve", "data-measure": measure }, [
          h("figcaption", {}, [catalog.measure_names?.[measure] ?? measure]),
          canvas,
          h("ul", { class: "train-legend" }, series.map((s) => h("li", {}, [swatch(s.color), `${catalog.variant_names?.[s.variant] ?? s.variant}: `, h("span", { "data-value": s.key }, [last ? num(decodeNumber(last.values[s.key]), 3) : ""])]))),
        ]);
      }),
    );
  }

  function drawCheckpoint() {
    const cks = run?.checkpoints ?? [];
    scrub.max = String(Math.max(0, cks.length - 1));
    scrub.disabled = cks.length === 0;
    if (follow) scrub.value = scrub.max;
    const ck = cks[Number(scrub.value)];
    if (!ck) {
      maps.replaceChildren();
      scrubAt.textContent = "–";
      ckLine.textContent = "";
      return;
    }
    scrubAt.textContent = L("at_step", { step: ck.step, steps: run.steps });
    scrub.setAttribute("aria-valuetext", scrubAt.textContent);
    ckLine.textContent = ck.line;
    maps.replaceChildren(
      ...ck.maps.map((m) => {
        const weights = m.weights.map((r) => r.map(decodeNumber));
        const canvas = h("canvas", { role: "img", "aria-label": L("map_aria", { name: m.name }) });
        drawMap(canvas, mapShapes(weights, m.tokens, { ...MAP, row: m.row }));
        const parts = [h("figcaption", {}, [m.name]), canvas];
        if (m.row !== null && m.row !== undefined) {
          parts.push(h("p", { class: "train-row", "data-row-of": m.name }, [
            `${L("row_of", { word: m.tokens[m.row] })}: `,
            ...m.tokens.flatMap((t, j) => [h("span", { class: "train-cell", "data-key": t }, [`${t} ${num(weights[m.row][j])}`]), j < m.tokens.length - 1 ? " · " : ""]),
          ]));
        }
        return h("figure", { class: "train-map", "data-step": ck.step }, parts);
      }),
    );
  }

  function take(body) {
    run.points.push(...body.points);
    run.checkpoints.push(...body.checkpoints);
    run.done = body.done;
    phase.textContent = body.phase;
    summary.replaceChildren(...body.summary.map((line) => h("li", {}, [line])));
    const at = run.points.at(-1)?.step;
    count.querySelector("output").textContent = at === undefined ? "–" : String(at);
    drawCurvePanels();
    drawCheckpoint();
  }

  async function begin() {
    const mine = ++ticket;
    say("starting");
    const answer = await trainer.start({ experiment: pick.value, steps: Number(steps.value), seed: Number(seed.value) });
    if (!alive || mine !== ticket) return false;
    if (!answer.ok) {
      showError(answer.error);
      say("no_run");
      return false;
    }
    showError(null);
    run = { ...answer.body, points: [], checkpoints: [], done: false };
    follow = true;
    return true;
  }

  async function chunk() {
    if (asking || !run || run.done) return;
    asking = true;
    const mine = ticket;
    const answer = await trainer.next(run.job, Number(speed.value));
    asking = false;
    if (!alive || mine !== ticket || !run) return; // stopped or replaced meanwhile: dropped
    if (!answer.ok) {
      showError(answer.error);
      playing = false;
      return;
    }
    take(answer.body);
    const at = run.points.at(-1)?.step ?? 0;
    if (run.done) {
      playing = false;
      say("finished", { steps: run.steps });
    } else say(playing ? "running" : "paused", { step: at, steps: run.steps });
    buttons();
  }

  async function loop() {
    while (alive && playing && run && !run.done) {
      await chunk();
      if (playing) await new Promise((r) => setTimeout(r, PAUSE_MS[speed.value] ?? 0));
    }
    buttons();
  }

  async function onPlay() {
    if (!trainer) return;
    if (playing) {
      playing = false;
      const at = run?.points.at(-1)?.step ?? 0;
      if (run) say("paused", { step: at, steps: run.steps });
      buttons();
      return;
    }
    if (!run || run.done) {
      if (!(await begin())) return;
    }
    playing = true;
    buttons();
    say("running", { step: run.points.at(-1)?.step ?? 0, steps: run.steps });
    loop();
  }

  async function onStep() {
    if (!trainer || playing || asking) return;
    if (!run || run.done) {
      if (!(await begin())) return;
    }
    await chunk();
  }

  function onStop() {
    if (!run || !run.job) return;
    const job = run.job;
    const at = run.points.at(-1)?.step ?? 0;
    playing = false;
    asking = false;
    ticket += 1; // a chunk still on its way is dropped
    trainer.stop(job);
    run = { ...run, done: true, job: null };
    say("stopped", { step: at });
    buttons();
  }

  function reset() {
    if (run && !run.done && run.job) trainer.stop(run.job);
    playing = false;
    ticket += 1;
    asking = false;
    run = null;
    curves.replaceChildren();
    maps.replaceChildren();
    summary.replaceChildren();
    phase.textContent = "";
    ckLine.textContent = "";
    scrub.disabled = true;
    scrubAt.textContent = "–";
    count.querySelector("output").textContent = "–";
    say("no_run");
    buttons();
  }

  const onPick = () => {
    fresh();
    reset();
  };
  const onScrub = () => {
    follow = Number(scrub.value) === Number(scrub.max);
    drawCheckpoint();
  };
  pick.addEventListener("change", onPick);
  seed.addEventListener("change", reset);
  steps.addEventListener("change", reset);
  play.addEventListener("click", onPlay);
  stepButton.addEventListener("click", onStep);
  stopButton.addEventListener("click", onStop);
  scrub.addEventListener("input", onScrub);
  if (!trainer) say("no_run");
  buttons();

  return () => {
    alive = false;
    playing = false;
    if (run && !run.done && run.job) trainer?.stop(run.job);
    pick.removeEventListener("change", onPick);
    seed.removeEventListener("change", reset);
    steps.removeEventListener("change", reset);
    play.removeEventListener("click", onPlay);
    stepButton.removeEventListener("click", onStep);
    stopButton.removeEventListener("click", onStop);
    scrub.removeEventListener("input", onScrub);
    el.replaceChildren();
  };
}

export default { render };
