// The page's "Watch it learn" tab: the Train view (train_view.js) on a model (widget_model.js)
// holding GET /api/train's catalog, built the first time the tab opens; its trainer asks the
// server's training worker for each chunk (POST /api/train/start|next|stop, train_routes.py).
// The tab itself is tablist.js's ownTab (pressing another tab hides this panel, pressing this one
// hides theirs); ?view=train opens it (the other views' keys are kept).
//
// A stop is answered at once on the page: the chunk still on its way is aborted
// (AbortController), so a stopped run leaves no refused request behind.

import { getJSON } from "./http.js";
import trainView from "./train_view.js";
import { ownTab } from "./tablist.js";
import { createModel } from "./widget_model.js";

let inflight = new AbortController(); // the signal of every next request of the run on screen

/** POST `body` as JSON to `route`; the answer as getJSON gives it. */
function post(route, body, signal) {
  return getJSON(route, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
}

/** The server's trainer: each call one request; a stop aborts the chunk on its way, then is sent. */
export const serverTrainer = {
  start: ({ experiment, steps, seed }) => post("/api/train/start", { experiment, steps, seed }),
  next: (job, count) => post("/api/train/next", { job, count }, inflight.signal),
  stop: (job) => {
    inflight.abort();
    inflight = new AbortController();
    return post("/api/train/stop", { job });
  },
};

/** The query with view=train, every other key kept. */
export function writeTrainURL(search) {
  const q = new URLSearchParams(search);
  q.set("view", "train");
  return `?${q}`;
}

function tab() {
  const button = document.getElementById("tab-train");
  const panel = document.getElementById("train");
  if (!button || !panel) return;
  let built = false;

  async function build() {
    built = true;
    const catalog = await getJSON("/api/train");
    if (!catalog.ok) return; // nothing half-built is shown
    const model = createModel({ train_catalog: catalog.body, train_run: null }, () => {}, { train: serverTrainer });
    trainView.render({ model, el: panel });
  }
  const show = ownTab(button, panel, "train", () => {
    history.replaceState(null, "", writeTrainURL(location.search));
    if (!built) build();
  });
  if (new URLSearchParams(location.search).get("view") === "train") show();
}

if (typeof document !== "undefined") tab();
