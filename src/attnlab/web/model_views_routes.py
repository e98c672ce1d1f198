"""The Real model's extra views' routes: a layer's heads for the head view, and token masking.

    GET /api/model/heads   every head of one layer whole, and two means (HeadsQuery)
    GET /api/model/mask    one word masked or dropped, distances layer by layer (MaskQuery)

They share model_routes.py's loaded models and kept traces, so the head view and the mask
panel of the text on screen run no second forward pass of the plain text.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from attnlab.encode.model_views_json import encode_layer_heads, encode_masking
from attnlab.errors import AttnlabError, FocusError, TooLongError
from attnlab.models.masking import Reruns, mask_of, mask_token
from attnlab.web.error_replies import ERROR_RESPONSES
from attnlab.web.model_routes import _index, _trace, cached_model
from attnlab.web.requests_model_views import HeadsQuery, MaskQuery
from attnlab.web.schemas_model_views import HeadsAnswer, MaskAnswer

__all__ = ["router"]

router = APIRouter(prefix="/api/model", tags=["model"], responses=ERROR_RESPONSES)


@router.get("/heads")
def model_heads(params: Annotated[HeadsQuery, Query()]) -> HeadsAnswer:
    """Every head of one layer, whole (query × key), with the means over heads and layers."""
    mt = _trace(params.model, params.text, "text")
    layer = _index(params.layer, "layer", mt.n_layers)
    return HeadsAnswer.model_validate(encode_layer_heads(mt, layer))


@router.get("/mask")
def model_mask(params: Annotated[MaskQuery, Query()]) -> MaskAnswer:
    """Follow `focus`, mask (or drop) `mask`, and measure how far the focus moved per layer."""
    model = cached_model(params.model)
    if not isinstance(model, Reruns):
        raise AttnlabError(f"{params.model} cannot rerun edited tokens", field="model")
    mt = _trace(params.model, params.text, "text")
    try:
        focus = mt.focus_index(params.focus)
    except FocusError as exc:
        raise AttnlabError(str(exc), field="focus") from None
    try:
        m = mask_token(
            model, mt, focus=focus, word=params.mask, occurrence=params.occurrence,
            how=params.how,
        )  # fmt: skip
    except TooLongError as exc:
        raise AttnlabError(str(exc), field="mask") from None
    mask = mask_of(model)
    return MaskAnswer.model_validate(encode_masking(m, mask_name=mask[0] if mask else ""))
