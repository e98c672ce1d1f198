"""Softmax saturation: how peaked each row is, and how much gradient its softmax passes.

For a row of weights w = softmax(s) (Vaswani et al., 2017, eq. 1, one query at a time):

    entropy H(w) = -Σ_j w_j log₂ w_j              bits; 0 for a one-hot row, log₂ m for uniform
    Jacobian  J = ∂w/∂s = diag(w) - w wᵀ           (m, m); every entry → 0 as w → one-hot

Section 3.2.1 of the paper divides by √dₖ because large dot products "push the softmax into
regions where it has extremely small gradients": ‖J‖ is that gradient's size, so saturation is
a number here. `sweep` moves the divisor (the temperature T) over a log-spaced range and records,
for one query row, its weights, entropy and ‖J‖ at every T: the data of a small plot.

The Jacobian is taken with respect to the scores entering the softmax (s = q·k / T), the
standard softmax Jacobian; it is defined for a row only when the softmax runs across the keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from attnlab.core.softmax import entropy_bits, jacobian, softmax
from attnlab.core.trace import Trace
from attnlab.errors import FocusError, TemperatureError
from attnlab.types import BoolArray, FloatArray

__all__ = ["Saturation", "Sweep", "jacobian_size", "saturation", "sweep", "temperatures"]

T_MIN, T_MAX, T_STEPS = 0.1, 10.0, 41
"""The temperature slider: 0.1 to 10 on a log scale (√dₖ = 2 and 1 are two of its points)."""


def jacobian_size(w: FloatArray) -> tuple[float, float]:
    """(Frobenius norm, largest |entry|) of the softmax Jacobian J = diag(w) − w wᵀ at one row
    of weights `w`, without building the (m, m) matrix:

        ‖J‖²_F = Σᵢ (wᵢ(1 − wᵢ))² + Σᵢ wᵢ² Σⱼ≠ᵢ wⱼ²
        max |Jᵢⱼ| = max(maxᵢ wᵢ(1 − wᵢ), w₍₁₎ w₍₂₎)   (a diagonal entry, or the two largest weights)

    Σⱼ≠ᵢ wⱼ² is summed without the largest weight k and then added back, never as Σⱼ wⱼ² − wᵢ²:
    a nearly one-hot row (a saturated softmax, the very case this measures) would cancel to 0.
    At 2,048 keys the matrix would be 32 MB of float64 for two numbers."""
    w = np.asarray(w, dtype=np.float64).ravel()  # (m,)
    diagonal_entries = w * (1 - w)  # (m,) Jᵢᵢ
    k = int(np.argmax(w))
    rest = np.delete(w, k)  # (m − 1,) every weight but the largest
    rest_sq = float(np.dot(rest, rest))  # Σⱼ≠ₖ wⱼ²
    others = w[k] ** 2 + np.maximum(rest_sq - rest * rest, 0.0)  # (m − 1,) Σⱼ≠ᵢ wⱼ², i ≠ k
    off = float(np.dot(rest * rest, others)) + w[k] ** 2 * rest_sq  # Σᵢ wᵢ² Σⱼ≠ᵢ wⱼ²
    frobenius = math.sqrt(float(np.dot(diagonal_entries, diagonal_entries)) + off)
    diagonal = float(np.max(diagonal_entries))
    top = np.partition(w, w.size - 2)[-2:] if w.size > 1 else np.zeros(2)  # the two largest
    return frobenius, max(diagonal, float(top[0] * top[1]))


_MEASURES: dict[str, Callable[[FloatArray, BoolArray, int], FloatArray]] = {
    "entropy_bits": lambda w, allowed, axis: entropy_bits(w, axis=axis),
    "max_entropy_bits": lambda w, allowed, axis: np.log2(np.sum(allowed, axis=axis)),
    "max_weight": lambda w, allowed, axis: np.max(w, axis=axis),
    "row_sums": lambda w, allowed, axis: w.sum(axis=1),
    "column_sums": lambda w, allowed, axis: w.sum(axis=0),
}
"""Saturation's per-slice measures from (weights (n, m) float64, visible (n, m), the axis a
distribution runs along)."""


@dataclass(frozen=True)
class Saturation:
    """Per-slice peakedness of a single-head trace, and the Jacobian of its focus row.

    `per` is "row" when the softmax ran across the keys (each row a distribution) and "column"
    when it ran, by mistake, across the queries: then the distributions are the columns.

    The per-slice measures (entropy, ceiling, largest weight, sums) are computed, in float64,
    when first read: a real model's head at 2,048 tokens shows the focus row alone
    (`focus_entropy_bits`), and every row's entropy would be two 32 MB float64 arrays more.
    """

    per: Literal["row", "column"]
    weights: FloatArray  # (n, m) the trace's weights, as it holds them (not copied)
    mask: BoolArray | None  # (n, m) True where a key was visible, or None for all
    focus: int
    focus_weights: FloatArray | None  # (m,) the focus row, or None when per == "column"
    jacobian_frobenius: float | None
    jacobian_max_abs: float | None
    _measured: dict[str, FloatArray] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )  # the per-slice measures read so far, by name

    def _measure(self, name: str) -> FloatArray:
        """The per-slice measure `name` (_MEASURES) of the weights in float64, on first read."""
        if name not in self._measured:
            if "float64" not in self._measured:
                self._measured["float64"] = np.asarray(self.weights, dtype=np.float64)  # (n, m)
            w = self._measured["float64"]
            allowed = self.mask if self.mask is not None else np.ones_like(w, dtype=np.bool_)
            axis = -1 if self.per == "row" else 0  # across each distribution
            self._measured[name] = _MEASURES[name](w, allowed, axis)
        return self._measured[name]

    @property
    def entropy_bits(self) -> FloatArray:
        """(n,) or (m,): one entropy per distribution, in bits."""
        return self._measure("entropy_bits")

    @property
    def max_entropy_bits(self) -> FloatArray:
        """log₂(number of unmasked entries) per distribution: the uniform ceiling."""
        return self._measure("max_entropy_bits")

    @property
    def max_weight(self) -> FloatArray:
        """The largest weight of each distribution."""
        return self._measure("max_weight")

    @property
    def row_sums(self) -> FloatArray:
        """(n,)"""
        return self._measure("row_sums")

    @property
    def column_sums(self) -> FloatArray:
        """(m,)"""
        return self._measure("column_sums")

    @property
    def focus_entropy_bits(self) -> float | None:
        """The focus row's entropy in bits, read off that row alone (the same number as
        entropy_bits[focus]), or None when per == "column"."""
        if self.focus_weights is None:
            return None
        return float(entropy_bits(self.focus_weights[None, :], axis=-1)[0])

    @property
    def jacobian(self) -> FloatArray | None:
        """(m, m) ∂w_focus/∂s_focus, built when asked, or None when per == "column"."""
        return None if self.focus_weights is None else jacobian(self.focus_weights)


def saturation(trace: Trace, focus: int) -> Saturation:
    """The saturation of `trace` at row `focus`: its Jacobian's size now (one row), the
    per-distribution measures when read."""
    w = trace.weights  # (n, m)
    if w.ndim != 2:
        raise ValueError(f"saturation needs one head, got weights of shape {w.shape}")
    _check_focus(focus, w.shape[0])
    row = frob = biggest = None
    if trace.axis == "keys":
        row = np.asarray(w[focus], dtype=np.float64)  # (m,)
        frob, biggest = jacobian_size(row)
    return Saturation(
        per="row" if trace.axis == "keys" else "column",
        weights=w,
        mask=trace.mask,
        focus=focus,
        focus_weights=row,
        jacobian_frobenius=frob,
        jacobian_max_abs=biggest,
    )


def temperatures(lo: float = T_MIN, hi: float = T_MAX, *, steps: int = T_STEPS) -> FloatArray:
    """`steps` log-spaced temperatures from `lo` to `hi`, both included."""
    if not (math.isfinite(lo) and math.isfinite(hi) and 0 < lo < hi) or steps < 2:
        raise TemperatureError(
            f"a sweep needs 0 < lo < hi, both finite, and 2 or more steps; "
            f"got lo={lo!r}, hi={hi!r}, steps={steps!r}"
        )
    return np.geomspace(lo, hi, steps)  # (steps,)


@dataclass(frozen=True)
class Sweep:
    """The focus row as the temperature moves: weights, entropy and Jacobian size per T."""

    tokens: tuple[str, ...]  # the key tokens (the columns of `weights`)
    focus: int
    temperatures: FloatArray  # (t,)
    weights: FloatArray  # (t, m) softmax(q·K / T) for the focus query
    entropy_bits: FloatArray  # (t,)
    jacobian_frobenius: FloatArray  # (t,)
    jacobian_max_abs: FloatArray  # (t,)
    sqrt_d_k: float  # where the paper's √dₖ sits on the T axis ("Scaled"); T = 1 is "No √dₖ"
    max_entropy_bits: float  # log₂(unmasked keys): the uniform limit as T → ∞


def sweep(trace: Trace, focus: int, *, ts: FloatArray | None = None) -> Sweep:
    """The focus row of `trace` recomputed at every temperature in `ts` (default 0.1..10).

    Uses the trace's raw scores q·k (after any positional rotation) and its mask; the softmax
    runs across the keys, the correct axis, whatever `trace.axis` was.
    """
    raw = np.asarray(trace.raw_scores, dtype=np.float64)  # (n, m)
    if raw.ndim != 2:
        raise ValueError(f"sweep needs one head, got raw scores of shape {raw.shape}")
    _check_focus(focus, raw.shape[0])
    t = temperatures() if ts is None else np.asarray(ts, dtype=np.float64)  # (t,)
    row = raw[focus]  # (m,) q·k for the focus query
    allowed = trace.mask[focus] if trace.mask is not None else np.ones_like(row, dtype=np.bool_)
    scores = np.where(allowed, row[None, :] / t[:, None], -np.inf)  # (t, m) q·k / T
    w = softmax(scores, axis=-1)  # (t, m)
    sizes = np.array([jacobian_size(w_t) for w_t in w])  # (t, 2)
    return Sweep(
        tokens=trace.columns,
        focus=focus,
        temperatures=t,
        weights=w,
        entropy_bits=entropy_bits(w, axis=-1),
        jacobian_frobenius=sizes[:, 0],
        jacobian_max_abs=sizes[:, 1],
        sqrt_d_k=math.sqrt(trace.d_k),
        max_entropy_bits=float(np.log2(np.count_nonzero(allowed))),
    )


def _check_focus(focus: int, n: int) -> None:
    if not 0 <= focus < n:
        raise FocusError(f"focus row {focus} is outside 0..{n - 1}")
