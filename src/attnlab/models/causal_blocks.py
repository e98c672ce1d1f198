"""A decoder layer's causal attention in blocks of query rows, every block through `attend`.

Under a causal mask query i sees keys 0..i only, so the query rows r0..r1 need the keys 0..r1
and nothing after: the blocks together compute the lower triangle of the n × n weights plus a
thin strip, about half of the full square at 2,048 tokens. Each block is one call of the lesson's
`attend` on (h, r1 − r0, r1) scores, with the causal mask of those rows; its per-head
diagnostics are read while the block's weights exist (core/diagnostics.py's `trace_stats`,
whose queries are the last rows of the keys, exactly this case) and combined into means over
all n rows. Peak memory is a few (h, block, n) arrays, not (h, n, n).

It returns what layer_keep.py's `attend_layer` returns: the outputs (h, n, d_v), a `LayerKeep`
(q, k, v and mask "causal") from which `ModelTrace.head` recomputes any head whole, and the
(h,) `HeadStats`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.diagnostics import HeadStats, trace_stats
from attnlab.core.grouped import kv_heads
from attnlab.models.layer_keep import LayerKeep
from attnlab.types import FloatArray

__all__ = ["BLOCK_ROWS", "attend_causal"]

BLOCK_ROWS = 256
"""Query rows per block: (9, 256, 2,048) float32 scores are 19 MB, and the strip above the
diagonal that a block computes and masks stays an eighth of the work at 2,048 tokens."""


def attend_causal(
    q: FloatArray,
    k: FloatArray,
    v: FloatArray,
    *,
    tokens: Sequence[str],
    block: int = BLOCK_ROWS,
) -> tuple[FloatArray, LayerKeep, HeadStats]:
    """Causal attention of q (h, n, d_k) over k, v (h_kv, n, d): outputs, keep, diagnostics."""
    h, n = q.shape[0], q.shape[1]
    h_kv = k.shape[0]
    index = kv_heads(h, h_kv)  # (h,) the key/value head of each query head
    k_h, v_h = (k, v) if h_kv == h else (k[index], v[index])  # (h, n, d_k), (h, n, d_v)
    out = np.empty((h, n, v.shape[-1]), dtype=np.result_type(q, v))  # (h, n, d_v)
    sums = np.zeros((4, h))  # Σ over rows of entropy, first, top1, itself
    prev_sum, prev_rows = np.zeros(h), 0
    rows = np.arange(n)
    for r0 in range(0, n, block):
        r1 = min(n, r0 + block)
        nb = r1 - r0
        allowed = rows[:r1][None, :] <= rows[r0:r1][:, None]  # (nb, r1) key j ≤ query i
        att = attend(
            q[:, r0:r1], k_h[:, :r1], v_h[:, :r1], mask=allowed, tokens=tokens[r0:r1]
        )  # weights (h, nb, r1): query r0 + i is key r0 + i
        out[:, r0:r1] = att.outputs
        s = trace_stats(att)  # (h,) means over this block's rows
        sums += nb * np.stack([s.entropy_bits, s.first, s.top1, s.itself])
        with_previous = nb - (1 if r0 == 0 else 0)  # row 0 has no previous token
        if with_previous > 0:
            prev_sum += with_previous * s.previous
            prev_rows += with_previous
    means = sums / n  # (4, h)
    stats = HeadStats(
        entropy_bits=means[0],
        first=means[1],
        previous=prev_sum / prev_rows if prev_rows else np.full(h, np.nan),
        itself=means[3],
        top1=means[2],
    )
    out.flags.writeable = False
    return out, LayerKeep(q, k, v, "causal"), stats
