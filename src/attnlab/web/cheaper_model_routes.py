"""The Cheaper section's real-model card: `GET /api/cheaper/models` and `GET /api/cheaper/kv`.

    GET /api/cheaper/models  each real model's key/value cache per token per layer, in each form
                             (models/real_caches.py, as `attnlab cheaper cache`)
    GET /api/cheaper/kv      ?model=smollm2: decoding a short text token by token on a cache
                             against the whole pass (models/kv_decode.py, as `attnlab cheaper kv`)

Both run in the models' worker (model_service.py), on the models it keeps (models/kept.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field

from attnlab.encode.cheaper_models_json import (
    KV_TEXT,
    KvCheckAnswer,
    ModelsCacheAnswer,
    encode_kv_check,
    encode_model_caches,
)
from attnlab.errors import AttnlabError
from attnlab.models.kept import cached_model
from attnlab.models.real_caches import real_caches
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.executors import json_answer
from attnlab.web.offload import on_models
from attnlab.web.request_fields import Params
from attnlab.web.requests_lesson import NoParams

__all__ = ["KvQuery", "router"]

router = APIRouter(prefix="/api/cheaper", tags=["lesson"], responses=ERROR_RESPONSES)


class KvQuery(Params):
    """`GET /api/cheaper/kv`: the decoder whose cache is checked."""

    model: Literal["smollm2"] = Field("smollm2", description="the decoder: smollm2")


def _models(params: NoParams) -> Response:
    return json_answer(encode_model_caches(real_caches(load=cached_model)))


@router.get("/models", response_model=ModelsCacheAnswer, responses=BUSY_RESPONSES)
async def models(params: Annotated[NoParams, Query()], request: Request) -> Response:
    """SmolLM2's, MiniLM's, Gemma 3 270M's (GGUF header) and DeepSeek-V2's (published) key/value
    cache per token per layer, in each form, computed from each model's sizes."""
    return await on_models(request, _models, params)


def _kv(params: KvQuery) -> Response:
    from attnlab.models.decoder import Decoder
    from attnlab.models.kv_decode import check_cache

    model = cached_model(params.model)
    if not isinstance(model, Decoder):
        raise AttnlabError(f"{params.model} is not a decoder", field="model")
    c = check_cache(model, KV_TEXT)
    dtype = str(model.embedding.dtype)
    return json_answer(encode_kv_check(c, model=model.name, dtype=dtype))


@router.get("/kv", response_model=KvCheckAnswer, responses=BUSY_RESPONSES)
async def kv(params: Annotated[KvQuery, Query()], request: Request) -> Response:
    """Decode a short text token by token on a key/value cache and compare every attention row
    and logit with the whole text's pass (seconds: 12 tokens through 30 layers, twice)."""
    return await on_models(request, _kv, params)
