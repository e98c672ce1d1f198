"""The declared JSON contract of a real model: what encode/model_json.py writes for
`/api/model/trace` and `/api/model/compare`, and what `/api/model/info` answers.

A head's answer is the lesson's explanation (the same contract, so the page shows a real head
as it shows the toy) plus which model, layer and head it is, and the heads grid. Grids and
comparisons carry weights rounded to a few decimals, always finite.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, FiniteFloat

from attnlab.web.schemas_model_views import SharedKeys, WordPieces
from attnlab.web.schemas_trace import Answer, ExplanationAnswer

__all__ = ["ComparisonAnswer", "ModelInfoAnswer", "ModelTraceAnswer"]


class HeadPlace(Answer):
    """Which model, layer and head a trace is, and the model's sizes."""

    name: str
    layer: int
    head: int
    n_layers: int
    n_heads: int


class GridBase(Answer):
    layers: int
    heads: int
    focus: int
    top: list[list[int]] = Field(description="(layers, heads): the key each head weights most")
    entropy_bits: list[list[FiniteFloat]] = Field(description="(layers, heads)")


class FocusGrid(GridBase):
    """Every head's row for the focus token: rows[layer][head][key]."""

    kind: Literal["focus"]
    rows: list[list[list[FiniteFloat]]]


class FullGrid(GridBase):
    """Every head's full matrix: attentions[layer][head][query][key]."""

    kind: Literal["full"]
    attentions: list[list[list[list[FiniteFloat]]]]


Grid = Annotated[FocusGrid | FullGrid, Field(discriminator="kind")]


class ModelTraceAnswer(ExplanationAnswer):
    """`/api/model/trace`: one head's explanation, where it sits, and the heads grid."""

    model: HeadPlace
    grid: Grid | None = Field(description="null when asked with grid=none")
    word: WordPieces | None = Field(None, description="the focus's word, when it has pieces")


class CompareSide(Answer):
    tokens: list[str]
    index: int = Field(description="the word's token in this text")
    rows: list[list[list[FiniteFloat]]] = Field(description="(layers, heads, tokens)")
    pieces: list[int] = Field(description="the word's tokens here; index is the last")
    occurrences: list[int] = Field(description="the token of each place the word sits")


class ModelSizes(Answer):
    name: str
    n_layers: int
    n_heads: int


class ComparisonAnswer(Answer):
    """`/api/model/compare`: one word's attention rows in two texts, and its vectors' cosine."""

    word: str
    a: CompareSide
    b: CompareSide
    cosine: list[FiniteFloat] = Field(description="[0] entering layer 0, [l + 1] leaving layer l")
    cosine_labels: list[str]
    note: str
    model: ModelSizes
    shared: SharedKeys


class CompareDefaults(Answer):
    word: str
    a: str
    b: str


class ModelInfoAnswer(Answer):
    """`/api/model/info`: a model's sizes, the limits, and the models and grids on offer."""

    model: str
    description: str
    n_layers: int
    n_heads: int
    d_model: int
    d_k: int
    max_tokens: int
    max_text_chars: int
    known_models: list[str]
    grids: list[str]
    compare_defaults: CompareDefaults
