// The lab's Edit vectors panel: the embeddings, or head 1's q, k, v, as editable numbers.
//
// A number is checked here first (lab_state.readEditNumber: a finite number within /api/lab's
// edit_limit); a refusal shows under the field's row and nothing is sent, so the last good lesson
// stays. A good number goes into the model's "edits" and the host asks the API again; a refusal
// from the API (a field among /api/lab's edit_params: set, set_q, ...) shows under the table.
// Which vectors can be edited is the API's edit_params (parameter -> role), in the model's "lab";
// their names and every sentence are the page's words (lab.edit.*). A panel: {el, update(state),
// dispose()} (lab.js's state); it reads the edits and the error live from the model when it sends.

import { h } from "./dom.js";
import { decodeArray, num } from "./format.js";
import { card } from "./lab_dom.js";
import { readEditNumber, withEdit } from "./lab_state.js";
import { say } from "./words.js";

const STEP = 0.1;
const DRAG_STEP = 0.05;

/**
 * Drag a number sideways to change it (0.05 per 4 pixels), as well as typing it: a press that
 * does not move focuses the field for typing; a drag sends the new number when released.
 * @param {HTMLInputElement} input
 * @param {() => number} limit the API's edit limit
 * @param {() => void} done
 */
function dragToChange(input, limit, done) {
  /** @type {{x: number, start: number, moved: boolean} | null} */
  let drag = null;
  input.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || input.ownerDocument.activeElement === input) return; // typing: no drag
    const now = readEditNumber(input.value, limit(), null);
    if (!now.ok) return;
    e.preventDefault(); // no text selection while dragging
    drag = { x: e.clientX, start: now.value, moved: false };
    input.setPointerCapture?.(e.pointerId);
  });
  input.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    if (!drag.moved && Math.abs(dx) < 4) return;
    drag.moved = true;
    input.value = num(Math.max(-limit(), Math.min(limit(), drag.start + Math.round(dx / 4) * DRAG_STEP)));
  });
  const end = () => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    if (moved) done();
    else {
      input.focus();
      input.select();
    }
  };
  input.addEventListener("pointerup", end);
  input.addEventListener("pointercancel", () => (drag = null));
}

/** The vectors a role edits: the word embeddings, or head 1's q, k, v (before RoPE turns them). */
function editedVectors(which, data, trace) {
  if (which === "embeddings") return decodeArray(data.positions?.word_embeddings ?? data.embeddings);
  const rope = data.positions?.rope;
  if (which === "queries") return decodeArray(rope ? rope.queries : data.queries);
  if (which === "keys") return decodeArray(rope ? rope.keys : data.keys);
  return trace.values;
}

/**
 * One number of a vector, typed, dragged or stepped with the arrow keys; `edit(input, err)`
 * sends it, `err` is where a refusal shows.
 * @param {{id: string, tok: string, noun: string, dim: string, d: number, value: number,
 *   edited: boolean, words: Record<string, string> | null, limit: () => number,
 *   edit: (input: HTMLInputElement, err: HTMLElement) => void}} f
 */
function numberField({ id, tok, noun, dim, d, value, edited, words, limit, edit }) {
  const input = h("input", {
    type: "text", inputmode: "decimal", autocomplete: "off", spellcheck: "false", size: 5,
    value: num(value), "aria-label": say(words, "lab.edit.field", { token: tok, noun, dim }), "aria-describedby": id,
    "data-token": tok, "data-d": d, class: edited ? "edited" : null, title: say(words, "lab.edit.drag"),
  });
  const err = h("span", { id, class: "field-error cell-error", role: "alert" });
  input.addEventListener("change", () => edit(input, err));
  dragToChange(input, limit, () => edit(input, err));
  input.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    e.preventDefault();
    const now = readEditNumber(input.value, limit(), words);
    if (!now.ok) return;
    input.value = num(now.value + (e.key === "ArrowUp" ? STEP : -STEP));
    edit(input, err);
  });
  return { input, err };
}

/**
 * The number typed in `input`, or null with the refusal shown in `err` and the field marked
 * invalid (lab_state.readEditNumber: a finite number within the API's edit limit).
 * @param {HTMLInputElement} input @param {HTMLElement} err @param {number} limit
 * @param {Record<string, string> | null} words
 */
function checkedNumber(input, err, limit, words) {
  const read = readEditNumber(input.value, limit, words);
  if (!read.ok) {
    err.textContent = say(words, "lab.edit.field_error", { field: input.getAttribute("aria-label") ?? "", error: read.message });
    input.setAttribute("aria-invalid", "true");
    return null;
  }
  err.textContent = "";
  input.removeAttribute("aria-invalid");
  return read.value;
}

/** How many vectors the learner has edited, over every role (the model's "edits"). */
export function editCount(edits) {
  return Object.values(edits ?? {}).reduce((k, m) => k + Object.keys(m).length, 0);
}

/** The role selector's options, one per edit parameter the API takes, keeping the one picked. */
function showRoles(role, params, words) {
  const now = role.value;
  const all = Object.entries(params);
  role.replaceChildren(...all.map(([param, which]) => h("option", { value: param }, [say(words, `lab.edit.role.${which}`) || which])));
  role.value = all.some(([param]) => param === now) ? now : all[0]?.[0] ?? "";
}

/**
 * One role's table: a row of number fields per token (a repeated word is one vector), each
 * row's refusals right under it.
 * @param {{tokens: string[], dims: string[], noun: string, words: Record<string, string> | null,
 *   field: (tok: string, i: number, dim: string, d: number) => {input: HTMLElement, err: HTMLElement}}} parts
 */
function editTable({ tokens, dims, noun, words, field }) {
  const seen = new Set();
  const rows = [];
  tokens.forEach((tok, i) => {
    if (seen.has(tok)) return;
    seen.add(tok);
    const fields = dims.map((dim, d) => field(tok, i, dim, d));
    rows.push(h("tr", {}, [h("th", { scope: "row" }, [tok]), ...fields.map((f) => h("td", {}, [f.input]))]));
    rows.push(h("tr", { class: "errors" }, [h("td", { colspan: dims.length + 1 }, fields.map((f) => f.err))]));
  });
  return h("table", { class: "edit-table", "aria-label": say(words, "lab.edit.table", { noun }) }, [
    h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, [say(words, "lab.edit.token")]), ...dims.map((d) => h("th", { scope: "col" }, [d]))])]),
    h("tbody", {}, rows),
  ]);
}

/**
 * The Edit vectors card.
 * @param {string} id a prefix for element ids
 * @param {{model: any, commit: (changes: Record<string, any>) => void}} host
 */
export function editPanel(id, { model, commit }) {
  const role = h("select", { id: `${id}-role` });
  const grid = h("div", { class: "edit-grid" });
  const reset = h("button", { type: "button", "data-words": "lab.edit.reset" });
  const note = h("p", { class: "lab-note", "aria-live": "polite" });
  const apiError = h("p", { class: "field-error", role: "alert" });
  /** @type {Record<string, any> | null} */
  let data = null;
  /** @type {Record<string, any> | null} */
  let trace = null;
  const words = () => model.get("words");
  /** The edit parameters and the roles they edit (set -> embeddings, ...): /api/lab's. */
  const params = () => model.get("lab")?.edit_params ?? {};
  const limit = () => model.get("lab")?.edit_limit ?? 0;
  const vectorsFor = (param) => editedVectors(params()[param], data, trace);

  function show() {
    showRoles(role, params(), words());
    const param = role.value;
    if (!param) return;
    const noun = say(words(), `lab.edit.noun.${params()[param]}`);
    const xs = vectorsFor(param);
    const dims = trace.dim_names ?? xs[0].map((_, d) => say(words(), "lab.dim", { number: d + 1 }));
    const edits = model.get("edits") ?? {};
    const field = (tok, i, dim, d) => numberField({
      id: `${id}-err-${param}-${i}-${d}`, tok, noun, dim, d, value: xs[i][d], edited: Boolean(edits[param]?.[tok]), words: words(), limit,
      edit: (input, err) => editOne(param, tok, i, d, input, err),
    });
    grid.replaceChildren(editTable({ tokens: trace.tokens, dims, noun, words: words(), field }));
    const count = editCount(edits);
    note.textContent = say(words(), count === 0 ? "lab.edit.preset" : count === 1 ? "lab.edit.edited_one" : "lab.edit.edited_many", { count });
    reset.disabled = count === 0;
    showError();
  }

  function showError() {
    const error = model.get("error");
    apiError.textContent = error && Object.hasOwn(params(), error.field ?? "") ? say(words(), "lab.edit.refused", { error: error.message }) : "";
  }

  /** Number `d` of `tok`'s vector, as typed in `input`: into the model's edits, if good. */
  function editOne(param, tok, i, d, input, err) {
    const value = checkedNumber(input, err, limit(), words());
    if (value === null) return; // nothing is sent: the last good lesson stays on screen
    const current = model.get("edits")?.[param]?.[tok];
    const xs = current ? current.map(Number) : vectorsFor(param)[i].slice();
    xs[d] = value;
    commit({ edits: withEdit(model.get("edits"), param, tok, xs) });
  }

  const onRole = () => trace && show();
  const onReset = () => commit({ edits: {} });
  role.addEventListener("change", onRole);
  reset.addEventListener("click", onReset);

  const el = card(`${id}-edit`, "lab.edit.title", "lab.edit.help", [
      h("fieldset", { class: "edit", "aria-labelledby": `${id}-edit-h` }, [
        h("div", { class: "field" }, [h("label", { for: `${id}-role`, "data-words": "lab.edit.which" }), role]),
        grid,
        apiError,
        h("div", { class: "inline-row" }, [reset, note]),
      ]),
    ], { wide: true }); // four columns of inputs need the row's width
  return {
    el,
    keys: ["lesson", "words", "lab", "error"],
    /** @param {Record<string, any>} state lab.js's state @param {string} [key] the model key that changed */
    update(state, key) {
      if (key === "error") return void showError(); // the inputs keep the learner's focus
      data = state.raw;
      trace = state.trace;
      if (trace) show();
    },
    dispose() {
      role.removeEventListener("change", onRole);
      reset.removeEventListener("click", onReset);
    },
  };
}
