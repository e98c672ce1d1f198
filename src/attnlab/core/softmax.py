"""The softmax and the measures read off its rows: entropy and the Jacobian.

softmax(s)_j = exp(s_j - max s) / Σ_k exp(s_k - max s): subtracting the row maximum changes
nothing mathematically and keeps exp() from overflowing, so scores of size 1e4 stay finite.
A score of -inf (a masked key) gets weight exactly 0.
"""

from __future__ import annotations

import numpy as np

from attnlab.core.checks import as_float
from attnlab.errors import NonFiniteError, ShapeError
from attnlab.types import FloatArray


def softmax(s: object, *, axis: int = -1) -> FloatArray:
    """Numerically stable softmax of `s` along `axis`, its input checked first: an array of
    numbers, no NaN or +inf, and one finite entry in every slice (-inf is a masked key)."""
    a = as_float(s, "scores")
    if isinstance(axis, bool) or not isinstance(axis, int) or not -a.ndim <= axis < max(a.ndim, 1):
        raise ShapeError(f"axis {axis!r} does not exist for scores of shape {a.shape}")
    if a.ndim == 0 or a.shape[axis] == 0:
        raise ShapeError(f"softmax needs at least one score along axis {axis}, got {a.shape}")
    if np.isnan(a).any() or np.isposinf(a).any():
        raise NonFiniteError("scores hold NaN or +inf: the softmax of such a row is undefined")
    if not np.isfinite(a).any(axis=axis).all():
        raise NonFiniteError("a slice of the scores is all -inf: every key is masked")
    return stable_softmax(a, axis=axis)


def stable_softmax(s: FloatArray, *, axis: int = -1) -> FloatArray:
    """Numerically stable softmax of `s` along `axis`, unchecked (attend checks its own scores);
    every slice needs one finite entry."""
    peak = np.maximum.reduce(s, axis=axis, keepdims=True)  # (..., 1, ...) the largest score
    e = np.subtract(s, peak)  # (...,) ≤ 0, -inf where s is -inf: the one new array
    np.exp(e, out=e)  # (...,) in (0, 1], exactly 0 where s is -inf
    e /= np.add.reduce(e, axis=axis, keepdims=True)  # (...,) np.sum's own reduction, in place
    return e


def entropy_bits(w: FloatArray, *, axis: int = -1) -> FloatArray:
    """Shannon entropy of each distribution in `w`, in bits; 0·log 0 counts as 0."""
    w = as_float(w, "weights")
    if w.ndim == 0 or w.size == 0:
        raise ShapeError(f"weights must be at least one row, got shape {w.shape}")
    if not np.isfinite(w).all() or (w < 0).any():
        raise NonFiniteError("weights must be finite and non-negative to have an entropy")
    logs = np.zeros_like(w)
    np.log2(w, out=logs, where=w > 0)  # log₂ w where w > 0, 0 elsewhere: one temporary, no copy
    logs *= w
    return 0.0 - np.sum(logs, axis=axis)  # type: ignore[no-any-return]  # 0.0 - 0.0 is +0.0


def jacobian(w: FloatArray) -> FloatArray:
    """∂softmax/∂s for one row of weights `w` (n,): diag(w) - w wᵀ, shape (n, n)."""
    return np.diag(w) - np.outer(w, w)  # (n, n)
