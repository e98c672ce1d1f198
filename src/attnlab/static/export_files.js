// The files the Export menu (export_menu.js) offers, each made when it is picked: the picture as
// PNG at 1×, 2× or 3× (the canvas drawn again at that scale, not its pixels enlarged) and as SVG
// (draw_svg.js, from the same layout shapes), the six beats as an animated GIF (gif.js), the
// numbers as CSV (export_data.js), the trace as JSON, and the offline page: one HTML file that
// works alone (export/standalone.py), asked of the host's `getFile` at the URL it puts in the
// model's "export_html". This module asks the network for nothing itself.
//
// What is saved is what is on screen: the view hands in functions that lay out its current
// state (beat, focus, head, every option).

import { draw } from "./draw.js";
import { drawSVG } from "./draw_svg.js";
import { fileName, longCSV, matrixCSV } from "./export_data.js";
import { encodeGIF } from "./gif.js";

export const SCALES = [1, 2, 3];
const GIF_STEP_MS = 2500;

/** The view's own painting of a finished beat: draw.js's, unless the view adds its own kinds. */
const paintShapes = (ctx, shapes, box) => draw(ctx, shapes, 1, box);

/**
 * A canvas with `shapes` drawn at `scale` device pixels per CSS pixel, the beat finished.
 * @param {Document} doc
 */
export function renderCanvas(doc, shapes, size, scale, paint = paintShapes) {
  const canvas = doc.createElement("canvas");
  canvas.width = Math.round(size.width * scale);
  canvas.height = Math.round(size.height * scale);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2D canvas");
  paint(ctx, shapes, { width: size.width, height: size.height, ratio: scale });
  return canvas;
}

/** A text's width in a font, as the canvas measures it (for the SVG's squeezed texts). */
function measurer(doc) {
  const ctx = doc.createElement("canvas").getContext("2d");
  return (text, font) => {
    if (!ctx) return 0;
    ctx.font = font;
    return ctx.measureText(text).width;
  };
}

/** The SVG text of `picture` (one beat's layout and its size), measured as the canvas would. */
export function pictureSVG(doc, picture) {
  return drawSVG(picture.shapes, picture.size, { title: picture.title ?? "", description: picture.description ?? "", measure: measurer(doc) });
}

/** A canvas' pixels as a PNG blob. */
const pngBlob = (canvas) => new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("toBlob failed"))), "image/png"));

/**
 * The menu's items, in its order: [words key, the key's values, make], where make() answers
 * the file's bytes and name. The options are exportMenu's (export_menu.js), with `need`, which
 * answers what it is given or throws the words for "nothing to export yet", and `getFile`, the
 * host's (without one the offline page cannot be made).
 * @returns {[string, Record<string, any>, () => Promise<[Blob, string]>][]}
 */
export function exportFiles({ picture, frames, numbers, name, paint = paintShapes, offline, getFile, need }) {
  const doc = globalThis.document;
  const file = (ext, ...more) => fileName([...name(), ...more], ext);
  const text = (content, type) => new Blob([content], { type });

  async function png(scale) {
    const p = need(picture());
    return [await pngBlob(renderCanvas(doc, p.shapes, p.size, scale, paint)), file("png", `${scale}x`)];
  }

  async function gif() {
    const all = need(frames());
    const images = all.shapes.map((shapes) => {
      const canvas = renderCanvas(doc, shapes, all.size, 1, paint);
      return canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    });
    const bytes = encodeGIF(images, { delayMs: GIF_STEP_MS, lastMs: 2 * GIF_STEP_MS });
    return [new Blob([bytes], { type: "image/gif" }), fileName(name().slice(0, -1), "gif")];
  }

  /** The offline page, as the server writes it for this state: its bytes, saved as they came. */
  async function page() {
    const address = need(offline?.url());
    const answer = await need(getFile)(`${address}&beat=${offline?.beat() ?? 0}`);
    if (!answer.ok) throw new Error(answer.error.message);
    return [answer.blob, file("html")];
  }

  return [
    ...SCALES.map((scale) => ["export.png", { scale }, () => png(scale)]),
    ["export.svg", {}, async () => [text(pictureSVG(doc, need(picture())), "image/svg+xml"), file("svg")]],
    ["export.gif", {}, gif],
    ["export.csv_matrix", {}, async () => [text(matrixCSV(need(numbers()).matrix), "text/csv"), file("csv", "matrix")]],
    ["export.csv_long", {}, async () => [text(longCSV(need(numbers()).heads), "text/csv"), file("csv", "long")]],
    ["export.json", {}, async () => {
      const json = need(numbers()).json; // a value, or a function that asks the host for more
      return [text(JSON.stringify(typeof json === "function" ? await json() : json), "application/json"), file("json")];
    }],
    ...(offline ? [["export.html", {}, page]] : []),
  ];
}
