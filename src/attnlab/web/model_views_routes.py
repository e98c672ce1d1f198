"""The Real model's extra views' routes: a layer's heads for the head view, and token masking.

    GET /api/model/heads   each head of a layer and two means: rows' strongest keys (HeadsQuery)
    GET /api/model/mask    one word masked or dropped, distances layer by layer (MaskQuery)

They share the models and traces kept in the worker (models/kept.py), so the head view and the
mask panel of the text on screen run no second forward pass of the plain text. Like model_routes.py,
each handler runs in the models' worker (model_service.py); the masked rerun of a text longer than
ServerOptions.heavy_tokens is heavy work (a heavy slot, or 503 when they are all taken).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from attnlab.encode.answers_heads import HeadsAnswer
from attnlab.encode.answers_model_views import MaskAnswer
from attnlab.encode.model_views_json import encode_layer_heads, encode_masking
from attnlab.errors import AttnlabError, FocusError
from attnlab.models.masking import mask_of, masked_run
from attnlab.web.error_replies import BUSY_RESPONSES, ERROR_RESPONSES
from attnlab.web.executors import json_answer
from attnlab.web.model_routes import _index, _trace, cached_model, heavy_slot
from attnlab.web.offload import on_models
from attnlab.web.requests_model import HeadsQuery, MaskQuery

__all__ = ["router"]

router = APIRouter(prefix="/api/model", tags=["model"], responses=ERROR_RESPONSES)


def _heads(params: HeadsQuery) -> Response:
    mt = _trace(params.model, params.text, "text")
    layer = _index(params.layer, "layer", mt.n_layers)
    return json_answer(encode_layer_heads(mt, layer))


@router.get("/heads", response_model=HeadsAnswer, responses=BUSY_RESPONSES)
async def model_heads(params: Annotated[HeadsQuery, Query()], request: Request) -> Response:
    """Each head of one layer, the mean over its heads and (up to 512 tokens) over every
    layer's heads, as each query row's strongest keys, packed (1.8 MB at 2,048 tokens)."""
    return await on_models(request, _heads, params)


def _mask(params: MaskQuery) -> Response:
    model = cached_model(params.model)
    mt = _trace(params.model, params.text, "text")
    try:
        focus = mt.focus_index(params.focus)
    except FocusError as exc:
        raise AttnlabError(str(exc), field="focus") from None
    with heavy_slot("masked model run", mt.n):
        m = masked_run(
            model, mt, focus=focus, word=params.mask, occurrence=params.occurrence, how=params.how
        )
    mask = mask_of(model)
    return json_answer(encode_masking(m, mask_name=mask[0] if mask else ""))


@router.get("/mask", response_model=MaskAnswer, responses=BUSY_RESPONSES)
async def model_mask(params: Annotated[MaskQuery, Query()], request: Request) -> Response:
    """Follow `focus`, mask (or drop) `mask`, and measure how far the focus moved per layer."""
    return await on_models(request, _mask, params)
