"""The declared contract of attention weights handed in alone, as the notebook widget's "info",
"trace" and "grid" carry them: the Real model view's keys (answers_model.py), with the arrays
weights need only and `weights_only` set, so the view offers nothing that needs Q, K or V.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, FiniteFloat

from attnlab.encode.answers_model import PackedArray, WindowAnswer
from attnlab.encode.answers_trace import Answer, BeatAnswer, CaptionsAnswer

__all__ = ["MapsGridAnswer", "MapsInfoAnswer", "MapsPlace", "MapsTraceAnswer"]


class MapsInfoAnswer(Answer):
    """The weights' sizes: no d_model, no d_k, no text to type, nothing to compare."""

    model: str
    description: str
    n_layers: int
    n_heads: int
    d_model: None
    d_k: None
    max_tokens: int
    max_text_chars: None
    known_models: list[str]
    grids: list[str]
    compare_defaults: None
    weights_only: Literal[True]
    layer_ids: list[int] | None = None  # a subset's own numbers (BertViz's include_layers)
    head_ids: list[int] | None = None  # a subset's own numbers (include_heads)
    sentence_b_start: int | None = None  # a pair's second sentence starts at this token


class MapsPlace(Answer):
    name: str
    layer: int
    head: int
    n_layers: int
    n_heads: int
    layer_ids: list[int] | None = None  # a subset's own numbers, by position
    head_ids: list[int] | None = None
    sentence_b_start: int | None = None


class MapsTraceAnswer(Answer):
    """One head of weights handed in alone, in the trace's keys: weights, no Q, K or V."""

    tokens: list[str]
    key_tokens: list[str]
    mode: Literal["scaled"]
    axis: Literal["keys"]
    d_k: None
    divisor: Literal["nan"]
    temperature: None
    dim_names: None
    mask: None
    weights: PackedArray = Field(description="(n, m) float32, packed as a model head's")
    embeddings: None
    queries: None
    keys: None
    values: None
    raw_scores: None
    scores: None
    outputs: None
    focus: int
    focus_token: str
    pair: list[int]
    narration: list[BeatAnswer]
    saturation: None
    captions: CaptionsAnswer
    readings: None
    weights_only: Literal[True]
    drawn_beats: list[str] = Field(description="the beats the weights alone can draw")
    window: WindowAnswer
    model: MapsPlace


class MapsGridAnswer(Answer):
    """Every head at a glance: whole matrices (attentions, (L, H, n, m)) for a short text, the
    focus rows (rows, (L, H, m)) for a long one; the other key is left out."""

    kind: Literal["focus", "full"]
    layers: int
    heads: int
    focus: int
    top: list[list[int]]
    entropy_bits: list[list[FiniteFloat]]
    attentions: PackedArray | None = None
    rows: PackedArray | None = None
