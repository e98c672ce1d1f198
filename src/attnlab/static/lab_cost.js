// The lab's Cost panel: time and memory of one attention head against n, from /api/cost,
// on log-log axes with the API's fitted a + c·n² curve dashed over the measured dots.
//
// The measurement takes seconds, so it runs in stages (n up to 64, 256, 1024, 2048), each one
// request, and the plot and a progress bar follow each stage.

import { h } from "./dom.js";
import { getJSON } from "./http.js";
import { card, figure, legend, svgPlot } from "./lab_dom.js";
import { bytes, extent, seconds } from "./plots.js";

const STAGES = [64, 256, 1024, 2048];

/**
 * The Cost card (a region named "Cost").
 * @param {string} id a prefix for element ids
 * @param {string} base the API's address ("" on the page itself)
 * @returns {HTMLElement}
 */
export function costPanel(id, base) {
  const measureButton = h("button", { type: "button", class: "primary" }, ["Measure the cost"]);
  const progress = h("progress", { max: STAGES.length, value: 0, hidden: true, "aria-label": "Measuring progress" });
  const status = h("p", { class: "lab-note", role: "status" });
  const plots = h("div", { class: "plots" });
  /** @type {Record<string, any> | null} */
  let data = null;

  async function measure() {
    measureButton.disabled = true;
    progress.hidden = false;
    progress.value = 0;
    for (const [k, maxN] of STAGES.entries()) {
      status.textContent = `Measuring n = 4 to ${maxN}… (${k + 1} of ${STAGES.length})`;
      const answer = await getJSON(`${base}/api/cost?max_n=${maxN}`);
      if (!answer.ok) {
        status.textContent = `The measurement failed: ${answer.error.message}`;
        break;
      }
      data = answer.body;
      progress.value = k + 1;
      draw();
    }
    if (data && progress.value === STAGES.length) {
      const pts = data.points;
      status.textContent = `Measured ${pts.length} sizes, n = ${pts[0].n} to ${pts[pts.length - 1].n}, d = ${data.d}. Dots: measured; dashed: the fit a + c·n². Times jump when the machine is busy; memory is the steadier line.`;
    }
    measureButton.disabled = false;
    measureButton.textContent = "Measure again";
    progress.hidden = true;
  }

  function draw() {
    const pts = data.points;
    const curve = data.curve;
    const ns = pts.map((p) => p.n);
    const x = { domain: [Math.min(...ns), Math.max(...ns)], log: true, label: "tokens n" };
    const size = { width: 340, height: 220 };
    const one = (key, label, format, color) => {
      const ys = [...pts.map((p) => p[key]), ...curve.map((p) => p[key])];
      const series = [
        { name: `measured ${label}`, color, points: pts.map((p) => [p.n, p[key]]), dots: true, width: 1 },
        { name: "fit a + c·n²", color: "#5b5b70", dash: [5, 4], points: curve.map((p) => [p.n, p[key]]) },
      ];
      const name = `${label} against n, measured, with the n² fit`;
      const y = { domain: extent(ys, { log: true }), log: true, label, format };
      return figure(name, [svgPlot({ x, y, series }, size, name), legend(series)], size.width);
    };
    plots.replaceChildren(one("seconds", "time per head", seconds, "#0072b2"), one("bytes", "memory", bytes, "#d55e00"));
  }

  measureButton.addEventListener("click", measure);
  return card(`${id}-cost`, "Cost", "lab.cost.help", [
      h("div", { class: "inline-row" }, [measureButton, progress]),
      status,
      plots,
    ], { region: true });
}
