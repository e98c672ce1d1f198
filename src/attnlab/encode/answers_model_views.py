"""The declared JSON contract of the Real model's extra views: what encode/model_views_json.py
writes for `/api/model/mask`, a word's pieces in `/api/model/trace`, and Compare contexts'
shared keys (`/api/model/heads` is answers_heads.py's)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, FiniteFloat

from attnlab.encode.answers_trace import Answer

__all__ = ["MaskAnswer", "SharedKeys", "WordPieces"]


class MaskTarget(Answer):
    text: str
    pieces: list[int]


class MaskAnswer(Answer):
    """`/api/model/mask`: one word masked or dropped, the focus's distances layer by layer."""

    how: Literal["mask", "drop", "none"]
    tokens: list[str]
    edited_tokens: list[str]
    edited_text: str | None = Field(
        description="the edited run as text (the text with the word masked or cut), "
        "None when the plain run kept no text"
    )
    focus: int
    edited_focus: int
    target: MaskTarget | None
    layers: int
    heads: int
    tv: list[list[FiniteFloat]] = Field(description="(layers, heads) total variation, 0..1")
    tv_mean: list[FiniteFloat] = Field(description="(layers,) tv averaged over heads")
    target_weight: list[list[FiniteFloat]] = Field(description="(layers, heads)")
    cosine_distance: list[FiniteFloat] = Field(description="(layers + 1,) 1 - cosine")
    l2: list[FiniteFloat] = Field(description="(layers + 1,)")
    labels: list[str]
    note: str


class WordPieces(Answer):
    """The word the focus token is a piece of, when it has several pieces."""

    text: str
    pieces: list[int]
    token: int = Field(description="the piece followed: the focus, the steps' token")
    note: str


class SharedKeys(Answer):
    """The keys both sentences hold, and A − B on them per layer and head."""

    tokens: list[str]
    a: list[int]
    b: list[int]
    difference: list[list[list[FiniteFloat]]] = Field(description="(layers, heads, shared)")
