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
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from attnlab import lesson
from attnlab.api_params import BadRequest, choice, flag, guard, number, text, whole
from attnlab.cost import MAX_N, D, measure, sizes
from attnlab.edits import FIELDS, LIMIT, Edits, Role
from attnlab.explain import explain_lesson
from attnlab.positions import KINDS, check_kind
from attnlab.saturation import T_MAX, T_MIN, T_STEPS, sweep, temperatures
from attnlab.shuffle import shuffle_every_kind
from attnlab.types import AXES, MODES

__all__ = ["routes"]

EDIT_PARAMS: dict[str, Role] = {name: role for role, name in FIELDS.items()}


def _options(get: Callable[[str], object]) -> dict[str, Any]:
    heads = whole(get("heads"), "heads", range(1, 3))
    positions = text(get("positions"), "positions").lower() or "none"
    return {
        "temperature": number(get("temperature"), "temperature"),
        "positions": check_kind(positions),
        "causal": flag(get("causal"), "causal"),
        "heads": heads if heads is not None else 1,
        "shuffle": whole(get("shuffle"), "shuffle", range(0, 2**32)),
    }


def _query_edits(request: Request) -> Edits:
    specs: dict[Role, list[str]] = {}
    for name, role in EDIT_PARAMS.items():
        specs[role] = [text(v, name) for v in request.query_params.getlist(name) if v.strip()]
    return Edits.parse(specs, dim_names=lesson.DIM_NAMES)


def _lesson_args(get: Callable[[str], object]) -> dict[str, Any]:
    """sentence, focus, mode, axis: the lesson's own parameters."""
    out: dict[str, Any] = {}
    sentence = get("sentence")
    out["sentence"] = lesson.DEFAULT_SENTENCE if sentence is None else text(sentence, "sentence")
    focus = get("focus")
    out["focus"] = (
        None if focus in (None, "") else (focus if isinstance(focus, int) else text(focus, "focus"))
    )
    out["mode"] = choice(get("mode"), "mode", MODES)
    out["axis"] = choice(get("axis"), "axis", AXES)
    return out


def _explain_from(get: Callable[[str], object], edits: Edits) -> dict[str, Any]:
    args = _lesson_args(get)
    return explain_lesson(args.pop("sentence"), **args, **_options(get), edits=edits).to_dict()


def api_sweep(request: Request) -> JSONResponse:
    get = request.query_params.get
    args = _lesson_args(get)
    opts = _options(get)
    lo, hi = number(get("t_min"), "t_min"), number(get("t_max"), "t_max")
    steps = whole(get("steps"), "steps", range(2, 202))
    ts = temperatures(lo or T_MIN, hi or T_MAX, steps=steps or T_STEPS)
    head = whole(get("head"), "head", range(1, 3)) or 1
    run = lesson.compute(
        args["sentence"], mode="scaled", axis="keys", positions=opts["positions"],
        causal=opts["causal"], edits=_query_edits(request), head=head - 1,
    )  # fmt: skip
    focus = lesson.focus_index(run.trace.tokens, args["focus"])
    return JSONResponse(sweep(run.trace, focus, ts=ts).to_dict())


def api_shuffle(request: Request) -> JSONResponse:
    get = request.query_params.get
    args = _lesson_args(get)
    opts = _options(get)
    seed = whole(get("seed"), "seed", range(0, 2**32)) or 0
    checks = shuffle_every_kind(
        args["sentence"], seed=seed, mode=args["mode"], axis=args["axis"],
        temperature=opts["temperature"], causal=opts["causal"], edits=_query_edits(request),
    )  # fmt: skip
    return JSONResponse(
        {"seed": seed, "kinds": list(KINDS), **{k: c.to_dict() for k, c in checks.items()}}
    )


def api_cost(request: Request) -> JSONResponse:
    get = request.query_params.get
    max_n = whole(get("max_n"), "max_n", range(8, 4097)) or 2048
    d = whole(get("d"), "d", range(1, 513)) or 64
    per_octave = whole(get("per_octave"), "per_octave", range(1, 9)) or 2
    return JSONResponse(measure(sizes(max_n, per_octave=per_octave), d=d).to_dict())


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
