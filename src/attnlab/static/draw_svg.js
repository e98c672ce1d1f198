// Paints layout.js's (or model_layout.js's, with its "strip" of coloured cells) shapes as one SVG document: the second drawer of the
// same shapes draw.js paints on the canvas, so the picture and the file cannot disagree. Text is
// real <text>, in the canvas's fonts and sizes; the ray follows draw.js's rayPath. The finished
// beat only (t = 1): an exported picture does not animate.
//
// Pure: a string out, no DOM. A text the canvas squeezes into its maxWidth is squeezed the same
// way (textLength) when `measure` says it is wider, as the canvas measures it.

import { COLORS } from "./colors.js";
import { MONO, SANS, rayPath } from "./draw.js";

const ANCHOR = { left: "start", start: "start", center: "middle", right: "end", end: "end" };

/** @param {string} text */
export function escapeXML(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A number for an attribute: at most 2 decimals, no "-0". @param {number} x */
const n = (x) => {
  const r = Math.round(x * 100) / 100;
  return Object.is(r, -0) ? "0" : String(r);
};

/** @param {Record<string, string | number | undefined | null>} attrs */
function attributes(attrs) {
  return Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => ` ${k}="${escapeXML(typeof v === "number" ? n(v) : v)}"`)
    .join("");
}

/** The font of a text shape, as the canvas's `ctx.font`. */
export function fontOf(s) {
  return `${s.weight ?? "400"} ${s.size}px ${s.mono ? MONO : SANS}`;
}

function rect(r) {
  return `<rect${attributes({
    x: r.x, y: r.y, width: Math.max(0, r.w), height: Math.max(0, r.h), rx: r.radius || undefined,
    fill: r.fill ?? "none", stroke: r.stroke, "stroke-width": r.stroke ? (r.lineWidth ?? 1) : undefined,
    "stroke-dasharray": r.stroke && r.dash?.length ? r.dash.join(" ") : undefined,
  })}/>`;
}

function text(s, measure) {
  const wide = s.maxWidth && s.maxWidth > 0 && measure ? measure(s.text, fontOf(s)) : 0;
  const squeeze = wide > s.maxWidth ? { textLength: s.maxWidth, lengthAdjust: "spacingAndGlyphs" } : {};
  return `<text${attributes({
    x: s.x, y: s.y, "font-family": s.mono ? MONO : SANS, "font-size": s.size, "font-weight": s.weight ?? "400",
    fill: s.color ?? COLORS.ink, "text-anchor": ANCHOR[s.align ?? "left"] ?? "start", ...squeeze,
  })} xml:space="preserve">${escapeXML(s.text)}</text>`;
}

function line(l) {
  return `<line${attributes({ x1: l.x1, y1: l.y1, x2: l.x2, y2: l.y2, stroke: l.color, "stroke-width": l.width })}/>`;
}

/** A vector as a row of equal cells, one colour each (model_layout.js's "strip"). */
function strip(s) {
  const w = s.w / Math.max(1, s.colors.length);
  const cells = s.colors.map((c, k) => `<rect${attributes({ x: s.x + k * w, y: s.y, width: w, height: s.h, fill: c })}/>`);
  return `<g shape-rendering="crispEdges">${cells.join("")}</g>`;
}

function ray(r) {
  const { points, head } = rayPath(r, 1);
  const d = points.map(([x, y], k) => `${k ? "L" : "M"}${n(x)} ${n(y)}`).join(" ");
  const path = `<path${attributes({ d, fill: "none", stroke: r.color, "stroke-width": r.width, "stroke-linecap": "round" })}/>`;
  const tip = head ? `<polygon${attributes({ points: head.map(([x, y]) => `${n(x)},${n(y)}`).join(" "), fill: r.color })}/>` : "";
  return path + tip;
}

/**
 * The shapes as an SVG document of width × height CSS pixels.
 * @param {import("./layout.js").Shape[]} shapes
 * @param {{width: number, height: number}} size
 * @param {{title?: string, description?: string, measure?: (text: string, font: string) => number}} [options]
 *   `title`, `description`: the picture's accessible name and description; `measure`: a text's
 *   width in a font (the canvas's measureText), for the texts the canvas squeezes
 */
export function drawSVG(shapes, size, { title = "", description = "", measure } = {}) {
  const body = [];
  for (const shape of shapes) {
    if (shape.until !== undefined && shape.until <= 1) continue; // gone by the beat's end, as on the canvas
    if (shape.kind === "rect") body.push(rect(shape));
    else if (shape.kind === "text") body.push(text(shape, measure));
    else if (shape.kind === "line") body.push(line(shape));
    else if (shape.kind === "ray") body.push(ray(shape));
    else if (shape.kind === "strip") body.push(strip(shape));
  }
  const head = [title ? `<title>${escapeXML(title)}</title>` : "", description ? `<desc>${escapeXML(description)}</desc>` : ""].join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(size.width)}" height="${n(size.height)}" viewBox="0 0 ${n(size.width)} ${n(size.height)}" role="img">` +
    `${head}\n${body.join("\n")}\n</svg>\n`
  );
}
