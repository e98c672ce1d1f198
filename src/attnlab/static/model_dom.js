// The Real model view's own DOM helpers (model.js, model_compare.js; the element builders are
// dom.js's): a labelled field with its error slot, and layout shapes (rect, text, line, polyline) painted
// as SVG.

import { COLORS } from "./colors.js";
import { h, s as svgNode } from "./dom.js";

/**
 * A labelled control with an error slot (role alert) that the control names in aria-describedby;
 * `label` is a key of the page's words (dom.fillWords fills it in).
 */
export function field(id, label, control, extra = []) {
  const err = h("p", { id: `${id}-err`, class: "field-error", role: "alert" });
  control.setAttribute("id", id);
  control.setAttribute("aria-describedby", [`${id}-err`, control.getAttribute("aria-describedby")].filter(Boolean).join(" "));
  return { box: h("div", { class: "field" }, [h("label", { for: id, "data-words": label }), control, err, ...extra]), err };
}

/** Paint layout shapes into an <svg> (rect, text, line, polyline): the plot stays crisp and its text is text. */
export function paintSVG(svg, shapes, size) {
  svg.setAttribute("viewBox", `0 0 ${size.width} ${size.height}`);
  svg.setAttribute("width", String(size.width));
  svg.setAttribute("height", String(size.height));
  const nodes = [];
  for (const s of shapes) {
    let n;
    if (s.kind === "rect") {
      n = svgNode("rect");
      for (const k of ["x", "y"]) n.setAttribute(k, String(s[k]));
      n.setAttribute("width", String(s.w));
      n.setAttribute("height", String(s.h));
      if (s.radius) n.setAttribute("rx", String(s.radius));
      n.setAttribute("fill", s.fill ?? "none");
      if (s.stroke) n.setAttribute("stroke", s.stroke);
    } else if (s.kind === "line") {
      n = svgNode("line");
      for (const k of ["x1", "y1", "x2", "y2"]) n.setAttribute(k, String(s[k]));
      n.setAttribute("stroke", s.color);
      n.setAttribute("stroke-width", String(s.width));
    } else if (s.kind === "polyline") {
      n = svgNode("polyline");
      n.setAttribute("points", s.points.map(([x, y]) => `${x},${y}`).join(" "));
      n.setAttribute("fill", "none");
      n.setAttribute("stroke", s.color);
      n.setAttribute("stroke-width", String(s.width));
      if (s.role) n.setAttribute("class", s.role);
    } else if (s.kind === "text") {
      n = svgNode("text");
      n.setAttribute("x", String(s.x));
      n.setAttribute("y", String(s.y));
      n.setAttribute("font-size", String(s.size));
      n.setAttribute("fill", s.color ?? COLORS.ink);
      if (s.weight) n.setAttribute("font-weight", s.weight);
      n.setAttribute("text-anchor", { center: "middle", right: "end" }[s.align] ?? "start");
      if (s.role) n.setAttribute("class", s.role);
      n.textContent = s.text;
    } else continue;
    nodes.push(n);
  }
  svg.replaceChildren(...nodes);
}
