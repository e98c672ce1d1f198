"""A real model's routes: one head's six beats with a heads grid, and two contexts compared.

    GET /api/model/info     sizes, limits and the known models (requests_model.ModelQuery)
    GET /api/model/trace    one head's explanation, "model" and "grid" (ModelTraceQuery)
    GET /api/model/compare  one word's rows in two texts, layer by layer (CompareQuery)

Models are loaded once per process and the last few traces are kept, so stepping through the
heads of one text runs the forward pass once. Each handler hands a plain function to the app's
worker pool (workers.py); it validates the encoder's dict into its declared answer and encodes
it there. A forward pass over more than ServerOptions.heavy_tokens tokens that is not kept yet
is heavy work: it takes a heavy slot, or answers 503 when they and their queue are full.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from attnlab.encode.model_json import GRIDS, encode_comparison, encode_grid, encode_head
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
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.requests_model import MAX_TEXT_CHARS, CompareQuery, ModelQuery, ModelTraceQuery
from attnlab.web.schemas_model import ComparisonAnswer, ModelInfoAnswer, ModelTraceAnswer
from attnlab.web.workers import Workers, json_answer, workers_of

__all__ = ["cached_model", "loaded_model", "router"]

router = APIRouter(prefix="/api/model", tags=["model"], responses=ERROR_RESPONSES)


_LOADING = threading.Lock()


@lru_cache(maxsize=len(KNOWN_MODELS))
def loaded_model(name: str) -> Model:
    return load_model(name)


def cached_model(name: str) -> Model:
    """The model called `name`, loaded on first use and kept for the life of the process
    (one thread loads it while the others wait, so it is in memory once)."""
    with _LOADING:
        return loaded_model(name)


class _Traces:
    """The last `size` traces by (model, text), shared by the worker threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, str], ModelTrace] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> ModelTrace | None:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
            return self._kept.get(key)

    def put(self, key: tuple[str, str], trace: ModelTrace) -> None:
        with self._lock:
            self._kept[key] = trace
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


_TRACES = _Traces(8)  # a 128-token trace holds about 20 MB


def _forward(name: str, text: str, workers: Workers) -> ModelTrace:
    kept = _TRACES.get((name, text))
    if kept is not None:
        return kept
    model = cached_model(name)
    if len(model.tokenize(text)[1]) > workers.options.heavy_tokens:
        with workers.heavy.slot("long model trace"):
            trace = model.trace(text)
    else:
        trace = model.trace(text)
    _TRACES.put((name, text), trace)
    return trace


def _trace(name: str, text: str, field: str, workers: Workers) -> ModelTrace:
    """The trace of `text`; a text that is empty or too long is refused against `field`."""
    try:
        return _forward(name, text, workers)
    except (EmptySequenceError, TooLongError) as exc:
        raise AttnlabError(str(exc), field=field) from None


def _index(value: int, field: str, size: int) -> int:
    if value >= size:
        raise UnknownHeadError(
            f"{field} must be between 0 and {size - 1}, got {value}", field=field
        )
    return value


def _info(params: ModelQuery) -> Response:
    c = cached_model(params.model).config
    return json_answer(ModelInfoAnswer.model_validate(
        {
            "model": params.model, "description": KNOWN_MODELS[params.model].description,
            "n_layers": c.n_layers, "n_heads": c.n_heads, "d_model": c.d_model, "d_k": c.d_k,
            "max_tokens": MAX_TOKENS, "max_text_chars": MAX_TEXT_CHARS,
            "known_models": list(KNOWN_MODELS), "grids": list(GRIDS),
            "compare_defaults": {"word": DEFAULT_WORD, "a": DEFAULT_A, "b": DEFAULT_B},
        }
    ))  # fmt: skip


@router.get("/info", response_model=ModelInfoAnswer)
async def model_info(params: Annotated[ModelQuery, Query()], request: Request) -> Response:
    """A model's sizes and the limits of the text it takes."""
    return await workers_of(request).run(_info, params)


def _head(params: ModelTraceQuery, workers: Workers) -> Response:
    mt = _trace(params.model, params.text, "text", workers)
    layer = _index(params.layer, "layer", mt.n_layers)
    head = _index(params.head, "head", mt.n_heads)
    ex = explain_head(
        mt, layer=layer, head=head, focus=params.focus, mode=params.mode, axis=params.axis
    )
    out = encode_head(mt, ex, layer=layer, head=head)
    out["grid"] = encode_grid(mt, ex.focus, params.grid)
    return json_answer(ModelTraceAnswer.model_validate(out))


@router.get("/trace", response_model=ModelTraceAnswer, responses=BUSY_RESPONSES)
async def model_trace(params: Annotated[ModelTraceQuery, Query()], request: Request) -> Response:
    """One head's six beats for a focus token, with every head's row (or matrix) beside it."""
    workers = workers_of(request)
    return await workers.run(_head, params, workers)


def _compare(params: CompareQuery, workers: Workers) -> Response:
    a = _trace(params.model, params.a, "a", workers)
    b = _trace(params.model, params.b, "b", workers)
    try:
        result = compare(a, b, params.word)
    except FocusError as exc:
        raise AttnlabError(str(exc), field="word") from None
    return json_answer(ComparisonAnswer.model_validate(encode_comparison(result)))


@router.get("/compare", response_model=ComparisonAnswer, responses=BUSY_RESPONSES)
async def model_compare(params: Annotated[CompareQuery, Query()], request: Request) -> Response:
    """One word's attention rows in two texts and the cosine of its vectors, layer by layer."""
    workers = workers_of(request)
    return await workers.run(_compare, params, workers)
