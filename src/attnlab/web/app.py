"""The local web app: the lesson page, its static files and a declared JSON API over the same
core as the CLI.

Routes (all answers JSON except the page and its static files):

    /                      the lesson page (static/index.html)
    /static/{name}         the page's ES modules and CSS, shipped as package data
    /openapi.json          the declared contract of every route below (OpenAPI 3.1)
    /api/presets, /api/lesson (GET or POST), /api/sweep, /api/shuffle, /api/cost, /api/lab
                           the toy lesson and its lab: lesson_routes.py
    /api/model/info, /api/model/trace, /api/model/matrix, /api/model/row, /api/model/compare
                           a real model's heads and two contexts compared: model_routes.py
    /api/model/heads, /api/model/mask
                           a layer's head view, a word masked: model_views_routes.py
    /api/export/lesson.html, /api/export/model.html
                           the offline files: export_routes.py
    /api/train, /api/train/start, /api/train/next, /api/train/stop
                           a training run, a chunk of steps a request: train_routes.py
    /api/atlas             a head atlas the server was given (serve --atlas): atlas_routes.py

FastAPI on Starlette. Requests and answers are pydantic models (requests_*.py; the answers
in encode/answers_*.py); an unknown parameter is refused by name, and every refusal answers
{"error": message, "field": name} (error_replies.py) so the page can show it next to the
control at fault.
FastAPI's docs pages load their scripts from a CDN, so they are off: nothing the page or the
API serves comes from elsewhere.

One uvicorn process runs this app. It answers the page, its files, /openapi.json, /api/presets
and /api/lab (encoded once) itself, and hands every computation to a standard executor
(executors.py, offload.py): the toy lesson to a ProcessPoolExecutor of one process a core
(os.sched_getaffinity), the models to one worker process that keeps them and their traces and
answers each request on a thread of its own (model_service.py), the cost measurement to its own
child (apart.py). Each request first passes the edge (edge.py: Host allowlist, body limits,
security headers), sized by one ServerOptions (server_options.py). No route redirects (a
trailing slash is not found), so no answer repeats the Host header.

How it holds under load (200 clients, the toy and the models mixed) is measured by
benchmarks/load.py; its docstring has the figures.
"""

from __future__ import annotations

import inspect
import os
import sys
import threading
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

import attnlab
from attnlab.web import (
    atlas_routes,
    cheaper_model_routes,
    cheaper_routes,
    error_replies,
    export_routes,
    lesson_routes,
    model_routes,
    model_views_routes,
    train_routes,
)
from attnlab.web.edge import Edge
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.offload import Executors
from attnlab.web.requests_model import MAX_TEXT_CHARS
from attnlab.web.server_options import ServerOptions

MAX_REQUEST_HEAD_BYTES = 12 * MAX_TEXT_CHARS + 64 * 1024
"""The request line and headers uvicorn reads before it answers a bare 400: room for a text of
MAX_TEXT_CHARS characters of 4 UTF-8 bytes each, percent-encoded (12 bytes a character), so an
over-long text reaches the API's own message naming the limit. (uvicorn's default is 16 KB.)"""

SWITCH_INTERVAL = 0.0005

__all__ = [
    "ServerOptions",
    "create_app",
    "uvicorn_config",
]

STATIC = Path(str(files("attnlab") / "static"))
_PAGE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/html": {}}, "description": "the lesson page"}
}
_FILE: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/javascript": {}, "text/css": {}, "text/html": {}},
        "description": "one of the page's files",
    }
}


NO_TELEMETRY = {
    "tracing": False, "metrics": False, "logs": False, "operation_spans": False,
    "auto_configure": False,
}  # fmt: skip
"""FastAPI's own OpenTelemetry, all of it off: it records spans, metrics and logs (request
bodies, exception messages) to whatever provider the process has, and sends them out when
FASTAPI_OTEL_AUTO_CONFIGURE is set. attnlab sends nothing anywhere. (FastAPI older than its
`telemetry` argument has none to turn off.)"""


def _without_telemetry() -> dict[str, Any]:
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters:
        return {"telemetry": NO_TELEMETRY}
    return {}


class _App(FastAPI):
    """FastAPI with the edge outside everything, its own error pages included."""

    def build_middleware_stack(self) -> ASGIApp:
        return Edge(super().build_middleware_stack(), self.state.options)


def create_app(
    options: ServerOptions | None = None,
    folders: tuple[str, ...] = (),
    atlases: tuple[str, ...] = (),
) -> FastAPI:
    """The ASGI app: the page, its static files and the JSON API, sized by `options`; its
    models' worker also serves the model `folders` (see `serve_folder`), /api/atlas the atlas
    files `atlases` (read here, once). The workers start on first use and stop with the app
    (its lifespan, or once it is garbage)."""
    options = options or ServerOptions()
    served_atlases = atlas_routes.served_atlases(atlases)
    executors = Executors(options, folders)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        threading.Thread(target=executors.start, name="attnlab-start", daemon=True).start()
        before = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        yield
        sys.setswitchinterval(before)
        executors.close()

    app = _App(
        title="attnlab",
        version=attnlab.__version__,
        description=__doc__,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        redirect_slashes=False,
        lifespan=lifespan,
        **_without_telemetry(),
    )
    app.state.options = options
    app.state.executors = executors
    app.state.atlases = served_atlases
    weakref.finalize(app, executors.close)
    error_replies.install(app)
    app.include_router(lesson_routes.router)
    app.include_router(cheaper_routes.router)
    app.include_router(cheaper_model_routes.router)
    app.include_router(model_routes.router)
    app.include_router(model_views_routes.router)
    app.include_router(export_routes.router)
    app.include_router(train_routes.router)
    app.include_router(atlas_routes.router)
    static = StaticFiles(directory=STATIC)

    @app.get(
        "/", response_class=HTMLResponse, responses={**_PAGE, **ERROR_RESPONSES}, tags=["page"]
    )
    def index() -> Response:
        """The lesson page; its own state (sentence, beat, lab) rides in the query string."""
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get(
        "/static/{name:path}",
        response_class=Response,
        responses={**_FILE, **ERROR_RESPONSES},
        tags=["page"],
    )
    async def static_file(name: str, request: Request) -> Response:
        """A file of the page (package data; a path outside the folder is not found)."""
        return await static.get_response(os.path.normpath(name), request.scope)

    return app


def uvicorn_config(
    app: ASGIApp,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
) -> Any:
    """How attnlab runs `app` under uvicorn (serve, and the tests' live servers): quiet, and with
    room in the request head for the longest text the API takes (MAX_REQUEST_HEAD_BYTES).
    HTTP is parsed by h11, the one of uvicorn's parsers that bounds a request head, and the event
    loop is asyncio's even where uvloop is installed: in a process whose threads computed (the
    models, before they had a worker of their own), uvloop's loop starved while a 2,048-token
    model page's work went on, and the next page's files took over 10 s (with asyncio's the same
    browser tests pass).
    """
    import uvicorn

    return uvicorn.Config(
        app, host=host.strip("[]"), port=port, log_level="warning", access_log=False,
        ws="none", http="h11", loop="asyncio",
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
    )  # fmt: skip
