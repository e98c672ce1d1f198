"""The lab's questions answered by the kernel: the notebook's side of `services.ask(route, params)`.

The lab view (static/lab.js) asks its host for two things it cannot compute: the focus row
swept over temperatures and attention's measured cost. The web page's host sends them to
`/api/sweep` and `/api/cost`; in a notebook the view sends them to the widget as an anywidget
custom message and the kernel answers with the same core functions and encoders those routes
call (`lesson.compute`, `saturation.sweep`, `cost.measure`, `encode_sweep`, `encode_cost`), so
the numbers are the API's:

    {"ask": "sweep", "id": 3, "params": {"sentence", "focus", "positions", "causal", "edits"}}
    {"ask": "cost", "id": 4, "params": {"max_n": 256, "kv_cache": false}}
    -> {"answer": 3, "ok": true, "body": {...}}
    or {"answer": 3, "ok": false, "error": {"message": ..., "field": ...}}

The cost is measured in a spawned process of its own, as the server does (web/apart.py says
why: tracemalloc counts every thread's allocations, and a kernel has threads), and answered
when it is done; the sweep is answered at once.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from attnlab import lesson
from attnlab.core.cost import DEFAULT_MAX_N, MAX_N, D, measure, measured_kv_cache, sizes
from attnlab.core.saturation import sweep, temperatures
from attnlab.encode.trace_json import encode_cost, encode_sweep
from attnlab.errors import ArgumentTypeError, AttnlabError
from attnlab.lesson.edits import FIELDS, ROLES, Edits
from attnlab.lesson.options import LessonOptions
from attnlab.widget.payloads import plain

__all__ = [
    "ROUTES", "UnknownQuestionError", "answer", "edit_params", "edits_of", "lab_options",
    "measure_cost", "one_projection_answer", "sweep_answer",
]  # fmt: skip

ROUTES = ("sweep", "cost", "cheaper", "price", "one_projection", "models", "kv")
"""The questions the lab asks (static/lab_state.js ASK_ROUTES)."""

Reply = Callable[[dict[str, Any]], None]


class UnknownQuestionError(AttnlabError):
    """A custom message that is not one of the lab's questions."""


def edits_of(data: object) -> Edits:
    """The lab's "edits" key ({"set": {"bank": [1, 0, 0, 1]}, "set_q": ...}, the API's
    parameters) as the lesson's Edits, read as `/api/lesson` reads `set=bank=1,0,0,1`."""
    if data is None:
        return Edits()
    if not isinstance(data, Mapping):
        raise ArgumentTypeError(f"edits must be an object of parameters, got {data!r:.60}",
                                field="edits")  # fmt: skip
    specs = {}
    for role in ROLES:
        vectors = data.get(FIELDS[role]) or {}
        if not isinstance(vectors, Mapping):
            raise ArgumentTypeError(f"{FIELDS[role]} must be an object of tokens, got "
                                    f"{vectors!r:.60}", field=FIELDS[role])  # fmt: skip
        specs[role] = [f"{tok}={','.join(str(x) for x in xs)}" for tok, xs in vectors.items()]
    return Edits.parse(specs, dim_names=lesson.DIM_NAMES)


def lab_options(base: LessonOptions, wanted: dict[str, Any]) -> LessonOptions:
    """The lesson's options with the view's mode, axis and lab keys, as /api/lesson reads them
    (a temperature only goes with Scaled)."""
    mode = wanted["mode"]
    return replace(
        base, mode=mode, axis=wanted["axis"], positions=wanted["positions"],
        causal=bool(wanted["causal"]), heads=int(wanted["heads"]), shuffle=wanted["shuffle"],
        temperature=wanted["temperature"] if mode == "scaled" else None,
        edits=edits_of(wanted["edits"]),
    )  # fmt: skip


def edit_params(edits: Edits) -> dict[str, dict[str, list[float]]]:
    """The lesson's Edits as the lab's "edits" key: {"set": {"bank": [1, 0, 0, 1]}, ...}."""
    out: dict[str, dict[str, list[float]]] = {}
    for role in ROLES:
        vectors = getattr(edits, role)
        if vectors:
            out[FIELDS[role]] = {tok: [float(x) for x in xs] for tok, xs in vectors.items()}
    return out


def one_projection_answer(params: Mapping[str, Any]) -> dict[str, Any]:
    """What the lab's one-projection card reads of `/api/lesson?sentence=…`: its
    `one_projection`, the sentence through one matrix for Q, K and V beside the real head."""
    from attnlab.encode.lesson_json import encode_one_projection
    from attnlab.lesson.one_projection import one_projection

    sentence = str(params.get("sentence", lesson.DEFAULT_SENTENCE))
    return {"one_projection": plain(encode_one_projection(one_projection(sentence)))}


def sweep_answer(params: Mapping[str, Any]) -> dict[str, Any]:
    """`/api/sweep`'s answer for the lab's parameters: the focus row of head 1 per temperature,
    with the lesson's positions, mask and edits (and never its own temperature)."""
    opts = LessonOptions(
        positions=params.get("positions") or "none",
        causal=bool(params.get("causal")),
        edits=edits_of(params.get("edits")),
    )
    plain_opts = replace(opts, mode="scaled", axis="keys", temperature=None)
    run = lesson.compute(str(params.get("sentence", lesson.DEFAULT_SENTENCE)), plain_opts, head=0)
    f = lesson.focus_index(run.trace.tokens, params.get("focus"))
    return plain(encode_sweep(sweep(run.trace, f, ts=temperatures())))


def measure_cost(max_n: int, kv_cache: bool) -> dict[str, Any]:
    """`/api/cost`'s answer: attention's time and memory up to `max_n` (two sizes an octave),
    and the key/value cache's one new row when asked. Run it in a process of its own."""
    kv = measured_kv_cache(D) if kv_cache else None
    return plain(encode_cost(measure(sizes(max_n, per_octave=2), d=D), kv))


def _max_n(params: Mapping[str, Any]) -> int:
    value = params.get("max_n", DEFAULT_MAX_N)
    if not isinstance(value, int) or isinstance(value, bool) or not 8 <= value <= MAX_N:
        raise ArgumentTypeError(f"max_n must be a whole number in 8..{MAX_N}, got {value!r:.40}",
                                field="max_n")  # fmt: skip
    return value


_pool: ProcessPoolExecutor | None = None


def _measurer() -> ProcessPoolExecutor:
    """The one process the kernel measures in, spawned on first use and kept."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    return _pool


def _failed(exc: BaseException) -> dict[str, Any]:
    field = exc.field if isinstance(exc, AttnlabError) else None
    return {"ok": False, "error": {"message": str(exc), "field": field}}


def answer(message: object, reply: Reply) -> bool:
    """Answer one custom message if it is a lab question (True), through `reply`; a message
    that is not one (no "ask") is left to others (False). A refused question is answered too,
    as an error with the field at fault, as the API's 400 would be."""
    if not isinstance(message, Mapping) or "ask" not in message:
        return False
    ticket = message.get("id")

    def send(out: dict[str, Any]) -> None:
        reply({"answer": ticket, **out})

    route, params = message["ask"], message.get("params") or {}
    try:
        if not isinstance(params, Mapping):
            raise ArgumentTypeError(f"params must be an object, got {params!r:.40}", field=None)
        if route == "sweep":
            send({"ok": True, "body": sweep_answer(params)})
        elif route == "one_projection":  # /api/lesson's one_projection for a sentence
            send({"ok": True, "body": one_projection_answer(params)})
        elif route == "cheaper":  # the Cheaper attention cards (cheaper_answer.py)
            from attnlab.widget.cheaper_answer import cheaper_answer

            send({"ok": True, "body": cheaper_answer(params, edits_of(params.get("edits")))})
        elif route in ("cost", "price", "models", "kv"):  # in a process of its own
            from attnlab.widget.cheaper_answer import kv_answer, models_answer, price_answer

            if route == "cost":
                job = _measurer().submit(measure_cost, _max_n(params), bool(params.get("kv_cache")))
            else:  # the real-model card's sizes and cache check load models: not in the kernel
                job = _measurer().submit({"price": price_answer, "models": models_answer,
                                          "kv": kv_answer}[route])  # fmt: skip

            def done(f: Future[dict[str, Any]]) -> None:
                exc = f.exception()
                send(_failed(exc) if exc is not None else {"ok": True, "body": f.result()})

            job.add_done_callback(done)
        else:
            raise UnknownQuestionError(f"unknown lab question {route!r}: expected one of "
                                       f"{', '.join(ROUTES)}", field="route")  # fmt: skip
    except AttnlabError as exc:
        send(_failed(exc))
    return True
