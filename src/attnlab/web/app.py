"""The local web app: the lesson page, its static files and a declared JSON API over the same
core as the CLI.

Routes (all answers JSON except the page and its static files):

    /                      the lesson page (static/index.html)
    /static/{name}         the page's ES modules and CSS, shipped as package data
    /openapi.json          the declared contract of every route below (OpenAPI 3.1)
    /api/presets, /api/lesson (GET or POST), /api/sweep, /api/shuffle, /api/cost, /api/lab
                           the toy lesson and its lab: lesson_routes.py
    /api/model/info, /api/model/trace, /api/model/compare
                           a real model's heads and two contexts compared: model_routes.py

FastAPI on Starlette. Requests and answers are pydantic models (requests_*.py, schemas_*.py);
an unknown parameter is refused by name, and every refusal answers {"error": message,
"field": name} (error_replies.py) so the page can show it next to the control at fault.
FastAPI's docs pages load their scripts from a CDN, so they are off: nothing the page or the
API serves comes from elsewhere.
"""

from __future__ import annotations

import os
import threading
import webbrowser
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.staticfiles import StaticFiles

import attnlab
from attnlab.web import error_replies, lesson_routes, model_routes, model_views_routes
from attnlab.web.error_replies import ERROR_RESPONSES

__all__ = ["create_app", "serve"]

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


def create_app() -> FastAPI:
    """The ASGI app: the page, its static files and the JSON API."""
    app = FastAPI(
        title="attnlab",
        version=attnlab.__version__,
        description=__doc__,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    error_replies.install(app)
    app.include_router(lesson_routes.router)
    app.include_router(model_routes.router)
    app.include_router(model_views_routes.router)
    static = StaticFiles(directory=STATIC)

    @app.get("/", response_class=HTMLResponse, responses=_PAGE, tags=["page"])
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


def serve(*, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the app under uvicorn until interrupted."""
    import uvicorn

    url = f"http://{host}:{port}/"
    print(f"attnlab: the lesson is at {url} (Ctrl+C to stop)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
