// How the page asks the JSON API: getJSON, one answer shape for every caller (the lesson's
// host app.js, the Real model's host model_app.js, the lab's panels).
//
// The API answers 200 with a JSON body, or 4xx with {"error": message, "field": name} naming
// the control at fault (server.py). getJSON never throws: a network failure, a body that is not
// JSON and an error answer all come back as {ok: false, error: {message, field}}. A 503 with a
// short Retry-After (busy with other heavy work) is asked again, RETRIES times at most. A
// question withdrawn through its AbortSignal answers {ok: false, aborted: true}.

/**
 * @typedef {{message: string, field: string | null}} APIError
 * @typedef {{ok: true, body: any} | {ok: false, error: APIError, aborted?: true}} Answer
 * @typedef {{ok: true, blob: Blob} | {ok: false, error: APIError}} FileAnswer
 */

/**
 * Ask the API for JSON: {ok: true, body}, or {ok: false, error: {message, field}} in the API's
 * words (or ours, when the server could not be reached or did not answer JSON).
 * @param {string} url
 * @param {RequestInit} [init] passed on to fetch (a method and a body for a POST); Accept is set.
 *   Its optional `signal` (an AbortController's) withdraws the question: the browser drops the
 *   connection, a pending retry is not made, and the answer is {ok: false, aborted: true} (which
 *   a caller ignores: whoever aborted has a newer question)
 * @returns {Promise<Answer>}
 */
/** The answer when the server could not be reached at all. */
function unreachable(err) {
  const why = err instanceof Error ? err.message : String(err);
  return { ok: false, error: { message: `Could not reach the attnlab server (${why}). Is \`attnlab serve\` still running?`, field: null } };
}

/** The answer for a refusal: the API's {error, field} when the body holds them, else the status. */
function refused(response, body) {
  const message = body?.error ?? `The server answered ${response.status} ${response.statusText}.`;
  return { ok: false, error: { message, field: body?.field ?? null } };
}

/** The answer of a question withdrawn through its signal. */
const ABORTED = Object.freeze({ ok: false, aborted: true, error: Object.freeze({ message: "withdrawn: a newer question replaced it", field: null }) });

/** How often getJSON asks again after a 503 "busy" answer, waiting its Retry-After each time. */
export const RETRIES = 2;

/** A Retry-After longer than this (seconds) is not waited for: the message is shown instead. */
export const MAX_RETRY_SECONDS = 10;

/** How getJSON waits before asking again (tests replace `sleep`). */
export const clock = { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** The seconds of a 503's Retry-After worth waiting for, or null. */
function retryAfter(response) {
  const header = response.status === 503 ? response.headers.get("Retry-After") : null;
  if (!header) return null;
  const seconds = Number(header);
  return Number.isInteger(seconds) && seconds >= 0 && seconds <= MAX_RETRY_SECONDS ? seconds : null;
}

export async function getJSON(url, init = {}) {
  const signal = init.signal ?? null;
  for (let attempt = 0; ; attempt += 1) {
    if (signal?.aborted) return ABORTED;
    let response;
    try {
      response = await fetch(url, { ...init, headers: { Accept: "application/json", ...init.headers } });
    } catch (err) {
      return signal?.aborted ? ABORTED : unreachable(err);
    }
    // the server is busy with other heavy work (or starting a computing process): ask again
    // after the seconds it names, as a person would, before showing its message
    const wait = retryAfter(response);
    if (wait !== null && attempt < RETRIES) {
      await clock.sleep(wait * 1000);
      continue;
    }
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (signal?.aborted) return ABORTED; // withdrawn while its body came: not a failure
    if (response.ok && body) return { ok: true, body };
    return refused(response, body);
  }
}

/**
 * Ask the API for a file (the Export menu's offline page): {ok: true, blob}, or the API's error
 * as getJSON gives it. Never throws.
 * @param {string} url
 * @returns {Promise<FileAnswer>}
 */
export async function getFile(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    return unreachable(err);
  }
  if (response.ok) return { ok: true, blob: await response.blob() };
  return refused(response, await response.json().catch(() => null));
}
