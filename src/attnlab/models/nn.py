"""The two non-linear pieces of a BERT layer besides attention: LayerNorm and GELU.

LayerNorm follows Ba, Kiros and Hinton (2016): each token's vector is shifted to mean 0 and
scaled to variance 1 across its d_model numbers, then scaled by γ and shifted by β.

GELU follows Hendrycks and Gimpel (2016) in its exact form, the one BERT's `hidden_act: "gelu"`
names: GELU(x) = x·Φ(x) = x·½(1 + erf(x/√2)). NumPy has no erf, so `erf` is a rational
approximation, erf(z) ≈ z·P(z²)/Q(z²) on [-4, 4] (beyond which erf is ±1 in float32), with the
coefficients Eigen uses for float32 (`generic_fast_erf_float`): within 1e-7 of the true erf in
float64 and within a few float32 ulps in float32. Only polynomials and one division, no exp,
evaluated in place so the (n, d_ff) intermediate is not copied twenty times.
"""

from __future__ import annotations

import math

import numpy as np

from attnlab.types import FloatArray

_P = (  # numerator, coefficients of z¹, z³, …, z¹³ as a polynomial in z², highest first
    -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
    -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02,
)  # fmt: skip
_Q = (  # denominator, coefficients of z⁰, z², …, z⁸, highest first
    -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
    -7.37332916720468e-03, -1.42647390514189e-02,
)  # fmt: skip
_ERF_EDGE = 4.0
"""|z| beyond which erf(z) is ±1 to float32 precision."""

# GELU's Φ(x) = ½ + ½·erf(x/√2) with the /√2 and the ½ folded into the coefficients: with
# u = x², z² = u/2, so a coefficient of (z²)ᵏ becomes one of uᵏ times 2⁻ᵏ; and ½·z = x/(2√2).
_P_PHI = tuple(p * 2.0 ** -(len(_P) - 1 - i) / (2 * math.sqrt(2)) for i, p in enumerate(_P))
_Q_PHI = tuple(q * 2.0 ** -(len(_Q) - 1 - i) for i, q in enumerate(_Q))
_PHI_EDGE = _ERF_EDGE * math.sqrt(2)


def erf(z: FloatArray, *, out: FloatArray | None = None) -> FloatArray:
    """The error function, elementwise, in `z`'s float dtype: erf(z) ≈ z·P(z²)/Q(z²)."""
    work = (np.empty_like(z), np.empty_like(z), np.empty_like(z))
    return _erf_into(z, out if out is not None else np.empty_like(z), work)


def gelu(
    x: FloatArray,
    *,
    out: FloatArray | None = None,
    work: tuple[FloatArray, FloatArray, FloatArray, FloatArray] | None = None,
) -> FloatArray:
    """GELU(x) = x·½(1 + erf(x/√2)), the exact (not tanh) form, elementwise.

    `out` may be `x` itself (in place). `work` is four scratch arrays shaped like `x`, reused
    instead of allocated: on a (128, 1536) layer a fresh temporary costs more than the maths.
    The erf approximation is evaluated directly in x² with the /√2 and ½ folded in (_P_PHI).
    """
    c, u, phi, q = work if work is not None else tuple(np.empty_like(x) for _ in range(4))
    np.clip(x, -_PHI_EDGE, _PHI_EDGE, out=c)  # (...) Φ is 0 or 1 beyond the edge
    np.multiply(c, c, out=u)  # (...) x²
    _horner(u, _Q_PHI, out=q)  # (...) Q(x²/2)
    _horner(u, _P_PHI, out=phi)
    phi *= c
    phi /= q  # (...) ½·erf(x/√2)
    phi += x.dtype.type(0.5)  # (...) Φ(x), the standard normal CDF
    return np.multiply(x, phi, out=out)


def _erf_into(z: FloatArray, out: FloatArray, work: tuple[FloatArray, ...]) -> FloatArray:
    """out = erf(z); `work` holds three scratch arrays (the first may be `z`, clipped in place)."""
    c, z2, q = work
    np.clip(z, -_ERF_EDGE, _ERF_EDGE, out=c)  # (...) erf is ±1 beyond the edge
    np.multiply(c, c, out=z2)  # (...) z²
    _horner(z2, _Q, out=q)  # (...) Q(z²)
    _horner(z2, _P, out=out)  # (...) P(z²)
    out *= c
    out /= q
    return out


def _horner(x: FloatArray, coefficients: tuple[float, ...], *, out: FloatArray) -> FloatArray:
    """The polynomial with `coefficients` (highest power first) at `x`, written into `out`."""
    t = x.dtype.type
    np.multiply(x, t(coefficients[0]), out=out)
    out += t(coefficients[1])
    for a in coefficients[2:]:
        out *= x
        out += t(a)
    return out


def layer_norm(x: FloatArray, gamma: FloatArray, beta: FloatArray, *, eps: float) -> FloatArray:
    """(x − mean) / √(var + ε) · γ + β over the last axis (the biased variance, as PyTorch)."""
    d = x.dtype.type(x.shape[-1])
    mean = np.add.reduce(x, axis=-1, keepdims=True) / d  # (n, 1)
    centred: FloatArray = x - mean  # (n, d)
    var = np.einsum("...i,...i->...", centred, centred)[..., None] / d  # (n, 1)
    centred *= (1 / np.sqrt(var + x.dtype.type(eps))).astype(x.dtype, copy=False)  # (n, d)
    centred *= gamma
    centred += beta
    return centred
