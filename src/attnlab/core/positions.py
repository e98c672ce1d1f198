"""Word order for attention: additive sinusoidal encodings and rotary position embeddings.

Attention alone is blind to order (score, softmax and blend never read a position), so a
Transformer adds it in one of two standard ways:

* Sinusoidal (Vaswani et al., 2017, section 3.5): a fixed vector per position is added to the
  embeddings before the projections,
      PE(pos, 2i) = sin(pos / 10000^(2i/d)),   PE(pos, 2i+1) = cos(pos / 10000^(2i/d)).
* Rotary, RoPE (Su et al., 2021, "RoFormer", eq. 34): after the projections, each pair of
  dimensions of q and k is rotated by the angle pos·θᵢ with θᵢ = base^(-2i/d). Rotations keep
  lengths, and q at position m dotted with k at position n depends only on m − n: the score
  sees relative position. Values are not rotated.

RoPE's pairs come in two layouts, the same rotation with the dimensions numbered differently:

* "interleaved": pair i is dimensions (2i, 2i+1), as the RoFormer paper writes it (the toy).
* "half": pair i is dimensions (i, i + d/2), as Llama-family checkpoints in the Hugging Face
  layout expect (transformers' `rotate_half`): x·cos + rotate_half(x)·sin, where
  rotate_half(x) = [-x₂, x₁] for the halves x₁ = x[:d/2], x₂ = x[d/2:].

Both take `scale` (sinusoidal: the encoding's amplitude) or `speed` (RoPE: positions are
multiplied by it, as in position interpolation, Chen et al., 2023) so that a 4-dimensional toy
can carry order without drowning its meaning; 1.0 is the published formula.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from attnlab.errors import PositionsError
from attnlab.types import FloatArray

__all__ = [
    "BASE",
    "KINDS",
    "PAIRINGS",
    "Pairing",
    "PositionKind",
    "Rotary",
    "rope",
    "rope_angles",
    "rotate",
    "sinusoidal",
]

PositionKind: TypeAlias = Literal["none", "sinusoidal", "rope"]
KINDS: tuple[PositionKind, ...] = ("none", "sinusoidal", "rope")
Pairing: TypeAlias = Literal["interleaved", "half"]
PAIRINGS: tuple[Pairing, ...] = ("interleaved", "half")
BASE = 10000.0
"""The wavelength base of both papers (Llama-family configs name theirs `rope_theta`)."""


def check_kind(kind: object) -> PositionKind:
    """`kind` if it names a positional scheme; PositionsError quoting it otherwise."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise PositionsError(f"unknown positions {kind!r}: expected one of {', '.join(KINDS)}")
    return kind


def _frequencies(d: int, base: float) -> FloatArray:
    if d < 2 or d % 2:
        raise PositionsError(f"positions need an even width of 2 or more, got {d}")
    i = np.arange(d // 2)  # (d/2,) the pair index
    return base ** (-2.0 * i / d)  # (d/2,) θᵢ


def _positions(positions: int | npt.ArrayLike) -> FloatArray:
    if isinstance(positions, int | np.integer):
        return np.arange(int(positions), dtype=np.float64)  # (n,)
    return np.asarray(positions, dtype=np.float64)  # (n,)


def sinusoidal(
    positions: int | npt.ArrayLike, d: int, *, scale: float = 1.0, base: float = BASE
) -> FloatArray:
    """PE (n, d): the Vaswani et al. encodings of `positions` (or 0..n-1), times `scale`."""
    pos = _positions(positions)  # (n,)
    angles = pos[:, None] * _frequencies(d, base)[None, :]  # (n, d/2) pos / 10000^(2i/d)
    pe = np.empty((pos.shape[0], d))  # (n, d)
    pe[:, 0::2] = np.sin(angles)  # even dimensions
    pe[:, 1::2] = np.cos(angles)  # odd dimensions
    return scale * pe  # (n, d)


def rope_angles(
    positions: int | npt.ArrayLike, d: int, *, speed: float = 1.0, base: float = BASE
) -> FloatArray:
    """The rotation angles (n, d/2) in radians: pair i of the token at pos turns by speed·pos·θᵢ."""
    pos = _positions(positions) * speed  # (n,)
    return pos[:, None] * _frequencies(d, base)[None, :]  # (n, d/2)


def rotate(x: npt.ArrayLike, angles: FloatArray, *, pairing: Pairing = "interleaved") -> FloatArray:
    """Rotate each dimension pair of every row of `x` (..., n, d) by `angles` (n, d/2).

    `pairing` says which dimensions form pair i: (2i, 2i+1) ("interleaved") or (i, i + d/2)
    ("half"). A float array keeps its dtype (float32 stays float32); integers become float64.
    """
    x_ = _as_float(x)  # (..., n, d)
    if pairing not in PAIRINGS:
        raise PositionsError(
            f"unknown RoPE pairing {pairing!r}: expected one of {', '.join(PAIRINGS)}"
        )
    if x_.ndim < 2 or x_.shape[-1] % 2 or angles.shape != (x_.shape[-2], x_.shape[-1] // 2):
        raise PositionsError(
            f"cannot rotate vectors of shape {x_.shape} by angles of shape {angles.shape}"
        )
    cos = np.cos(angles).astype(x_.dtype, copy=False)  # (n, d/2)
    sin = np.sin(angles).astype(x_.dtype, copy=False)  # (n, d/2)
    first, second = _pairs(x_, pairing)  # (..., n, d/2) each pair's two members
    out = np.empty_like(x_)  # (..., n, d)
    out_first, out_second = _pairs(out, pairing)  # (..., n, d/2) views into out
    np.subtract(first * cos, second * sin, out=out_first)  # x₁ cos − x₂ sin
    np.add(first * sin, second * cos, out=out_second)  # x₁ sin + x₂ cos
    return out


def _pairs(x: FloatArray, pairing: Pairing) -> tuple[FloatArray, FloatArray]:
    """Views of the first and second member of every pair: (..., n, d/2) each."""
    if pairing == "interleaved":
        return x[..., 0::2], x[..., 1::2]  # dimensions 2i and 2i+1
    half = x.shape[-1] // 2
    return x[..., :half], x[..., half:]  # dimensions i and i + d/2


def _as_float(x: npt.ArrayLike) -> FloatArray:
    a = np.asarray(x)
    return a if a.dtype.kind == "f" else a.astype(np.float64)


@dataclass(frozen=True)
class Rotary:
    """RoPE applied to one head: the angles, and q and k before and after their rotation."""

    angles: FloatArray  # (n, d/2) radians, one per token and dimension pair
    queries: FloatArray  # (n, d) before rotation
    keys: FloatArray  # (n, d) before rotation
    rotated_queries: FloatArray  # (n, d)
    rotated_keys: FloatArray  # (n, d)
    pairing: Pairing = "interleaved"  # which dimensions form a pair (module docstring)


def rope(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    *,
    positions: npt.ArrayLike | None = None,
    speed: float = 1.0,
    base: float = BASE,
    pairing: Pairing = "interleaved",
) -> Rotary:
    """Rotate queries `q` (n, d) and keys `k` (n, d) by their positions (default 0..n-1).

    `pairing="half"` pairs dimension i with i + d/2, as Llama-family checkpoints do.
    """
    q_, k_ = np.asarray(q, dtype=np.float64), np.asarray(k, dtype=np.float64)  # (n, d)
    if q_.shape != k_.shape or q_.ndim != 2:
        raise PositionsError(f"RoPE needs q and k of one shape (n, d), got {q_.shape}, {k_.shape}")
    pos = positions if positions is not None else q_.shape[0]
    angles = rope_angles(pos, q_.shape[1], speed=speed, base=base)  # (n, d/2)
    rq = rotate(q_, angles, pairing=pairing)  # (n, d)
    rk = rotate(k_, angles, pairing=pairing)  # (n, d)
    return Rotary(angles, q_, k_, rq, rk, pairing=pairing)
