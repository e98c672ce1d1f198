// Text placement for the pictures (layout.js, layout_matrix.js): a rough width and line breaks.
//
// Pure: no DOM, no canvas. The drawer measures nothing back, so placement works from the
// characters' count and the font size.

/** A rough text width for placement (the drawer measures nothing back). */
export function textWidth(text, size, mono = false) {
  return text.length * size * (mono ? 0.62 : 0.56);
}

/** Words broken into lines no wider than `width` (by the rough text width). */
export function wrap(text, size, width) {
  const lines = [];
  let current = "";
  for (const word of text.split(" ")) {
    const next = current ? `${current} ${word}` : word;
    if (current && textWidth(next, size) > width) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current) lines.push(current);
  return lines;
}

/** The smallest text a picture writes, in CSS pixels: readable on a phone. */
export const MIN_FONT = 11;

/** `text` cut with an ellipsis to fit `width` at `size` (by the rough width); whole if it fits. */
export function fitText(text, size, width, mono = false) {
  if (textWidth(text, size, mono) <= width) return text;
  let cut = text;
  while (cut.length > 1 && textWidth(`${cut}…`, size, mono) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The lowest baseline (plus a descent) of the text shapes, and the bottom of the rects. */
export function textBottom(shapes) {
  let y = 0;
  for (const sh of shapes) {
    if (sh.kind === "text") y = Math.max(y, sh.y + sh.size * 0.3);
    else if (sh.kind === "rect" && !(sh.x === 0 && sh.y === 0)) y = Math.max(y, sh.y + sh.h);
  }
  return y;
}

/**
 * The text box of a text shape, by the rough width: {x, y, w, h} in CSS pixels.
 * @param {{x: number, y: number, text: string, size: number, align?: string, mono?: boolean}} t
 */
export function textBox(t) {
  const w = textWidth(t.text, t.size, t.mono);
  const x = t.align === "center" ? t.x - w / 2 : t.align === "right" || t.align === "end" ? t.x - w : t.x;
  return { x, y: t.y - t.size * 0.8, w, h: t.size * 1.1 };
}

/**
 * What is wrong with a picture's text: each text shape that is smaller than `minSize`, wider
 * than its maxWidth (the canvas would squeeze it), or that reaches outside the canvas.
 * @param {import("./layout.js").Shape[]} shapes
 * @param {{width: number, height: number}} size
 * @param {{minSize?: number, slack?: number}} [options] slack: pixels of tolerance
 * @returns {{text: string, problem: "small" | "squeezed" | "outside", box: {x: number, y: number, w: number, h: number}}[]}
 */
export function textProblems(shapes, size, { minSize = MIN_FONT, slack = 1 } = {}) {
  const out = [];
  for (const t of shapes) {
    if (t.kind !== "text" || !t.text) continue;
    const box = textBox(t);
    if (t.size < minSize) out.push({ text: t.text, problem: "small", box });
    else if (t.maxWidth && box.w > t.maxWidth + slack) out.push({ text: t.text, problem: "squeezed", box });
    else if (box.x < -slack || box.x + box.w > size.width + slack || box.y < -slack || box.y + box.h > size.height + slack) {
      out.push({ text: t.text, problem: "outside", box });
    }
  }
  return out;
}
