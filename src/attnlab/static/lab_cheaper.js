// The lab's Cheaper attention section: four cards, each a cheaper form run beside the exact
// formula on the lesson's sentence, asked of the host (`ask("cheaper", ...)`: the page's
// /api/cheaper or the notebook's kernel), each with a badge computed by that run ("exact: max
// |Δ| = 2.2e-16", "approximate: mean |Δ| = 0.093, top-1 key kept in 75 % of rows").
//
//   online   FlashAttention's online softmax: the focus row tile by tile on a canvas
//            (lab_cheaper_layout.js), Previous tile / Next tile, each tile told in words, ending
//            on the Softmax and Blend steps' numbers;
//   heads    MQA and MLA checked, the cache numbers per token of each form;
//   windows  the keys a window and sinks + a window keep, and the attention thrown away;
//   linear   φ(q)·φ(k) against the softmax row, and why it cannot make the sharp lookup.
//
// Every sentence is the answer's (words/cheaper_words.py) or the page's words (lab.cheaper.*).
// A panel: {el, keys, update(state, key), dispose()} (lab.js).

import { h } from "./dom.js";
import { decodeNumber, num } from "./format.js";
import { card } from "./lab_dom.js";
import { CAPTION_FONT, cheaperShapes, drawCheaper } from "./lab_cheaper_layout.js";
import { modelsCard } from "./lab_cheaper_models.js";
import { priceCard } from "./lab_cheaper_price.js";
import { TYPING } from "./stepper.js";
import { say } from "./words.js";

const CANVAS = { width: 420, height: 190 };
const SCALE = 2; // the canvas's pixels per CSS pixel: sharp text on any screen

function badge(b, label) {
  return h("p", { class: `cheaper-badge ${b.kind}`, "data-kind": b.kind }, [label ? `${label}: ${b.text}` : b.text]);
}

/** A table of one value per key, a column per [label, values]. */
function rowsTable(tokens, columns, words) {
  return h("table", { class: "cheaper-table" }, [
    h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, [say(words, "lab.cheaper.key")]), ...columns.map(([label]) => h("th", { scope: "col" }, [label]))])]),
    h("tbody", {}, tokens.map((t, j) => h("tr", {}, [h("th", { scope: "row" }, [t]), ...columns.map(([, xs]) => h("td", {}, [num(decodeNumber(xs[j]))]))]))),
  ]);
}

/** The heads, windows and linear cards' bodies and the online card's badge, from the answer. */
function fillCards(parts, a, words) {
  parts.onlineBadge.replaceChildren(badge(a.online.badge));
  parts.headsBody.replaceChildren(
    badge(a.heads.mqa, "MQA"),
    badge(a.heads.mla, "MLA"),
    h("table", { class: "cheaper-table" }, [
      h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, [say(words, "lab.cheaper.form")]), h("th", { scope: "col" }, [say(words, "lab.cheaper.numbers")])])]),
      h("tbody", {}, a.heads.forms.map((f) => h("tr", {}, [h("th", { scope: "row" }, [f.name]), h("td", {}, [String(f.numbers)])]))),
    ]),
    h("p", {}, [a.heads.forms_text]),
  );
  parts.windowsBody.replaceChildren(
    badge(a.windows_badge),
    ...(a.windows_note ? [h("p", { class: "lab-note cheaper-axis-note" }, [a.windows_note])] : []),
    ...a.windows.map((w) => h("div", { class: "cheaper-scheme", "data-scheme": w.scheme }, [
      h("p", { class: "cheaper-keys" }, a.tokens.map((t, j) => h("span", { class: w.kept.includes(j) ? "kept" : "dropped" }, [t]))),
      h("p", {}, [w.text]),
    ])),
  );
  parts.linearBody.replaceChildren(
    badge(a.linear.badge),
    ...(a.linear.note_text ? [h("p", { class: "lab-note cheaper-axis-note" }, [a.linear.note_text])] : []),
    rowsTable(a.tokens, [[say(words, a.linear.note === "axis" ? "lab.cheaper.exact_row_keys" : "lab.cheaper.exact_row"), a.linear.exact_row], [say(words, "lab.cheaper.linear_row"), a.linear.linear_row]], words),
    h("p", {}, [a.linear.sharpen_text]),
  );
  parts.tileBox.replaceChildren(...a.tiles.map((t) => h("option", { value: String(t) }, [String(t)])));
  parts.tileBox.value = String(a.tile);
}

/** The section's DOM: its heading, its note and the four cards. */
function sectionDom(id, price, models) {
  const parts = {
    tileBox: h("select", { id: `${id}-cheaper-tile` }),
    prev: h("button", { type: "button", "data-words": "lab.cheaper.prev" }),
    next: h("button", { type: "button", "data-words": "lab.cheaper.next" }),
    canvas: h("canvas", { width: CANVAS.width * SCALE, height: CANVAS.height * SCALE, class: "cheaper-canvas", role: "img" }),
    onlineBadge: h("div"), stepText: h("p", { class: "lab-out", "aria-live": "polite" }),
    headsBody: h("div"), windowsBody: h("div"), linearBody: h("div"), note: h("p", { class: "lab-note" }),
  };
  const online = card(`${id}-cheaper-online`, "lab.cheaper.online.title", "lab.cheaper.online.help", [
    parts.onlineBadge,
    h("label", { for: `${id}-cheaper-tile` }, [h("span", { "data-words": "lab.cheaper.tile" }), " ", parts.tileBox]),
    parts.canvas,
    h("p", { class: "lab-help", "data-words": "lab.cheaper.legend" }),
    h("div", { class: "buttons" }, [parts.prev, parts.next]),
    parts.stepText,
  ], { region: true });
  const heads = card(`${id}-cheaper-heads`, "lab.cheaper.heads.title", "lab.cheaper.heads.help", [parts.headsBody], { region: true });
  const windows = card(`${id}-cheaper-windows`, "lab.cheaper.windows.title", "lab.cheaper.windows.help", [parts.windowsBody], { region: true });
  const linear = card(`${id}-cheaper-linear`, "lab.cheaper.linear.title", "lab.cheaper.linear.help", [parts.linearBody], { region: true });
  parts.online = online;
  parts.cardsBox = h("div", { class: "lab-cards cheaper-cards" }, [online, heads, windows, linear, models.el, price.el]);
  // Closed until asked for: five cards below the lab are a second lesson, not part of the first.
  parts.el = h("details", { class: "cheaper" }, [
    h("summary", {}, [h("h2", { id: `${id}-cheaper-h`, "data-words": "lab.cheaper.title" })]),
    h("p", { class: "lab-intro", "data-words": "lab.cheaper.intro" }),
    parts.note,
    parts.cardsBox,
  ]);
  return parts;
}

/** The online card's canvas at `step` of the answer's tiles (captions measured in its own font). */
function drawTiles(canvas, online, tokens, step) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(SCALE, 0, 0, SCALE, 0, 0);
  ctx.clearRect(0, 0, CANVAS.width, CANVAS.height);
  ctx.font = CAPTION_FONT;
  const measure = (text) => ctx.measureText(text).width;
  drawCheaper(ctx, cheaperShapes(online, tokens, step, { ...CANVAS, measure }));
}

/**
 * ←/→ inside the section are the section's: on the online card they step the tiles, elsewhere
 * in it they do nothing, and never step the lesson above (its stepper skips handled keys).
 * @param {{online: HTMLElement, prev: HTMLButtonElement, next: HTMLButtonElement}} parts
 * @param {() => boolean} answered whether the tiles have an answer to step through
 */
function tileKeys({ online, prev, next }, answered) {
  return (e) => {
    if ((e.key !== "ArrowLeft" && e.key !== "ArrowRight") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target?.closest?.(TYPING)) return; // a select or a text field moves with its arrows
    e.preventDefault();
    if (!answered() || !online.contains(e.target)) return;
    const button = e.key === "ArrowRight" ? next : prev;
    if (!button.disabled) button.click();
  };
}

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, ask?: (route: string, params: Record<string, any>) => Promise<any>}} host
 */
export function cheaperPanel(id, { model, ask }) {
  const price = priceCard(id, () => model.get("words"), ask);
  const models = modelsCard(id, () => model.get("words"), ask);
  const parts = sectionDom(id, price, models);
  const { tileBox, prev, next, canvas, stepText, note, cardsBox, el, online } = parts;
  let answer = null;
  let step = 0;
  let asked = "";
  let words = null;
  let hiding = false;

  function showStep() {
    if (!answer) return;
    const o = answer.online;
    step = Math.max(0, Math.min(o.steps.length, step));
    drawTiles(canvas, o, answer.tokens, step);
    const end = step >= o.steps.length;
    stepText.textContent = end ? o.end_text : o.steps[step].text;
    canvas.setAttribute("aria-label", `${say(words, "lab.cheaper.canvas")}: ${end ? o.end_caption : o.steps[step].caption}`);
    // A button that disables under the focus drops it to <body>: hand it to the other one.
    const focused = (el.getRootNode?.() ?? document).activeElement; // a notebook's shadow root, or the page
    const lost = (prev.disabled = step === 0) && focused === prev;
    const gone = (next.disabled = end) && focused === next;
    if (lost && !next.disabled) next.focus();
    else if (gone && !prev.disabled) prev.focus();
  }

  async function refresh(state) {
    words = state.words;
    hiding = state.hiding;
    cardsBox.hidden = hiding; // Predict first: no weight shows before the guess
    if (hiding) {
      note.textContent = say(words, "lab.cheaper.hidden");
      return;
    }
    if (!ask) {
      note.textContent = say(words, "lab.cheaper.no_host");
      return;
    }
    const { trace } = state;
    const params = {
      sentence: trace.tokens.join(" "), focus: trace.focus, tile: Number(tileBox.value) || answer?.tile || 2,
      mode: model.get("mode") ?? "scaled", axis: trace.axis ?? "keys", temperature: model.get("temperature") ?? null,
      positions: state.positions, causal: state.causal, edits: state.edits,
    };
    const key = JSON.stringify(params);
    if (key === asked) return answer && (note.textContent = "");
    asked = key;
    note.textContent = say(words, "lab.cheaper.waiting");
    const got = await ask("cheaper", params);
    if (key !== asked) return; // a newer lesson asked since
    if (!got.ok) {
      note.textContent = got.error.message;
      return;
    }
    note.textContent = "";
    answer = got.body;
    step = 0;
    fillCards(parts, answer, words);
    showStep();
    if (el.open) models.load(); // after the toy's cards: loading the models takes the machine seconds
  }

  let last = null;
  const onPrev = () => { step -= 1; showStep(); };
  const onNext = () => { step += 1; showStep(); };
  const onTile = () => last && refresh(last);
  const onKey = tileKeys({ online, prev, next }, () => answer !== null);
  prev.addEventListener("click", onPrev);
  next.addEventListener("click", onNext);
  tileBox.addEventListener("change", onTile);
  el.addEventListener("keydown", onKey);
  const onToggle = () => el.open && !hiding && answer && models.load(); // when asked for, after the cards
  el.addEventListener("toggle", onToggle);
  return {
    el,
    keys: ["lesson", "words", "predict", "guess", "asking"],
    /** @param {Record<string, any>} state */
    update(state) {
      if (!state.trace) return;
      last = state;
      refresh(state);
    },
    dispose() {
      price.dispose();
      models.dispose();
      el.removeEventListener("toggle", onToggle);
      prev.removeEventListener("click", onPrev);
      next.removeEventListener("click", onNext);
      tileBox.removeEventListener("change", onTile);
      el.removeEventListener("keydown", onKey);
    },
  };
}
