// Paints layout.js's shapes on a 2D canvas at animation time t in [0, 1]. Canvas calls only:
// no layout decisions and no numbers of its own. A shape appears at its `at` and fades in over
// FADE; the violet ray grows along its arc over `dur`. t = 1 paints the finished beat.
// draw_svg.js paints the same shapes as SVG elements, the ray along the same rayPath.

import { COLORS } from "./colors.js";

const FADE = 0.12;
export const SANS = "system-ui, 'DejaVu Sans', sans-serif";
export const MONO = "ui-monospace, 'DejaVu Sans Mono', monospace";

/** @param {number} x */
const clamp01 = (x) => Math.min(1, Math.max(0, x));

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {import("./layout.js").Shape[]} shapes
 * @param {number} t animation time, 0..1
 * @param {{width: number, height: number, ratio: number}} size CSS pixels and device pixel ratio
 */
export function draw(ctx, shapes, t, size) {
  ctx.setTransform(size.ratio, 0, 0, size.ratio, 0, 0);
  ctx.clearRect(0, 0, size.width, size.height);
  for (const shape of shapes) {
    const at = shape.at ?? 0;
    const alpha = t >= 1 ? 1 : clamp01((t - at) / FADE);
    if (alpha <= 0 || (shape.until !== undefined && t >= shape.until)) continue;
    ctx.globalAlpha = alpha;
    if (shape.kind === "rect") rect(ctx, shape);
    else if (shape.kind === "text") text(ctx, shape);
    else if (shape.kind === "line") line(ctx, shape);
    else if (shape.kind === "ray") ray(ctx, shape, t >= 1 ? 1 : clamp01((t - at) / (shape.dur ?? 0.3)));
  }
  ctx.globalAlpha = 1;
}

/**
 * A message in place of the picture (an error, or "loading"), so the canvas is never blank.
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} message
 * @param {{width: number, height: number, ratio: number}} size
 */
export function drawMessage(ctx, message, size) {
  ctx.setTransform(size.ratio, 0, 0, size.ratio, 0, 0);
  ctx.clearRect(0, 0, size.width, size.height);
  ctx.fillStyle = COLORS.paper;
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.fillStyle = COLORS.ink;
  ctx.font = `15px ${SANS}`;
  ctx.textAlign = "left";
  const words = message.split(/\s+/);
  const lines = [];
  let current = "";
  for (const word of words) {
    const next = current ? `${current} ${word}` : word;
    if (ctx.measureText(next).width > size.width - 40 && current) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current) lines.push(current);
  lines.slice(0, 12).forEach((l, k) => ctx.fillText(l, 20, 40 + k * 22));
}

function rect(ctx, r) {
  ctx.beginPath();
  if (r.radius && ctx.roundRect) ctx.roundRect(r.x, r.y, r.w, r.h, r.radius);
  else ctx.rect(r.x, r.y, r.w, r.h);
  if (r.fill) {
    ctx.fillStyle = r.fill;
    ctx.fill();
  }
  if (r.stroke) {
    ctx.strokeStyle = r.stroke;
    ctx.lineWidth = r.lineWidth ?? 1;
    ctx.setLineDash(r.dash ?? []);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

function text(ctx, s) {
  ctx.font = `${s.weight ?? "400"} ${s.size}px ${s.mono ? MONO : SANS}`;
  ctx.fillStyle = s.color ?? COLORS.ink;
  ctx.textAlign = s.align ?? "left";
  ctx.textBaseline = "alphabetic";
  if (s.maxWidth && s.maxWidth > 0) ctx.fillText(s.text, s.x, s.y, s.maxWidth);
  else ctx.fillText(s.text, s.x, s.y);
}

function line(ctx, l) {
  ctx.beginPath();
  ctx.moveTo(l.x1, l.y1);
  ctx.lineTo(l.x2, l.y2);
  ctx.strokeStyle = l.color;
  ctx.lineWidth = l.width;
  ctx.stroke();
}

/** The point at u along the ray's arc (a loop when it starts and ends at the same token); the
 * SVG drawer (draw_svg.js) follows the same arc. */
export function arcPoint(r, u) {
  if (Math.abs(r.x2 - r.x1) < 1) {
    const rad = Math.min(r.lift / 2, 18);
    const a = Math.PI / 2 + 0.35 + u * (2 * Math.PI - 0.7);
    return [r.x1 + rad * Math.cos(a), r.y1 - rad + rad * Math.sin(a)];
  }
  const cx = (r.x1 + r.x2) / 2;
  const cy = Math.min(r.y1, r.y2) - 2 * r.lift;
  const x = (1 - u) ** 2 * r.x1 + 2 * (1 - u) * u * cx + u ** 2 * r.x2;
  const y = (1 - u) ** 2 * r.y1 + 2 * (1 - u) * u * cy + u ** 2 * r.y2;
  return [x, y];
}

/**
 * The ray drawn up to `progress` (0..1): the points of its arc, and once whole its arrowhead's
 * three corners, pointing along the arc's last step.
 * @returns {{points: [number, number][], head: [number, number][] | null}}
 */
export function rayPath(r, progress) {
  const steps = 40;
  const last = Math.max(1, Math.round(steps * progress));
  const points = [arcPoint(r, 0)];
  for (let k = 1; k <= last; k++) points.push(arcPoint(r, k / steps));
  if (progress < 1) return { points, head: null };
  const tip = points[points.length - 1];
  const prev = points[points.length - 2] ?? tip;
  const ang = Math.atan2(tip[1] - prev[1], tip[0] - prev[0]);
  const len = r.width * 2.8;
  const head = [
    [tip[0] + Math.cos(ang) * len * 0.4, tip[1] + Math.sin(ang) * len * 0.4],
    [tip[0] - Math.cos(ang - 0.45) * len, tip[1] - Math.sin(ang - 0.45) * len],
    [tip[0] - Math.cos(ang + 0.45) * len, tip[1] - Math.sin(ang + 0.45) * len],
  ];
  return { points, head };
}

function ray(ctx, r, progress) {
  if (progress <= 0) return;
  const { points, head } = rayPath(r, progress);
  ctx.beginPath();
  ctx.strokeStyle = r.color;
  ctx.lineWidth = r.width;
  ctx.lineCap = "round";
  ctx.moveTo(points[0][0], points[0][1]);
  for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
  ctx.stroke();
  if (head) {
    ctx.beginPath();
    ctx.moveTo(head[0][0], head[0][1]);
    ctx.lineTo(head[1][0], head[1][1]);
    ctx.lineTo(head[2][0], head[2][1]);
    ctx.closePath();
    ctx.fillStyle = r.color;
    ctx.fill();
  }
  ctx.lineCap = "butt";
}
