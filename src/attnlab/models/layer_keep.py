"""One layer's attention in a real model: every head through `attend`, and what the layer keeps.

A forward pass calls `attend_layer` once per layer with that layer's queries (h, n, d_k), keys
and values (h_kv, n, d_k): after RoPE for models that rotate, with h_kv < h under grouped-query
attention (core/grouped.py: query head i reads key/value head i // (h / h_kv)). It returns

    outputs  (h, n, d_v)  softmax(q kᵀ / √d_k) v for every head, what the layer continues with;
    LayerKeep             q, k, v and the mask kind: enough to recompute any head on demand;
    HeadStats (h,)        the per-head diagnostics, read off the weights while they exist.

The (h, n, n) weights are dropped when the layer is done: at 2,048 tokens they would not fit for
every layer. Everything kept is a private read-only array, never a view of a scratch buffer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np

from attnlab.core.attention import attend, causal_mask
from attnlab.core.diagnostics import HeadStats, trace_stats
from attnlab.core.grouped import group_size, kv_heads
from attnlab.core.trace import frozen
from attnlab.models.spec import MaskSpec
from attnlab.types import BoolArray, FloatArray

MaskKind: TypeAlias = Literal["none", "causal"]
"""Which keys a query may see: all of them (an encoder) or those up to itself (a decoder)."""


@dataclass(frozen=True)
class LayerKeep:
    """What one layer keeps so that any head can be recomputed by `attend`."""

    queries: FloatArray  # (h, n, d_k) as the scores used them (after RoPE)
    keys: FloatArray  # (h_kv, n, d_k) one per key/value head
    values: FloatArray  # (h_kv, n, d_v)
    mask: MaskKind = "none"
    window: int | None = None  # a sliding window of W keys: i − W < j ≤ i (spec.MaskSpec)
    sinks: int = 0  # the first keys every query keeps whatever the window
    cap: float | None = None  # the scores' soft cap c · tanh(s / c) (Gemma 2)

    def __post_init__(self) -> None:
        for name in ("queries", "keys", "values"):
            object.__setattr__(self, name, frozen(getattr(self, name)))
        group_size(self.n_heads, self.n_kv_heads)  # ShapeError unless h_kv divides h

    @property
    def n_heads(self) -> int:
        return int(self.queries.shape[0])

    @property
    def n_kv_heads(self) -> int:
        return int(self.keys.shape[0])

    def allowed(self, rows: slice | None = None) -> BoolArray | None:
        """The boolean mask for query `rows` (all by default) × every key, or None if all."""
        n = int(self.keys.shape[1])
        if self.window is not None:  # the spec's rule, for these rows only
            return MaskSpec(self.mask == "causal", self.window, (), self.sinks).allowed(0, n, rows)
        if self.mask == "none":
            return None
        if rows is None:
            return causal_mask(n)  # (n, n)
        queries = np.arange(n)[rows]  # (rows,) only the rows asked, never the n × n mask
        return queries[:, None] >= np.arange(n)[None, :]  # (rows, n) causal_mask(n)[rows]

    def read_by(self, head: int) -> tuple[FloatArray, FloatArray]:
        """The keys and values query head `head` attends with, (n, d_k) and (n, d_v): views of
        its kv head, the rows `expanded()` would give it, without copying every head's."""
        j = int(kv_heads(self.n_heads, self.n_kv_heads)[head])
        return self.keys[j], self.values[j]

    def expanded(self) -> tuple[FloatArray, FloatArray]:
        """Keys and values per query head, (h, n, d): kv head i // g for query head i."""
        if self.n_kv_heads == self.n_heads:
            return self.keys, self.values  # multi-head attention: nothing to share
        index = kv_heads(self.n_heads, self.n_kv_heads)  # (h,)
        return self.keys[index], self.values[index]  # (h, n, d_k), (h, n, d_v)


def attend_layer(
    q: FloatArray,
    k: FloatArray,
    v: FloatArray,
    *,
    tokens: Sequence[str],
    mask: MaskKind = "none",
) -> tuple[FloatArray, LayerKeep, HeadStats]:
    """Every head of one layer: its outputs (h, n, d_v), what it keeps, its (h,) diagnostics."""
    h, h_kv = q.shape[0], k.shape[0]
    index = kv_heads(h, h_kv)  # (h,) the key/value head of each query head
    k_h, v_h = (k, v) if h_kv == h else (k[index], v[index])  # (h, n, d_k), (h, n, d_v)
    allowed = causal_mask(q.shape[-2]) if mask == "causal" else None  # (n, n)
    att = attend(q, k_h, v_h, mask=allowed, tokens=tokens)  # weights (h, n, n)
    stats = trace_stats(att)  # (h,) each, while the weights exist
    if h_kv == h:  # the Trace's q, k, v are already private read-only copies
        return att.outputs, LayerKeep(att.queries, att.keys, att.values, mask), stats
    return att.outputs, LayerKeep(att.queries, k, v, mask), stats  # k, v unshared: (h_kv, ...)
