"""Reading the JSON API's requests: every parameter checked, every bad one named.

All routes (server.py, api_lab.py, api_models.py) read their parameters through these helpers
and are wrapped by `guard`, so bad input always answers 400 with {"error": message, "field":
name}, which the page shows next to the control named by `field`; anything unexpected answers
500 with a message, and the server keeps serving.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    TooLongError,
    UnknownModeError,
    UnknownWordError,
)

MAX_CHARS = 500
"""No text parameter may be longer than this many characters (checked before tokenizing)."""

_TRUE, _FALSE = {"1", "true", "on", "yes"}, {"", "0", "false", "off", "no"}
_FIELDS: dict[type[AttnlabError], str] = {
    UnknownWordError: "sentence",
    EmptySequenceError: "sentence",
    TooLongError: "sentence",
    FocusError: "focus",
    UnknownModeError: "mode",
}


class BadRequest(AttnlabError):
    """A parameter the API cannot read; `field` names it for the page."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def text(value: object, name: str, *, limit: int = MAX_CHARS) -> str:
    """`value` as stripped text ("" when absent), refused past `limit` characters."""
    out = "" if value is None else str(value)
    if len(out) > limit:
        raise BadRequest(f"{name} is {len(out)} characters long; the limit is {limit}", name)
    return out.strip()


def number(value: object, name: str, *, whole: bool = False) -> float | None:
    """`value` as a float (None when absent or blank); `whole` refuses fractions."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    wrong = BadRequest(f"{name} must be {'a whole' if whole else 'a'} number, got {value!r}", name)
    if isinstance(value, bool):
        raise wrong
    try:
        x = float(value) if isinstance(value, int | float) else float(text(value, name))
    except ValueError:
        raise wrong from None
    if whole and (not math.isfinite(x) or x != int(x)):
        raise wrong
    return x


def whole(value: object, name: str, allowed: range) -> int | None:
    """`value` as an int inside `allowed` (None when absent)."""
    x = number(value, name, whole=True)
    if x is not None and int(x) not in allowed:
        raise BadRequest(
            f"{name} must be between {allowed.start} and {allowed.stop - 1}, got {value!r}", name
        )
    return None if x is None else int(x)


def flag(value: object, name: str) -> bool:
    """`value` as a yes/no: true/false, 1/0, on/off, yes/no (absent is no)."""
    if isinstance(value, bool) or value is None:
        return bool(value)
    word = text(value, name).lower()
    if word not in _TRUE | _FALSE:
        raise BadRequest(f"{name} must be true or false (1 or 0), got {value!r}", name)
    return word in _TRUE


def choice(value: object, name: str, allowed: tuple[str, ...]) -> Any:
    """`value` if it is one of `allowed` (absent or blank means the first)."""
    picked = text(value, name) or allowed[0]
    if picked not in allowed:
        raise BadRequest(f"unknown {name} {picked!r}: expected one of {', '.join(allowed)}", name)
    return picked


def error_response(exc: AttnlabError, status: int = 400) -> JSONResponse:
    """{"error": message, "field": the input it concerns} with a 4xx status."""
    field = getattr(exc, "field", None) or next(
        (name for cls, name in _FIELDS.items() if isinstance(exc, cls)), None
    )
    return JSONResponse({"error": str(exc), "field": field}, status_code=status)


Endpoint = Callable[[Request], Response]


def guard(endpoint: Endpoint) -> Callable[[Request], Any]:
    """Turn AttnlabError into a 400 and anything unexpected into a 500, both as JSON."""

    async def wrapped(request: Request) -> Response:
        try:
            return endpoint(request)
        except AttnlabError as exc:
            return error_response(exc)
        except Exception as exc:  # the server keeps serving; the page shows the message
            return JSONResponse(
                {"error": f"internal error: {type(exc).__name__}: {exc}", "field": None},
                status_code=500,
            )

    return wrapped
