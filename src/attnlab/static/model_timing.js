// How long the Real model host waits before it says or asks something (model_host.js,
// model_view_asks.js): numbers measured in the page, each with why it is what it is. Pure.

/**
 * How long another head or focus of the text on screen may take before the status says so. Most
 * answer sooner (a 2,048-token head in about 0.2 s): a status shown and cleared at once only
 * flickers, and each time it re-lays and repaints the whole view, at 2,048 tokens 45 ms of the
 * page's main thread right after the click, on the cores the server is computing the head on.
 */
export const STATUS_DELAY_MS = 400;
/**
 * How long the learner stays on a head before its layer's head view (/api/model/heads) is
 * asked: at 2,048 tokens it takes seconds of the server's time, and a head switch asked while it
 * runs waited behind it (9-14 s).
 */
export const HEADS_DELAY_MS = 700;
/**
 * Above this many tokens the head view is asked only when the learner asks for it: its answer
 * is each row's strongest keys (encode/model_views_json.py), at 2,048 tokens 1.8 MB, 1-2 s of
 * the models' worker and 2-4 s until drawn, and the mean over every layer is not sent above 512
 * tokens (models/layer_heads.py).
 */
export const HEAD_VIEW_ASK_OVER = 512;
