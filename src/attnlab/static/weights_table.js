// A weights table's cells as the learner reads them, for the lesson's table (lesson.js) and the
// Real model's (model.js): point at a cell or focus it to hear what it says, and move between
// cells with the arrow keys. The cells carry data-i (the query's row) and data-j (the key's
// column); one cell at a time has tabindex 0 (a roving tab stop), so Tab enters the table once.

/**
 * Wire the table once; its cells may be rebuilt any number of times after.
 * @param {HTMLTableElement} table
 * @param {{read: (i: number, j: number) => void, ready: () => boolean, scope?: any}} options `read`
 *   tells cell (i, j) (the readout under the table); `ready` is false while there is nothing to
 *   read; `scope` (scope.js) remembers the listeners for the view's cleanup
 */
export function readableCells(table, { read, ready, scope }) {
  const listen = (type, handler) => (scope ? scope.listen(table, type, handler) : table.addEventListener(type, handler));
  const cellFrom = (node) => {
    const td = node instanceof Element ? node.closest("td[data-i]") : null;
    return td && table.contains(td) ? td : null;
  };
  listen("mouseover", (e) => {
    const td = cellFrom(e.target);
    if (td && ready()) read(Number(td.dataset.i), Number(td.dataset.j));
  });
  listen("focusin", (e) => {
    const td = cellFrom(e.target);
    if (!td || !ready()) return;
    table.querySelectorAll("td[tabindex='0']").forEach((c) => c.setAttribute("tabindex", "-1"));
    td.setAttribute("tabindex", "0");
    read(Number(td.dataset.i), Number(td.dataset.j));
  });
  listen("keydown", (e) => {
    const td = cellFrom(e.target);
    if (!td || !ready()) return;
    const move = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
    if (!move) return;
    e.preventDefault();
    e.stopPropagation(); // the arrows move in the table, not through the steps
    const i = Number(td.dataset.i) + move[0];
    const j = Number(td.dataset.j) + move[1];
    table.querySelector(`td[data-i="${i}"][data-j="${j}"]`)?.focus();
  });
}
