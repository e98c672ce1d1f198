// The step picture's "strip" shapes (a vector, one colour per entry; model_layout.js) painted
// over what draw.js painted: each strip a one-pixel-high image scaled to its box, one
// drawImage instead of 384 rects. The image goes through one scratch canvas per length
// (drawImage copies it at once): a new canvas and context for each of a head's 17 strips took
// about 10 ms of a 2,048-token head switch (Chrome's profiler). Faded in from its `at` like
// draw.js's shapes.

import { rgb } from "./colors.js";

const stripPixels = new WeakMap(); // strip shape -> its ImageData, kept for the animation's frames
const stripCanvases = new Map(); // strip length -> one scratch canvas, shared by every strip
const rgbOf = new Map(); // "#rrggbb" -> [r, g, b]: a strip's colours repeat across strips

/** The pixels of a strip, one per entry (its colours parsed once per colour). */
function stripImage(colors) {
  const data = new ImageData(colors.length, 1);
  colors.forEach((c, k) => {
    let channels = rgbOf.get(c);
    if (!channels) {
      channels = rgb(c);
      rgbOf.set(c, channels);
    }
    data.data.set(channels, 4 * k);
    data.data[4 * k + 3] = 255;
  });
  return data;
}

/** Paint the strips among `shapes` at animation time `t` (1: finished). */
export function paintStrips(ctx, shapes, t) {
  ctx.imageSmoothingEnabled = false;
  for (const s of shapes) {
    if (s.kind !== "strip" || !s.colors.length) continue;
    const alpha = t >= 1 ? 1 : Math.min(1, Math.max(0, (t - (s.at ?? 0)) / 0.12));
    if (alpha <= 0) continue;
    let pixels = stripPixels.get(s);
    if (!pixels) {
      pixels = stripImage(s.colors);
      stripPixels.set(s, pixels);
    }
    let scratch = stripCanvases.get(pixels.width);
    if (!scratch) {
      scratch = document.createElement("canvas");
      scratch.width = pixels.width;
      scratch.height = 1;
      stripCanvases.set(pixels.width, scratch);
    }
    scratch.getContext("2d").putImageData(pixels, 0, 0);
    ctx.globalAlpha = alpha;
    ctx.drawImage(scratch, 0, 0, pixels.width, 1, s.x, s.y, s.w, s.h);
  }
  ctx.globalAlpha = 1;
}
