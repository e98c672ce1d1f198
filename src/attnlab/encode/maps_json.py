"""The encoder of attention weights handed in alone: a MapsView (models/maps_view.py) into the
declared answers of answers_maps.py, packed as a real head's are (packed.py), so the widget's
view reads them with the same code. It computes nothing: the view holds every number.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.core.attention_maps import AttentionMaps
from attnlab.core.softmax import entropy_bits
from attnlab.encode.answers_maps import MapsGridAnswer, MapsInfoAnswer, MapsPlace, MapsTraceAnswer
from attnlab.encode.answers_model import RowAnswer, WindowAnswer
from attnlab.encode.answers_trace import BeatAnswer, BeatCaptionAnswer, CaptionsAnswer
from attnlab.encode.head_json import PLACES, float32, uint16
from attnlab.models.maps_view import MapsGrid, MapsView
from attnlab.words.weights_only import WEIGHTS_BEATS

__all__ = ["encode_maps_grid", "encode_maps_head", "encode_maps_info", "encode_maps_row"]


def encode_maps_info(maps: AttentionMaps) -> MapsInfoAnswer:
    """The sizes of weights handed in alone; `weights_only` tells the view there is no Q, K, V."""
    return MapsInfoAnswer(
        model=maps.source, description=maps.source, n_layers=maps.n_layers,
        n_heads=maps.n_heads, d_model=None, d_k=None, max_tokens=maps.n, max_text_chars=None,
        known_models=[maps.source], grids=["full"], compare_defaults=None, weights_only=True,
        **_ids(maps),
    )  # fmt: skip


def _ids(maps: AttentionMaps) -> dict[str, Any]:
    """A subset's own layer and head numbers and a pair's boundary, only where there are."""
    out: dict[str, Any] = {}
    if maps.subset:
        out.update(layer_ids=list(maps.layer_ids), head_ids=list(maps.head_ids))
    if maps.sentence_b_start is not None:
        out["sentence_b_start"] = maps.sentence_b_start
    return out


def encode_maps_head(v: MapsView) -> MapsTraceAnswer:
    """One head of weights handed in alone, every row shown (a short text's window)."""
    m = v.maps
    captions = CaptionsAnswer(
        beats={k: BeatCaptionAnswer(heading=t, description=text, notes=[])
               for k, t, text in v.beats},
        divisor="", budget="", pair=list(v.pair_words),
    )  # fmt: skip
    return MapsTraceAnswer(
        tokens=list(m.tokens), key_tokens=list(m.key_tokens), mode="scaled", axis="keys",
        d_k=None, divisor="nan", temperature=None, dim_names=None, mask=None,
        weights=float32(v.weights), embeddings=None, queries=None, keys=None, values=None,
        raw_scores=None, scores=None, outputs=None, focus=v.focus,
        focus_token=m.tokens[v.focus], pair=list(v.pair),
        narration=[BeatAnswer(key=k, title=t, text=text) for k, t, text in v.beats],
        saturation=None, captions=captions, readings=None, weights_only=True,
        drawn_beats=list(WEIGHTS_BEATS),
        window=WindowAnswer(
            rows=list(range(m.n)), n=m.n, whole=True, all_tokens=list(m.tokens), focus=v.focus,
            shown_weight=round(float(sum(float(x) for x in v.row)), PLACES),
            focus_row=float32(v.row),
        ),
        model=MapsPlace(name=m.source, layer=v.layer, head=v.head, n_layers=m.n_layers,
                        n_heads=m.n_heads, **_ids(m)),
    )  # fmt: skip


def encode_maps_grid(g: MapsGrid) -> MapsGridAnswer:
    """Every head: whole matrices for a short text, the focus rows for a long one (the other
    key left unset: dump it with exclude_unset)."""
    layers, heads = int(g.rows.shape[0]), int(g.rows.shape[1])
    top, bits = g.rows.argmax(axis=-1).tolist(), np.round(entropy_bits(g.rows), PLACES).tolist()
    if g.attentions is not None:
        return MapsGridAnswer(
            kind="full", layers=layers, heads=heads, focus=g.focus, top=top, entropy_bits=bits,
            attentions=uint16(g.attentions),  # (L, H, n, m)
        )  # fmt: skip
    return MapsGridAnswer(
        kind="focus", layers=layers, heads=heads, focus=g.focus, top=top, entropy_bits=bits,
        rows=uint16(g.rows),  # (L, H, m)
    )  # fmt: skip


def encode_maps_row(maps: AttentionMaps, row: int, *, layer: int, head: int) -> RowAnswer:
    """Query `row`'s weights over every key, float32, as /api/model/row answers a model's (no
    mask is assumed: every key is visible)."""
    w = maps.head(layer, head)[row]  # (m,)
    return RowAnswer(
        layer=layer, head=head, row=row, token=maps.tokens[row], visible=maps.m,
        sum=round(float(w.sum()), 6), weights=float32(w),
    )  # fmt: skip
