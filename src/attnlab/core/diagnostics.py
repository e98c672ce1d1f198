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


def head_stats(weights: FloatArray) -> HeadStats:
    """The diagnostics of every head in `weights` (..., n, m), rows summing to 1 over the keys."""
    w = np.asarray(weights)  # (..., n, m)
    n, m = w.shape[-2:]
    lead = w.shape[:-2]
    logw = np.log2(np.maximum(w, np.finfo(w.dtype).tiny))  # (..., n, m) 0 · log₂(tiny) = 0
    logw *= w  # (..., n, m) w log₂ w
    entropy = -logw.sum(axis=-1).mean(axis=-1, dtype=np.float64)  # (...)
    first = w[..., 0].mean(axis=-1, dtype=np.float64)  # (...)
    top1 = w.max(axis=-1).mean(axis=-1, dtype=np.float64)  # (...)
    offset = m - n  # query i is key i + offset
    itself = _diagonal_mean(w, offset, lead)  # (...)
    previous = _diagonal_mean(w, offset - 1, lead)  # (...)
    return HeadStats(entropy, first, previous, itself, top1)


def _diagonal_mean(w: FloatArray, offset: int, lead: tuple[int, ...]) -> FloatArray:
    """The mean of the (n, m) diagonal `offset` of every head; NaN where it is empty."""
    n, m = w.shape[-2:]
    if offset <= -n or offset >= m or (offset < 0 and m < n):
        return np.full(lead, np.nan)  # (...) no query has that key
    diagonal = np.diagonal(w, offset=offset, axis1=-2, axis2=-1)  # (..., rows that have one)
    mean: FloatArray = diagonal.mean(axis=-1, dtype=np.float64)  # (...)
    return mean
