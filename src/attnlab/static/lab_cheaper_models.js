// The Cheaper attention section's "Real models" card: each real model's key/value cache per
// token per layer in each form (`ask("models", {})`: /api/cheaper/models, the numbers `attnlab
// cheaper cache` prints), a model whose package is absent greyed with its install command, and
// a button that checks SmolLM2's cache (`ask("kv", {})`: decoding token by token against the
// whole pass, in the models' worker) with its badge. Asked once, when the card first scrolls into
// view: loading the models takes the worker seconds, which the other cards should not wait behind.

import { h } from "./dom.js";
import { card } from "./lab_dom.js";
import { say } from "./words.js";

/** The table of every model's forms: one row per model and form, bytes from the answer. */
function cacheTable(models, words) {
  const w = (key) => say(words, `lab.cheaper.models.${key}`);
  const rows = models.flatMap((m) => (m.missing
    ? [h("tr", { class: "missing", "data-model": m.name }, [h("th", { scope: "row" }, [m.name]), h("td", { colspan: "3" }, [m.missing])])]
    : m.forms.map((f, i) => h("tr", { "data-model": m.name }, [
      h("th", { scope: "row" }, [i === 0 ? `${m.name} (${m.n_layers} ${w("layers")})` : ""]),
      h("td", {}, [f.name]), h("td", {}, [f.numbers.toLocaleString("en")]), h("td", {}, [`${f.bytes.toLocaleString("en")} B`]),
    ]))));
  return h("table", { class: "cheaper-table cheaper-models" }, [
    h("thead", {}, [h("tr", {}, ["model", "form", "numbers", "bytes"].map((k) => h("th", { scope: "col" }, [w(k)])))]),
    h("tbody", {}, rows),
  ]);
}

/**
 * @param {string} id
 * @param {() => any} words the page's words, read when drawn
 * @param {((route: string, params: Record<string, any>) => Promise<any>) | undefined} ask
 */
export function modelsCard(id, words, ask) {
  const body = h("div", {}, []);
  const button = h("button", { type: "button", class: "primary", "data-words": "lab.cheaper.models.check" });
  const status = h("p", { class: "lab-note", role: "status" });
  const badge = h("div");
  button.disabled = !ask;
  let asked = false;
  let timer = null;

  async function load() {
    if (asked || !ask) return;
    asked = true;
    body.textContent = say(words(), "lab.cheaper.waiting");
    const got = await ask("models", {});
    if (!got.ok) return (body.textContent = got.error.message);
    body.replaceChildren(h("div", { class: "cheaper-scroll" }, [cacheTable(got.body.models, words())]));
  }

  async function check() {
    button.disabled = true;
    badge.replaceChildren();
    const started = Date.now();
    const tick = () => (status.textContent = say(words(), "lab.cheaper.models.running", { seconds: Math.round((Date.now() - started) / 1000) }));
    tick();
    timer = setInterval(tick, 1000);
    const got = await ask("kv", {});
    clearInterval(timer);
    button.disabled = false;
    if (!got.ok) return (status.textContent = got.error.message);
    const b = got.body.badge;
    badge.replaceChildren(h("p", { class: `cheaper-badge ${b.kind}`, "data-kind": b.kind }, [b.text]));
    status.textContent = got.body.text;
  }

  button.addEventListener("click", check);
  const el = card(`${id}-cheaper-models`, "lab.cheaper.models.title", "lab.cheaper.models.help", [
    body, h("div", { class: "inline-row" }, [button]), badge, status,
    h("p", { class: "lab-help", "data-words": "lab.cheaper.models.windows" }),
  ], { region: true });
  // load() is called when the section opens; the question waits until the card is on screen
  let watching = null;
  function whenSeen() {
    if (asked || watching) return;
    if (typeof IntersectionObserver !== "function") return void load();
    watching = new IntersectionObserver((seen) => {
      if (!seen.some((e) => e.isIntersecting)) return;
      watching.disconnect();
      load();
    });
    watching.observe(el);
  }
  return {
    el, load: whenSeen,
    dispose() {
      clearInterval(timer);
      watching?.disconnect();
      button.removeEventListener("click", check);
    },
  };
}
