"""The cheaper forms on a real model's heads: the online softmax checked, linear attention measured,
and each model's key/value cache per token from its own sizes.

For every layer and head of `model.trace(text)`: the head's own q, k, v (after RoPE for a
decoder) through FlashAttention's tiles (core/online_softmax.py) against the head's Trace
(`attend`, the mask of the model's kind), and through linear attention (core/linear_attention.py)
against the same exact rows. `cache_of` turns a model's summary into core/kv_heads.py's forms:
what it caches now (MHA for BERT, GQA for SmolLM2) beside the forms it could use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnlab.core.kv_heads import CacheForm, cache_forms
from attnlab.core.linear_attention import compare_linear
from attnlab.core.online_softmax import online_attend
from attnlab.models.model_trace import ModelTrace
from attnlab.models.summary import ModelSummary

__all__ = ["HeadsCheck", "cache_of", "check_heads"]


@dataclass(frozen=True)
class HeadsCheck:
    """Every head of one text: the tiled pass's worst difference, linear attention's measures
    averaged over the heads (and its worst head)."""

    model: str
    n_tokens: int
    n_heads_checked: int
    tile: int
    online_max_abs: float  # over every head's weights and outputs
    dtype: str
    linear_mean_abs: float  # mean over heads of each head's mean |Δ|
    linear_worst_mean_abs: float
    linear_top1_kept: float  # share of all rows whose top key is kept
    entropy_exact: float  # mean bits per row
    entropy_linear: float


def check_heads(model_trace: ModelTrace, *, tile: int = 16) -> HeadsCheck:
    """Run every head of the trace through the tiles and through linear attention."""
    t = model_trace
    online, means, top1, h_exact, h_linear = 0.0, [], [], [], []
    for layer in range(t.n_layers):
        keep = t.layers[layer]
        for head in range(t.n_heads):
            exact = t.head(layer, head)
            k, v = keep.read_by(head)
            causal = keep.mask != "none"
            r = online_attend(keep.queries[head], k, v, tile=tile, causal=causal)
            online = max(online, float(np.abs(r.outputs - exact.outputs).max()),
                         float(np.abs(r.weights() - exact.weights).max()))  # fmt: skip
            c = compare_linear(keep.queries[head], k, v, causal=causal)
            means.append(c.mean_abs)
            top1.append(c.top1_kept)
            h_exact.append(c.entropy_exact)
            h_linear.append(c.entropy_linear)
    return HeadsCheck(
        model=t.summary.name if t.summary else "model", n_tokens=t.n, n_heads_checked=len(means),
        tile=tile, online_max_abs=online, dtype=str(t.layers[0].queries.dtype),
        linear_mean_abs=float(np.mean(means)), linear_worst_mean_abs=float(np.max(means)),
        linear_top1_kept=float(np.mean(top1)), entropy_exact=float(np.mean(h_exact)),
        entropy_linear=float(np.mean(h_linear)),
    )  # fmt: skip


def cache_of(summary: ModelSummary, *, bytes_per_number: int = 2) -> tuple[CacheForm, ...]:
    """The model's key/value cache per token per layer in each form, from its own sizes
    (16-bit numbers, as inference caches usually hold them): MHA, GQA when it groups, MQA."""
    return cache_forms(n_heads=summary.n_heads, d_k=summary.d_k, n_kv_heads=summary.n_kv_heads,
                       bytes_per_number=bytes_per_number)  # fmt: skip
