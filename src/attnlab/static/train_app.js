// The page's host for the Train view (train_view.js), in the #train section under the lab: the
// view's model (widget_model.js) holds GET /api/train's catalog, and its trainer asks the
// server's training worker for each chunk (POST /api/train/start|next|stop, train_routes.py).
// Self-contained: it touches only #train, so the page's tabs and the lesson's host are left as
// they are.

import { getJSON } from "./http.js";
import trainView from "./train_view.js";
import { createModel } from "./widget_model.js";

/** POST `body` as JSON to `route`; the answer as getJSON gives it. */
function post(route, body) {
  return getJSON(route, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

/** The server's trainer: each call one request; a stop is sent and not awaited by the view. */
export const serverTrainer = {
  start: ({ experiment, steps, seed }) => post("/api/train/start", { experiment, steps, seed }),
  next: (job, count) => post("/api/train/next", { job, count }),
  stop: (job) => post("/api/train/stop", { job }),
};

async function mount(el) {
  const catalog = await getJSON("/api/train");
  if (!catalog.ok) return; // the lesson works without it; nothing half-built is shown
  const model = createModel({ train_catalog: catalog.body, train_run: null }, () => {}, { train: serverTrainer });
  trainView.render({ model, el });
}

const el = globalThis.document?.getElementById("train");
if (el) mount(el);
