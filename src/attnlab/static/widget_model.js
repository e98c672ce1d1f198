// The model a widget talks to, for the web page: the part of anywidget's model the widgets use
// (get, set, on, off, save_changes), plus put for the host. The lesson's host (app.js) and the
// Real model's (model_host.js) each make one and back it with the JSON API; in a notebook,
// anywidget's own model takes its place, with kernelServices' services (notebook.js).
//
// The widget set()s what the learner chose and calls save_changes(); the host hears which keys
// changed and answers with put(), which fires the change events but is not sent back.

/**
 * A minimal anywidget-style model: local state, change events and a save hook.
 * @param {Record<string, any>} initial
 * @param {(changed: Set<string>) => void} onSave called by save_changes with the keys set since
 * @param {{getFile?: (url: string) => Promise<import("./http.js").FileAnswer>}} [services] what
 *   only a host can do: getFile (the page's http.js) and ask(route, params), the lab's
 *   questions (lab_state.js ASK_ROUTES); a view reads `model.services` and offers nothing that
 *   needs one when it is absent
 */
export function createModel(initial, onSave, services = {}) {
  const state = { ...initial };
  const handlers = new Map();
  const dirty = new Set();
  return {
    services,
    get: (key) => state[key],
    /** The widget's change: the change events fire and save_changes will send it. */
    set(key, value) {
      if (Object.is(state[key], value)) return;
      dirty.add(key);
      this.put(key, value);
    },
    /** The host's own update: the change events fire, but save_changes will not send it back. */
    put(key, value) {
      if (Object.is(state[key], value)) return false;
      state[key] = value;
      for (const handler of handlers.get(`change:${key}`) ?? []) handler({ name: key, new: value });
      return true;
    },
    on(event, handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
    },
    off(event, handler) {
      handlers.set(event, (handlers.get(event) ?? []).filter((f) => f !== handler));
    },
    save_changes() {
      const changed = new Set(dirty);
      dirty.clear();
      onSave(changed);
    },
  };
}

/**
 * The services of a view in a notebook, answered by the kernel: `ask(route, params)` sends the
 * lab's question as an anywidget custom message ({ask, id, params}) and resolves with the
 * kernel's answer ({answer: id, ok, body | error}: widget/lab_answers.py), as the page's
 * http.js getJSON resolves with the API's. dispose() stops listening and answers what still
 * waits with an error, so no view awaits a kernel that will not reply.
 * @param {{send: (content: any) => void, on: Function, off: Function}} model anywidget's model
 */
export function kernelServices(model) {
  let asked = 0;
  /** @type {Map<number, (answer: any) => void>} */
  const waiting = new Map();
  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object" || !waiting.has(msg.answer)) return;
    const resolve = waiting.get(msg.answer);
    waiting.delete(msg.answer);
    resolve(msg.ok ? { ok: true, body: msg.body } : { ok: false, error: msg.error ?? { message: "the kernel refused", field: null } });
  };
  model.on("msg:custom", onMessage);
  return {
    services: {
      /** @param {string} route @param {Record<string, any>} params */
      ask(route, params) {
        const id = ++asked;
        return new Promise((resolve) => {
          waiting.set(id, resolve);
          model.send({ ask: route, id, params });
        });
      },
    },
    dispose() {
      model.off("msg:custom", onMessage);
      for (const resolve of waiting.values()) resolve({ ok: false, error: { message: "the view was closed", field: null } });
      waiting.clear();
    },
  };
}
