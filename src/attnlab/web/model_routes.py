"""A real model's routes: one head's six beats with a heads grid, and two contexts compared.

    GET /api/model/info     sizes, limits and the known models (requests_model.ModelQuery)
    GET /api/model/trace    one head's explanation, "model" and "grid" (ModelTraceQuery)
    GET /api/model/matrix   one head's whole matrix as a picture (MatrixQuery)
    GET /api/model/row      one query row's weights over every key (RowQuery)
    GET /api/model/compare  one word's rows in two texts, layer by layer (CompareQuery)

The models and their last traces and heads are kept in the models' worker (models/kept.py), so
stepping through the heads of one text runs the forward pass once. A request names a known model
or a folder the server was started with, never a path. Each handler hands a plain function to
that worker (model_service.py: one process, a thread per request), which computes one head's
view once (models/head_view.py) and encodes it there into its declared answer
(encode/head_json.py), the same answer the widget and the offline file carry. A forward pass
over more than ServerOptions.heavy_tokens tokens that is not kept yet is heavy work: it takes a
heavy slot, or answers 503 when they and their queue are full.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from attnlab.core.trace import Trace
from attnlab.encode.answers_model import (
    ComparisonAnswer,
    MatrixAnswer,
    ModelInfoAnswer,
    ModelTraceAnswer,
    RowAnswer,
)
from attnlab.encode.head_json import encode_head_view, encode_info
from attnlab.encode.model_json import GRIDS, encode_comparison, encode_matrix, encode_row
from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    TooLongError,
    UnknownHeadError,
)
from attnlab.export.standalone import MODEL_TOKENS_AT_MOST
from attnlab.models import ModelTrace
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD, compare
from attnlab.models.head_view import head_view, model_summary
from attnlab.models.kept import cached_head, cached_model, cached_trace, description, model_names
from attnlab.models.matrix_view import matrix_view
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.executors import json_answer
from attnlab.web.heavy import HeavyGate
from attnlab.web.offload import on_models
from attnlab.web.requests_model import (
    MAX_TEXT_CHARS,
    CompareQuery,
    HeadQuery,
    MatrixQuery,
    ModelQuery,
    ModelTraceQuery,
    RowQuery,
)
from attnlab.web.server_options import ServerOptions

__all__ = ["cached_model", "checked_trace", "configure", "heavy_slot", "router"]

router = APIRouter(prefix="/api/model", tags=["model"], responses=ERROR_RESPONSES)

_options = ServerOptions()
_gate = HeavyGate(_options)


def configure(options: ServerOptions) -> None:
    """In the models' worker, before any request: the server's heavy-work limits."""
    global _options, _gate
    _options, _gate = options, HeavyGate(options)


def heavy_slot(what: str, tokens: int) -> AbstractContextManager[None]:
    """A heavy slot (heavy.py) for work on more than ServerOptions.heavy_tokens tokens."""
    return _gate.slot(what) if tokens > _options.heavy_tokens else nullcontext()


def _trace(name: str, text: str, field: str) -> ModelTrace:
    """The trace of `text`; a text that is empty or too long is refused against `field`."""
    try:
        return cached_trace(name, text, heavy=lambda tokens: heavy_slot("long model trace", tokens))
    except (EmptySequenceError, TooLongError) as exc:
        raise AttnlabError(str(exc), field=field) from None


def checked_trace(params: HeadQuery) -> ModelTrace:
    """The kept trace of the text (a long one computed in a heavy slot), its layer and head
    checked against the model. For export_routes.py too."""
    mt = _trace(params.model, params.text, "text")
    _index(params.layer, "layer", mt.n_layers)
    _index(params.head, "head", mt.n_heads)
    return mt


def _head(params: HeadQuery) -> tuple[ModelTrace, Trace]:
    """The checked trace of the text and the asked head."""
    mt = checked_trace(params)
    return mt, cached_head(params.model, params.text, mt, params.layer, params.head)


def _index(value: int, field: str, size: int) -> int:
    if value >= size:
        raise UnknownHeadError(
            f"{field} must be between 0 and {size - 1}, got {value}", field=field
        )
    return value


def _info(params: ModelQuery) -> Response:
    model = cached_model(params.model)
    summary = replace(model_summary(model), description=description(params.model, model))
    return json_answer(encode_info(
        summary, known_models=model_names(), grids=GRIDS, max_text_chars=MAX_TEXT_CHARS,
        compare_defaults=(DEFAULT_WORD, DEFAULT_A, DEFAULT_B),
        html_max_tokens=MODEL_TOKENS_AT_MOST,  # the Export menu says so before the click
    ))  # fmt: skip


@router.get("/info", response_model=ModelInfoAnswer)
async def model_info(params: Annotated[ModelQuery, Query()], request: Request) -> Response:
    """A model's sizes and the limits of the text it takes."""
    return await on_models(request, _info, params)


def _trace_answer(params: ModelTraceQuery) -> Response:
    mt, t = _head(params)
    view = head_view(
        mt, layer=params.layer, head=params.head, focus=params.focus, mode=params.mode,
        axis=params.axis, grid=params.grid, kept=t,
    )  # fmt: skip
    return json_answer(encode_head_view(view))


@router.get("/trace", response_model=ModelTraceAnswer, responses=BUSY_RESPONSES)
async def model_trace(params: Annotated[ModelTraceQuery, Query()], request: Request) -> Response:
    """One head's six beats for a focus token, with every head's row (or matrix) beside it."""
    return await on_models(request, _trace_answer, params)


def _matrix(params: MatrixQuery) -> Response:
    mt, t = _head(params)
    view = matrix_view(
        mt, t, layer=params.layer, head=params.head, how=params.pool, specials=params.specials
    )
    return json_answer(encode_matrix(view))


@router.get("/matrix", response_model=MatrixAnswer, responses=BUSY_RESPONSES)
async def model_matrix(params: Annotated[MatrixQuery, Query()], request: Request) -> Response:
    """One head's whole matrix as a picture: uint16 codes, block-pooled for a long text."""
    return await on_models(request, _matrix, params)


def _row(params: RowQuery) -> Response:
    mt, t = _head(params)
    row = _index(params.row, "row", mt.n)
    return json_answer(encode_row(t, row, layer=params.layer, head=params.head))


@router.get("/row", response_model=RowAnswer, responses=BUSY_RESPONSES)
async def model_row(params: Annotated[RowQuery, Query()], request: Request) -> Response:
    """One query row's weights over every key, float32: a row's numbers on demand."""
    return await on_models(request, _row, params)


def _compare(params: CompareQuery) -> Response:
    a = _trace(params.model, params.a, "a")
    b = _trace(params.model, params.b, "b")
    try:
        result = compare(
            a, b, params.word, occurrence_a=params.occurrence_a, occurrence_b=params.occurrence_b
        )
    except FocusError as exc:  # the word is in neither text, or its occurrence in one is not
        said = str(exc)
        field = "occurrence_a" if said.startswith("in text a") else "occurrence_b"
        field = "word" if " is not a token of text " in said else field
        raise AttnlabError(said, field=field) from None
    return json_answer(encode_comparison(result))  # with A − B on the keys both texts hold


@router.get("/compare", response_model=ComparisonAnswer, responses=BUSY_RESPONSES)
async def model_compare(params: Annotated[CompareQuery, Query()], request: Request) -> Response:
    """One word's attention rows in two texts and the cosine of its vectors, layer by layer."""
    return await on_models(request, _compare, params)
