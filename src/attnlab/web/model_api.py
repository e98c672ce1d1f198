"""The JSON API over a real model: one head's six beats, a heads grid, and two contexts compared.

Routes (all GET, all JSON), wired into `server.create_app`:

    /api/model/info     ?model=                      sizes, limits and the known models
    /api/model/trace    ?model=&text=&layer=&head=&focus=&mode=&axis=&grid=
                        -> the lesson's Explanation.to_dict() for that head, plus "model" and
                           "grid": every head's focus row (grid=focus, the default), every full
                           matrix (grid=full), or nothing (grid=none)
    /api/model/compare  ?model=&word=&a=&b=          -> models.compare.Comparison.to_dict()

Models are loaded once per process and the last few traces are kept, so stepping through the
heads of one text runs the forward pass once. Only known model names are served (a query
string cannot make the server read an arbitrary folder). Bad input answers 400 with
{"error": message, "field": name}, as the lesson's routes do.
"""

from __future__ import annotations

from functools import lru_cache

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from attnlab.encode.model_json import GRIDS, encode_comparison, encode_grid, encode_head
from attnlab.errors import EmptySequenceError, FocusError, TooLongError, UnknownModelError
from attnlab.models import KNOWN_MODELS, MAX_TOKENS, Model, ModelTrace, load_model
from attnlab.models.compare import DEFAULT_A, DEFAULT_B, DEFAULT_WORD, compare
from attnlab.models.heads import explain_head
from attnlab.types import AXES, MODES
from attnlab.web.params import BadRequest, choice, guard, text, whole

MAX_TEXT_CHARS = 2000
"""A text parameter may not exceed this many characters (128 tokens fit comfortably)."""


@lru_cache(maxsize=len(KNOWN_MODELS))
def cached_model(name: str) -> Model:
    """The model called `name`, loaded on first use and kept for the life of the process."""
    return load_model(name)


@lru_cache(maxsize=8)  # a 128-token trace holds about 20 MB
def cached_trace(name: str, text: str) -> ModelTrace:
    return cached_model(name).trace(text)


def _model_name(request: Request) -> str:
    name = (request.query_params.get("model") or "minilm").strip().lower()
    if name not in KNOWN_MODELS:
        raise UnknownModelError(
            f"unknown model {name!r}: expected one of {', '.join(KNOWN_MODELS)}"
        )
    return name


def _text(request: Request, field: str, default: str | None = None) -> str:
    raw = request.query_params.get(field, default)
    if raw is None:
        raise BadRequest(f"{field} is missing: type a few words", field)
    return text(raw, field, limit=MAX_TEXT_CHARS)


def _trace(name: str, text: str, field: str) -> ModelTrace:
    try:
        return cached_trace(name, text)
    except (EmptySequenceError, TooLongError) as exc:
        raise BadRequest(str(exc), field) from None


def _index(request: Request, field: str, size: int) -> int:
    i = whole(request.query_params.get(field), field, range(size))
    return 0 if i is None else i


def api_model_info(request: Request) -> JSONResponse:
    name = _model_name(request)
    c = cached_model(name).config
    return JSONResponse(
        {
            "model": name, "description": KNOWN_MODELS[name].description,
            "n_layers": c.n_layers, "n_heads": c.n_heads, "d_model": c.d_model, "d_k": c.d_k,
            "max_tokens": MAX_TOKENS, "max_text_chars": MAX_TEXT_CHARS,
            "known_models": list(KNOWN_MODELS), "grids": list(GRIDS),
            "compare_defaults": {"word": DEFAULT_WORD, "a": DEFAULT_A, "b": DEFAULT_B},
        }
    )  # fmt: skip


def api_model_trace(request: Request) -> JSONResponse:
    name = _model_name(request)
    mt = _trace(name, _text(request, "text", DEFAULT_A), "text")
    layer = _index(request, "layer", mt.n_layers)
    head = _index(request, "head", mt.n_heads)
    grid = choice(request.query_params.get("grid"), "grid", GRIDS)
    get = request.query_params.get
    ex = explain_head(
        mt, layer=layer, head=head, focus=get("focus") or None,
        mode=choice(get("mode"), "mode", MODES), axis=choice(get("axis"), "axis", AXES),
    )  # fmt: skip
    out = encode_head(mt, ex, layer=layer, head=head)
    out["grid"] = encode_grid(mt, ex.focus, grid)
    return JSONResponse(out)


def api_model_compare(request: Request) -> JSONResponse:
    name = _model_name(request)
    word = _text(request, "word", DEFAULT_WORD)
    texts = {"a": _text(request, "a", DEFAULT_A), "b": _text(request, "b", DEFAULT_B)}
    a, b = (_trace(name, text, field) for field, text in texts.items())
    try:
        result = compare(a, b, word)
    except FocusError as exc:
        raise BadRequest(str(exc), "word") from None
    return JSONResponse(encode_comparison(result))


def routes() -> list[Route]:
    """The model routes, each guarded like the lesson's (400 for bad input, 500 otherwise)."""
    return [
        Route("/api/model/info", guard(api_model_info)),
        Route("/api/model/trace", guard(api_model_trace)),
        Route("/api/model/compare", guard(api_model_compare)),
    ]
