"""The JSON API of the lesson's lab: the options that break the lookup on purpose, and its plots.

Wired into server.py's app (`routes`) and its `/api/lesson` (`lesson_options`). Routes:

    GET  /api/lesson   also takes  temperature=T  positions=none|sinusoidal|rope  causal=1
                       heads=1|2  shuffle=SEED  set=TOKEN=x,y,z,w (repeatable; embeddings)
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

import math
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from attnlab import lesson
from attnlab.cost import MAX_N, D, measure, sizes
from attnlab.edits import FIELDS, LIMIT, Edits, Role
from attnlab.errors import AttnlabError
from attnlab.explain import explain_lesson
from attnlab.positions import KINDS, check_kind
from attnlab.saturation import T_MAX, T_MIN, T_STEPS, sweep, temperatures
from attnlab.shuffle import shuffle_every_kind
from attnlab.types import AXES, MODES

__all__ = ["LabRequestError", "lesson_options", "routes"]

MAX_CHARS = 500
"""No parameter may be longer than this (the server's limit for text)."""
EDIT_PARAMS: dict[str, Role] = {name: role for role, name in FIELDS.items()}
_TRUE, _FALSE = {"1", "true", "on", "yes"}, {"", "0", "false", "off", "no"}


class LabRequestError(AttnlabError):
    """A lab parameter the API cannot read; `field` names it for the page."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def _text(value: object, name: str) -> str:
    text = "" if value is None else str(value)
    if len(text) > MAX_CHARS:
        raise LabRequestError(
            f"{name} is {len(text)} characters long; the limit is {MAX_CHARS}", name
        )
    return text.strip()


def _number(value: object, name: str, *, whole: bool = False) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise LabRequestError(f"{name} must be a number, got {value!r}", name)
    try:
        x = float(_text(value, name)) if not isinstance(value, int | float) else float(value)
    except ValueError:
        raise LabRequestError(f"{name} must be a number, got {value!r}", name) from None
    if whole and (not math.isfinite(x) or x != int(x)):
        raise LabRequestError(f"{name} must be a whole number, got {value!r}", name)
    return x


def _flag(value: object, name: str) -> bool:
    if isinstance(value, bool) or value is None:
        return bool(value)
    text = _text(value, name).lower()
    if text not in _TRUE | _FALSE:
        raise LabRequestError(f"{name} must be true or false (1 or 0), got {value!r}", name)
    return text in _TRUE


def _whole(value: object, name: str, allowed: range) -> int | None:
    x = _number(value, name, whole=True)
    if x is not None and int(x) not in allowed:
        raise LabRequestError(
            f"{name} must be between {allowed.start} and {allowed.stop - 1}, got {value!r}", name
        )
    return None if x is None else int(x)


def _options(get: Callable[[str], object]) -> dict[str, Any]:
    heads = _whole(get("heads"), "heads", range(1, 3))
    positions = _text(get("positions"), "positions").lower() or "none"
    return {
        "temperature": _number(get("temperature"), "temperature"),
        "positions": check_kind(positions),
        "causal": _flag(get("causal"), "causal"),
        "heads": heads if heads is not None else 1,
        "shuffle": _whole(get("shuffle"), "shuffle", range(0, 2**32)),
    }


def _query_edits(request: Request) -> Edits:
    specs: dict[Role, list[str]] = {}
    for name, role in EDIT_PARAMS.items():
        specs[role] = [_text(v, name) for v in request.query_params.getlist(name) if v.strip()]
    return Edits.parse(specs, dim_names=lesson.DIM_NAMES)


def lesson_options(request: Request) -> dict[str, Any]:
    """The lab's keyword options for `explain_lesson`, read from a GET request's query."""
    options = _options(request.query_params.get)
    options["edits"] = _query_edits(request)
    return options


def _lesson_args(get: Callable[[str], object]) -> dict[str, Any]:
    """sentence, focus, mode, axis: the lesson's own parameters, checked as server.py does."""
    out: dict[str, Any] = {}
    sentence = get("sentence")
    out["sentence"] = lesson.DEFAULT_SENTENCE if sentence is None else _text(sentence, "sentence")
    focus = get("focus")
    out["focus"] = (
        None
        if focus in (None, "")
        else (focus if isinstance(focus, int) else _text(focus, "focus"))
    )
    for name, allowed in (("mode", MODES), ("axis", AXES)):
        value = get(name) or allowed[0]
        if value not in allowed:
            raise LabRequestError(
                f"unknown {name} {value!r}: expected one of {', '.join(allowed)}", name
            )
        out[name] = value
    return out


def _explain_from(get: Callable[[str], object], edits: Edits) -> dict[str, Any]:
    args = _lesson_args(get)
    return explain_lesson(args.pop("sentence"), **args, **_options(get), edits=edits).to_dict()


def api_sweep(request: Request) -> JSONResponse:
    get = request.query_params.get
    args = _lesson_args(get)
    opts = _options(get)
    lo, hi = _number(get("t_min"), "t_min"), _number(get("t_max"), "t_max")
    steps = _whole(get("steps"), "steps", range(2, 202))
    ts = temperatures(lo or T_MIN, hi or T_MAX, steps=steps or T_STEPS)
    head = _whole(get("head"), "head", range(1, 3)) or 1
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
    seed = _whole(get("seed"), "seed", range(0, 2**32)) or 0
    checks = shuffle_every_kind(
        args["sentence"], seed=seed, mode=args["mode"], axis=args["axis"],
        temperature=opts["temperature"], causal=opts["causal"], edits=_query_edits(request),
    )  # fmt: skip
    return JSONResponse(
        {"seed": seed, "kinds": list(KINDS), **{k: c.to_dict() for k, c in checks.items()}}
    )


def api_cost(request: Request) -> JSONResponse:
    get = request.query_params.get
    max_n = _whole(get("max_n"), "max_n", range(8, 4097)) or 2048
    d = _whole(get("d"), "d", range(1, 513)) or 64
    per_octave = _whole(get("per_octave"), "per_octave", range(1, 9)) or 2
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
        raise LabRequestError("the body must be a JSON object of the lesson's options", "body")
    edits = Edits.from_json(body.get("edits"), dim_names=lesson.DIM_NAMES)
    return JSONResponse(_explain_from(body.get, edits))


Guard = Callable[[Callable[[Request], Response]], Callable[[Request], Any]]


def routes(guard: Guard) -> list[Route]:
    """The lab's routes, each wrapped by the server's error guard."""

    async def post_lesson(request: Request) -> Response:
        try:
            body: object = await request.json()
        except ValueError:
            body = None
        response: Response = await guard(lambda _: _post_lesson(body))(request)
        return response

    return [
        Route("/api/lesson", post_lesson, methods=["POST"]),
        Route("/api/sweep", guard(api_sweep)),
        Route("/api/shuffle", guard(api_shuffle)),
        Route("/api/cost", guard(api_cost)),
        Route("/api/lab", guard(api_lab)),
    ]
