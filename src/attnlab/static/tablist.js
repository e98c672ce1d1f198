// The keyboard of the page's view tabs (WAI-ARIA tabs pattern): ←/→ move to the previous or next
// tab (wrapping), Home and End to the first and last; the tab is clicked, so the view that owns it
// shows itself (model_app.js, atlas_app.js) and no view needs to know how many tabs there are.

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

if (typeof document !== "undefined") {
  const nav = document.querySelector("nav.views");
  if (nav) tabKeys(nav);
}
