"""A real model's routes: one head's six beats with a heads grid, and two contexts compared.

    GET /api/model/info     sizes, limits and the known models (requests_model.ModelQuery)
    GET /api/model/trace    one head's explanation, "model" and "grid" (ModelTraceQuery)
    GET /api/model/compare  one word's rows in two texts, layer by layer (CompareQuery)

Models are loaded once per process and the last few traces are kept, so stepping through the
heads of one text runs the forward pass once. Handlers are plain functions (FastAPI runs them
in its thread pool); each validates the encoder's dict into its declared answer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query

from attnlab.encode.model_json import GRIDS, encode_comparison, encode_grid, encode_head
from attnlab.encode.model_views_json import encode_differences, encode_word
from attnlab.errors import (
    AttnlabError,
    EmptySequenceError,
    FocusError,
    TooLongError,
    UnknownHeadError,
)
from attnlab.models import KNOWN_MODELS, MAX_TOKENS, Model, ModelTrace, load_model
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD, compare
from attnlab.models.heads import explain_head
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.requests_model import MAX_TEXT_CHARS, CompareQuery, ModelQuery, ModelTraceQuery
from attnlab.web.schemas_model import ComparisonAnswer, ModelInfoAnswer, ModelTraceAnswer

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
        return cached_trace(name, text)
    except (EmptySequenceError, TooLongError) as exc:
        raise AttnlabError(str(exc), field=field) from None


def _index(value: int, field: str, size: int) -> int:
    if value >= size:
        raise UnknownHeadError(
            f"{field} must be between 0 and {size - 1}, got {value}", field=field
        )
    return value


@router.get("/info")
def model_info(params: Annotated[ModelQuery, Query()]) -> ModelInfoAnswer:
    """A model's sizes and the limits of the text it takes."""
    c = cached_model(params.model).config
    return ModelInfoAnswer.model_validate(
        {
            "model": params.model, "description": KNOWN_MODELS[params.model].description,
            "n_layers": c.n_layers, "n_heads": c.n_heads, "d_model": c.d_model, "d_k": c.d_k,
            "max_tokens": MAX_TOKENS, "max_text_chars": MAX_TEXT_CHARS,
            "known_models": list(KNOWN_MODELS), "grids": list(GRIDS),
            "compare_defaults": {"word": DEFAULT_WORD, "a": DEFAULT_A, "b": DEFAULT_B},
        }
    )  # fmt: skip


@router.get("/trace")
def model_trace(params: Annotated[ModelTraceQuery, Query()]) -> ModelTraceAnswer:
    """One head's six beats for a focus token, with every head's row (or matrix) beside it."""
    mt = _trace(params.model, params.text, "text")
    layer = _index(params.layer, "layer", mt.n_layers)
    head = _index(params.head, "head", mt.n_heads)
    ex = explain_head(
        mt, layer=layer, head=head, focus=params.focus, mode=params.mode, axis=params.axis
    )
    out = encode_head(mt, ex, layer=layer, head=head)
    out["grid"] = encode_grid(mt, ex.focus, params.grid)
    out["word"] = encode_word(mt, ex.focus)  # the focus's word, when it has several pieces
    return ModelTraceAnswer.model_validate(out)


@router.get("/compare")
def model_compare(params: Annotated[CompareQuery, Query()]) -> ComparisonAnswer:
    """One word's attention rows in two texts and the cosine of its vectors, layer by layer."""
    a = _trace(params.model, params.a, "a")
    b = _trace(params.model, params.b, "b")
    try:
        result = compare(
            a, b, params.word, occurrence_a=params.occurrence_a, occurrence_b=params.occurrence_b
        )
    except FocusError as exc:
        field = "word" if " is not a token of text " in str(exc) else _occurrence_field(str(exc))
        raise AttnlabError(str(exc), field=field) from None
    out = encode_comparison(result)
    out["shared"] = encode_differences(result)  # A − B on the keys both texts hold
    return ComparisonAnswer.model_validate(out)


def _occurrence_field(message: str) -> str:
    return "occurrence_a" if message.startswith("in text a") else "occurrence_b"
