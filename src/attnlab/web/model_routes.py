"""A real model's routes: one head's six beats with a heads grid, and two contexts compared.

    GET /api/model/info     sizes, limits and the known models (requests_model.ModelQuery)
    GET /api/model/trace    one head's explanation, "model" and "grid" (ModelTraceQuery)
    GET /api/model/matrix   one head's whole matrix as a picture (MatrixQuery)
    GET /api/model/row      one query row's weights over every key (RowQuery)
    GET /api/model/compare  one word's rows in two texts, layer by layer (CompareQuery)

Models are loaded once per process and the last few traces and heads are kept, so stepping
through the heads of one text runs the forward pass once, and a head's beats, picture and rows
share one recomputation. Handlers are plain functions (FastAPI runs them
in its thread pool); each validates the encoder's dict into its declared answer.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query

from attnlab.core.trace import Trace
from attnlab.encode.model_json import (
    GRIDS,
    encode_comparison,
    encode_decoder,
    encode_gqa,
    encode_grid,
    encode_head,
    encode_matrix,
    encode_row,
)
from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    TooLongError,
    UnknownHeadError,
)
from attnlab.models import KNOWN_MODELS, Model, ModelTrace, load_model
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD, compare
from attnlab.models.heads import explain_head
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.requests_model import (
    MAX_TEXT_CHARS,
    CompareQuery,
    HeadQuery,
    MatrixQuery,
    ModelQuery,
    ModelTraceQuery,
    RowQuery,
)
from attnlab.web.schemas_model import (
    ComparisonAnswer,
    MatrixAnswer,
    ModelInfoAnswer,
    ModelTraceAnswer,
    RowAnswer,
)
from attnlab.words.explanation import Explanation

__all__ = ["cached_model", "router"]

router = APIRouter(prefix="/api/model", tags=["model"], responses=ERROR_RESPONSES)


@lru_cache(maxsize=len(KNOWN_MODELS))
def cached_model(name: str) -> Model:
    """The model called `name`, loaded on first use and kept for the life of the process."""
    return load_model(name)


@lru_cache(maxsize=8)  # a 128-token trace holds about 20 MB
def cached_trace(name: str, text: str) -> ModelTrace:
    return cached_model(name).trace(text)


def _trace(name: str, text: str, field: str) -> ModelTrace:
    """The trace of `text`; a text that is empty or too long is refused against `field`."""
    try:
        with _computing:
            return cached_trace(name, text)
    except (EmptySequenceError, TooLongError) as exc:
        raise AttnlabError(str(exc), field=field) from None


_computing = threading.Lock()
"""One forward pass or head at a time: the page asks for a head's beats and its picture at once,
and both must wait for one computation, not start two."""


@lru_cache(maxsize=4)  # a 2,048-token head holds three n × n float32 arrays, 48 MB
def cached_head(name: str, text: str, layer: int, head: int) -> Trace:
    return cached_trace(name, text).head(layer, head)


def _head(params: HeadQuery) -> tuple[ModelTrace, Trace]:
    """The trace of the text and the asked head, its layer and head checked against the model."""
    mt = _trace(params.model, params.text, "text")
    layer = _index(params.layer, "layer", mt.n_layers)
    head = _index(params.head, "head", mt.n_heads)
    with _computing:
        return mt, cached_head(params.model, params.text, layer, head)


def _index(value: int, field: str, size: int) -> int:
    if value >= size:
        raise UnknownHeadError(
            f"{field} must be between 0 and {size - 1}, got {value}", field=field
        )
    return value


@router.get("/info")
def model_info(params: Annotated[ModelQuery, Query()]) -> ModelInfoAnswer:
    """A model's sizes and the limits of the text it takes."""
    with _computing:  # the first call loads the weights; a trace asked meanwhile waits for them
        m = cached_model(params.model)
    c = m.config
    return ModelInfoAnswer.model_validate(
        {
            "model": params.model, "description": KNOWN_MODELS[params.model].description,
            "n_layers": c.n_layers, "n_heads": c.n_heads, "d_model": c.d_model, "d_k": c.d_k,
            "max_tokens": m.max_tokens, "max_text_chars": MAX_TEXT_CHARS,
            "n_kv_heads": c.n_kv_heads, "causal": c.causal,
            "known_models": list(KNOWN_MODELS), "grids": list(GRIDS),
            "compare_defaults": {"word": DEFAULT_WORD, "a": DEFAULT_A, "b": DEFAULT_B},
        }
    )  # fmt: skip


@router.get("/trace")
def model_trace(params: Annotated[ModelTraceQuery, Query()]) -> ModelTraceAnswer:
    """One head's six beats for a focus token, with every head's row (or matrix) beside it."""
    mt, t = _head(params)
    layer, head = params.layer, params.head
    if (params.mode, params.axis) == ("scaled", "keys"):
        ex = Explanation.of(t, mt.focus_index(params.focus))  # the cached head, as the model ran it
    else:
        ex = explain_head(
            mt, layer=layer, head=head, focus=params.focus, mode=params.mode, axis=params.axis
        )
    out = encode_head(mt, ex, layer=layer, head=head)
    out["gqa"] = encode_gqa(mt, layer, head, ex.focus)
    out["decoder"] = encode_decoder(mt, layer, head, ex.focus)
    out["grid"] = encode_grid(mt, ex.focus, params.grid)
    return ModelTraceAnswer.model_validate(out)


@router.get("/matrix")
def model_matrix(params: Annotated[MatrixQuery, Query()]) -> MatrixAnswer:
    """One head's whole matrix as a picture: uint16 codes, block-pooled for a long text."""
    mt, t = _head(params)
    out = encode_matrix(
        mt, t, layer=params.layer, head=params.head, how=params.pool, specials=params.specials
    )
    return MatrixAnswer.model_validate(out)


@router.get("/row")
def model_row(params: Annotated[RowQuery, Query()]) -> RowAnswer:
    """One query row's weights over every key, float32: a row's numbers on demand."""
    mt, t = _head(params)
    row = _index(params.row, "row", mt.n)
    return RowAnswer.model_validate(encode_row(t, row, layer=params.layer, head=params.head))


@router.get("/compare")
def model_compare(params: Annotated[CompareQuery, Query()]) -> ComparisonAnswer:
    """One word's attention rows in two texts and the cosine of its vectors, layer by layer."""
    a = _trace(params.model, params.a, "a")
    b = _trace(params.model, params.b, "b")
    try:
        result = compare(a, b, params.word)
    except FocusError as exc:
        raise AttnlabError(str(exc), field="word") from None
    return ComparisonAnswer.model_validate(encode_comparison(result))
