// The model a widget talks to, for the web page: the part of anywidget's model the widgets use
// (get, set, on, off, save_changes), plus put for the host. The lesson's host (app.js) and the
// Real model's (model_app.js) each make one and back it with the JSON API; in a notebook,
// anywidget's own model takes its place.
//
// The widget set()s what the learner chose and calls save_changes(); the host hears which keys
// changed and answers with put(), which fires the change events but is not sent back.

/**
 * A minimal anywidget-style model: local state, change events and a save hook.
 * @param {Record<string, any>} initial
 * @param {(changed: Set<string>) => void} onSave called by save_changes with the keys set since
 * @param {{getFile?: (url: string) => Promise<import("./http.js").FileAnswer>}} [services] what
 *   only a host with a server can do (the page's http.js); a view reads `model.services` and
 *   offers nothing that needs one when it is absent (anywidget's model has none)
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
