"""One head of attention weights handed in alone, as the Real model view shows it: `MapsView`.

Weights from elsewhere (transformers, BertViz, CircuitsVis) come as an AttentionMaps
(core/attention_maps.py): no queries, keys or values, so only the Parallel beat, the table and
the heads grid can be drawn; the other beats say so (words/weights_only.py). This is the
weights' counterpart of head_view.py: what the widget shows of them, computed once, frozen,
and only encoded by encode/maps_json.py. Row i, column j means query i attends to key j.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.models.head_view import FULL_GRID_AT
from attnlab.types import FloatArray
from attnlab.words.weights_only import narrate_weights, pair_words

__all__ = ["MapsGrid", "MapsView", "maps_grid_view", "maps_view"]


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
    beats = narrate_weights(maps.tokens, maps.key_tokens, [float(x) for x in row], focus)
    said = pair_words(maps.tokens, maps.key_tokens, w, pair)
    return MapsView(maps, layer, head, focus, w, row, pair, tuple(beats), said)


def maps_grid_view(maps: AttentionMaps, focus: int) -> MapsGrid:
    """Every head at a glance: whole matrices for a short text, the focus rows for a long one."""
    rows = maps.rows(focus).astype(np.float64)  # (L, H, m)
    return MapsGrid(focus, rows, maps.weights if maps.n <= FULL_GRID_AT else None)
