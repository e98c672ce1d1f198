"""The one encoder of a real head: a frozen HeadView (models/head_view.py) into its declared
answer (answers_model.py), and a ModelSummary into the model's info.

The page's `/api/model/trace`, the notebook widget's "trace", "grid" and "info" traits and the
offline file's heads all come from here, so they cannot drift apart. The encoder computes
nothing: it cuts the view's arrays to the rows shown, packs them (packed.py: base64 float32, or
uint16 codes for pictures), rounds the numbers the page prints and builds the answer models
directly. A head's answer is the lesson's explanation (the same beats, captions and narration)
with which model, layer and head it is, the GQA reads, a decoder's RoPE panel and the grid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from attnlab.core.diagnostics import HeadStats
from attnlab.encode.answers_model import (
    CompareDefaults,
    DecoderAnswer,
    GqaAnswer,
    GridAnswer,
    HeadPlace,
    HeadStatsAnswer,
    ModelInfoAnswer,
    ModelTraceAnswer,
    NextToken,
    PackedArray,
    WindowAnswer,
)
from attnlab.encode.answers_model_views import WordPieces
from attnlab.encode.answers_trace import BeatAnswer, CaptionsAnswer, JsonNumber
from attnlab.encode.arrays import encode_array, encode_number
from attnlab.encode.packed import pack_float32, pack_uint16
from attnlab.encode.trace_json import encode_beat, encode_captions
from attnlab.models.head_view import GqaReads, GridView, HeadView, RopeView
from attnlab.models.model_trace import word_like
from attnlab.models.summary import ModelSummary
from attnlab.types import FloatArray
from attnlab.words.layer_kinds import kv_note, layer_labels, masked_legend, window_note
from attnlab.words.model_views import PieceWhy, pieces_note

__all__ = [
    "PLACES",
    "STATS",
    "encode_grid_view",
    "encode_head_view",
    "encode_info",
    "encode_stats",
    "float32",
    "uint16",
]

PLACES = 4
STATS = ("entropy_bits", "first", "previous", "itself", "top1")
"""The per-head diagnostics (core/diagnostics.py) in the order the ranking table lists them."""
_VECTORS = ("embeddings", "queries", "keys", "values", "outputs")
_MATRICES = ("raw_scores", "scores", "weights")


def float32(a: npt.ArrayLike) -> PackedArray:
    """An array packed as base64 float32 bytes."""
    return PackedArray(**pack_float32(a))


def uint16(a: npt.ArrayLike) -> PackedArray:
    """Weights in [0, 1] packed as uint16 codes."""
    return PackedArray(**pack_uint16(a))


def encode_head_view(v: HeadView) -> ModelTraceAnswer:
    """One head's answer: its explanation with the arrays cut to the rows shown and packed,
    where it sits, its GQA reads, a decoder's RoPE panel, the grid and the focus's word."""
    t, f, ex = v.trace, v.focus, v.explanation
    sub = np.asarray(v.rows, dtype=np.intp)
    at = {j: k for k, j in enumerate(v.rows)}  # a token's index -> its row in the window

    def vector(name: str) -> PackedArray | None:
        value = getattr(t, name)
        return float32(value[sub]) if value is not None else None  # (r, d)

    def matrix(name: str) -> PackedArray | None:
        value = getattr(t, name)
        return float32(value[np.ix_(sub, sub)]) if value is not None else None  # (r, r)

    bits = ex.saturation.focus_entropy_bits  # the focus row's alone: no n × n pass
    weights = matrix("weights")
    assert weights is not None  # a head always has weights
    return ModelTraceAnswer(
        tokens=[t.tokens[j] for j in v.rows], mode=t.mode, axis=t.axis, d_k=t.d_k,
        divisor=encode_number(t.divisor), temperature=t.temperature,
        dim_names=None, key_tokens=None,
        mask=v.mask.tolist() if v.mask is not None else None,
        embeddings=vector("embeddings"), queries=vector("queries"), keys=vector("keys"),
        values=vector("values"), raw_scores=matrix("raw_scores"), scores=matrix("scores"),
        weights=weights, outputs=vector("outputs"),
        focus=at[f], focus_token=t.tokens[f], pair=[at[v.pair[0]], at[v.pair[1]]],
        narration=[BeatAnswer(**encode_beat(b)) for b in ex.beats],
        captions=CaptionsAnswer.model_validate(encode_captions(ex.captions)),
        entropy_bits=_num(bits) if bits is not None else None,
        window=WindowAnswer(
            rows=list(v.rows), n=t.n, whole=len(v.rows) == t.n, all_tokens=list(t.tokens),
            focus=f, shown_weight=round(float(t.weights[f, sub].sum()), PLACES),
            focus_row=float32(t.weights[f]),  # (n,) the whole budget, every key
        ),
        model=_place(v),
        gqa=_gqa(v.gqa, v.summary),
        decoder=_decoder(v.rope, t.tokens) if v.rope is not None else None,
        grid=encode_grid_view(v.grid, v.summary) if v.grid is not None else None,
        word=_word(v),
        text=v.text,
        spans=[list(s) for s in v.spans] if v.spans is not None else None,
    )  # fmt: skip


def _place(v: HeadView) -> HeadPlace:
    s, g = v.summary, v.gqa
    window = s.windows[v.layer] if s.windows else None
    rows = np.asarray(v.rows)  # (r,) each shown row's token index
    outside = (
        window is not None
        and v.mask is not None
        and bool(np.any(~v.mask & (rows[None, :] <= rows[:, None] - window)))
    )  # a grey cell whose key lies before its query's window (not after the query)
    return HeadPlace(
        name=s.name, layer=v.layer, head=v.head, n_layers=s.n_layers, n_heads=s.n_heads,
        n_kv_heads=s.n_kv_heads, kv_head=g.kv_head, group=list(g.group),
        group_identical=g.identical, causal=s.causal, window=window,
        window_note=window_note(v.layer, window, v.trace.n) if window is not None else None,
        masked_legend=masked_legend(window) if outside and window is not None else None,
    )  # fmt: skip


def _gqa(g: GqaReads, s: ModelSummary) -> GqaAnswer:
    return GqaAnswer(
        kv_head=g.kv_head, group=list(g.group), group_identical=g.identical,
        n_kv_heads=s.n_kv_heads, keys=_round(g.keys), values=_round(g.values),
    )  # fmt: skip


def _decoder(r: RopeView, tokens: Sequence[str]) -> DecoderAnswer:
    def top(found: tuple[tuple[str, float, bool], ...]) -> list[NextToken]:
        return [NextToken(token=w, probability=round(p, 6), special=s) for w, p, s in found]

    return DecoderAnswer(
        focus=r.focus, key=r.key, key_token=tokens[r.key], distance=r.distance,
        query_before=_round(r.query_before) if r.query_before is not None else None,
        query_after=_round(r.query_after) if r.query_after is not None else None,
        scores=float32(r.scores) if r.scores is not None else None,
        score_used=round(float(r.scores[r.distance]), 6) if r.scores is not None else None,
        next_after_focus=top(r.next_after_focus), next_after_last=top(r.next_after_last),
        last=len(tokens) - 1, positions=r.positions,
    )  # fmt: skip


def encode_grid_view(g: GridView, s: ModelSummary) -> GridAnswer:
    """Every head at a glance: its diagnostics, and the focus row or full matrix of each."""
    layers, heads = int(g.rows.shape[0]), int(g.rows.shape[1])
    return GridAnswer(
        kind=g.kind, layers=layers, heads=heads, n_kv_heads=s.n_kv_heads, focus=g.focus,
        top=g.top.tolist(), entropy_bits=_round(g.entropy_bits), stats=encode_stats(g.stats),
        rows=uint16(g.rows) if g.send_rows else None,  # (L, H, n)
        attentions=uint16(g.attentions) if g.attentions is not None else None,  # (L, H, n, n)
    )  # fmt: skip


def encode_stats(s: HeadStats) -> HeadStatsAnswer:
    """The five (L, H) diagnostics, rounded; NaN (no previous token) spelled out."""
    return HeadStatsAnswer(
        **{name: encode_array(np.round(getattr(s, name), PLACES)) for name in STATS}
    )


def _word(v: HeadView) -> WordPieces | None:
    """The focus's word; its token and note name the piece followed, the focus (the steps')."""
    w, tokens, focus = v.word, v.trace.tokens, v.focus
    if w is None:
        return None
    pieces = [tokens[j] for j in w.pieces]
    word_like_last = [j for j in w.pieces if word_like(tokens[j])][-1:] == [focus]
    why: PieceWhy = "last" if focus == w.token else "word" if word_like_last else "chosen"
    return WordPieces(
        text=w.text, pieces=list(w.pieces), token=focus,
        note=pieces_note(w.text, pieces, tokens[focus], why=why),
    )  # fmt: skip


def encode_info(
    s: ModelSummary, *, known_models: Sequence[str], grids: Sequence[str],
    max_text_chars: int | None, compare_defaults: tuple[str, str, str] | None,
    html_max_tokens: int | None = None,
) -> ModelInfoAnswer:  # fmt: skip
    """What /api/model/info answers (and a widget's or a file's "info"): the model's sizes and
    limits from its summary, and what the host offers (models, grids, Compare's defaults)."""
    defaults = None
    if compare_defaults is not None:
        word, a, b = compare_defaults
        defaults = CompareDefaults(word=word, a=a, b=b)
    return ModelInfoAnswer(
        model=s.name, description=s.description, n_layers=s.n_layers, n_heads=s.n_heads,
        d_model=s.d_model, d_k=s.d_k, max_tokens=s.max_tokens, max_text_chars=max_text_chars,
        n_kv_heads=s.n_kv_heads, causal=s.causal, known_models=list(known_models),
        grids=list(grids), compare_defaults=defaults, special=list(s.special),
        mask_token=s.mask_token, html_max_tokens=html_max_tokens, layer_windows=list(s.windows),
        layer_names=layer_labels(s.windows), kv_note=_kv_note(s),
    )  # fmt: skip


def _kv_note(s: ModelSummary) -> str | None:
    """A decoder's KV cache at its longest text: one K/V head per query head and no window,
    its own K/V heads, and its windows too (None for an encoder, which caches nothing)."""
    if not s.causal or (s.n_kv_heads == s.n_heads and not s.windows):
        return None
    n = s.max_tokens
    return kv_note(
        n_heads=s.n_heads, n_kv_heads=s.n_kv_heads, tokens=n,
        full=s.kv_cache_bytes(n, kv_heads=s.n_heads, windowed=False),
        shared=s.kv_cache_bytes(n, windowed=False),
        windowed=s.kv_cache_bytes(n) if s.windows else None,
    )  # fmt: skip


def _num(x: float) -> JsonNumber:
    out = encode_number(round(x, PLACES) if math.isfinite(x) else x)
    return out if isinstance(out, float) else cast(JsonNumber, out)


def _round(a: FloatArray) -> Any:
    return np.round(np.asarray(a, dtype=np.float64), PLACES).tolist()
