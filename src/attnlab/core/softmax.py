"""The softmax and the measures read off its rows: entropy and the Jacobian.

softmax(s)_j = exp(s_j - max s) / Σ_k exp(s_k - max s): subtracting the row maximum changes
nothing mathematically and keeps exp() from overflowing, so scores of size 1e4 stay finite.
A score of -inf (a masked key) gets weight exactly 0.
"""

from __future__ import annotations

import numpy as np

from attnlab.types import FloatArray


def softmax(s: FloatArray, *, axis: int = -1) -> FloatArray:
    """Numerically stable softmax of `s` along `axis`; every slice needs one finite entry."""
    peak = np.maximum.reduce(s, axis=axis, keepdims=True)  # (..., 1, ...) the largest score
    e = np.exp(s - peak)  # (...,) in (0, 1], exactly 0 where s is -inf
    e /= np.add.reduce(e, axis=axis, keepdims=True)  # (...,) np.sum's own reduction, in place
    return e


def entropy_bits(w: FloatArray, *, axis: int = -1) -> FloatArray:
    """Shannon entropy of each distribution in `w`, in bits; 0·log 0 counts as 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log2(np.where(w > 0, w, 1.0)), 0.0)
    return np.sum(terms, axis=axis)  # type: ignore[no-any-return]


def jacobian(w: FloatArray) -> FloatArray:
    """∂softmax/∂s for one row of weights `w` (n,): diag(w) - w wᵀ, shape (n, n)."""
    return np.diag(w) - np.outer(w, w)  # (n, n)
