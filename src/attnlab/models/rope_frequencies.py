"""RoPE as a decoder spec sets it: scaled frequencies, partial rotary, angles and rotation.

Su et al. (2021) turn pair i of a head's query and key at position m by m·θᵢ, θᵢ = base^(−2i/r),
r the rotary width (d_k, or d_k · partial_rotary_factor when only the first dimensions turn,
as Phi-3 and GPT-NeoX do). The scalings follow transformers' `ROPE_INIT_FUNCTIONS`:

    default   θᵢ
    linear    θᵢ / factor                       (positions interpolated: Chen et al., 2023)
    llama3    θᵢ / factor for wavelengths 2π/θᵢ beyond original / low_freq_factor, θᵢ below
              original / high_freq_factor, a linear blend of the two between (Llama 3.1)

`rotate_heads` turns the first r dimensions of every row with the spec's pairing and leaves
the rest as they are; `unrotate` undoes it (the decoder trace's "before RoPE").
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from attnlab.core.positions import rotate
from attnlab.models.spec import RopeSpec
from attnlab.types import FloatArray

__all__ = ["inverse_frequencies", "rope_angles_of", "rotate_heads"]


def inverse_frequencies(rope: RopeSpec, d_k: int) -> FloatArray:
    """(r/2,) θᵢ after the spec's scaling, r = rope.rotary_dims(d_k)."""
    r = rope.rotary_dims(d_k)
    # transformers: 1 / base ** (arange(0, r, 2) / r), the exponent in float32
    exponent = (np.arange(0, r, 2, dtype=np.int64).astype(np.float32) / np.float32(r)).astype(
        np.float64
    )
    theta: FloatArray = 1.0 / (rope.base**exponent)  # (r/2,)
    s = rope.scaling
    if s.kind == "linear":
        return theta / s.factor
    if s.kind == "llama3":
        low_wavelen = s.original_max_positions / s.low_freq_factor
        high_wavelen = s.original_max_positions / s.high_freq_factor
        wavelen = 2 * math.pi / theta  # (r/2,)
        scaled = np.where(wavelen > low_wavelen, theta / s.factor, theta)  # (r/2,)
        smooth = (s.original_max_positions / wavelen - s.low_freq_factor) / (
            s.high_freq_factor - s.low_freq_factor
        )  # (r/2,)
        blended = (1 - smooth) * scaled / s.factor + smooth * scaled  # (r/2,)
        medium = (wavelen >= high_wavelen) & (wavelen <= low_wavelen)
        out: FloatArray = np.where(medium, blended, scaled)
        return out
    return theta


def rope_angles_of(positions: int | npt.ArrayLike, rope: RopeSpec, d_k: int) -> FloatArray:
    """(n, r/2) the angle m·θᵢ of pair i at each position m (0..n−1 for an int)."""
    pos = (
        np.arange(int(positions), dtype=np.float64)
        if isinstance(positions, int | np.integer)
        else np.asarray(positions, dtype=np.float64)
    )  # (n,)
    out: FloatArray = pos[:, None] * inverse_frequencies(rope, d_k)[None, :]  # (n, r/2)
    return out


def rotate_heads(x: FloatArray, angles: FloatArray, rope: RopeSpec) -> FloatArray:
    """x (..., n, d_k) with its first r dimensions turned by `angles` (n, r/2) (negative angles
    turn back), the other d_k − r left alone; a new array in x's dtype."""
    r = 2 * angles.shape[-1]
    if r == x.shape[-1]:
        return rotate(x, angles, pairing=rope.pairing)
    out = np.array(x, copy=True)  # (..., n, d_k) the pass-through dimensions as they were
    out[..., :r] = rotate(x[..., :r], angles, pairing=rope.pairing)
    return out
