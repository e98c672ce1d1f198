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
