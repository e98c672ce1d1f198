// The lab's One matrix for Q, K and V card: the seed's first common mistake, made live. For the
// two Context sentences (the presets "river" and "savings"), the focus word's row of weights with
// the real head's three matrices beside its row with one matrix for all three roles
// (Q = K = V = X·W), and the core's sentence saying what the numbers show. Every number and
// sentence is the lesson answer's `one_projection`, asked of the host (`ask("one_projection",
// {sentence})`: the page's /api/lesson, the notebook's kernel). A panel: {el, keys, update, dispose}.

import { h } from "./dom.js";
import { num } from "./format.js";
import { card } from "./lab_dom.js";
import { tokenNames } from "./names.js";
import { say } from "./words.js";

/** The presets whose sentences the card compares: the lesson's two contexts. */
const CONTEXTS = ["river", "savings"];

/** One sentence's table: the focus row with three matrices and with one. */
function rowTable(words, o) {
  const cols = tokenNames(o.tokens);
  const who = cols[o.focus];
  const f = o.focus;
  const row = (label, weights, self) =>
    h("tr", {}, [
      h("th", { scope: "row" }, [label]),
      ...weights[f].map((w, j) => h("td", { class: j === f ? "self" : null, "data-j": j }, [num(w)])),
      h("td", { class: "extra" }, [num(self)]),
    ]);
  return h("table", { class: "lab-table one-proj", "aria-label": say(words, "lab.one.table", { sentence: o.tokens.join(" ") }) }, [
    h("caption", {}, [say(words, "lab.one.caption", { sentence: o.tokens.join(" "), token: who })]),
    h("thead", {}, [h("tr", {}, [h("th", {}, []), ...cols.map((t) => h("th", { scope: "col" }, [t])), h("th", { scope: "col" }, [say(words, "lab.one.self", { token: who })])])]),
    h("tbody", {}, [
      row(say(words, "lab.one.real"), o.real_weights, o.real_raw_scores[f][f]),
      row(say(words, "lab.one.one"), o.one_weights, o.one_raw_scores[f][f]),
    ]),
  ]);
}

/**
 * @param {string} id a prefix for element ids
 * @param {{model: any, ask?: (route: string, params: Record<string, any>) => Promise<any>}} host
 */
export function oneProjectionPanel(id, { model, ask }) {
  const note = h("p", { class: "lab-note", role: "status" });
  const tables = h("div", { class: "one-proj-tables" });
  const el = card(`${id}-one-proj`, "lab.one.title", "lab.one.help", [note, tables], { region: true });
  let asked = "";
  let last = null;
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
    if (state.hiding) return void (note.textContent = say(words, "lab.one.hidden"));
    if (!ask) return void (note.textContent = say(words, "lab.one.no_host"));
    if (!seen) return;
    const presets = model.get("presets")?.presets ?? [];
    const sentences = CONTEXTS.map((name) => presets.find((p) => p.name === name)?.sentence).filter(Boolean);
    const key = JSON.stringify([sentences, words?.["lab.one.caption"]]);
    if (key === asked) return;
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
    tables.replaceChildren(
      ...got.map(({ body }) => h("figure", { class: "one-proj" }, [rowTable(words, body.one_projection), h("figcaption", { class: "lab-note" }, [body.one_projection.note])])),
    );
  }

  /** @param {Record<string, any>} state */
  function update(state) {
    if (!state.trace) return;
    last = state;
    refresh(state).catch((err) => (note.textContent = err instanceof Error ? err.message : String(err)));
  }

  return { el, keys: ["lesson", "words", "predict", "guess", "asking"], update, dispose: () => watch?.disconnect() };
}
