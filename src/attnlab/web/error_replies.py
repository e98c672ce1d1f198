"""Every refusal as one JSON shape: {"error": message, "field": name}.

The page shows the message next to the control named by `field`. Five kinds of failure reach
the client, each through one handler installed by `install`:

    a request that breaks its declared model   400, pydantic's refusal put into plain words
    an AttnlabError raised while computing     400, its message and its `field`
    an HTTP error (no such route, method)      its status, with its reason
    every heavy slot and its queue taken       503 with Retry-After (heavy.Busy)
    anything unexpected                        500 with a message; the server keeps serving

`ERROR_RESPONSES` declares these bodies in `/openapi.json` for every route; `BUSY_RESPONSES`
adds the 503 of the heavy routes and `BODY_RESPONSES` the 413 and 415 of a JSON body (the edge,
edge.py, answers those and a refused Host in the same shape).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from attnlab.encode.answers_trace import Answer
from attnlab.errors import AttnlabError
from attnlab.web.heavy import Busy

__all__ = [
    "BODY_RESPONSES",
    "BUSY_RESPONSES",
    "ERROR_RESPONSES",
    "ErrorAnswer",
    "describe",
    "install",
    "refusal",
    "reply",
]


class ErrorAnswer(Answer):
    """Why a request was refused, and the parameter (the page's control) it concerns."""

    error: str
    field: str | None


def _declared(description: str, **more: Any) -> dict[str, Any]:
    """One refusal as `/openapi.json` declares it: the error shape and what it means."""
    return {"model": ErrorAnswer, "description": description, **more}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _declared("a parameter, the body or the Host header was refused; `field` names it"),
    "4XX": _declared("no such route or method"),
    "5XX": _declared("an unexpected failure, with its message"),
}
_RETRY_AFTER = {
    "description": "seconds to wait before asking again",
    "schema": {"type": "integer", "minimum": 1},
}
BUSY_RESPONSES: dict[int | str, dict[str, Any]] = {
    503: _declared(
        "every slot for heavy work and its queue are taken, or the worker stopped and a "
        "new one is starting: ask again later",
        headers={"Retry-After": _RETRY_AFTER},
    ),
}
BODY_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: _declared("the body is longer than the server's limit"),
    415: _declared("the body is not sent as application/json"),
}

_EXPECTED = {
    "string_type": "text",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_parsing_size": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false (1 or 0)",
    "bool_parsing": "true or false (1 or 0)",
    "list_type": "a list",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
}

_BOUNDS = {
    "greater_than": ("greater than", "gt"),
    "greater_than_equal": ("at least", "ge"),
    "less_than": ("less than", "lt"),
    "less_than_equal": ("at most", "le"),
}


def _got(value: Any) -> str:
    """The offending value, quoted and cut short."""
    text = repr(value.decode(errors="replace") if isinstance(value, bytes) else value)
    return text if len(text) <= 60 else text[:57] + "…"


def _field(loc: Sequence[int | str]) -> str:
    """The parameter an error's location names ("body" for the body as a whole)."""
    parts = [p for p in loc if p not in ("query", "body")]
    return str(parts[0]) if parts and isinstance(parts[0], str) else "body"


def _named(field: str) -> str:
    return "the body" if field == "body" else field


def _one(error: dict[str, Any], field: str) -> tuple[str, str]:
    kind, ctx = error["type"], error.get("ctx") or {}
    name = _named(field)
    cause = ctx.get("error")
    if isinstance(cause, AttnlabError):
        return str(cause), cause.field or field
    if "field" in ctx or kind == "out_of_range":  # our own messages, already in words
        return str(error["msg"]), str(ctx.get("field", field))
    if isinstance(cause, ValueError):
        return f"{name}: {cause}", field
    got = _got(error.get("input"))
    if kind == "literal_error":
        return f"unknown {name} {got}: expected {ctx.get('expected')}", field
    if kind == "string_too_long":
        size = len(error["input"]) if isinstance(error.get("input"), str) else "too many"
        return f"{name} is {size} characters long; the limit is {ctx.get('max_length')}", field
    if kind == "json_invalid":
        return f"the body is not valid JSON ({ctx.get('error', 'unreadable')})", "body"
    if kind in _BOUNDS:
        word, key = _BOUNDS[kind]
        bound = ctx.get(key)
        bound = f"{bound:g}" if isinstance(bound, float) else bound
        return f"{name} must be {word} {bound}, got {got}", field
    if kind == "missing":
        return f"{name} is missing", field
    if kind in _EXPECTED:
        return f"{name} must be {_EXPECTED[kind]}, got {got}", field
    return f"{name} was refused ({kind}), got {got}", field


def describe(errors: Sequence[Any]) -> tuple[str, str]:
    """(message, field) for a request's validation errors, in plain words.

    Only the first parameter at fault is reported, as the page shows one message. When a
    parameter may be one of several kinds (a focus is a word or an index), their wants are
    joined: "focus must be a whole number or text, got [1]".
    """
    first = errors[0]
    field = _field(first["loc"])
    same = [e for e in errors if _field(e["loc"]) == field and e["type"] in _EXPECTED]
    if len(same) > 1 and first["type"] in _EXPECTED:
        wants = " or ".join(dict.fromkeys(_EXPECTED[e["type"]] for e in same))
        return f"{_named(field)} must be {wants}, got {_got(first.get('input'))}", field
    return _one(first, field)


def reply(
    message: str, field: str | None, status: int, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The one error shape, {"error": message, "field": field}, with its status (and headers)."""
    return JSONResponse({"error": message, "field": field}, status_code=status, headers=headers)


def refusal(exc: Exception) -> JSONResponse:
    """Any failure in the one error shape, with its status: the handlers' answer, and a
    worker's (executors.reply)."""
    if isinstance(exc, RequestValidationError):
        return reply(*describe(exc.errors()), status=400)
    if isinstance(exc, AttnlabError):
        return reply(str(exc), exc.field, status=400)
    if isinstance(exc, HTTPException):
        return reply(str(exc.detail), None, status=exc.status_code, headers=exc.headers)
    if isinstance(exc, Busy):
        return reply(str(exc), None, status=503, headers={"Retry-After": str(exc.retry_after)})
    return reply(f"internal error: {type(exc).__name__}: {exc}", None, status=500)


def install(app: FastAPI) -> None:
    """Answer every failure of `app` in the one error shape."""
    for kind in (RequestValidationError, AttnlabError, HTTPException, Busy, Exception):
        app.add_exception_handler(kind, lambda request, exc: refusal(exc))
