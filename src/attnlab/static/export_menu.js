// The Export menu of a view (lesson.js, model.js): the picture as PNG and SVG, the six beats as
// a GIF, the numbers as CSV and JSON, and the offline page (export_files.js makes each file; the
// offline page is asked of the host's `model.services.getFile`, and a host with no server, the
// notebook or the offline file, has none, so that item stays hidden). This module asks the
// network for nothing itself.
// What is saved is what is on screen: the view hands in functions that lay out its current
// state (beat, focus, head, every option).
//
// A menu button and its items, usable by keyboard alone (menu_button.js); a status line says
// what is being made, what was saved or why it failed. Files are handed to the browser as blob:
// downloads; nothing is sent. Everything it subscribes goes through the view's scope.

import { h } from "./dom.js";
import { exportFiles } from "./export_files.js";
import { menuButton } from "./menu_button.js";
import { say } from "./words.js";

/** Hand `blob` to the browser as a download named `saved` (an <a download> clicked in `el`). */
function save(el, blob, saved) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: saved, hidden: true });
  el.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Make one file and save it, the status line saying so: "making …", then "saved …" or the
 * error, of any length (it wraps in its own box, in the flow).
 * @param {HTMLElement} status @param {() => Record<string, string>} words
 */
async function run(el, status, words, label, make) {
  status.classList.remove("failed");
  status.textContent = say(words(), "export.working", { file: label });
  await new Promise((r) => setTimeout(r, 0)); // let the words show before a long drawing
  try {
    const [blob, saved] = await make();
    save(el, blob, saved);
    status.textContent = say(words(), "export.saved", { file: saved });
  } catch (err) {
    status.classList.add("failed");
    status.textContent = say(words(), "export.failed", { error: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * @param {{
 *   model: any, scope: ReturnType<import("./scope.js").createScope>, id: string,
 *   picture: () => {shapes: any[], size: {width: number, height: number}, description?: string, title?: string} | null,
 *   frames: () => {size: {width: number, height: number}, shapes: any[][]} | null,
 *   paint?: (ctx: CanvasRenderingContext2D, shapes: any[], box: {width: number, height: number, ratio: number}) => void,
 *   numbers: () => {matrix: Record<string, any>, heads: {layer: number, head: number, trace: Record<string, any>}[], json: any} | null,
 *   name: () => (string | number | null)[],
 *   offline?: {url: () => string | null | undefined, beat: () => number, note: string, refused?: () => string | null},
 *   numbersNote?: () => string | null,
 * }} options `picture`: the current beat laid out at the canvas's size; `frames`: every beat's
 *   shapes at one size; `paint`: how the view paints a finished beat (default draw.js's); `numbers`: the head shown, the heads of the long form, the JSON; `name`:
 *   the parts of the file name (the sentence, the token, the beat, ...); `offline`: where the
 *   host's server makes the offline page of this state (without the step, which it adds), and
 *   the words key of the item's note (what the file holds); `refused`: why the file cannot be
 *   made of this state (the item is then disabled), or null; `numbersNote`: what the CSVs hold
 *   when it is not the whole head (a window of a long text), said beside them, or null
 */
export function exportMenu({ model, scope, id, picture, frames, numbers, name, paint = undefined, offline = undefined, numbersNote = undefined }) {
  const words = () => model.get("words");
  const getFile = model.services?.getFile; // the page's server, if the host has one
  const button = h("button", { type: "button", class: "export-button", id: `${id}-export`, "aria-haspopup": "menu", "aria-expanded": "false", "aria-controls": `${id}-export-list`, "data-words": "export.menu" });
  const list = h("ul", { class: "export-list", id: `${id}-export-list`, role: "menu", "aria-labelledby": `${id}-export`, hidden: true });
  const status = h("p", { class: "export-status", role: "status", "aria-live": "polite" });
  const el = h("div", { class: "export-menu" }, [button, list, status]);
  const menu = menuButton(scope, { button, list, root: el });
  const need = (x) => {
    if (!x) throw new Error(say(words(), "lesson.loading") || "nothing to export yet");
    return x;
  };

  const entries = exportFiles({ picture, frames, numbers, name, paint, offline, getFile, need }).map(([key, values, make]) => {
    const item = h("button", { type: "button", role: "menuitem", tabindex: "-1", "data-export": key + (values.scale ? `-${values.scale}` : "") });
    const why = h("span", { class: "export-why", id: `${id}-why-${list.children.length}`, hidden: true });
    scope.listen(item, "click", () => {
      if (item.getAttribute("aria-disabled") === "true") return; // its description says why
      menu.close({ refocus: true });
      run(el, status, words, say(words(), key, values), make);
    });
    const li = h("li", { role: "none" }, [item, why]);
    list.append(li);
    return { item, li, key, values, why };
  });
  /** The offline page's item is there only while the host has a server to make it, and is
   * disabled, the reason its description, while the host says the file cannot hold this state. */
  function offer() {
    const csv = entries.filter((e) => e.key.startsWith("export.csv"));
    const note = numbersNote?.() ?? null; // what the CSVs hold: said once, under the last, describing each
    const shown = csv.at(-1)?.why;
    for (const { item, why } of csv) {
      why.textContent = why === shown && note ? note : "";
      why.hidden = !(why === shown && note);
      if (note && shown) item.setAttribute("aria-describedby", shown.id);
      else item.removeAttribute("aria-describedby");
    }
    for (const { li, key, item, why } of entries) {
      if (key !== "export.html") continue;
      li.hidden = !(getFile && offline?.url());
      const reason = offline?.refused?.() ?? null;
      why.textContent = reason ?? "";
      why.hidden = !reason;
      if (reason) {
        item.setAttribute("aria-disabled", "true");
        item.setAttribute("aria-describedby", why.id);
      } else {
        item.removeAttribute("aria-disabled");
        item.removeAttribute("aria-describedby");
      }
    }
  }

  function label() {
    button.textContent = say(words(), "export.menu");
    button.setAttribute("aria-label", say(words(), "export.menu_label") || say(words(), "export.menu"));
    for (const { item, key, values } of entries) {
      item.textContent = say(words(), key, values);
      if (key === "export.html" && offline) item.title = say(words(), offline.note); // what the file holds
      if (key.startsWith("export.csv")) item.title = say(words(), "export.csv_note"); // the numbers' form
    }
  }

  scope.on(model, "change:words", label);
  scope.on(model, "change:export_html", offer);
  if (offline?.refused || numbersNote) for (const key of ["trace", "info", "words"]) scope.on(model, `change:${key}`, offer);
  label();
  offer();
  return { el, close: menu.close, label };
}
