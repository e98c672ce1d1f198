"""The JSON form of a real model's results: one head's explanation, its matrix as a picture, a
row on demand, the heads grid with every head's diagnostics, and two contexts compared.

Arrays cross compactly (packed.py): a head's vectors and scores as float32 bytes, weights for
pictures as uint16 codes. `encode_head` is the lesson's explanation (the same beats, captions and
narration, computed on the whole text) whose arrays cover the tokens `models.window` picks: all
of a short text, the focus's neighbourhood and strongest keys of a long one, with `window`
saying which rows those are and how much of the focus row's weight they hold.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from attnlab.core.diagnostics import HeadStats
from attnlab.core.pooling import Pool, edges, pool
from attnlab.core.softmax import entropy_bits
from attnlab.core.trace import Trace
from attnlab.encode.arrays import encode_array, encode_number
from attnlab.encode.packed import pack_float32, pack_uint16
from attnlab.encode.trace_json import encode_beat, encode_captions
from attnlab.models.compare import Comparison
from attnlab.models.decoder_trace import DecoderTrace
from attnlab.models.heads import HeadSummary
from attnlab.models.model_trace import ModelTrace
from attnlab.models.pieces import Word
from attnlab.models.specials import without_specials
from attnlab.models.window import window
from attnlab.types import FloatArray
from attnlab.words.explanation import Explanation
from attnlab.words.narration import asymmetric_pair

__all__ = [
    "FULL_GRID_AT",
    "GRIDS",
    "GRID_ROWS_AT",
    "PICTURE_SIDE",
    "PLACES",
    "SPECIALS",
    "STATS",
    "encode_comparison",
    "encode_grid",
    "encode_head",
    "encode_matrix",
    "encode_row",
    "encode_summary",
]

PLACES = 4
GRIDS = ("focus", "full", "none")
Grid = Literal["focus", "full", "none"]
Specials = Literal["show", "hide", "renormalise"]
SPECIALS: tuple[Specials, ...] = ("show", "hide", "renormalise")
STATS = ("entropy_bits", "first", "previous", "itself", "top1")
"""The per-head diagnostics (core/diagnostics.py) in the order the ranking table lists them."""
PICTURE_SIDE = 512
"""A head's matrix crosses as at most this many cells a side: 512² uint16 codes are 512 KiB."""
FULL_GRID_AT = 40
"""Up to this many tokens the grid may carry every head's whole matrix."""
GRID_ROWS_AT = 512
"""Beyond this many tokens the grid carries no focus rows (30 × 9 × 2,048 codes are over 1 MB):
its cells are coloured by a diagnostic instead."""
_VECTORS = ("embeddings", "queries", "keys", "values", "outputs")
_MATRICES = ("raw_scores", "scores", "weights")


def encode_head(mt: ModelTrace, ex: Explanation, *, layer: int, head: int) -> dict[str, Any]:
    """One head's explanation with its arrays packed and cut to the shown window."""
    t, f = ex.trace, ex.focus
    pair = asymmetric_pair(t, f)
    rows = window(t.weights[f], f, extra=pair)
    at = {j: k for k, j in enumerate(rows)}  # a token's index -> its row in the window
    sub = np.asarray(rows, dtype=np.intp)
    out: dict[str, Any] = {
        "tokens": [t.tokens[j] for j in rows], "mode": t.mode, "axis": t.axis, "d_k": t.d_k,
        "divisor": encode_number(t.divisor), "temperature": t.temperature,
        "dim_names": None, "key_tokens": None,
        "mask": t.mask[np.ix_(sub, sub)].tolist() if t.mask is not None else None,
    }  # fmt: skip
    for name in _VECTORS:
        value = getattr(t, name)
        out[name] = pack_float32(value[sub]) if value is not None else None
    for name in _MATRICES:
        value = getattr(t, name)
        out[name] = pack_float32(value[np.ix_(sub, sub)]) if value is not None else None
    bits = ex.saturation.focus_entropy_bits  # the focus row's alone: no n × n pass
    out |= {
        "focus": at[f], "focus_token": t.tokens[f], "pair": [at[pair[0]], at[pair[1]]],
        "narration": [encode_beat(b) for b in ex.beats], "captions": encode_captions(ex.captions),
        "entropy_bits": _num(bits) if bits is not None else None,
        "window": {
            "rows": list(rows), "n": t.n, "whole": len(rows) == t.n,
            "all_tokens": list(t.tokens), "focus": f,
            "shown_weight": round(float(t.weights[f, sub].sum()), PLACES),
            "focus_row": pack_float32(t.weights[f]),  # (n,) the whole budget, every key
        },
        "model": _place(mt, layer, head),
    }  # fmt: skip
    return out


def _place(mt: ModelTrace, layer: int, head: int) -> dict[str, Any]:
    """Which model, layer and head, its sizes, and the key/value heads it shares."""
    g = mt.n_heads // mt.n_kv_heads
    kv = mt.kv_head(head)
    group = list(range(kv * g, kv * g + g))
    reads = [mt.layers[layer].read_by(i) for i in group]  # (n, d_k), (n, d_v) for each head
    k0, v0 = reads[0]
    same = all(np.array_equal(k0, k) and np.array_equal(v0, v) for k, v in reads)
    return {
        "name": mt.model, "layer": layer, "head": head, "n_layers": mt.n_layers,
        "n_heads": mt.n_heads, "n_kv_heads": mt.n_kv_heads, "kv_head": kv, "group": group,
        "group_identical": same, "causal": mt.causal,
    }  # fmt: skip


def encode_gqa(mt: ModelTrace, layer: int, head: int, focus: int) -> dict[str, Any]:
    """The key and value vectors of the focus token as each head of `head`'s group reads them:
    the same numbers under grouped-query attention (the first entries, from the trace)."""
    place = _place(mt, layer, head)
    reads = [mt.layers[layer].read_by(i) for i in place["group"]]  # (n, d_k), (n, d_v) each
    return {
        **{k: place[k] for k in ("kv_head", "group", "group_identical", "n_kv_heads")},
        "keys": [[round(float(x), PLACES) for x in k[focus, :4]] for k, _ in reads],
        "values": [[round(float(x), PLACES) for x in v[focus, :4]] for _, v in reads],
    }


ROPE_DISTANCES = 2048
"""The score-by-distance curve runs over distances 0..min(this, max(n, 256)) − 1."""
TOP_NEXT = 5


def encode_decoder(mt: ModelTrace, layer: int, head: int, focus: int) -> dict[str, Any] | None:
    """For a decoder with RoPE: the focus query before and after its rotation, its score against
    the key it weighs most as a function of their distance, and the next tokens it predicts."""
    if not isinstance(mt, DecoderTrace) or mt.readout is None:
        return None
    t_row = mt.rows(focus)[layer, head]  # (n,) the focus row of this head
    key = int(np.argmax(t_row))
    before, after = mt.rope_query(layer, head, focus)  # (d_k,) each
    d = min(ROPE_DISTANCES, max(mt.n, 256))
    scores = mt.score_by_distance(layer, head, focus, key, distances=d)  # (d,)

    def top(pos: int | None) -> list[dict[str, Any]]:
        return [{"token": w, "probability": round(p, 6)} for w, p in mt.next_tokens(pos, TOP_NEXT)]

    return {
        "focus": focus, "key": key, "key_token": mt.tokens[key], "distance": focus - key,
        "query_before": [round(float(x), PLACES) for x in before],
        "query_after": [round(float(x), PLACES) for x in after],
        "scores": pack_float32(scores),
        "score_used": round(float(scores[focus - key]), 6),
        "next_after_focus": top(focus), "next_after_last": top(None), "last": mt.n - 1,
    }  # fmt: skip


def encode_matrix(
    mt: ModelTrace, t: Trace, *, layer: int, head: int, how: Pool, specials: Specials,
    side: int = PICTURE_SIDE,
) -> dict[str, Any]:  # fmt: skip
    """One head's whole matrix as a picture: uint16 codes of at most side × side cells."""
    w = t.weights  # (n, n)
    kept: npt.NDArray[np.intp] = np.arange(t.n, dtype=np.intp)
    hidden: FloatArray | None = None
    if specials != "show":
        w, kept, hidden = without_specials(
            w, t.tokens, mt.special, renormalise=specials == "renormalise"
        )
    k = int(kept.shape[0])
    cells = pool(w, side, how)  # (r, r)
    r = int(cells.shape[0])
    return {
        "layer": layer, "head": head, "n": t.n, "shown": k, "cells": r, "pool": how,
        "pooled": r < k, "factor": math.ceil(k / r), "specials": specials,
        "kept": kept.tolist(), "edges": edges(k, r).tolist(), "causal": mt.causal,
        "hidden_mean": round(float(hidden.mean()), PLACES) if hidden is not None else None,
        "row_max": pack_float32(cells.max(axis=-1)),  # (r,) for a per-row colour scale
        "weights": pack_uint16(cells),  # (r, r)
    }  # fmt: skip


def encode_row(t: Trace, row: int, *, layer: int, head: int) -> dict[str, Any]:
    """Query `row`'s whole row of weights, float32, with where the causal mask starts."""
    w = t.weights[row]  # (n,)
    visible = int(t.mask[row].sum()) if t.mask is not None else t.n
    return {
        "layer": layer, "head": head, "row": row, "token": t.tokens[row],
        "visible": visible, "sum": round(float(w.sum()), 6), "weights": pack_float32(w),
    }  # fmt: skip


def encode_grid(mt: ModelTrace, focus: int, kind: Grid) -> dict[str, Any] | None:
    """Every head at a glance: its diagnostics, and the focus row or full matrix of each."""
    if kind == "none":
        return None
    rows = mt.rows(focus)  # (L, h, n) the focus token's budget in every head
    out: dict[str, Any] = {
        "kind": kind, "layers": mt.n_layers, "heads": mt.n_heads, "focus": focus,
        "n_kv_heads": mt.n_kv_heads,
        "top": rows.argmax(axis=-1).tolist(),  # (L, h) the key each head's row weights most
        "entropy_bits": _round(entropy_bits(rows.astype(np.float64))),  # (L, h)
        "stats": encode_stats(mt.stats),
        "rows": pack_uint16(rows) if mt.n <= GRID_ROWS_AT else None,  # (L, h, n)
        "attentions": None,
    }  # fmt: skip
    if kind == "full" and mt.n <= FULL_GRID_AT:
        out["attentions"] = pack_uint16(mt.attentions)  # (L, h, n, n)
    return out


def encode_stats(s: HeadStats) -> dict[str, Any]:
    """The five (L, H) diagnostics, rounded; NaN (no previous token) spelled out."""
    return {name: encode_array(np.round(getattr(s, name), PLACES)) for name in STATS}


def encode_summary(s: HeadSummary, tokens: tuple[str, ...]) -> dict[str, Any]:
    return {
        "layer": s.layer, "head": s.head, "top": s.top, "top_token": tokens[s.top],
        "top_weight": s.top_weight, "entropy_bits": s.entropy_bits,
    }  # fmt: skip


def encode_comparison(c: Comparison) -> dict[str, Any]:
    """The word's attention rows in both texts and the cosine of its vectors, layer by layer."""

    def side(t: ModelTrace, w: Word | None, i: int, rows: FloatArray, found: Any) -> Any:
        pieces = [i] if w is None else list(w.pieces)
        return {
            "tokens": list(t.tokens), "index": i, "rows": _round(rows), "pieces": pieces,
            "occurrences": [o.token for o in found],
        }  # fmt: skip

    return {
        "word": c.word,
        "a": side(c.a, c.word_a, c.index_a, c.rows_a, c.occurrences_a),
        "b": side(c.b, c.word_b, c.index_b, c.rows_b, c.occurrences_b),
        "cosine": [round(float(x), PLACES) for x in c.cosine],
        "cosine_labels": ["embeddings"] + [f"layer {i}" for i in range(c.layers)],
        "note": c.note,
        "model": {"name": c.a.model, "n_layers": c.a.n_layers, "n_heads": c.a.n_heads},
    }


def _num(x: float) -> float | str:
    return encode_number(round(x, PLACES) if math.isfinite(x) else x)


def _round(a: FloatArray) -> Any:
    return np.round(a, PLACES).tolist()
