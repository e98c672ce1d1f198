// DOM helpers shared by the Real model view's modules (model.js, model_compare.js): elements
// whose text goes in as text nodes, never as markup; a labelled field with its error slot; and
// layout shapes (rect, text, line) painted as SVG.

const SVG = "http://www.w3.org/2000/svg";

/** A DOM element with attributes and children (strings become text nodes, never markup). */
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}

/** A labelled control with an error slot (role alert) that the control names in aria-describedby. */
export function field(id, label, control, extra = []) {
  const err = h("p", { id: `${id}-err`, class: "field-error", role: "alert" });
  control.setAttribute("id", id);
  control.setAttribute("aria-describedby", [`${id}-err`, control.getAttribute("aria-describedby")].filter(Boolean).join(" "));
  return { box: h("div", { class: "field" }, [h("label", { for: id }, [label]), control, err, ...extra]), err };
}

/** An empty <svg> with a role, for paintSVG. */
export function svg(attrs = {}) {
  const node = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

/** Paint layout shapes into an <svg> (rect, text, line): the plot stays crisp and its text is text. */
export function paintSVG(svg, shapes, size) {
  svg.setAttribute("viewBox", `0 0 ${size.width} ${size.height}`);
  svg.setAttribute("width", String(size.width));
  svg.setAttribute("height", String(size.height));
  const nodes = [];
  for (const s of shapes) {
    let n;
    if (s.kind === "rect") {
      n = document.createElementNS(SVG, "rect");
      for (const k of ["x", "y"]) n.setAttribute(k, String(s[k]));
      n.setAttribute("width", String(s.w));
      n.setAttribute("height", String(s.h));
      if (s.radius) n.setAttribute("rx", String(s.radius));
      n.setAttribute("fill", s.fill ?? "none");
      if (s.stroke) n.setAttribute("stroke", s.stroke);
    } else if (s.kind === "line") {
      n = document.createElementNS(SVG, "line");
      for (const k of ["x1", "y1", "x2", "y2"]) n.setAttribute(k, String(s[k]));
      n.setAttribute("stroke", s.color);
      n.setAttribute("stroke-width", String(s.width));
    } else if (s.kind === "text") {
      n = document.createElementNS(SVG, "text");
      n.setAttribute("x", String(s.x));
      n.setAttribute("y", String(s.y));
      n.setAttribute("font-size", String(s.size));
      n.setAttribute("fill", s.color ?? "#1d1d2b");
      if (s.weight) n.setAttribute("font-weight", s.weight);
      n.setAttribute("text-anchor", { center: "middle", right: "end" }[s.align] ?? "start");
      if (s.role) n.setAttribute("class", s.role);
      n.textContent = s.text;
    } else continue;
    nodes.push(n);
  }
  svg.replaceChildren(...nodes);
}
