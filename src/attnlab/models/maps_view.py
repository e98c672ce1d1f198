"""One head of attention weights handed in alone, as the Real model view shows it: `MapsView`.

Weights from elsewhere (transformers, BertViz, CircuitsVis) come as an AttentionMaps
(core/attention_maps.py): no queries, keys or values, so only the Parallel beat, the table and
the heads grid can be drawn; the other beats say so (words/weights_only.py). This is the
weights' counterpart of head_view.py: what the widget shows of them, computed once, frozen,
and only encoded by encode/maps_json.py; its whole matrix is matrix_view.py's picture, by the
same path as a model's head (`maps_matrix_view`). Row i, column j means query i attends to key j.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.pooling import Pool
from attnlab.errors import MapShapeError
from attnlab.models.head_view import FULL_GRID_AT
from attnlab.models.matrix_view import MatrixView, Specials, weights_matrix_view
from attnlab.types import FloatArray
from attnlab.words.weights_only import narrate_weights, pair_words

__all__ = [
    "MapsGrid", "MapsView", "maps_grid_view", "maps_matrix_view", "maps_view", "pair_shares",
    "special_tokens",
]  # fmt: skip

_SPECIAL = re.compile(r"\[[A-Z]+\]|<[^>]*>")
"""A special token's look: [CLS], [SEP] (BERT) or <|im_start|>, <s> (byte-level decoders)."""


def special_tokens(tokens: Sequence[str]) -> tuple[str, ...]:
    """The tokens that read as special: weights handed in carry no tokenizer to ask."""
    return tuple(dict.fromkeys(t for t in tokens if _SPECIAL.fullmatch(t)))


@dataclass(frozen=True)
class MapsView:
    """Head (layer, head) of `maps` for query row `focus`."""

    maps: AttentionMaps
    layer: int
    head: int
    focus: int
    weights: FloatArray  # (n, m)
    row: FloatArray  # (m,) the focus row, float64
    pair: tuple[int, int]  # the focus and the key it weighs most after itself
    beats: tuple[tuple[str, str, str], ...]  # (key, title, text) for the six beats
    pair_words: tuple[str, ...]  # the pair read both ways (one way when n != m)


@dataclass(frozen=True)
class MapsGrid:
    """Every head's focus row (L, H, m), and every matrix when the text is short."""

    focus: int
    rows: FloatArray  # (L, H, m), float64
    attentions: FloatArray | None  # (L, H, n, m)


def maps_view(maps: AttentionMaps, *, layer: int, head: int, focus: int) -> MapsView:
    """The view of one head of weights handed in alone."""
    w = maps.head(layer, head)  # (n, m)
    row = np.asarray(maps.rows(focus)[layer, head], dtype=np.float64)  # (m,)
    others = [j for j in range(maps.m) if j != focus] or [focus]
    pair = (focus, max(others, key=lambda j: float(row[j])))
    beats = narrate_weights(maps.tokens, maps.key_tokens, [float(x) for x in row], focus,
                            sentence_b_start=maps.sentence_b_start)  # fmt: skip
    said = pair_words(maps.tokens, maps.key_tokens, w, pair)
    return MapsView(maps, layer, head, focus, w, row, pair, tuple(beats), said)


def pair_shares(maps: AttentionMaps) -> tuple[float, float] | None:
    """A pair's cross-attention (BertViz's sentence_b_start): the mean weight a token of
    sentence A gives to sentence B, and a token of B to A, over every head held."""
    b = maps.sentence_b_start
    if b is None:
        return None
    w = maps.weights  # (L, H, n, n)
    a_to_b = float(w[:, :, :b, b:].sum(axis=-1, dtype=np.float64).mean())  # over (L, H, b)
    b_to_a = float(w[:, :, b:, :b].sum(axis=-1, dtype=np.float64).mean())  # over (L, H, n - b)
    return a_to_b, b_to_a


def maps_grid_view(maps: AttentionMaps, focus: int) -> MapsGrid:
    """Every head at a glance: whole matrices for a short text, the focus rows for a long one."""
    rows = maps.rows(focus).astype(np.float64)  # (L, H, m)
    return MapsGrid(focus, rows, maps.weights if maps.n <= FULL_GRID_AT else None)


def maps_matrix_view(
    maps: AttentionMaps, *, layer: int, head: int, how: Pool, specials: Specials
) -> MatrixView:
    """Head (layer, head) of weights handed in as the matrix panel's picture, as a model's head
    is drawn (no causal mask is assumed: a weight of 0 is shown as given). The picture is one
    set of tokens a side, so queries and keys must be the same tokens."""
    if maps.tokens != maps.key_tokens:
        raise MapShapeError(
            f"the matrix picture needs the queries and keys to be the same tokens, got "
            f"{maps.n} queries and {maps.m} keys",
            field="weights",
        )
    w = maps.head(layer, head)  # (n, n)
    return weights_matrix_view(
        w, maps.tokens, special_tokens(maps.tokens), layer=layer, head=head, causal=False,
        how=how, specials=specials,
    )  # fmt: skip
