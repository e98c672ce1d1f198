"""The query strings of the Real model's extra views: `/api/model/heads` (a layer's heads for
the head view) and `/api/model/mask` (one word masked or dropped, layer by layer)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from attnlab.models.compare import DEFAULT_A
from attnlab.web.request_fields import Between, Blank, Position
from attnlab.web.requests_model import ModelQuery, ModelText

__all__ = ["HeadsQuery", "MaskQuery"]

Index = Annotated[int, Between(0)]


class HeadsQuery(ModelQuery):
    """`GET /api/model/heads`: every head of one layer of one text, whole."""

    text: ModelText = DEFAULT_A
    layer: Blank[Index] = 0


class MaskQuery(ModelQuery):
    """`GET /api/model/mask`: follow `focus`, mask (or drop) `mask`, compare layer by layer."""

    text: ModelText = DEFAULT_A
    focus: Blank[Annotated[int | ModelText | None, Position]] = Field(
        None, description="a token or its position"
    )
    mask: Blank[Annotated[int | ModelText, Position]] = Field(
        "river", description="the word (or position) to mask"
    )
    occurrence: Blank[Annotated[int, Between(1)]] = Field(
        1, description="which place of the word, from 1, when it occurs more than once"
    )
    how: Blank[Literal["mask", "drop", "none"]] = Field(
        "mask", description="mask: the mask token in its place; drop: removed; none: the check"
    )
