// The Export menu of a view (lesson.js, model.js): the picture as PNG at 1×, 2× or 3× (the
// canvas drawn again at that scale, not its pixels enlarged) and as SVG (draw_svg.js, from the
// same layout shapes), the six beats as an animated GIF (gif.js), the numbers as CSV
// (export_data.js), the trace as JSON, and the offline page: one HTML file that works alone
// (export/standalone.py, asked of GET /api/export/*.html at the URL the host puts in the model's
// "export_html", through the host's `model.services.getFile`; a host with no server, the
// notebook or the offline file, has neither and the item stays hidden). This module asks the
// network for nothing itself.
// What is saved is what is on screen: the view hands in functions that lay out its current
// state (beat, focus, head, every option).
//
// A menu button (aria-haspopup) and a list of menu items, reachable and usable by keyboard alone:
// Enter, Space or ↓ opens it on the first item, ↑ ↓ Home End move, Escape closes it back on the
// button, Tab leaves it. Files are handed to the browser as blob: downloads; nothing is sent.
// Everything it subscribes goes through the view's scope.

import { h } from "./dom.js";
import { draw } from "./draw.js";
import { drawSVG } from "./draw_svg.js";
import { fileName, longCSV, matrixCSV } from "./export_data.js";
import { encodeGIF } from "./gif.js";
import { say } from "./words.js";

export const SCALES = [1, 2, 3];
const GIF_STEP_MS = 2500;

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

/** The view's own painting of a finished beat: draw.js's, unless the view adds its own kinds. */
const paintShapes = (ctx, shapes, box) => draw(ctx, shapes, 1, box);

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

/**
 * @param {{
 *   model: any, scope: ReturnType<import("./scope.js").createScope>, id: string,
 *   picture: () => {shapes: any[], size: {width: number, height: number}, description?: string, title?: string} | null,
 *   frames: () => {size: {width: number, height: number}, shapes: any[][]} | null,
 *   paint?: (ctx: CanvasRenderingContext2D, shapes: any[], box: {width: number, height: number, ratio: number}) => void,
 *   numbers: () => {matrix: Record<string, any>, heads: {layer: number, head: number, trace: Record<string, any>}[], json: any} | null,
 *   name: () => (string | number | null)[],
 *   offline?: {url: () => string | null | undefined, beat: () => number, note: string},
 * }} options `picture`: the current beat laid out at the canvas's size; `frames`: every beat's
 *   shapes at one size; `paint`: how the view paints a finished beat (default draw.js's); `numbers`: the head shown, the heads of the long form, the JSON; `name`:
 *   the parts of the file name (the sentence, the token, the beat, ...); `offline`: where the
 *   host's server makes the offline page of this state (without the step, which it adds), and
 *   the words key of the item's note (what the file holds)
 */
export function exportMenu({ model, scope, id, picture, frames, numbers, name, paint = paintShapes, offline = undefined }) {
  const words = () => model.get("words");
  const getFile = model.services?.getFile; // the page's server, if the host has one
  const doc = globalThis.document;
  const button = h("button", { type: "button", class: "export-button", id: `${id}-export`, "aria-haspopup": "menu", "aria-expanded": "false", "aria-controls": `${id}-export-list`, "data-words": "export.menu" });
  const list = h("ul", { class: "export-list", id: `${id}-export-list`, role: "menu", "aria-labelledby": `${id}-export`, hidden: true });
  const status = h("p", { class: "export-status", role: "status", "aria-live": "polite" });
  const el = h("div", { class: "export-menu" }, [button, list, status]);

  /** @type {[string, Record<string, any>, () => Promise<[Blob, string]>][]} */
  const items = [
    ...SCALES.map((scale) => [`export.png`, { scale }, () => png(scale)]),
    ["export.svg", {}, async () => [new Blob([pictureSVG(doc, need(picture()))], { type: "image/svg+xml" }), file("svg")]],
    ["export.gif", {}, gif],
    ["export.csv_matrix", {}, async () => [new Blob([matrixCSV(need(numbers()).matrix)], { type: "text/csv" }), file("csv", "matrix")]],
    ["export.csv_long", {}, async () => [new Blob([longCSV(need(numbers()).heads)], { type: "text/csv" }), file("csv", "long")]],
    ["export.json", {}, async () => [new Blob([JSON.stringify(need(numbers()).json)], { type: "application/json" }), file("json")]],
    ...(offline ? [["export.html", {}, page]] : []),
  ];
  const need = (x) => {
    if (!x) throw new Error(say(words(), "lesson.loading") || "nothing to export yet");
    return x;
  };
  const file = (ext, ...more) => fileName([...name(), ...more], ext);

  async function png(scale) {
    const p = need(picture());
    const canvas = renderCanvas(doc, p.shapes, p.size, scale, paint);
    const blob = await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("toBlob failed"))), "image/png"));
    return [blob, file("png", `${scale}x`)];
  }

  /** The offline page, as the server writes it for this state: its bytes, saved as they came. */
  async function page() {
    const address = need(offline?.url());
    const answer = await need(getFile)(`${address}&beat=${offline?.beat() ?? 0}`);
    if (!answer.ok) throw new Error(answer.error.message);
    return [answer.blob, file("html")];
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

  const entries = items.map(([key, values, make]) => {
    const item = h("button", { type: "button", role: "menuitem", tabindex: "-1", "data-export": key + (values.scale ? `-${values.scale}` : "") });
    scope.listen(item, "click", () => run(key, values, make));
    const li = h("li", { role: "none" }, [item]);
    list.append(li);
    return { item, li, key, values };
  });
  const shown = () => entries.filter(({ li }) => !li.hidden);
  /** The offline page's item is there only while the host has a server to make it. */
  function offer() {
    for (const { li, key } of entries) if (key === "export.html") li.hidden = !(getFile && offline?.url());
  }

  function label() {
    button.textContent = say(words(), "export.menu");
    button.setAttribute("aria-label", say(words(), "export.menu_label") || say(words(), "export.menu"));
    for (const { item, key, values } of entries) {
      item.textContent = say(words(), key, values);
      if (key === "export.html" && offline) item.title = say(words(), offline.note); // what the file holds
    }
  }

  async function run(key, values, make) {
    close({ refocus: true });
    status.classList.remove("failed");
    status.textContent = say(words(), "export.working", { file: say(words(), key, values) });
    await new Promise((r) => setTimeout(r, 0)); // let the words show before a long drawing
    try {
      const [blob, saved] = await make();
      save(blob, saved);
      status.textContent = say(words(), "export.saved", { file: saved });
    } catch (err) {
      status.classList.add("failed"); // a message of any length: it wraps in its own box, in the flow
      status.textContent = say(words(), "export.failed", { error: err instanceof Error ? err.message : String(err) });
    }
  }

  function save(blob, saved) {
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: saved, hidden: true });
    el.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  const isOpen = () => !list.hidden;
  function open(at = 0) {
    list.hidden = false;
    button.setAttribute("aria-expanded", "true");
    move(at);
  }
  function close({ refocus = false } = {}) {
    if (!isOpen()) return;
    list.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  }
  function move(k) {
    const items = shown();
    const n = items.length;
    items[((k % n) + n) % n].item.focus();
  }
  const current = () => shown().findIndex(({ item }) => item === doc.activeElement);

  scope.listen(button, "click", () => (isOpen() ? close() : open(0)));
  scope.listen(button, "keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      open(e.key === "ArrowDown" ? 0 : shown().length - 1);
    }
  });
  scope.listen(list, "keydown", (e) => {
    const k = current();
    if (e.key === "ArrowDown") move(k + 1);
    else if (e.key === "ArrowUp") move(k - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(shown().length - 1);
    else if (e.key === "Escape") close({ refocus: true });
    else if (e.key === "Tab") {
      close();
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation(); // the menu's keys are not the steps' nor the presentation's
  });
  scope.listen(doc, "pointerdown", (e) => {
    if (isOpen() && !(e.target instanceof Node && el.contains(e.target))) close();
  });
  scope.on(model, "change:words", label);
  scope.on(model, "change:export_html", offer);
  label();
  offer();
  return { el, close, label };
}
