"""The backward pass of attention, written beside the forward pass it differentiates.

The forward is `attnlab.core.attention.attend` (equation (1) of Vaswani et al., 2017), whose
Trace keeps every intermediate the backward needs. With τ the divisor (√dₖ, 1 or a
temperature T), the forward's three moves and, read from the bottom up, their gradients:

    forward                                 backward (given dL/dO, written dO)
    1. Score    S = QKᵀ / τ  (-inf masked)   dQ = dS K / τ        dK = dSᵀ Q / τ
                                             dτ = -Σᵢⱼ dSᵢⱼ Sᵢⱼ / τ   (over the unmasked cells)
    2. Softmax  A = softmax(S) row by row    dS = A ⊙ (dA - rowsum(dA ⊙ A))
    3. Blend    O = A V                      dA = dO Vᵀ            dV = Aᵀ dO

Step 2 is the softmax's Jacobian-vector product: row i's Jacobian is diag(aᵢ) - aᵢaᵢᵀ
(`core.softmax.jacobian`), and multiplying it by dAᵢ gives aᵢ ⊙ (dAᵢ - aᵢ·dAᵢ) without ever
building the n × n matrix. When a row is saturated (aᵢ one-hot), every entry of that product
is 0: a saturated softmax passes no gradient to the scores, which is why √dₖ matters when
training. A masked key has weight exactly 0, so its score gets gradient 0. In Uniform mode the
scores are ignored (A = 1/m), so dS, dQ and dK are 0: nothing can learn where to look.

Leading dimensions (batch, heads) pass through as in `attend`: q (..., n, d_k), k (..., m, d_k),
v (..., m, d_v), dO (..., n, d_v).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnlab.core.trace import Trace
from attnlab.errors import ShapeError
from attnlab.types import FloatArray

__all__ = ["AttentionGrads", "attend_backward", "softmax_backward"]


@dataclass(frozen=True)
class AttentionGrads:
    """dL/dQ, dL/dK, dL/dV of one attention call, and dL/dτ for its divisor τ (0 for Uniform)."""

    d_queries: FloatArray  # (..., n, d_k)
    d_keys: FloatArray  # (..., m, d_k)
    d_values: FloatArray  # (..., m, d_v)
    d_scores: FloatArray  # (..., n, m) dL/dS, what the softmax passed back
    d_divisor: float


def softmax_backward(weights: FloatArray, d_weights: FloatArray) -> FloatArray:
    """The softmax's Jacobian-vector product, row by row: dS = A ⊙ (dA - rowsum(dA ⊙ A))."""
    along = np.sum(d_weights * weights, axis=-1, keepdims=True)  # (..., n, 1) aᵢ · dAᵢ
    return weights * (d_weights - along)  # type: ignore[no-any-return]  # (..., n, m)


def attend_backward(trace: Trace, d_outputs: FloatArray) -> AttentionGrads:
    """The gradients of a loss L with respect to Q, K, V (and τ) of `trace`, given dL/dO.

    `trace` is what `attend(q, k, v, ...)` returned, over the keys (axis "keys")."""
    if trace.axis != "keys":
        raise ShapeError("attend_backward differentiates the softmax over the keys (axis 'keys')")
    d_o: FloatArray = np.asarray(d_outputs, dtype=trace.outputs.dtype)  # (..., n, d_v)
    if d_o.shape != trace.outputs.shape:
        raise ShapeError(
            f"dL/dO has shape {d_o.shape}; the outputs it differentiates have {trace.outputs.shape}"
        )
    q, k, v, a = trace.queries, trace.keys, trace.values, trace.weights
    tau = trace.divisor

    # 3. Blend, backwards: O = A V.
    d_a = d_o @ np.swapaxes(v, -1, -2)  # (..., n, m) dO Vᵀ
    d_v = _unbroadcast(np.swapaxes(a, -1, -2) @ d_o, v.shape)  # (..., m, d_v) Aᵀ dO

    # 2. Softmax, backwards: the Jacobian-vector product, row by row.
    if math.isinf(tau):  # Uniform: the weights are 1/m whatever the scores
        d_s = np.zeros_like(a)  # (..., n, m)
        zero_q, zero_k = np.zeros_like(q), np.zeros_like(k)
        return AttentionGrads(zero_q, zero_k, d_v, d_s, 0.0)
    d_s = softmax_backward(a, d_a)  # (..., n, m) 0 on masked keys, where A = 0

    # 1. Score, backwards: S = QKᵀ / τ.
    d_q = _unbroadcast(d_s @ k / tau, q.shape)  # (..., n, d_k)
    d_k = _unbroadcast(np.swapaxes(d_s, -1, -2) @ q / tau, k.shape)  # (..., m, d_k)
    s = np.where(trace.mask, trace.scores, 0.0) if trace.mask is not None else trace.scores
    d_tau = -float(np.sum(d_s * s)) / tau  # dS/dτ = -S/τ
    return AttentionGrads(d_q, d_k, d_v, d_s, d_tau)


def _unbroadcast(g: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    """`g` summed over the leading dimensions its array was broadcast along, back to `shape`."""
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and g.shape[axis] != 1:
            g = g.sum(axis=axis, keepdims=True)
    return g
