// The Real model host's questions for the head view and the Mask a token panel
// (/api/model/heads, /api/model/mask): when each is asked, withdrawn or asked again, so that a
// slow one never holds a head switch and an answer never belongs to another text or token.
// The host (model_host.js) calls it after each head it shows. No DOM of its own.

import { HEADS_DELAY_MS, HEAD_VIEW_ASK_OVER } from "./model_timing.js";

/**
 * The head view's and the mask panel's questions: /api/model/heads for the text and layer on
 * screen (asked again only when they change), /api/model/mask for the text and focus on screen
 * once a word to mask was given (asked again after every new trace, so its numbers never belong
 * to another text or focus). A newer question wins over an older answer.
 * @param {any} model
 * @param {() => Record<string, any> | null} current the request behind the head on screen
 */
export function modelViews(model, current, ask, flights) {
  let headsKey = "";
  let askedHeads = 0;
  let askedMask = 0;
  let headsPending = false; // a head view's question is on its way
  let headsTimer = 0; // the head view is asked once the learner stays on a layer (HEADS_DELAY_MS)
  let maskKey = "";
  let wantedKey = ""; // the long text's layer whose head view the learner asked for
  const headsKeyOf = (q) => JSON.stringify([q.name, q.text, q.layer]);

  async function heads() {
    const good = current();
    if (!good) return;
    const key = headsKeyOf(good);
    if (key === headsKey) return;
    headsKey = key;
    const ticket = ++askedHeads;
    headsPending = true;
    const answer = await ask("heads", `/api/model/heads?${new URLSearchParams({ model: good.name, text: good.text, layer: String(good.layer) })}`);
    if (ticket !== askedHeads || answer.aborted) return; // withdrawn by a newer head: asked again after it
    headsPending = false;
    if (answer.ok) model.put("heads", answer.body);
    else headsKey = "";
  }

  async function mask() {
    const good = current();
    const word = (model.get("maskWord") ?? "").trim();
    if (!good || !word) return;
    const ticket = ++askedMask;
    maskKey = JSON.stringify([good.name, good.text, good.focus]);
    const q = { model: good.name, text: good.text, focus: String(good.focus), mask: word, how: model.get("maskHow") ?? "mask" };
    const answer = await ask("mask", `/api/model/mask?${new URLSearchParams(q)}`);
    if (ticket !== askedMask || answer.aborted) return;
    model.put("maskError", answer.ok ? null : answer.error);
    model.put("mask", answer.ok ? answer.body : null);
  }

  /**
   * A new head is asked: withdraw the questions it makes moot (a head view of another layer or
   * text, a mask of another text or token), so they do not hold the server ahead of it; they
   * are asked again once it is shown. The head view of its own layer is kept.
   */
  function supersede(request) {
    clearTimeout(headsTimer);
    if (headsPending && headsKeyOf(request) !== headsKey) {
      flights.abort("heads");
      headsPending = false;
      headsKey = "";
    }
    if (maskKey && maskKey !== JSON.stringify([request.name, request.text, request.focus])) flights.abort("mask");
  }

  /** The head is shown: the mask is asked now, the head view once the learner stays a moment
   * (a quick run of head switches across layers starts no layer's head view on the way). */
  function afterTrace() {
    mask();
    clearTimeout(headsTimer);
    const good = current();
    const n = model.get("trace")?.window?.n ?? 0;
    if (good && n > HEAD_VIEW_ASK_OVER && headsKeyOf(good) !== wantedKey) {
      if (headsKey !== headsKeyOf(good)) model.put("heads", null); // another layer's lines must not stay
      model.put("heads_wait", n); // the panel offers to ask (model.js)
      return;
    }
    headsTimer = setTimeout(heads, HEADS_DELAY_MS);
  }

  /** The learner asked for the long text's head view: ask it now. */
  function askHeads() {
    const good = current();
    if (!good) return;
    wantedKey = headsKeyOf(good);
    model.put("heads_wait", 0);
    heads();
  }

  /** Another model: nothing asked is remembered, every old answer is stale. */
  function reset() {
    clearTimeout(headsTimer);
    headsPending = false;
    maskKey = "";
    headsKey = "";
    askedHeads++;
    askedMask++;
  }

  return { afterTrace, mask, supersede, reset, askHeads };
}
