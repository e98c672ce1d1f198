"""The local web app: the lesson page and a JSON API over the same core as the CLI.

Routes (all GET, all answers JSON except the page and its static files):

    /                      the lesson page (static/index.html)
    /static/{file}         the page's ES modules and CSS, shipped as package data
    /api/lesson            ?sentence=&focus=&mode=&axis=  ->  Explanation.to_dict()
    /api/presets           the presets, the vocabulary, the modes and the limits
    /api/model/...         a real model's heads and the Compare contexts panel: api_models.py
    /api/lesson (POST), /api/sweep, /api/shuffle, /api/cost, and the lab's options on
    /api/lesson (temperature, positions, causal, heads, shuffle, set...): see api_lab.py

Bad input answers 400 with {"error": message, "field": name} so the page can show the message
next to the control that caused it; an unexpected failure answers 500 with a message, and the
server keeps serving. Nothing is fetched from elsewhere: the page is self-contained.
"""

from __future__ import annotations

import threading
import webbrowser
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from attnlab import api_lab, lesson
from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    TooLongError,
    UnknownModeError,
    UnknownWordError,
)
from attnlab.explain import explain_lesson
from attnlab.types import AXES, MODES

STATIC = Path(str(files("attnlab") / "static"))
MAX_QUERY_CHARS = 500
"""A request's text parameters may not exceed this many characters (before tokenizing)."""

_FIELDS: dict[type[AttnlabError], str] = {
    UnknownWordError: "sentence",
    EmptySequenceError: "sentence",
    TooLongError: "sentence",
    FocusError: "focus",
    UnknownModeError: "mode",
}


class BadRequest(AttnlabError):
    """A request the API cannot read (a missing, unknown or over-long parameter)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def error_response(exc: AttnlabError, status: int = 400) -> JSONResponse:
    """{"error": message, "field": the input it concerns} with a 4xx status."""
    field = getattr(exc, "field", None) or next(
        (name for cls, name in _FIELDS.items() if isinstance(exc, cls)), None
    )
    return JSONResponse({"error": str(exc), "field": field}, status_code=status)


def _param(request: Request, name: str, default: str | None = None) -> str | None:
    value = request.query_params.get(name, default)
    if value is not None and len(value) > MAX_QUERY_CHARS:
        raise BadRequest(
            f"{name} is {len(value)} characters long; the limit is {MAX_QUERY_CHARS}", name
        )
    return value


def _choice(request: Request, name: str, allowed: tuple[str, ...]) -> Any:
    value = _param(request, name, allowed[0])
    if value not in allowed:
        raise BadRequest(f"unknown {name} {value!r}: expected one of {', '.join(allowed)}", name)
    return value


def api_lesson(request: Request) -> JSONResponse:
    sentence = _param(request, "sentence", lesson.DEFAULT_SENTENCE) or ""
    ex = explain_lesson(
        sentence,
        focus=_param(request, "focus") or None,
        mode=_choice(request, "mode", MODES),
        axis=_choice(request, "axis", AXES),
        **api_lab.lesson_options(request),
    )
    return JSONResponse(ex.to_dict())


def api_presets(request: Request) -> JSONResponse:
    return JSONResponse(
        {
            "presets": [
                {"name": p.name, "sentence": p.sentence, "focus": p.focus, "blurb": p.blurb}
                for p in lesson.PRESETS
            ],
            "vocabulary": sorted(lesson.VOCABULARY),
            "dim_names": list(lesson.DIM_NAMES),
            "modes": list(MODES),
            "axes": list(AXES),
            "max_tokens": lesson.MAX_TOKENS,
        }
    )


def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


Endpoint = Callable[[Request], Response]


def _guard(endpoint: Endpoint) -> Callable[[Request], Any]:
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


def create_app() -> Starlette:
    """The ASGI app: the page, its static files and the JSON API."""
    routes = [
        Route("/", index),
        Route("/api/lesson", _guard(api_lesson)),
        Route("/api/presets", _guard(api_presets)),
        *_model_routes(),
        *api_lab.routes(_guard),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


def _model_routes() -> list[Route]:
    """The real-model API (api_models.py), imported here because it imports this module."""
    from attnlab.api_models import routes

    return routes()


def serve(*, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the app under uvicorn until interrupted."""
    import uvicorn

    url = f"http://{host}:{port}/"
    print(f"attnlab: the lesson is at {url} (Ctrl+C to stop)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
