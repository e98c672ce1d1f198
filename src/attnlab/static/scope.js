// What a view subscribed to, so its cleanup can undo all of it: anywidget's contract is that
// render() returns a function that leaves nothing behind (no model handler, no listener on the
// document or window, no observer, no timer).
//
// Pure bookkeeping (no DOM of its own): Node's tests drive it with plain EventTargets.

/**
 * A scope: on() and listen() subscribe and remember how to unsubscribe; add() remembers any
 * other undo (an observer's disconnect, a timer's clear); dispose() undoes everything, last
 * first, once.
 */
export function createScope() {
  /** @type {(() => void)[]} */
  let undo = [];
  return {
    /** model.on(event, handler), undone by model.off(event, handler). */
    on(model, event, handler) {
      model.on(event, handler);
      undo.push(() => model.off(event, handler));
    },
    /** target.addEventListener, undone by removeEventListener with the same arguments. */
    listen(target, type, handler, options) {
      target.addEventListener(type, handler, options);
      undo.push(() => target.removeEventListener(type, handler, options));
    },
    /** @param {() => void} fn */
    add(fn) {
      undo.push(fn);
    },
    get size() {
      return undo.length;
    },
    dispose() {
      const all = undo;
      undo = [];
      for (let k = all.length - 1; k >= 0; k--) all[k]();
    },
  };
}
