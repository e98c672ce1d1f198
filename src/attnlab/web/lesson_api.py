"""The lesson's JSON API: the toy's explanation with the lab's options, and the lab's plots.

Wired into server.py's app (`routes`). Parameters are read through api_params. Routes:

    GET  /api/lesson   sentence, focus, mode, axis, and the lab's  temperature=T
                       positions=none|sinusoidal|rope  causal=1  heads=1|2  shuffle=SEED
                       set=TOKEN=x,y,z,w (repeatable; embeddings)
                       set_q= set_k= set_v= (repeatable; head 1's query, key, value)
    POST /api/lesson   the same as a JSON object, edits as
                       {"edits": {"embeddings": {"bank": [1, 0, 0, 1]}, "queries": {...}}}
    GET  /api/sweep    the lesson's options + t_min, t_max, steps, head (1 or 2): the focus row
                       per temperature
    GET  /api/shuffle  the lesson's options + seed: one shuffle under every positions kind
    GET  /api/cost     max_n (<= 4096), d, per_octave: time and memory of attention against n
    GET  /api/lab      the lab's choices and limits (positions kinds, heads, temperature range)

Bad input answers 400 with {"error": message, "field": the parameter} like the rest of the API.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from attnlab import lesson
from attnlab.core.cost import MAX_N, D, measure, sizes
from attnlab.core.positions import KINDS, check_kind
from attnlab.core.saturation import T_MAX, T_MIN, T_STEPS, sweep, temperatures
from attnlab.encode.lesson_json import encode_lesson, encode_shuffle
from attnlab.encode.trace_json import encode_cost, encode_sweep
from attnlab.lesson.edits import FIELDS, LIMIT, Edits, Role
from attnlab.lesson.options import LessonOptions
from attnlab.lesson.shuffle import shuffle_every_kind
from attnlab.types import AXES, MODES
from attnlab.web.params import BadRequest, choice, flag, guard, number, text, whole

__all__ = ["routes"]

EDIT_PARAMS: dict[str, Role] = {name: role for role, name in FIELDS.items()}


def _options(get: Callable[[str], object], edits: Edits) -> LessonOptions:
    """The lesson's one options object from the request's parameters."""
    heads = whole(get("heads"), "heads", range(1, 3))
    positions = text(get("positions"), "positions").lower() or "none"
    return LessonOptions(
        mode=choice(get("mode"), "mode", MODES),
        axis=choice(get("axis"), "axis", AXES),
        temperature=number(get("temperature"), "temperature"),
        positions=check_kind(positions),
        causal=flag(get("causal"), "causal"),
        heads=heads if heads is not None else 1,
        shuffle=whole(get("shuffle"), "shuffle", range(0, 2**32)),
        edits=edits,
    )


def _query_edits(request: Request) -> Edits:
    specs: dict[Role, list[str]] = {}
    for name, role in EDIT_PARAMS.items():
        specs[role] = [text(v, name) for v in request.query_params.getlist(name) if v.strip()]
    return Edits.parse(specs, dim_names=lesson.DIM_NAMES)


def _sentence_focus(get: Callable[[str], object]) -> tuple[str, str | int | None]:
    """sentence and focus: what the lesson explains, beside its options."""
    sentence = get("sentence")
    text_ = lesson.DEFAULT_SENTENCE if sentence is None else text(sentence, "sentence")
    focus = get("focus")
    if focus in (None, ""):
        return text_, None
    return text_, focus if isinstance(focus, int) else text(focus, "focus")


def _explain_from(get: Callable[[str], object], edits: Edits) -> dict[str, Any]:
    sentence, focus = _sentence_focus(get)
    return encode_lesson(lesson.explain_lesson(sentence, _options(get, edits), focus=focus))


def api_sweep(request: Request) -> JSONResponse:
    get = request.query_params.get
    sentence, focus = _sentence_focus(get)
    opts = _options(get, _query_edits(request))
    lo, hi = number(get("t_min"), "t_min"), number(get("t_max"), "t_max")
    steps = whole(get("steps"), "steps", range(2, 202))
    ts = temperatures(lo or T_MIN, hi or T_MAX, steps=steps or T_STEPS)
    head = whole(get("head"), "head", range(1, 3)) or 1
    plain = replace(opts, mode="scaled", axis="keys", temperature=None)
    run = lesson.compute(sentence, plain, head=head - 1)
    f = lesson.focus_index(run.trace.tokens, focus)
    return JSONResponse(encode_sweep(sweep(run.trace, f, ts=ts)))


def api_shuffle(request: Request) -> JSONResponse:
    get = request.query_params.get
    sentence, _ = _sentence_focus(get)
    opts = _options(get, _query_edits(request))
    seed = whole(get("seed"), "seed", range(0, 2**32)) or 0
    checks = shuffle_every_kind(sentence, opts, seed=seed)
    return JSONResponse(
        {"seed": seed, "kinds": list(KINDS), **{k: encode_shuffle(c) for k, c in checks.items()}}
    )


def api_cost(request: Request) -> JSONResponse:
    get = request.query_params.get
    max_n = whole(get("max_n"), "max_n", range(8, 4097)) or 2048
    d = whole(get("d"), "d", range(1, 513)) or 64
    per_octave = whole(get("per_octave"), "per_octave", range(1, 9)) or 2
    return JSONResponse(encode_cost(measure(sizes(max_n, per_octave=per_octave), d=d)))


def api_lab(request: Request) -> JSONResponse:
    return JSONResponse(
        {
            "positions": list(KINDS),
            "heads": [1, 2],
            "head_names": [h.name for h in lesson.HEADS],
            "temperature": {"min": T_MIN, "max": T_MAX, "steps": T_STEPS, "sqrt_d_k": 2.0},
            "edit_limit": LIMIT,
            "edit_params": EDIT_PARAMS,
            "sinusoidal_scale": lesson.SINUSOIDAL_SCALE,
            "rope_speed": lesson.ROPE_SPEED,
            "cost": {"max_n": MAX_N, "d": D, "default_max_n": 2048},
        }
    )


def _post_lesson(body: object) -> JSONResponse:
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object of the lesson's options", "body")
    edits = Edits.from_json(body.get("edits"), dim_names=lesson.DIM_NAMES)
    return JSONResponse(_explain_from(body.get, edits))


def api_lesson(request: Request) -> JSONResponse:
    """GET /api/lesson: the explanation for the query's sentence, focus, mode and lab options."""
    return JSONResponse(_explain_from(request.query_params.get, _query_edits(request)))


def routes() -> list[Route]:
    """The lesson's and the lab's routes, each wrapped by the error guard."""

    async def post_lesson(request: Request) -> Response:
        try:
            body: object = await request.json()
        except ValueError:
            body = None
        response: Response = await guard(lambda _: _post_lesson(body))(request)
        return response

    return [
        Route("/api/lesson", guard(api_lesson), methods=["GET"]),
        Route("/api/lesson", post_lesson, methods=["POST"]),
        Route("/api/sweep", guard(api_sweep)),
        Route("/api/shuffle", guard(api_shuffle)),
        Route("/api/cost", guard(api_cost)),
        Route("/api/lab", guard(api_lab)),
    ]
