"""The declared JSON contract of a real model: the answers encode/head_json.py builds for
`/api/model/trace` and `/api/model/info` (and the widget's and the offline file's same keys),
and encode/model_json.py for `/api/model/matrix`, `/api/model/row` and `/api/model/compare`.

A head's answer is the lesson's explanation (the same beats, captions and narration) with its
arrays packed (encode/packed.py: base64 float32 or uint16 codes, never nested lists) and cut to
the window of tokens shown, plus which model, layer and head it is, and the heads grid. A head's
matrix picture and any row's numbers have their own answers. Comparisons carry weights rounded
to a few decimals, always finite.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, FiniteFloat

from attnlab.encode.answers_model_views import SharedKeys, WordPieces
from attnlab.encode.answers_trace import (
    Answer,
    BeatAnswer,
    CaptionsAnswer,
    JsonNumber,
)
from attnlab.types import Axis, Mode

__all__ = [
    "ComparisonAnswer",
    "GqaAnswer",
    "MatrixAnswer",
    "ModelInfoAnswer",
    "ModelTraceAnswer",
    "PackedArray",
    "RowAnswer",
]


class PackedArray(Answer):
    """An array as base64 of its little-endian bytes: float32 values, or uint16 codes whose
    value is code × scale (weights in [0, 1], off by at most scale / 2)."""

    dtype: Literal["float32", "uint16"]
    shape: list[int]
    data: str = Field(description="base64 of the array's bytes, row-major, little-endian")
    scale: FiniteFloat | None = Field(description="uint16: a code's step (1 / 65535); else null")


class HeadPlace(Answer):
    """Which model, layer and head a trace is, and the model's sizes."""

    name: str
    layer: int
    head: int
    n_layers: int
    n_heads: int
    n_kv_heads: int = Field(description="fewer than n_heads: grouped-query attention")
    kv_head: int = Field(description="the key/value head this query head reads")
    group: list[int] = Field(description="the query heads that read the same key/value head")
    group_identical: bool = Field(description="their keys and values compared equal")
    causal: bool = Field(description="each token sees only itself and earlier tokens")
    window: int | None = Field(
        default=None, description="this layer's sliding window of keys; null: every earlier key"
    )
    window_note: str | None = Field(default=None, description="what the window greys, in words")
    masked_legend: str | None = Field(
        default=None, description="the grey cells' legend when some are outside the window"
    )


class HeadStatsAnswer(Answer):
    """Five diagnostics per head, (layers, heads), each a mean over the query rows."""

    entropy_bits: list[list[JsonNumber]]
    first: list[list[JsonNumber]] = Field(description="weight on the first token: the sink")
    previous: list[list[JsonNumber]] = Field(description="weight on the token just before")
    itself: list[list[JsonNumber]] = Field(description="weight on the query's own token")
    top1: list[list[JsonNumber]] = Field(description="each row's largest weight")


class GridAnswer(Answer):
    """Every head at a glance: its diagnostics, the focus row of each head (rows (L, H, n),
    uint16, null beyond 512 tokens) and, for a short text asked with kind full, every matrix
    (attentions (L, H, n, n), uint16)."""

    kind: Literal["focus", "full"]
    layers: int
    heads: int
    n_kv_heads: int
    focus: int
    top: list[list[int]] = Field(description="(layers, heads): the key each head weights most")
    entropy_bits: list[list[FiniteFloat]] = Field(description="(layers, heads) of the focus row")
    stats: HeadStatsAnswer
    rows: PackedArray | None
    attentions: PackedArray | None


class GqaAnswer(Answer):
    """The first entries of the focus token's key and value as each head of a group reads them."""

    kv_head: int
    group: list[int]
    group_identical: bool
    n_kv_heads: int
    keys: list[list[FiniteFloat]]
    values: list[list[FiniteFloat]]


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
    max_text_chars: int | None = Field(description="the API's own limit; null: no text box")
    html_max_tokens: int | None = Field(
        default=None, description="the longest text the host's offline page takes; null: none"
    )
    n_kv_heads: int
    causal: bool
    known_models: list[str]
    grids: list[str]
    compare_defaults: CompareDefaults | None = Field(description="null: nothing to compare")
    special: list[str] = Field(
        default_factory=list, description="the tokenizer's special tokens ([CLS], <|im_end|>)"
    )
    mask_token: str | None = Field(default=None, description="null: no mask token (a decoder)")
    layer_windows: list[int | None] = Field(
        default_factory=list, description="each layer's sliding window (null: global); [] if none"
    )
    layer_names: list[str] = Field(
        default_factory=list, description="each layer's picker name, local or global; [] if none"
    )
    kv_note: str | None = Field(
        default=None, description="what sharing key/value heads and the windows save in cache"
    )


class NextToken(Answer):
    token: str
    probability: FiniteFloat
    special: bool = Field(
        False, description="one of the tokenizer's special tokens (<eos>, <start_of_image>)"
    )


class DecoderAnswer(Answer):
    """A decoder's extras: RoPE on the focus query and the next-token predictions."""

    focus: int
    key: int = Field(description="the key the focus row weighs most")
    key_token: str
    distance: int = Field(description="focus − key: how far apart they are in the text")
    query_before: list[FiniteFloat] | None = Field(
        description="the focus query before RoPE, (d_k,); null with learned positions"
    )
    query_after: list[FiniteFloat] | None = Field(
        description="the same query rotated by its position"
    )
    scores: PackedArray | None = Field(description="(D,) q·k/√d_k with the query δ = 0..D−1 after")
    score_used: FiniteFloat | None = Field(description="the score at the text's own distance")
    next_after_focus: list[NextToken]
    next_after_last: list[NextToken]
    last: int
    positions: Literal["rope", "learned"] = Field(
        "rope", description="rotary (RoPE) or learned absolute positions (GPT-2): no rotation"
    )


class WindowAnswer(Answer):
    """Which tokens the arrays cover: all of a short text, a window of a long one."""

    rows: list[int] = Field(description="the text's token index of each row shown")
    n: int = Field(description="the text's length in tokens")
    whole: bool
    all_tokens: list[str]
    focus: int = Field(description="the focus token's index in the whole text")
    shown_weight: FiniteFloat = Field(description="the focus row's weight on the shown keys")
    focus_row: PackedArray = Field(description="(n,) the focus row over every key, float32")


class ModelTraceAnswer(Answer):
    """`/api/model/trace`: one head's explanation (arrays packed, rows of the window), where
    it sits, and the heads grid."""

    tokens: list[str] = Field(description="the tokens shown, one per row (window.rows)")
    mode: Mode
    axis: Axis
    d_k: int
    divisor: JsonNumber
    temperature: FiniteFloat | None
    dim_names: None
    key_tokens: None
    mask: list[list[bool]] | None
    embeddings: PackedArray | None
    queries: PackedArray | None
    keys: PackedArray | None
    values: PackedArray | None
    raw_scores: PackedArray | None
    scores: PackedArray | None = Field(description="-inf where masked (float32 holds it)")
    weights: PackedArray
    outputs: PackedArray | None
    focus: int = Field(description="the focus token's row among those shown")
    focus_token: str
    pair: list[int]
    narration: list[BeatAnswer]
    captions: CaptionsAnswer
    entropy_bits: JsonNumber | None = Field(description="the focus row's entropy in bits")
    window: WindowAnswer
    model: HeadPlace
    gqa: GqaAnswer
    decoder: DecoderAnswer | None = Field(description="null for an encoder (no RoPE, no LM)")
    grid: GridAnswer | None = Field(description="null when asked with grid=none")
    word: WordPieces | None = Field(None, description="the focus's word, when it has pieces")
    text: str | None = Field(None, description="the text traced, as it was typed")
    spans: list[list[int]] | None = Field(
        None, description="(n, 2): each token's [start, end) characters in text; [0, 0] added"
    )


class MatrixAnswer(Answer):
    """`/api/model/matrix`: one head's whole matrix as a picture of cells × cells uint16 codes,
    block-pooled (max or mean) when the text is longer than the picture's side."""

    layer: int
    head: int
    n: int
    shown: int = Field(description="tokens shown (fewer when specials are hidden)")
    cells: int
    pool: Literal["max", "mean"]
    pooled: bool
    factor: int = Field(description="tokens per cell, at most")
    specials: Literal["show", "hide", "renormalise"]
    kept: list[int] = Field(description="the token index of each shown token")
    edges: list[int] = Field(description="the first shown token of each cell's block")
    causal: bool
    window: int | None = Field(
        default=None, description="a local layer's sliding window of keys; null: none"
    )
    hidden_mean: FiniteFloat | None = Field(description="mean weight a row gave hidden tokens")
    specials_named: str | None = Field(
        default=None,
        description='the special tokens this text holds, named ("<s>", "<s> and </s>"), '
        "where they are not BERT's [CLS] and [SEP]; null: BERT's, or none",
    )
    row_max: PackedArray
    weights: PackedArray


class RowAnswer(Answer):
    """`/api/model/row`: one query row's weights over every key, float32."""

    layer: int
    head: int
    row: int
    token: str
    visible: int = Field(description="keys the row may see (causal: row + 1)")
    sum: FiniteFloat
    weights: PackedArray
