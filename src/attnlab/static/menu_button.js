// A menu button (aria-haspopup) and its list of menu items, reachable and usable by keyboard
// alone, as WAI-ARIA's menu button pattern has it: ↓ or ↑ on the button opens the list on its
// first or last item (Enter and Space click it, which opens it on the first), ↑ ↓ Home End move
// round the items shown, Escape closes it back on the button, Tab closes it and moves on, and a
// press outside `root` closes it. The Export menu (export_menu.js) is its one user today.
//
// Which item a key goes to is menuKey, a pure function (tested in Node); menuButton only wires
// it to the button and the list, through the caller's scope, so the view's cleanup undoes it.

/** `k` brought into 0..count-1, going round at both ends. */
const round = (k, count) => ((k % count) + count) % count;

/**
 * What a key pressed in the open list does: go to an item (its index among the items shown),
 * "close" (Escape: back on the button), "leave" (Tab: closed, the focus moves on as usual), or
 * null (not the menu's key). `current` is the focused item's index, -1 when none is.
 * @param {string} key a KeyboardEvent's key
 * @param {number} current
 * @param {number} count the items shown
 * @returns {number | "close" | "leave" | null}
 */
export function menuKey(key, current, count) {
  if (key === "ArrowDown") return round(current + 1, count);
  if (key === "ArrowUp") return round(current - 1, count);
  if (key === "Home") return 0;
  if (key === "End") return round(count - 1, count);
  if (key === "Escape") return "close";
  if (key === "Tab") return "leave";
  return null;
}

/**
 * Open, close and move the menu `list` of `button`; its items are the menuitems of the list's
 * <li>s that are not hidden.
 * @param {ReturnType<import("./scope.js").createScope>} scope
 * @param {{button: HTMLElement, list: HTMLElement, root: HTMLElement}} parts `root` holds both:
 *   a press inside it leaves the menu open
 */
export function menuButton(scope, { button, list, root }) {
  const doc = button.ownerDocument;
  /** @returns {HTMLElement[]} */
  const shown = () => [...list.children].filter((li) => !li.hidden).map((li) => li.firstElementChild);
  const isOpen = () => !list.hidden;
  const focus = (k) => shown()[k]?.focus();
  function open(at) {
    list.hidden = false;
    button.setAttribute("aria-expanded", "true");
    focus(at);
  }
  function close({ refocus = false } = {}) {
    if (!isOpen()) return;
    list.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  }

  scope.listen(button, "click", () => (isOpen() ? close() : open(0)));
  scope.listen(button, "keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    open(e.key === "ArrowDown" ? 0 : shown().length - 1);
  });
  scope.listen(list, "keydown", (e) => {
    const items = shown();
    const to = menuKey(e.key, items.findIndex((item) => item === doc.activeElement), items.length);
    if (to === null) return;
    if (to === "leave") return close();
    if (to === "close") close({ refocus: true });
    else items[to].focus();
    e.preventDefault();
    e.stopPropagation(); // the menu's keys are not the steps' nor the presentation's
  });
  scope.listen(doc, "pointerdown", (e) => {
    if (isOpen() && !(e.target instanceof Node && root.contains(e.target))) close();
  });
  return { isOpen, open, close };
}
