// The Real model host's questions in flight, one AbortController per kind ("trace", "matrix",
// "row", "grid", "heads", "mask", "compare", "info"): asking a kind again withdraws its older
// question, so an answer the page no longer wants neither paints nor holds the connection (and,
// with a server that stops when its client goes, the work) ahead of the next one. Pure: no DOM.

/** @returns {{signal: (kind: string) => AbortSignal, abort: (...kinds: string[]) => void}} */
export function createFlights() {
  /** @type {Map<string, AbortController>} */
  const open = new Map();
  return {
    /** A signal for a new question of `kind`; the previous one of that kind is withdrawn. */
    signal(kind) {
      open.get(kind)?.abort();
      const controller = new AbortController();
      open.set(kind, controller);
      return controller.signal;
    },
    /** Withdraw the questions of these kinds (every kind when none is named). */
    abort(...kinds) {
      for (const kind of kinds.length ? kinds : [...open.keys()]) {
        open.get(kind)?.abort();
        open.delete(kind);
      }
    },
  };
}
