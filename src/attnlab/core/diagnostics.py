"""Per-head diagnostics read off attention weights alone: how spread a head is and where it looks.

The measures that the interpretability literature reads off attention maps, each a mean over the
query rows of one head, so a model of L layers and H heads gives five (L, H) arrays:

* entropy_bits: -Σⱼ wᵢⱼ log₂ wᵢⱼ, 0 for a one-hot row, log₂ m for a uniform one
  ("What Does BERT Look At?", Clark et al., 2019, section 3.2);
* first: the weight on key 0, the "attention sink" ("Efficient Streaming Language Models with
  Attention Sinks", Xiao et al., 2023), [CLS] in BERT;
* previous: the weight on the key just before the query (previous-token heads, Olsson et al.,
  2022), over the rows that have one; NaN when none has;
* itself: the weight a token gives its own position;
* top1: each row's largest weight.

With the scores s that entered the softmax at hand (a forward pass has them), the entropy needs
no logarithm of the n × m weights: log wᵢⱼ = sᵢⱼ − lseᵢ, so Hᵢ = lseᵢ − Σⱼ wᵢⱼ sᵢⱼ (nats), and
lseᵢ = max s − log max w (the top score and the top weight sit at one key; top1 reads max w).
Weights alone use the definition. Both agree to float32 rounding (tests/core/test_diagnostics.py).

Query row i sits at key position i + (m − n): queries are the last n of the m keys, as in a
decoder reading a key/value cache (n = m for an encoder). With more queries than keys "previous"
and "itself" have no position and are NaN.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from attnlab.types import FloatArray

__all__ = ["HeadStats", "head_stats"]


@dataclass(frozen=True)
class HeadStats:
    """Five diagnostics per head, means over query rows; every array has the heads' shape."""

    entropy_bits: FloatArray  # (...) mean row entropy in bits
    first: FloatArray  # (...) mean weight on key 0, the attention sink
    previous: FloatArray  # (...) mean weight on the key before the query
    itself: FloatArray  # (...) mean weight on the query's own position
    top1: FloatArray  # (...) mean of each row's largest weight

    def __post_init__(self) -> None:
        for f in fields(self):
            a = np.array(getattr(self, f.name), dtype=np.float64)  # a private float64 copy
            a.flags.writeable = False
            object.__setattr__(self, f.name, a)

    @property
    def shape(self) -> tuple[int, ...]:
        """The heads' shape: (L, H) for a model, (H,) for one layer."""
        return tuple(self.entropy_bits.shape)

    @classmethod
    def stack(cls, parts: Sequence[HeadStats]) -> HeadStats:
        """One layer's (H,) statistics after another: (L, H)."""
        return cls(*(np.stack([getattr(p, f.name) for p in parts]) for f in fields(cls)))


def head_stats(weights: FloatArray, *, scores: FloatArray | None = None) -> HeadStats:
    """The diagnostics of every head in `weights` (..., n, m), rows summing to 1 over the keys;
    `scores` (..., n, m), the softmax's input (-inf where masked), makes the entropy cheaper."""
    w = np.asarray(weights)  # (..., n, m)
    n, m = w.shape[-2:]
    w_top = w.max(axis=-1)  # (..., n) each row's top weight
    if scores is None:
        row_bits = _entropy_bits(w)  # (..., n)
    else:
        row_bits = _entropy_bits_from_scores(w, np.asarray(scores), w_top)  # (..., n)
    offset = m - n  # query i is key i + offset
    return HeadStats(
        entropy_bits=row_bits.mean(axis=-1, dtype=np.float64),  # (...)
        first=w[..., 0].mean(axis=-1, dtype=np.float64),  # (...)
        previous=_diagonal_mean(w, offset - 1),  # (...)
        itself=_diagonal_mean(w, offset),  # (...)
        top1=w_top.mean(axis=-1, dtype=np.float64),  # (...)
    )


def _entropy_bits(w: FloatArray) -> FloatArray:
    """-Σⱼ w log₂ w per row, (..., n): the definition, with 0 · log 0 = 0."""
    logw = np.log2(np.maximum(w, np.finfo(w.dtype).tiny))  # (..., n, m) 0 · log₂(tiny) = 0
    logw *= w  # (..., n, m) w log₂ w
    bits: FloatArray = -logw.sum(axis=-1)  # (..., n)
    return bits


def _entropy_bits_from_scores(w: FloatArray, s: FloatArray, w_top: FloatArray) -> FloatArray:
    """Hᵢ = lseᵢ − Σⱼ wᵢⱼ sᵢⱼ in bits, (..., n), with lseᵢ = max s − log max w (the softmax is
    monotone: the top score and the top weight sit at the same key)."""
    s_top = s.max(axis=-1)  # (..., n)
    lse = s_top - np.log(w_top)  # (..., n) log Σⱼ exp sᵢⱼ
    with np.errstate(invalid="ignore"):  # 0 · -inf at a masked key is NaN, redone below
        expected = np.matmul(w[..., None, :], s[..., :, None])[..., 0, 0]  # (..., n) Σⱼ wᵢⱼ sᵢⱼ
    if np.isnan(expected).any():  # a masked key: 0 · -inf; count it as 0
        expected = np.einsum("...j,...j->...", w, np.where(np.isneginf(s), 0, s))  # (..., n)
    bits: FloatArray = np.maximum(lse - expected, 0) / np.log(2)  # (..., n) rounding can dip < 0
    return bits


def _diagonal_mean(w: FloatArray, offset: int) -> FloatArray:
    """The mean of the (n, m) diagonal `offset` of every head; NaN where it is empty."""
    n, m = w.shape[-2:]
    if offset <= -n or offset >= m or (offset < 0 and m < n):
        return np.full(w.shape[:-2], np.nan)  # (...) no query has that key
    diagonal = np.diagonal(w, offset=offset, axis1=-2, axis2=-1)  # (..., rows that have one)
    mean: FloatArray = diagonal.mean(axis=-1, dtype=np.float64)  # (...)
    return mean
