// The lab's Cost panel: time and memory of one attention head against n, asked of the host
// (`ask("cost", ...)`: the page's /api/cost or the notebook's kernel), on log-log axes with the
// fitted a + c·n² curve dashed over the measured dots.
//
// The measurement takes seconds, so it runs in stages, each one request, and the plot and a
// progress bar follow each stage: n up to 64, then four times as far each stage, up to /api/lab's
// cost.default_max_n (in the model's "lab"). The last stage also asks for the key/value cache
// (kv_cache=true): one more token after n, the n × n matrix recomputed against one new row on
// the cached keys, both measured by the API; a third plot and a table show them side by side.
// Every sentence is the page's words (lab.cost.*). The staged asking (measureInStages) is apart
// from the card and the figures, so Node's tests drive it with a host's fake `ask`.

import { PLOT } from "./colors.js";
import { h } from "./dom.js";
import { num } from "./format.js";
import { card, figure, legend, svgPlot } from "./lab_dom.js";
import { bytes, extent, seconds } from "./plots.js";
import { say } from "./words.js";

/**
 * The largest n of each stage: 64, 256, ... (four times each stage) and then `last`.
 * @param {number} last the measurement's largest n (/api/lab cost.default_max_n)
 */
export function costStages(last) {
  const stages = [];
  for (let n = 64; n < last; n *= 4) stages.push(n);
  return [...stages, last];
}

/**
 * The key/value-cache plot's spec from /api/cost's kv_cache (pure: no DOM), time against n
 * on log-log axes, one series per way of computing one more token.
 * @param {{points: {n: number, recompute_seconds: number, cached_seconds: number}[]}} kv
 * @param {{n: string, time: string, recompute: string, cached: string}} labels
 * @returns {import("./plots.js").PlotSpec}
 */
export function kvCacheSpec(kv, labels) {
  const ns = kv.points.map((p) => p.n);
  const ys = kv.points.flatMap((p) => [p.recompute_seconds, p.cached_seconds]);
  return {
    x: { domain: [Math.min(...ns), Math.max(...ns)], log: true, label: labels.n },
    y: { domain: extent(ys, { log: true }), log: true, label: labels.time, format: seconds },
    series: [
      { name: labels.recompute, color: PLOT.recompute, dots: true, points: kv.points.map((p) => [p.n, p.recompute_seconds]) },
      { name: labels.cached, color: PLOT.cached, dots: true, dash: [5, 3], points: kv.points.map((p) => [p.n, p.cached_seconds]) },
    ],
  };
}

/**
 * Ask `ask("cost", ...)` stage by stage (the last also for the key/value cache), telling
 * `onStage` before each and `onAnswer` after each good answer; a refusal ends it.
 * @param {(route: string, params: Record<string, any>) => Promise<any>} ask the host's
 * @param {number[]} stages costStages's
 * @param {{onStage: (k: number, maxN: number) => void, onAnswer: (body: any, k: number) => void}} tell
 * @returns {Promise<{body: any, done: number, error: {message: string} | null}>} the last good
 *   answer, how many stages answered, and the refusal that ended it
 */
export async function measureInStages(ask, stages, { onStage, onAnswer }) {
  let body = null;
  for (const [k, maxN] of stages.entries()) {
    onStage(k, maxN);
    const answer = await ask("cost", { max_n: maxN, kv_cache: k === stages.length - 1 });
    if (!answer.ok) return { body, done: k, error: answer.error };
    body = answer.body;
    onAnswer(body, k);
  }
  return { body, done: stages.length, error: null };
}

const PLOT_SIZE = { width: 340, height: 220 };

/** One measured quantity (`key` of /api/cost's points) against n, the fitted curve dashed. */
function costFigure(data, key, label, format, color, words) {
  const { points: pts, curve } = data;
  const ns = pts.map((p) => p.n);
  const x = { domain: [Math.min(...ns), Math.max(...ns)], log: true, label: say(words, "lab.cost.n_axis") };
  const ys = [...pts.map((p) => p[key]), ...curve.map((p) => p[key])];
  const series = [
    { name: say(words, "lab.cost.measured_series", { what: label }), color, points: pts.map((p) => [p.n, p[key]]), dots: true, width: 1 },
    { name: say(words, "lab.cost.fit"), color: PLOT.fit, dash: [5, 4], points: curve.map((p) => [p.n, p[key]]) },
  ];
  const name = say(words, "lab.cost.plot", { what: label });
  const y = { domain: extent(ys, { log: true }), log: true, label, format };
  return figure(name, [svgPlot({ x, y, series }, PLOT_SIZE, name), legend(series)], PLOT_SIZE.width);
}

/** The key/value-cache plot, its legend, the measured numbers and what they mean. */
function kvFigure(kv, words) {
  const w = (key, vars) => say(words, `lab.cost.${key}`, vars);
  const spec = kvCacheSpec(kv, { n: w("n_axis"), time: w("kv_time"), recompute: w("kv_recompute"), cached: w("kv_cached") });
  const name = w("kv_plot");
  const head = [w("kv_n"), w("kv_col_recompute"), w("kv_col_cached"), w("kv_ratio"), w("kv_flop_ratio")];
  const rows = kv.points.map((p) =>
    h("tr", {}, [
      h("th", { scope: "row" }, [String(p.n)]),
      h("td", {}, [seconds(p.recompute_seconds)]),
      h("td", {}, [seconds(p.cached_seconds)]),
      h("td", {}, [w("kv_times", { ratio: num(p.ratio, 0) })]),
      h("td", {}, [w("kv_times", { ratio: num(p.flop_ratio, 0) })]),
    ]),
  );
  const table = h("table", { class: "lab-table", "aria-label": w("kv_table") }, [
    h("thead", {}, [h("tr", {}, head.map((t) => h("th", { scope: "col" }, [t])))]),
    h("tbody", {}, rows),
  ]);
  const caption = h("figcaption", {}, [w("kv_caption", { cached: kv.model.cached_flops, recompute: kv.model.recompute_flops, d: kv.d })]);
  return figure(name, [svgPlot(spec, PLOT_SIZE, name), legend(spec.series), table, caption], PLOT_SIZE.width);
}

/** Every figure of one /api/cost answer: time, memory and, once measured, the key/value cache. */
function costFigures(data, words) {
  return [
    costFigure(data, "seconds", say(words, "lab.cost.time"), seconds, PLOT.time, words),
    costFigure(data, "bytes", say(words, "lab.cost.memory"), bytes, PLOT.memory, words),
    ...(data.kv_cache ? [kvFigure(data.kv_cache, words)] : []),
  ];
}

/**
 * The Cost card (a region named by its title): a panel, {el, update(state), dispose()}.
 * @param {string} id a prefix for element ids
 * @param {{model: any, ask?: (route: string, params: Record<string, any>) => Promise<any>}} host
 *   the lab's model ("lab", "words"); `ask` the host's lab questions (lab_state.js ASK_ROUTES):
 *   without one the button stays disabled
 */
export function costPanel(id, { model, ask }) {
  const words = () => model.get("words");
  const measureButton = h("button", { type: "button", class: "primary", "data-words": "lab.cost.measure" });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "data-words-label": "lab.cost.progress" });
  const status = h("p", { class: "lab-note", role: "status" });
  const plots = h("div", { class: "plots" });

  async function measure() {
    const limits = model.get("lab")?.cost;
    if (!limits || !ask) return;
    const stages = costStages(limits.default_max_n);
    measureButton.disabled = true;
    Object.assign(progress, { hidden: false, max: stages.length, value: 0 });
    const { body, done, error } = await measureInStages(ask, stages, {
      onStage: (k, maxN) => (status.textContent = say(words(), "lab.cost.measuring", { max_n: maxN, number: k + 1, count: stages.length })),
      onAnswer: (data, k) => {
        progress.value = k + 1;
        plots.replaceChildren(...costFigures(data, words()));
      },
    });
    if (error) status.textContent = say(words(), "lab.cost.failed", { error: error.message });
    else if (body && done === stages.length) {
      const pts = body.points;
      status.textContent = say(words(), "lab.cost.measured", { count: pts.length, min_n: pts[0].n, max_n: pts[pts.length - 1].n, d: body.d });
    }
    measureButton.disabled = false;
    measureButton.setAttribute("data-words", "lab.cost.again");
    measureButton.textContent = say(words(), "lab.cost.again");
    progress.hidden = true;
  }

  measureButton.addEventListener("click", measure);
  measureButton.disabled = !ask;
  const el = card(`${id}-cost`, "lab.cost.title", "lab.cost.help", [
      h("div", { class: "inline-row" }, [measureButton, progress]),
      status,
      plots,
    ], { region: true });
  return {
    el,
    keys: [],
    update() {}, // it shows what the learner asked it to measure, and nothing of the lesson
    dispose: () => measureButton.removeEventListener("click", measure),
  };
}
