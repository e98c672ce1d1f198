"""FlashAttention's online softmax: softmax(QKᵀ/√dₖ)V one tile of keys at a time, exactly.

Follows "FlashAttention" (Dao et al., 2022), algorithm 1, and FlashAttention-2 (Dao, 2023),
which divides by ℓ once at the end. The n × m matrix of weights is never formed: for each tile
of keys K_t, V_t the running maximum m, the running sum ℓ and the running (unnormalised) output O
of every query row are updated,

    S   = Q K_tᵀ / T                         the tile's scores                  (n, t)
    m'  = max(m, rowmax S)                   the new running maximum            (n,)
    c   = exp(m − m')                        the rescale of what came before    (n,)
    P   = exp(S − m')                        the tile's weights, unnormalised   (n, t)
    ℓ'  = c ℓ + rowsum P                                                        (n,)
    O'  = c O + P V_t                                                           (n, d_v)

and at the end  softmax(S_all) V = O / ℓ. Every exp() has an argument ≤ 0, so nothing overflows
(the stable softmax of softmax.py, made incremental). T is √dₖ unless a temperature is given.
A causal mask is built tile by tile (key j ≤ query i), never as n × n; a boolean mask (True = may
attend, attend's convention) is read one tile of columns at a time.

`online_attend` keeps every step (for the canvas and the words: the toy's row in tiles of 1 or
2 keys); `online_outputs` keeps none and also tiles the queries, so its peak memory is
O(n·d + tile²) instead of attend's O(n²): the measured comparison is `peak_bytes`.
"""

from __future__ import annotations

import math
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attnlab.core.attention import check_temperature
from attnlab.core.checks import as_float, whole_number
from attnlab.errors import MaskError, ShapeError
from attnlab.types import BoolArray, FloatArray

__all__ = [
    "OnlineAttention",
    "TileStep",
    "online_attend",
    "online_outputs",
    "peak_bytes",
]

MAX_TILE = 1 << 16
"""The largest tile accepted: a tile is a number of keys (or queries)."""


@dataclass(frozen=True)
class TileStep:
    """One tile of keys start..stop, every query row's running state after it."""

    start: int
    stop: int
    scores: FloatArray  # (..., n, t) S for this tile, −inf where masked
    m_old: FloatArray  # (..., n) the running maximum before the tile (−inf at first)
    m_new: FloatArray  # (..., n) after it
    rescale: FloatArray  # (..., n) exp(m_old − m_new): how much the old ℓ and O shrink
    ell: FloatArray  # (..., n) the running sum ℓ after the tile
    o: FloatArray  # (..., n, d_v) the running unnormalised output O after the tile


@dataclass(frozen=True)
class OnlineAttention:
    """The result of the tiled pass: outputs = O / ℓ and every step that led to it."""

    steps: tuple[TileStep, ...]
    outputs: FloatArray  # (..., n, d_v) O / ℓ
    m: FloatArray  # (..., n) the row maxima
    ell: FloatArray  # (..., n) the row sums Σⱼ exp(sⱼ − m)
    divisor: float  # T: √dₖ or the temperature

    def seen(self, step: int) -> FloatArray:
        """After tile `step`: exp(s − m) for every key seen so far, (..., n, stop), the weights
        not yet divided by ℓ (what the running sum ℓ adds up; masked keys 0)."""
        st = self.steps[step]
        s = np.concatenate([t.scores for t in self.steps[: step + 1]], axis=-1)  # (..., n, stop)
        m = np.where(np.isneginf(st.m_new), 0, st.m_new)[..., None]  # (..., n, 1)
        e: FloatArray = np.exp(s - m).astype(s.dtype)  # (..., n, stop)
        return e

    def weights(self) -> FloatArray:
        """The softmax weights recovered from the steps, (..., n, m): exp(S − m) / ℓ (for a
        learner's picture of a small row; the pass itself never forms them)."""
        s = np.concatenate([st.scores for st in self.steps], axis=-1)  # (..., n, m)
        with np.errstate(invalid="ignore"):
            w = np.exp(s - self.m[..., None]) / self.ell[..., None]  # (..., n, m)
        return np.where(np.isneginf(s), 0.0, w).astype(s.dtype)


def online_attend(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    tile: int = 2,
    causal: bool = False,
    mask: npt.ArrayLike | None = None,
    temperature: float | None = None,
) -> OnlineAttention:
    """softmax(QKᵀ/T)V of q (..., n, d_k), k (..., m, d_k), v (..., m, d_v) in tiles of `tile`
    keys, every step kept; in q's dtype (float32 stays float32)."""
    q_, k_, v_, divisor, tile = _checked(q, k, v, tile, temperature)
    n, m_keys = q_.shape[-2], k_.shape[-2]
    allowed = _mask(mask, n, m_keys)
    lead = np.broadcast_shapes(q_.shape[:-2], k_.shape[:-2], v_.shape[:-2])
    dtype = np.result_type(q_, k_, v_)
    m = np.full((*lead, n), -np.inf, dtype)  # (..., n) running maximum
    ell = np.zeros((*lead, n), dtype)  # (..., n) running sum
    o = np.zeros((*lead, n, v_.shape[-1]), dtype)  # (..., n, d_v) running output
    steps = []
    rows = np.arange(n)
    for start in range(0, m_keys, tile):
        stop = min(m_keys, start + tile)
        keep = _tile_mask(allowed, causal, rows, start, stop)
        s, m_new, c, ell, o = _step(q_, k_[..., start:stop, :], v_[..., start:stop, :],
                                  divisor, keep, m, ell, o)  # fmt: skip
        steps.append(TileStep(start, stop, s, m, m_new, c, ell, o))
        m = m_new
    _check_rows(ell)
    return OnlineAttention(tuple(steps), o / ell[..., None], m, ell, divisor)


def online_outputs(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    tile: int = 128,
    causal: bool = False,
    temperature: float | None = None,
) -> FloatArray:
    """The same outputs (n, d_v) with nothing kept, queries tiled too (FlashAttention's outer
    loop): the memory held is q, k, v, the outputs and one tile × tile block of scores."""
    q_, k_, v_, divisor, tile = _checked(q, k, v, tile, temperature)
    n, m_keys = q_.shape[-2], k_.shape[-2]
    out = np.empty((*np.broadcast_shapes(q_.shape[:-2], v_.shape[:-2]), n, v_.shape[-1]),
                   np.result_type(q_, k_, v_))  # fmt: skip
    for r0 in range(0, n, tile):
        r1 = min(n, r0 + tile)
        rows = np.arange(r0, r1)
        qb = q_[..., r0:r1, :]  # (..., b, d_k)
        m = np.full((*out.shape[:-2], r1 - r0), -np.inf, out.dtype)
        ell = np.zeros_like(m)
        o = np.zeros((*out.shape[:-2], r1 - r0, out.shape[-1]), out.dtype)
        last = min(m_keys, r1) if causal else m_keys  # keys after the block's last row: unseen
        for start in range(0, last, tile):
            stop = min(last, start + tile)
            keep = _tile_mask(None, causal, rows, start, stop)
            _, m, _, ell, o = _step(qb, k_[..., start:stop, :], v_[..., start:stop, :],
                                  divisor, keep, m, ell, o)  # fmt: skip
        _check_rows(ell)
        out[..., r0:r1, :] = o / ell[..., None]
    return out


def _step(
    q: FloatArray,
    k_t: FloatArray,
    v_t: FloatArray,
    divisor: float,
    keep: BoolArray | None,
    m: FloatArray,
    ell: FloatArray,
    o: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """One tile: S, m', c = exp(m − m'), ℓ', O' (the module docstring's five lines)."""
    s = (q @ np.swapaxes(k_t, -1, -2)) / np.asarray(divisor, q.dtype)  # (..., n, t)
    if keep is not None:
        s = np.where(keep, s, -np.inf).astype(s.dtype)  # (..., n, t)
    m_new = np.maximum(m, s.max(axis=-1))  # (..., n)
    safe = np.where(np.isneginf(m_new), 0, m_new)  # a row with no key yet: exp(−inf − 0) = 0
    c = np.exp(m - safe)  # (..., n) exp(m_old − m_new), 0 when nothing came before
    p = np.exp(s - safe[..., None])  # (..., n, t) ≤ 1, 0 where masked
    l_new = c * ell + p.sum(axis=-1)  # (..., n)
    o_new = c[..., None] * o + p @ v_t  # (..., n, d_v)
    return s, m_new, c, l_new, o_new


def _tile_mask(
    allowed: BoolArray | None, causal: bool, rows: npt.NDArray[np.intp], start: int, stop: int
) -> BoolArray | None:
    """Which keys start..stop each query row may see, (..., n, t), or None for all."""
    keep = None if allowed is None else allowed[..., start:stop]
    if causal:
        below = np.arange(start, stop)[None, :] <= rows[:, None]  # (n, t) key j ≤ query i
        keep = below if keep is None else keep & below
    return keep


def _checked(
    q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike, tile: int, temperature: float | None
) -> tuple[FloatArray, FloatArray, FloatArray, float, int]:
    q_, k_, v_ = as_float(q, "queries"), as_float(k, "keys"), as_float(v, "values")
    for name, a in (("queries", q_), ("keys", k_), ("values", v_)):
        if a.ndim < 2 or a.shape[-2] == 0:
            raise ShapeError(f"{name} must be (tokens, dims) with a token, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ShapeError(f"{name} hold a value that is not finite; every entry must be")
    if q_.shape[-1] != k_.shape[-1] or q_.shape[-1] == 0 or k_.shape[-2] != v_.shape[-2]:
        raise ShapeError(
            f"queries {q_.shape}, keys {k_.shape} and values {v_.shape} do not fit: queries and "
            "keys need the same width d_k > 0, and every key a value"
        )
    tile = whole_number(tile, "a tile", lo=1, hi=MAX_TILE, error=ShapeError)
    t = math.sqrt(q_.shape[-1]) if temperature is None else check_temperature(temperature)
    return q_, k_, v_, t, tile


def _mask(mask: npt.ArrayLike | None, n: int, m: int) -> BoolArray | None:
    if mask is None:
        return None
    allowed = np.asarray(mask)
    if allowed.dtype != np.bool_ or allowed.ndim < 2:
        raise MaskError(f"a mask must be boolean (True = may attend), got dtype {allowed.dtype}")
    try:
        return np.broadcast_to(allowed, (*allowed.shape[:-2], n, m))
    except ValueError:
        raise MaskError(
            f"mask of shape {allowed.shape} does not fit {n} queries × {m} keys"
        ) from None


def _check_rows(ell: FloatArray) -> None:
    if (ell == 0).any():
        row = int(np.argwhere(ell == 0)[0][-1])
        raise MaskError(f"the mask leaves query {row} with no key to attend to")


def peak_bytes(run: Callable[[], object]) -> int:
    """The peak of memory NumPy allocates while `run` runs (tracemalloc), its inputs excluded."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        run()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
