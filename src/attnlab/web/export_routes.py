"""The self-contained HTML file of the state on screen, for the page's Export menu.

    GET /api/export/lesson.html   a lesson (requests_lesson.LessonFileQuery)
    GET /api/export/model.html    a real model's text, every head (requests_model.ModelFileQuery)

The answer is export.standalone's text for the same state, byte for byte, sent as a download
(Content-Disposition: attachment) so the page can save it as a blob. The lesson's file is made
in the toy lesson's pool, the model's in the models' worker from the kept trace model_routes
answers from (executors.py).
A model's file is refused over standalone.MODEL_TOKENS_AT_MOST tokens, in the export's words.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from attnlab import lesson
from attnlab.export.standalone import standalone_html
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.model_routes import checked_trace
from attnlab.web.offload import on_models, on_toy
from attnlab.web.requests_lesson import LessonFileQuery
from attnlab.web.requests_model import ModelFileQuery

__all__ = ["file_name", "router"]

router = APIRouter(prefix="/api/export", tags=["export"], responses=ERROR_RESPONSES)

_HTML: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/html": {}},
        "description": "one HTML file that works offline, as an attachment",
    }
}


def file_name(*parts: str) -> str:
    """attnlab-PARTS.html, the parts lower-cased and joined by "-" (as export_data.js names)."""
    slug = "-".join(
        p for p in (re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") for s in parts) if p
    )
    return f"attnlab-{slug[:80] or 'export'}.html"


def _file(html: str, name: str) -> Response:
    return Response(
        html.encode("utf-8"),
        media_type="text/html; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _lesson_file(params: LessonFileQuery) -> Response:
    ex = lesson.explain_lesson(params.sentence, params.options(), focus=params.focus)
    name = file_name(" ".join(ex.trace.tokens), ex.trace.tokens[ex.focus], ex.options.mode)
    return _file(standalone_html(ex, beat=params.beat), name)


@router.get("/lesson.html", response_class=Response, responses=_HTML)
async def lesson_file(params: Annotated[LessonFileQuery, Query()], request: Request) -> Response:
    """The lesson on screen (every token and normalization, the lab's options) as one file."""
    return await on_toy(request, _lesson_file, params)


def _model_file(params: ModelFileQuery) -> Response:
    mt = checked_trace(params)
    html = standalone_html(
        mt, beat=params.beat, layer=params.layer, head=params.head, focus=params.focus
    )
    f = mt.focus_index(params.focus)
    name = file_name(params.model, f"layer {params.layer} head {params.head}", mt.tokens[f])
    return _file(html, name)


@router.get("/model.html", response_class=Response, responses={**_HTML, **BUSY_RESPONSES})
async def model_file(params: Annotated[ModelFileQuery, Query()], request: Request) -> Response:
    """A real model's text, every layer and head following one token, as one file."""
    return await on_models(request, _model_file, params)
