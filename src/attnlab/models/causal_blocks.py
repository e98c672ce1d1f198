"""A decoder layer's causal attention in blocks of query rows, the diagnostics read on the way.

Under a causal mask query i sees keys 0..i only, so the query rows r0..r1 need the keys 0..r1
and nothing after: the blocks together compute the lower triangle of the n × n weights plus a
thin strip, about half of the full square at 2,048 tokens. Peak memory is a few (h, block, r1)
arrays, never (h, n, n).

Each block is the lesson's `attend` (core/attention.py) step for step, with nothing kept that the
forward pass does not read. Grouped-query attention makes it one product per key/value head: the
g query heads that share keys stack their rows, (g · nb, d_k) against the same Kᵀ.

    1. Score:    s = (Q / √d_k) Kᵀ             = QKᵀ / √d_k, exactly so when √d_k is a power
                                               of two (8 for SmolLM2's d_k = 64)
                 s = −max/2 where key j > query i (the causal mask, in the block's last nb
                 columns only: keys before r0 are visible to every row of the block). It is
                 below every score (_plain bounds them by max/4), its exp() is 0 as that of
                 -inf is, and its product with a weight of 0 is 0, where -inf would make NaN
    2. Softmax:  d = s − max s (in place),  e = exp(d),  Z = Σⱼ e   the stable softmax, left
                                               unnormalised
    3. Blend:    z = (e V) / Z                 = softmax(s) V, divided after the product: d_v
                                               numbers per row instead of r1
    4. Read:     the per-row diagnostics of w = e / Z (core/diagnostics.py), without forming w:
                 top1 = 1 / Z (the top entry of e is exp(0) = 1), first = e₀ / Z, itself and
                 previous from two diagonals of e, and the entropy
                 H = log Z − Σⱼ eⱼ dⱼ / Z       (log wⱼ = dⱼ − log Z).

Under a sliding window of W keys (and no sinks) query i sees keys i − W < j ≤ i only, so the
rows r0..r1 need the keys from max(0, r0 − W + 1) on: a block computes that band, about
(nb + W) keys wide, instead of every key before it. Gemma 3's local layers at 2,048 tokens
(W = 512, blocks of 128) score 639 keys a row at most instead of up to 2,048.

`attend` stays the one path a learner sees: `ModelTrace.head` recomputes a head's whole Trace
through it from what this layer keeps, and tests/models/test_causal_blocks.py checks the blocks
against one masked `attend` of the whole matrix. When QKᵀ could overflow the dtype (a bound
from the largest |q| and |k|) or an input is not finite, every block goes through `attend`
itself, which computes such scores in float64 or names the bad input.

It returns what layer_keep.py's `attend_layer` returns: the outputs (h, n, d_v), a `LayerKeep`
(q, k, v and mask "causal") from which any head is recomputed whole, and the (h,) `HeadStats`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import numpy as np

from attnlab.core.attention import attend
from attnlab.core.diagnostics import HeadStats, trace_stats
from attnlab.core.grouped import group_size, kv_heads
from attnlab.models.layer_keep import LayerKeep
from attnlab.models.spec import MaskSpec
from attnlab.models.threads import THREADS, each, one_blas_thread
from attnlab.types import BoolArray, FloatArray

__all__ = ["BLOCK_ROWS", "attend_causal", "band_start"]

BLOCK_ROWS = 128
"""Query rows per block: (9, 128, 2,048) float32 scores are 9 MB, the strip above the diagonal
that a block computes and masks is a sixteenth of the work at 2,048 tokens, and 512 tokens make
four blocks that two threads share evenly (rows 1 + 4 and 2 + 3). Measured on the SmolLM2 pass:
512 tokens 1.39-1.45 s with 128 rows, 1.63 s with 256; 2,048 tokens 8.4-9.0 s, 9.3-9.4 s. With one
product per key/value head (medians of five interleaved 512-token passes): 1.89 s with 64 rows,
1.85 s with 128, 2.08 s with 256."""

CAUSAL = MaskSpec()
"""The plain causal mask: key j ≤ query i."""

_SUMS = ("entropy", "first", "top1", "itself", "previous")
"""What a block adds up over its rows, per head, in this order (the rows of its (5, h) sums)."""


def attend_causal(
    q: FloatArray,
    k: FloatArray,
    v: FloatArray,
    *,
    tokens: Sequence[str],
    block: int = BLOCK_ROWS,
    threads: int = THREADS,
    window: int | None = None,
    sinks: int = 0,
    cap: float | None = None,
) -> tuple[FloatArray, LayerKeep, HeadStats]:
    """Causal attention of q (h, n, d_k) over k, v (h_kv, n, d): outputs, keep, diagnostics.
    The blocks run on `threads` threads (NumPy releases the GIL inside each array operation);
    each writes its own rows of the outputs, and the sums are added in one order. `window`
    and `sinks` narrow the causal mask as spec.MaskSpec does; `cap` soft-caps the scores."""
    mask = MaskSpec(causal=True, window=window, sinks=sinks)
    h, n = q.shape[0], q.shape[1]
    h_kv = k.shape[0]
    g = group_size(h, h_kv)  # query heads per key/value head
    out = np.empty((h, n, v.shape[-1]), dtype=np.result_type(q, v))  # (h, n, d_v)
    sums = np.zeros((len(_SUMS), h))  # (5, h) Σ over rows
    if _plain(q, k, v):
        q_s = q / q.dtype.type(math.sqrt(q.shape[-1]))  # (h, n, d_k) Q / √d_k
        q_g = q_s.reshape(h_kv, g, n, q.shape[-1])  # (h_kv, g, n, d_k) by key/value head

        def one(r0: int) -> FloatArray:
            out[:, r0 : r0 + block], part = _block(
                q_g, k, v, r0, min(n, r0 + block), mask=mask, cap=cap
            )
            return part

    else:
        index = kv_heads(h, h_kv)  # (h,) the key/value head of each query head
        k_h, v_h = k[index], v[index]  # (h, n, d_k), (h, n, d_v)

        def one(r0: int) -> FloatArray:
            out[:, r0 : r0 + block], part = _block_by_attend(
                q, k_h, v_h, r0, min(n, r0 + block), tokens, mask=mask, cap=cap
            )
            return part

    starts = range(0, n, block)[::-1]  # the longest rows first, so that the threads end together
    if threads > 1 and n > block:
        with one_blas_thread:  # our threads are the parallelism: BLAS's own would contend
            parts = each(one, starts)
    else:
        parts = list(map(one, starts))
    for part in parts:
        sums += part
    with np.errstate(invalid="ignore"):  # n = 1: no row has a previous token, 0 / 0 = NaN
        means = sums / np.array([n, n, n, n, n - 1])[:, None]  # (5, h)
    stats = HeadStats(
        entropy_bits=np.maximum(means[0] / math.log(2), 0),  # rounding can dip below 0
        first=means[1],
        previous=means[4],
        itself=means[3],
        top1=means[2],
    )
    out.flags.writeable = False
    return out, LayerKeep(q, k, v, "causal", window, sinks, cap), stats


def _plain(q: FloatArray, k: FloatArray, v: FloatArray) -> bool:
    """True when every input is finite and every entry of QKᵀ is under a quarter of q's dtype's
    largest number: |qᵢ · kⱼ| ≤ d_k · max|q| · max|k|. The mask's −max/2 is then below every
    score, and it minus the row's top score stays finite."""
    if not (np.isfinite(v).all() and np.issubdtype(q.dtype, np.floating)):
        return False
    with np.errstate(over="ignore", invalid="ignore"):
        bound = q.shape[-1] * float(np.abs(q).max()) * float(np.abs(k).max())
    return math.isfinite(bound) and bound < float(np.finfo(q.dtype).max) / 4


@cache
def _above_diagonal(nb: int) -> BoolArray:
    """(nb, nb) True where key j > query i among a block's own keys: what the mask hides."""
    i = np.arange(nb)
    above: BoolArray = i[None, :] > i[:, None]
    return above


def band_start(r0: int, mask: MaskSpec) -> int:
    """The first key that any query row from r0 on may see: r0 − W + 1 under a sliding window of
    W ≥ 2 keys without sinks, else 0 (sinks keep the first keys; a window of 1 would leave the
    block's first row without its previous key, which the diagnostics read from the band)."""
    if mask.window is None or mask.window < 2 or mask.sinks:
        return 0
    return max(0, r0 - mask.window + 1)


def _block(
    q_g: FloatArray, k: FloatArray, v: FloatArray, r0: int, r1: int, *,
    mask: MaskSpec = CAUSAL, cap: float | None = None,
) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """Query rows r0..r1 against keys 0..r1 (steps 1–4 above), the queries already divided by
    √d_k and grouped by key/value head, q_g (h_kv, g, n, d_k) over k, v (h_kv, n, d): their
    outputs (h, nb, d_v) and the (5, h) sums over their rows of `_SUMS`."""
    h_kv, g, _, d_k = q_g.shape
    h, nb = h_kv * g, r1 - r0
    c0 = band_start(r0, mask)  # the first key any of these rows sees
    rows = q_g[:, :, r0:r1].reshape(h_kv, g * nb, d_k)  # (h_kv, g·nb, d_k) a group's rows
    s = rows @ np.swapaxes(k[:, c0:r1], -1, -2)  # (h_kv, g·nb, r1 − c0) QKᵀ/√d_k
    if cap is not None:  # soft-capping (Gemma 2): c · tanh(s / c), before the mask
        c = s.dtype.type(cap)
        s /= c
        np.tanh(s, out=s)
        s *= c
    d = s.reshape(h, nb, r1 - c0)  # (h, nb, r1 − c0) the same numbers, head by head
    hidden = np.finfo(s.dtype).min / 2  # below every score (_plain), its exp() is 0
    if mask.window is None:
        np.copyto(d[:, :, r0:], hidden, where=_above_diagonal(nb))  # key j > query i
    else:  # a sliding window hides keys too far back as well (spec.MaskSpec.allowed)
        allowed = mask.allowed(0, r1, slice(r0, r1))  # (nb, r1)
        assert allowed is not None  # a causal mask always is one
        np.copyto(d, hidden, where=~allowed[:, c0:])
    d -= np.maximum.reduce(d, axis=-1, keepdims=True)  # (h, nb, r1 − c0) s − max s ≤ 0
    e = np.exp(d)  # (h, nb, r1 − c0) in [0, 1], exactly 1 at the top key, 0 where masked
    z = np.add.reduce(e, axis=-1)  # (h, nb) Z
    blended = (e.reshape(h_kv, g * nb, r1 - c0) @ v[:, c0:r1]).reshape(h, nb, -1)  # (h, nb, d_v)
    blended /= z[..., None]  # (h, nb, d_v) softmax(s) V
    expected = np.einsum("hij,hij->hi", e, d)  # (h, nb) Σⱼ eⱼ dⱼ, 0 where masked
    entropy = np.log(z) - expected / z  # (h, nb) nats
    itself = np.diagonal(e, offset=r0 - c0, axis1=-2, axis2=-1)  # (h, nb) eᵢᵢ: key r0 + i
    previous = np.diagonal(e, offset=r0 - c0 - 1, axis1=-2, axis2=-1)  # (h, nb or nb − 1)
    prev_z = z if r0 > 0 else z[:, 1:]  # row 0 of the text has no previous token
    first = e[..., 0] / z if c0 == 0 else np.zeros_like(z)  # key 0, outside a band from c0 > 0
    sums = np.stack(
        [
            entropy.sum(-1, dtype=np.float64),
            first.sum(-1, dtype=np.float64),
            (1 / z).sum(-1, dtype=np.float64),
            (itself / z).sum(-1, dtype=np.float64),
            (previous / prev_z).sum(-1, dtype=np.float64),
        ]
    )  # (5, h)
    return blended, sums


def _block_by_attend(
    q: FloatArray, k_h: FloatArray, v_h: FloatArray, r0: int, r1: int, tokens: Sequence[str],
    *, mask: MaskSpec = CAUSAL, cap: float | None = None,
) -> tuple[FloatArray, FloatArray]:  # fmt: skip
    """The same block through `attend` itself: for scores that need float64, or inputs that are
    not finite (attend names them)."""
    nb = r1 - r0
    allowed = mask.allowed(0, r1, slice(r0, r1))  # (nb, r1) key j ≤ query i (and in the window)
    att = attend(q[:, r0:r1], k_h[:, :r1], v_h[:, :r1], mask=allowed, tokens=tokens[r0:r1],
                 cap=cap)  # fmt: skip
    s = trace_stats(att)  # (h,) means over this block's rows
    with_previous = nb - (1 if r0 == 0 else 0)  # row 0 has no previous token
    previous = s.previous * with_previous if with_previous else np.zeros_like(s.first)
    sums = np.stack([nb * s.entropy_bits * math.log(2), nb * s.first, nb * s.top1,
                     nb * s.itself, previous])  # fmt: skip
    return att.outputs, sums
