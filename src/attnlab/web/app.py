"""The local web app: the lesson page and a JSON API over the same core as the CLI.

Routes (all answers JSON except the page and its static files):

    /                      the lesson page (static/index.html)
    /static/{file}         the page's ES modules and CSS, shipped as package data
    /api/presets           the presets, the vocabulary, the modes and the limits
    /api/lesson (GET ?sentence=&focus=&mode=&axis=&... or POST), /api/sweep, /api/shuffle,
    /api/cost, /api/lab    the toy lesson and its lab: api_lab.py
    /api/model/...         a real model's heads and the Compare contexts panel: api_models.py

Every route reads its parameters through api_params and is wrapped by its `guard`: bad input
answers 400 with {"error": message, "field": name} so the page can show the message next to the
control that caused it; an unexpected failure answers 500 with a message, and the server keeps
serving. Nothing is fetched from elsewhere: the page is self-contained.
"""

from __future__ import annotations

import threading
import webbrowser
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from attnlab import lesson
from attnlab.core.positions import KINDS
from attnlab.types import AXES, MODES
from attnlab.web import lesson_api, model_api
from attnlab.web.params import guard
from attnlab.words.page import BEAT_TITLES, MODE_CHOICES, PAGE_WORDS

STATIC = Path(str(files("attnlab") / "static"))


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
            "choices": {
                "modes": [{"value": v, "label": lab, "help": h} for v, lab, h in MODE_CHOICES],
                "axes": list(AXES),
                "positions": list(KINDS),
                "beats": [{"key": k, "title": t} for k, t in BEAT_TITLES],
            },
            "words": dict(PAGE_WORDS),
        }
    )


def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


def create_app() -> Starlette:
    """The ASGI app: the page, its static files and the JSON API."""
    routes = [
        Route("/", index),
        Route("/api/presets", guard(api_presets)),
        *model_api.routes(),
        *lesson_api.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


def serve(*, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the app under uvicorn until interrupted."""
    import uvicorn

    url = f"http://{host}:{port}/"
    print(f"attnlab: the lesson is at {url} (Ctrl+C to stop)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
