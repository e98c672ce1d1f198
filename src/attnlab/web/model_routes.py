"""A real model's routes: one head's six beats with a heads grid, and two contexts compared.

    GET /api/model/info     sizes, limits and the known models (requests_model.ModelQuery)
    GET /api/model/trace    one head's explanation, "model" and "grid" (ModelTraceQuery)
    GET /api/model/compare  one word's rows in two texts, layer by layer (CompareQuery)

Models are loaded once per process and the last few traces are kept, so stepping through the
heads of one text runs the forward pass once. A request names a known model ("minilm",
"smollm2") or a folder the server was started with (`serve_folder`, `attnlab serve --model
PATH`), never a path. Each handler hands a plain function to the app's worker pool
(workers.py); it validates the encoder's dict into its declared answer and encodes it there. A
forward pass over more than ServerOptions.heavy_tokens tokens that is not kept yet is heavy
work: it takes a heavy slot, or answers 503 when they and their queue are full.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from attnlab.encode.model_json import GRIDS, encode_comparison, encode_grid, encode_head
from attnlab.encode.model_views_json import encode_differences, encode_word
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
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.requests_model import (
    MAX_TEXT_CHARS,
    NAME_ENUM,
    SERVED,
    CompareQuery,
    ModelQuery,
    ModelTraceQuery,
    model_names,
)
from attnlab.web.schemas_model import ComparisonAnswer, ModelInfoAnswer, ModelTraceAnswer
from attnlab.web.workers import Workers, json_answer, workers_of

__all__ = ["cached_model", "loaded_model", "router", "serve_folder"]

router = APIRouter(prefix="/api/model", tags=["model"], responses=ERROR_RESPONSES)


_LOADING = threading.Lock()


@lru_cache(maxsize=len(KNOWN_MODELS) + 4)
def loaded_model(name: str) -> Model:
    return load_model(SERVED.get(name, name))


def cached_model(name: str) -> Model:
    """The model called `name` (a known one or a served folder's), loaded on first use and
    kept for the life of the process (one thread loads it while the others wait, so it is in
    memory once)."""
    with _LOADING:
        return loaded_model(name)


def serve_folder(path: str) -> str:
    """Load the model at `path` (a Hugging Face-layout folder or a GGUF) now, so a bad folder
    fails at start, and let requests ask for it by the name returned."""
    model = load_model(path)
    name = model.name if model.name not in KNOWN_MODELS else f"{model.name}-folder"
    SERVED[name] = path
    if name not in NAME_ENUM:
        NAME_ENUM.append(name)
    loaded_model.cache_clear()
    return name


def _description(name: str, model: Model) -> str:
    if name in KNOWN_MODELS:
        return KNOWN_MODELS[name].description
    c = model.config
    return (
        f"{name}: a {c.architecture} model from {SERVED[name]}, {c.n_layers} layers, "
        f"{c.n_heads} heads, d_model {c.d_model}"
    )


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


_TRACES = _Traces(4)  # a 2,048-token SmolLM2 trace holds about 0.4 GB, a MiniLM one 20 MB


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
    model = cached_model(params.model)
    c = model.config
    return json_answer(ModelInfoAnswer.model_validate(
        {
            "model": params.model, "description": _description(params.model, model),
            "n_layers": c.n_layers, "n_heads": c.n_heads, "d_model": c.d_model, "d_k": c.d_k,
            "max_tokens": model.max_tokens, "max_text_chars": MAX_TEXT_CHARS,
            "known_models": list(model_names()), "grids": list(GRIDS),
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
    out["word"] = encode_word(mt, ex.focus)  # the focus's word, when it has several pieces
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
        result = compare(
            a, b, params.word, occurrence_a=params.occurrence_a, occurrence_b=params.occurrence_b
        )
    except FocusError as exc:
        field = "word" if " is not a token of text " in str(exc) else _occurrence_field(str(exc))
        raise AttnlabError(str(exc), field=field) from None
    out = encode_comparison(result)
    out["shared"] = encode_differences(result)  # A − B on the keys both texts hold
    return json_answer(ComparisonAnswer.model_validate(out))


def _occurrence_field(message: str) -> str:
    return "occurrence_a" if message.startswith("in text a") else "occurrence_b"


@router.get("/compare", response_model=ComparisonAnswer, responses=BUSY_RESPONSES)
async def model_compare(params: Annotated[CompareQuery, Query()], request: Request) -> Response:
    """One word's attention rows in two texts and the cosine of its vectors, layer by layer."""
    workers = workers_of(request)
    return await workers.run(_compare, params, workers)
