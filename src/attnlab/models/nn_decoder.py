"""The two pieces of a Llama-family layer besides attention: RMSNorm and the SwiGLU MLP.

RMSNorm (Zhang and Sennrich, 2019) scales each token's vector to root-mean-square 1 across its
d_model numbers, then by a learned γ; unlike LayerNorm it neither centres nor shifts:

    RMSNorm(x) = x / √(mean(x²) + ε) · γ

SwiGLU (Shazeer, 2020, "GLU Variants Improve Transformer") gates one projection by the SiLU of
another, then projects back:

    MLP(x) = (SiLU(x W_gate) ⊙ x W_up) W_down,     SiLU(z) = z · σ(z) = z / (1 + e⁻ᶻ)

Both in the input's float dtype, as transformers computes them for float32 weights.
"""

from __future__ import annotations

import numpy as np

from attnlab.types import FloatArray

__all__ = ["rms_norm", "swiglu"]


def rms_norm(x: FloatArray, gamma: FloatArray, *, eps: float) -> FloatArray:
    """x / √(mean(x²) + ε) · γ over the last axis: (..., d) -> (..., d)."""
    t = x.dtype.type
    mean_sq = np.einsum("...i,...i->...", x, x)[..., None] / t(x.shape[-1])  # (..., 1)
    mean_sq += t(eps)
    out: FloatArray = x * (1 / np.sqrt(mean_sq))  # (..., d)
    out *= gamma
    return out


def swiglu(x: FloatArray, w_gate_up: FloatArray, w_down: FloatArray) -> FloatArray:
    """(SiLU(x W_gate) ⊙ x W_up) W_down, with W_gate and W_up side by side in `w_gate_up`
    (d, 2·d_ff) so that both projections are one matrix product: (n, d) -> (n, d)."""
    d_ff = w_down.shape[0]
    gu = x @ w_gate_up  # (n, 2·d_ff)
    gate, up = gu[:, :d_ff], gu[:, d_ff:]  # (n, d_ff) views
    sig = np.negative(gate)
    with np.errstate(over="ignore"):  # e⁻ᶻ = inf for z < -88 gives SiLU = -0, as it should
        np.exp(sig, out=sig)
    sig += gate.dtype.type(1)  # (n, d_ff) 1 + e⁻ᶻ
    np.divide(gate, sig, out=sig)  # (n, d_ff) SiLU(z) = z / (1 + e⁻ᶻ)
    sig *= up  # (n, d_ff) the gated hidden layer
    out: FloatArray = sig @ w_down  # (n, d)
    return out
