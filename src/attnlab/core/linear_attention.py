"""Linear attention: a feature map in place of the softmax, an approximation measured.

Follows "Transformers are RNNs" (Katharopoulos et al., 2020), equations (4)-(7), with their
feature map φ(x) = elu(x) + 1 (positive, so every weight is ≥ 0):

    wᵢⱼ = φ(qᵢ)·φ(kⱼ) / Σₗ φ(qᵢ)·φ(kₗ)        instead of  exp(qᵢ·kⱼ/√dₖ) / Σₗ exp(qᵢ·kₗ/√dₖ)
    zᵢ  = φ(qᵢ) (Σⱼ φ(kⱼ)ᵀ vⱼ) / φ(qᵢ) (Σⱼ φ(kⱼ))    (d_k × d_v numbers, no n × n)

so the cost is O(n · d_k · d_v) instead of O(n² · d). The price: a weight grows with the dot
product φ(q)·φ(k), not with its exponential. Scaling a query by α sharpens the softmax row toward
the one best key (its weights are ratios exp(α Δs)), while φ(α q) ≈ α q⁺ leaves the linear row's
ratios bounded: `sharpening` computes both rows' top weight as α grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attnlab.core.attention import attend
from attnlab.core.checks import as_float
from attnlab.core.softmax import entropy_bits
from attnlab.core.trace import Trace
from attnlab.errors import ShapeError
from attnlab.types import FloatArray, Mode

__all__ = [
    "LinearComparison",
    "compare_linear",
    "elu_plus_one",
    "linear_attend",
    "linear_outputs",
    "sharpening",
]


def elu_plus_one(x: npt.ArrayLike) -> FloatArray:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise; always > 0."""
    a = as_float(x, "features")
    return np.where(a > 0, a + 1, np.exp(np.minimum(a, 0)))


def linear_attend(
    q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike, *, causal: bool = False
) -> tuple[FloatArray, FloatArray]:
    """The linear rows (n, m) and the outputs (n, d_v), the outputs computed the O(n·d²) way
    (cumulative sums of φ(k)ᵀv under a causal mask, as the paper's RNN form)."""
    fq, fk = elu_plus_one(q), elu_plus_one(k)  # (n, d_k), (m, d_k)
    v_ = as_float(v, "values")
    sim = fq @ fk.T  # (n, m) φ(q)·φ(k)
    if causal:
        sim = np.tril(sim)
        kv = np.cumsum(fk[:, :, None] * v_[:, None, :], axis=0)  # (n, d_k, d_v) Σⱼ≤ᵢ φ(kⱼ)ᵀvⱼ
        norm = np.cumsum(fk, axis=0)  # (n, d_k)
        out = np.einsum("nd,nde->ne", fq, kv) / np.einsum("nd,nd->n", fq, norm)[:, None]
    else:
        kv = fk.T @ v_  # (d_k, d_v)
        out = (fq @ kv) / (fq @ fk.sum(axis=0))[:, None]  # (n, d_v)
    return sim / sim.sum(axis=-1, keepdims=True), out


def linear_outputs(q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike) -> FloatArray:
    """The outputs alone (n, d_v), no n × m array: φ(Q) (φ(K)ᵀ V) / φ(Q) Σⱼ φ(kⱼ), O(n·d_k·d_v)
    time and O(n·d + d_k·d_v) memory: what makes linear attention cheap."""
    fq, fk = elu_plus_one(q), elu_plus_one(k)  # (n, d_k), (m, d_k)
    kv = fk.T @ as_float(v, "values")  # (d_k, d_v)
    out: FloatArray = (fq @ kv) / (fq @ fk.sum(axis=0))[:, None]  # (n, d_v)
    return out


@dataclass(frozen=True)
class LinearComparison:
    """Linear attention's rows against the exact softmax rows of the same q, k, v."""

    exact: FloatArray  # (n, m)
    linear: FloatArray  # (n, m)
    mean_abs: float  # mean |Δ| over every weight
    max_abs: float
    top1_kept: float  # share of rows whose most-weighted key is the same
    entropy_exact: float  # mean bits per row
    entropy_linear: float
    output_mean_abs: float  # mean |Δ| of the outputs


def compare_linear(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    causal: bool = False,
    exact: Trace | None = None,
) -> LinearComparison:
    """The exact softmax(QKᵀ/√dₖ)V (attend) against linear attention on the same vectors;
    `exact` is a run of attend on them to compare with instead (a lesson's temperature, mode or
    mask), its rows (n, m) the same shape as the linear ones."""
    q_, k_ = as_float(q, "queries"), as_float(k, "keys")
    n, m = q_.shape[-2], k_.shape[-2]
    mask = np.tril(np.ones((n, m), bool)) if causal else None
    if exact is None:
        exact = attend(q_, k_, v, mask=mask)
    elif exact.weights.shape != (*q_.shape[:-1], m):
        raise ShapeError(
            f"the exact run's weights {exact.weights.shape} do not fit {n} queries × {m} keys"
        )
    linear, out = linear_attend(q_, k_, v, causal=causal)
    d = np.abs(linear - exact.weights)
    return LinearComparison(
        exact=exact.weights,
        linear=linear,
        mean_abs=float(d.mean()),
        max_abs=float(d.max()),
        top1_kept=float((linear.argmax(-1) == exact.weights.argmax(-1)).mean()),
        entropy_exact=float(entropy_bits(exact.weights).mean()),
        entropy_linear=float(entropy_bits(linear).mean()),
        output_mean_abs=float(np.abs(out - exact.outputs).mean()),
    )


def sharpening(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    scales: Sequence[float],
    *,
    mode: Mode = "scaled",
    temperature: float | None = None,
) -> tuple[FloatArray, FloatArray]:
    """One query row q (d_k,) scaled by each α against the keys k (m, d_k) it may see: the top
    weight of the softmax row (attend's `mode` and `temperature`) and of the linear row,
    (len(scales),) each. The softmax's goes to 1; the linear one's levels off."""
    q_, k_ = as_float(q, "query"), as_float(k, "keys")
    soft, lin = [], []
    for alpha in scales:
        qa = alpha * q_[None, :]  # (1, d_k)
        row = attend(qa, k_, k_, mode=mode, temperature=temperature).weights  # (1, m)
        soft.append(float(row.max()))
        lin.append(float(linear_attend(qa, k_, k_)[0].max()))
    return np.array(soft), np.array(lin)
