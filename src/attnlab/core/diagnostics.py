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

`head_stats(weights)` uses the definitions. `trace_stats(trace)`, for a forward pass that has the
scores s that entered the softmax, needs no logarithm of the n × m weights: log wᵢⱼ = sᵢⱼ − lseᵢ,
so Hᵢ = lseᵢ − Σⱼ wᵢⱼ sᵢⱼ (nats), with lseᵢ = max s − log max w (the top score and the top weight
sit at one key; top1 reads max w). Both agree to float32 rounding (tests/core/test_diagnostics.py).

Query row i sits at key position i + (m − n): queries are the last n of the m keys, as in a
decoder reading a key/value cache (n = m for an encoder). With more queries than keys "previous"
and "itself" have no position and are NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from attnlab.core.trace import Trace
from attnlab.types import FloatArray

__all__ = ["HeadStats", "head_stats", "trace_stats"]


@dataclass(frozen=True)
class HeadStats:
    """Five diagnostics per head, means over query rows; every array has the heads' shape."""

    entropy_bits: FloatArray  # (...) mean row entropy in bits
    first: FloatArray  # (...) mean weight on key 0, the attention sink
    previous: FloatArray  # (...) mean weight on the key before the query
    itself: FloatArray  # (...) mean weight on the query's own position
    top1: FloatArray  # (...) mean of each row's largest weight

    def __post_init__(self) -> None:
        for name in _STAT_NAMES:
            a = np.asarray(getattr(self, name))
            if a.dtype != np.float64 or not a.flags.owndata:  # else: fresh from a reduction
                a = np.array(a, dtype=np.float64)  # a private float64 copy
            a.flags.writeable = False
            object.__setattr__(self, name, a)

    @property
    def shape(self) -> tuple[int, ...]:
        """The heads' shape: (L, H) for a model, (H,) for one layer."""
        return tuple(self.entropy_bits.shape)

    @classmethod
    def stack(cls, parts: Sequence[HeadStats]) -> HeadStats:
        """One layer's (H,) statistics after another: (L, H)."""
        return cls(*(np.stack([getattr(p, name) for p in parts]) for name in _STAT_NAMES))


_STAT_NAMES = tuple(f.name for f in fields(HeadStats))
"""HeadStats' field names, read once: a forward pass makes one HeadStats per layer."""


def head_stats(weights: FloatArray) -> HeadStats:
    """The diagnostics of every head in `weights` (..., n, m), rows summing to 1 over the keys."""
    w = np.asarray(weights)  # (..., n, m)
    logw = np.log2(np.maximum(w, np.finfo(w.dtype).tiny))  # (..., n, m) 0 · log₂(tiny) = 0
    logw *= w  # (..., n, m) w log₂ w
    bits: FloatArray = -np.add.reduce(logw, axis=-1)  # (..., n) -Σⱼ w log₂ w
    return _assemble(w, np.maximum.reduce(w, axis=-1), bits)


def trace_stats(t: Trace) -> HeadStats:
    """The diagnostics of every head in a Trace whose rows are softmaxes over the keys, the
    entropy read off its scores: Hᵢ = max s − log max w − Σⱼ wᵢⱼ rawᵢⱼ / divisor, in nats.
    The raw scores are finite where the scores are -inf (masked), and weigh 0 there. A forward
    pass calls this once per layer, so it makes as few NumPy calls as it can."""
    if t.axis != "keys":
        return head_stats(t.weights)  # columns normalised: the definition, as for any weights
    w = t.weights  # (..., n, m)
    w_top = np.maximum.reduce(w, axis=-1)  # (..., n) each row's top weight
    nats = np.maximum.reduce(t.scores, axis=-1)  # (..., n) at the same key: softmax is monotone
    nats -= np.log(w_top)  # (..., n) lseᵢ = log Σⱼ exp sᵢⱼ
    if not math.isinf(t.divisor):  # uniform: every score is 0, so Σⱼ wᵢⱼ sᵢⱼ = 0
        expected = np.einsum("...ij,...ij->...i", w, t.raw_scores)  # (..., n) Σⱼ wᵢⱼ rawᵢⱼ
        expected /= w.dtype.type(t.divisor)  # (..., n) Σⱼ wᵢⱼ sᵢⱼ
        nats -= expected  # (..., n) Hᵢ
    return _assemble(w, w_top, nats, to_bits=1 / math.log(2))


def _assemble(
    w: FloatArray, w_top: FloatArray, entropy: FloatArray, *, to_bits: float = 1.0
) -> HeadStats:
    """Means over the query rows of the row entropies (times `to_bits`), first-key weights and
    top weights, and of the two diagonals of every head."""
    n, m = w.shape[-2:]
    means = np.add.reduce(np.stack([entropy, w[..., 0], w_top]), axis=-1, dtype=np.float64)
    means /= n  # (3, ...)
    offset = m - n  # query i is key i + offset
    return HeadStats(
        entropy_bits=np.maximum(means[0] * to_bits, 0),  # (...) rounding can dip below 0
        first=means[1],  # (...)
        previous=_diagonal_mean(w, offset - 1),  # (...)
        itself=_diagonal_mean(w, offset),  # (...)
        top1=means[2],  # (...)
    )


def _diagonal_mean(w: FloatArray, offset: int) -> FloatArray:
    """The mean of the (n, m) diagonal `offset` of every head; NaN where it is empty, or where
    there are more queries than keys (then queries are not the last keys)."""
    n, m = w.shape[-2:]
    count = min(n, m - offset) if offset >= 0 else min(n + offset, m)  # entries on it
    if count <= 0 or m < n:
        return np.full(w.shape[:-2], np.nan)  # (...) no query has that key
    total = np.trace(w, offset, axis1=-2, axis2=-1, dtype=np.float64)  # (...)
    mean: FloatArray = total / count
    return mean
