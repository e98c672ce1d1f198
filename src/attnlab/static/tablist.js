// The page's view tabs (WAI-ARIA tabs pattern). The keyboard: ←/→ move to the previous or next
// tab (wrapping), Home and End to the first and last; the tab is clicked, so the view that owns it
// shows itself and no view needs to know how many tabs there are. `ownTab` is how a view that
// joined after the first two (atlas_app.js, train_app.js) takes its tab and panel.

/** The tab `key` moves to from tab number `at` of `count`, or null for a key tabs ignore. */
export function nextTab(key, at, count) {
  if (key === "ArrowRight") return (at + 1) % count;
  if (key === "ArrowLeft") return (at - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/** Wire the arrow keys of every tab in `nav`. */
export function tabKeys(nav) {
  const tabs = [...nav.querySelectorAll('[role="tab"]')];
  for (const [at, tab] of tabs.entries()) {
    tab.addEventListener("keydown", (e) => {
      const to = nextTab(e.key, at, tabs.length);
      if (to === null) return;
      e.preventDefault(); // the lesson's arrow keys must not step while a tab has the key
      tabs[to].click();
      tabs[to].focus();
    });
  }
}

/**
 * Make `button` the tab of `panel`: a click selects it and hides every other tab's panel, a click
 * on another tab hides this one; `onShow` runs each time it shows. Returns `show`.
 * @param {HTMLElement} button @param {HTMLElement} panel
 * @param {string} view the name body's data-view takes @param {() => void} onShow
 */
export function ownTab(button, panel, view, onShow) {
  const others = [...document.querySelectorAll('nav.views [role="tab"]')].filter((t) => t !== button);
  function show() {
    for (const t of others) {
      t.setAttribute("aria-selected", "false");
      t.tabIndex = -1;
      const owned = document.getElementById(t.getAttribute("aria-controls") ?? "");
      if (owned) owned.hidden = true;
    }
    button.setAttribute("aria-selected", "true");
    button.tabIndex = 0;
    panel.hidden = false;
    document.body.dataset.view = view;
    onShow();
  }
  function hide() {
    panel.hidden = true;
    button.setAttribute("aria-selected", "false");
    button.tabIndex = -1;
  }
  button.addEventListener("click", show);
  for (const t of others) t.addEventListener("click", hide);
  return show;
}

if (typeof document !== "undefined") {
  const nav = document.querySelector("nav.views");
  if (nav) tabKeys(nav);
}
