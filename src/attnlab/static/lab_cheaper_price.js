// The Cheaper attention section's price card: each form's peak memory and time against n,
// measured when asked (`ask("price", {})`: /api/cheaper/price or the notebook's kernel), on
// log-log axes: the n × n form, FlashAttention's tiles and linear attention. The numbers and the
// sentence under the plots are the answer's (core/cheaper_cost.py, words/cheaper_words.py).

import { SERIES } from "./colors.js";
import { h } from "./dom.js";
import { card, figure, legend, svgPlot } from "./lab_dom.js";
import { bytes, extent, seconds } from "./plots.js";
import { say } from "./words.js";

const SIZE = { width: 340, height: 220 };
const FORMS = [["exact", SERIES[5], null], ["tiled", SERIES[0], [5, 3]], ["linear", SERIES[2], [2, 3]]];

/**
 * The plot's spec of one quantity of /api/cheaper/price (pure).
 * @param {{points: Record<string, number>[]}} price
 * @param {"bytes" | "seconds"} what
 * @param {Record<string, string>} labels n, the y label, and each form's name by form
 */
export function priceSpec(price, what, labels) {
  const ns = price.points.map((p) => p.n);
  const ys = price.points.flatMap((p) => FORMS.map(([f]) => p[`${f}_${what}`]));
  return {
    x: { domain: [Math.min(...ns), Math.max(...ns)], log: true, label: labels.n },
    y: { domain: extent(ys, { log: true }), log: true, label: labels.y, format: what === "bytes" ? bytes : seconds },
    series: FORMS.map(([f, color, dash]) => ({ name: labels[f], color, dash, dots: true, points: price.points.map((p) => [p.n, p[`${f}_${what}`]]) })),
  };
}

/**
 * @param {string} id
 * @param {(() => any)} words the page's words, read when drawn
 * @param {((route: string, params: Record<string, any>) => Promise<any>) | undefined} ask
 */
export function priceCard(id, words, ask) {
  const button = h("button", { type: "button", class: "primary", "data-words": "lab.cheaper.price.measure" });
  const status = h("p", { class: "lab-note", role: "status" });
  const plots = h("div", { class: "plots" });
  button.disabled = !ask;

  let timer = null;
  async function measure() {
    button.disabled = true;
    const started = Date.now();
    const tick = () => (status.textContent = say(words(), "lab.cheaper.price.measuring", { seconds: Math.round((Date.now() - started) / 1000) }));
    tick();
    timer = setInterval(tick, 1000); // the route answers once, at the end: the seconds show it is at work
    const got = await ask("price", {});
    clearInterval(timer);
    button.disabled = false;
    if (!got.ok) return (status.textContent = got.error.message);
    const w = (key) => say(words(), `lab.cheaper.price.${key}`);
    const labels = { n: w("n"), exact: w("exact"), tiled: w("tiled"), linear: w("linear") };
    plots.replaceChildren(
      ...[["bytes", w("memory")], ["seconds", w("time")]].map(([what, y]) => {
        const spec = priceSpec(got.body, what, { ...labels, y });
        return figure(y, [svgPlot(spec, SIZE, y), legend(spec.series)], SIZE.width);
      }),
    );
    status.textContent = got.body.text;
  }

  button.addEventListener("click", measure);
  const el = card(`${id}-cheaper-price`, "lab.cheaper.price.title", "lab.cheaper.price.help", [h("div", { class: "inline-row" }, [button]), status, plots], { region: true });
  return {
    el,
    dispose() {
      clearInterval(timer);
      button.removeEventListener("click", measure);
    },
  };
}
