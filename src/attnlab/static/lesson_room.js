// The lesson picture's geometry that is not the layout's: the room the canvas takes, and what a
// click on the laid-out picture picks. Pure (no DOM): lesson_picture.js measures and paints.

/** The least room the picture's layout is drawn in while presenting (CSS pixels); less is scaled. */
export const PRESENT_MIN = Object.freeze({ width: 480, height: 380 });

/**
 * The canvas' size in CSS pixels and its zoom (CSS pixels per layout pixel). Presenting, the
 * picture fills the room present.css gives it, and a room smaller than PRESENT_MIN (a projector
 * at 200 % zoom) draws the layout at PRESENT_MIN, scaled down; null while that room is empty.
 * On the page, the width is the room's (at least 240) and the height fits under the controls,
 * or on a phone the height the sentence needs.
 * @param {{presenting: boolean, box: {width: number, height: number}, windowHeight: number, n: number}} room
 *   `box` the canvas wrapper's whole CSS pixels; `n` the tokens
 * @returns {{width: number, height: number, zoom: number} | null}
 */
export function pictureRoom({ presenting, box, windowHeight, n }) {
  if (presenting) {
    if (box.width <= 0 || box.height <= 0) return null;
    return { ...box, zoom: Math.min(1, box.width / PRESENT_MIN.width, box.height / PRESENT_MIN.height) };
  }
  const width = Math.max(240, box.width);
  const room = windowHeight - 280;
  const height = Math.round(width < 600 ? Math.max(380, 200 + n * 22) : Math.max(440, Math.min(width * 0.72, room)));
  return { width, height, zoom: 1 };
}

/**
 * What a click at (x, y), in layout pixels, picks in a laid-out picture: the cell under it, and
 * the token whose label is near it (a column's or a token's: the lab's guess).
 * @param {{cells: {x: number, y: number, w: number, h: number, i: number, j: number}[], labels: {role: string, x: number, y: number, index: number}[]}} out layout.js's
 * @param {number} x
 * @param {number} y
 * @returns {{cell: [number, number] | null, token: number | null}}
 */
export function pictureHit(out, x, y) {
  const hit = out.cells.find((c) => x >= c.x && x <= c.x + c.w && y >= c.y && y <= c.y + c.h);
  const label = out.labels.find((l) => (l.role === "col" || l.role === "token") && Math.abs(l.x - x) < 40 && Math.abs(l.y - y) < 16);
  return { cell: hit ? [hit.i, hit.j] : null, token: label ? label.index : null };
}
