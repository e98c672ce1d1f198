// The lab's One matrix for Q, K and V card: the seed's first common mistake, made live. For the
// two Context sentences (the presets "river" and "savings"), the focus word's row of weights with
// the real head's three matrices beside its row with one matrix for all three roles
// (Q = K = V = X·W), side by side as bars with their numbers, one sentence at a time (the card's
// Sentence select), and the core's finding, short. Every number and
// sentence is the lesson answer's `one_projection`, asked of the host (`ask("one_projection",
// {sentence})`: the page's /api/lesson, the notebook's kernel). A panel: {el, keys, update, dispose}.

import { h } from "./dom.js";
import { num } from "./format.js";
import { card } from "./lab_dom.js";
import { tokenNames } from "./names.js";
import { say } from "./words.js";

/** The presets whose sentences the card compares: the lesson's two contexts. */
const CONTEXTS = ["river", "savings"];

/** A weight as a bar and its number (a bar's length is the weight: 1 is 5em long). */
function bar(w, cls) {
  const fill = h("span", { class: "fill", "aria-hidden": "true" });
  fill.style.width = `${(Math.max(0, Math.min(1, w)) * 5).toFixed(2)}em`; // CSSOM: the page's CSP allows no style attribute
  return h("span", { class: `one-bar ${cls}` }, [fill, h("span", { class: "value" }, [num(w)])]);
}

/**
 * One sentence's table: a row per key, the focus's weight on it with three matrices and with one
 * side by side as bars, then the focus's score against itself (q·k, and |q|² with one matrix).
 */
function rowTable(words, o) {
  const cols = tokenNames(o.tokens);
  const who = cols[o.focus];
  const f = o.focus;
  const rows = cols.map((tok, j) =>
    h("tr", { class: j === f ? "self" : null }, [
      h("th", { scope: "row" }, [tok]),
      h("td", { "data-j": j }, [bar(o.real_weights[f][j], "real")]),
      h("td", { "data-j": j }, [bar(o.one_weights[f][j], "one")]),
    ]));
  rows.push(h("tr", { class: "own" }, [
    h("th", { scope: "row" }, [say(words, "lab.one.self", { token: who })]),
    h("td", {}, [num(o.real_raw_scores[f][f])]),
    h("td", {}, [num(o.one_raw_scores[f][f])]),
  ]));
  return h("table", { class: "lab-table one-proj", "aria-label": say(words, "lab.one.table", { sentence: o.tokens.join(" ") }) }, [
    h("caption", {}, [say(words, "lab.one.caption", { sentence: o.tokens.join(" "), token: who })]),
    h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, [say(words, "lab.one.key")]), h("th", { scope: "col" }, [say(words, "lab.one.real")]), h("th", { scope: "col" }, [say(words, "lab.one.one")])])]),
    h("tbody", {}, rows),
  ]);
}

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, ask?: (route: string, params: Record<string, any>) => Promise<any>}} host
 */
export function oneProjectionPanel(id, { model, ask }) {
  const note = h("p", { class: "lab-note", role: "status" });
  const select = h("select", { id: `${id}-one-sentence` });
  const field = h("div", { class: "field" }, [h("label", { for: `${id}-one-sentence`, "data-words": "lab.one.sentence" }), select]);
  const tables = h("div", { class: "one-proj-tables" });
  const el = card(`${id}-one-proj`, "lab.one.title", "lab.one.help", [field, note, tables], { region: true });
  let asked = "";
  let last = null;
  /** @type {any[]} the two sentences' answers, once asked */
  let answers = [];

  /** The sentence picked in the select: its row as bars, and its finding, short. */
  function showPicked(words) {
    const got = answers[Number(select.value) || 0];
    if (!got) return;
    const o = got.one_projection;
    tables.replaceChildren(h("figure", { class: "one-proj" }, [rowTable(words, o), h("figcaption", { class: "lab-note one-finding" }, [o.finding])]));
  }
  const onPick = () => last && showPicked(last.words);
  select.addEventListener("change", onPick);
  // asked only once the card is on screen: two more lessons at every page load would be work
  // for a card the learner may never scroll to
  let seen = typeof IntersectionObserver === "undefined";
  const watch = seen ? null : new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen = true;
    watch?.disconnect();
    if (last) update(last);
  });
  watch?.observe(el);

  async function refresh(state) {
    const { words } = state;
    tables.hidden = state.hiding; // Predict first: no weight shows before the guess
    field.hidden = state.hiding;
    if (state.hiding) return void (note.textContent = say(words, "lab.one.hidden"));
    if (!ask) return void (note.textContent = say(words, "lab.one.no_host"));
    if (!seen) return;
    const presets = model.get("presets")?.presets ?? [];
    const sentences = CONTEXTS.map((name) => presets.find((p) => p.name === name)?.sentence).filter(Boolean);
    const key = JSON.stringify([sentences, words?.["lab.one.caption"]]);
    if (key === asked) return void showPicked(words);
    asked = key;
    note.textContent = say(words, "lab.one.waiting");
    const got = await Promise.all(sentences.map((sentence) => ask("one_projection", { sentence })));
    if (key !== asked) return; // asked again since
    const failed = got.find((g) => !g.ok);
    if (failed) {
      asked = "";
      return void (note.textContent = failed.error.message);
    }
    note.textContent = "";
    answers = got.map(({ body }) => body);
    const picked = select.value;
    select.replaceChildren(...sentences.map((sentence, i) => h("option", { value: String(i) }, [sentence])));
    // the sentence the lesson shows, if it is one of the two; else the first
    const own = sentences.indexOf(state.trace.tokens.join(" "));
    select.value = picked && asked === key && Number(picked) < sentences.length ? picked : String(Math.max(0, own));
    showPicked(words);
  }

  /** @param {Record<string, any>} state */
  function update(state) {
    if (!state.trace) return;
    last = state;
    refresh(state).catch((err) => (note.textContent = err instanceof Error ? err.message : String(err)));
  }

  return { el, keys: ["lesson", "words", "predict", "guess", "asking"], update, dispose: () => {
    watch?.disconnect();
    select.removeEventListener("change", onPick);
  } };
}
