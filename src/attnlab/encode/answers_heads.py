"""The declared JSON contract of `/api/model/heads`, the head view's answer: each head of one
layer and two means as their strongest keys per query row, packed (encode/packed.py), written
by encode/heads_json.py from models/layer_heads.py's `LayerHeads`.

Beside answers_model.py (whose PackedArray it uses), not in answers_model_views.py, which
answers_model.py itself imports."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, FiniteFloat

from attnlab.encode.answers_model import PackedArray
from attnlab.encode.answers_trace import Answer

__all__ = ["HeadsAnswer", "TopKeys"]


class TopKeys(Answer):
    """The strongest keys of each query row of one matrix or a stack of them, strongest first:
    the lines the head view draws."""

    keys: PackedArray = Field(description="(..., query, top) key indices: uint16, scale 1")
    weights: PackedArray = Field(description="(..., query, top) their weights, uint16 codes")
    share: list[FiniteFloat] = Field(
        description="the kept weights' sum averaged over the rows: one per head, or one"
    )


class HeadsAnswer(Answer):
    """`/api/model/heads`: each head of a layer and two means as their `top` strongest keys per
    query row (every key when the text has at most `top` tokens), for the head view."""

    source: Literal["model", "lesson"]
    name: str
    tokens: list[str]
    layer: int
    n_layers: int
    n_heads: int
    top: int = Field(description="keys kept per query row: min(tokens, 16)")
    floor: FiniteFloat = Field(description="every weight at least this large is kept (0: all)")
    heads: TopKeys = Field(description="(heads, query, top)")
    mean_heads: TopKeys | None = Field(description="(query, top): this layer's mean")
    mean_layers: TopKeys | None = Field(
        description="(query, top): every layer's heads' mean; null beyond mean_layers_max tokens"
    )
    mean_layers_max: int = Field(description="the most tokens the mean over layers is sent for")
    note: str = Field(description="what is drawn of a long text, in words ('' when every key)")
