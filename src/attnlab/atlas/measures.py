"""What a head does on one text, read off its weights: the atlas's corpus statistics.

For weights A (L, H, n, n) (row i = query, column j = key) and the text's token ids, each
statistic is a sum over query rows and a count of rows (stats.py adds them across texts):

* entropy: Hᵢ = −Σⱼ Aᵢⱼ log₂ Aᵢⱼ, bits (Clark et al., 2019);
* previous: Aᵢ,ᵢ₋₁; self: Aᵢᵢ; top1: maxⱼ Aᵢⱼ;
* distance: Σⱼ Aᵢⱼ |i − j|, with the weight at each distance in power-of-two bins (stats.BINS);
* repeat: Σ Aᵢⱼ over the earlier positions j < i holding the same token id as i, counted over
  the rows whose token occurred before (copying and induction heads look there);

each over rows i = 1 … n − 1: row 0 has no previous token and, in a decoder, sees only itself.
Per text, not per row (Gu et al., 2024, "When Attention Sink Emerges in Language Models",
arXiv 2410.10781, section 3): α = (1/n) Σᵢ Aᵢ₀, the mean weight on the first token over every
query, as `first`; the text counts for `sink` when α > ε (0.3 in their Table 1).

A text's exemplar for a statistic is its text-level value (the mean over its rows) and the row
where the head shows it most; texts under MIN_EXEMPLAR_TOKENS tokens are no exemplars.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from attnlab.atlas.stats import BINS, STATISTICS, HeadSums, fixed
from attnlab.types import FloatArray

__all__ = ["EPSILON", "MIN_EXEMPLAR_TOKENS", "distance_bins", "text_sums"]

EPSILON = 0.3
"""Gu et al.'s sink threshold: a head is a sink on a text when α = mean weight on token 0 > ε."""

MIN_EXEMPLAR_TOKENS = 8
"""A text shorter than this is counted in every statistic but is no exemplar: on 3 tokens a head
has nowhere else to look, and "0.96 on 'breaking camp'" says nothing about the head."""

_S = {name: i for i, name in enumerate(STATISTICS)}


def distance_bins(d: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The histogram bin of each distance: 0 → 0, then 1 + ⌊log₂ d⌋, the last bin open."""
    safe = np.maximum(d, 1)
    b = np.where(d == 0, 0, 1 + np.floor(np.log2(safe)).astype(np.int64))
    return np.minimum(b, len(BINS) - 1)


def _entropy_bits(w: FloatArray) -> FloatArray:
    """−Σ w log₂ w along the last axis, 0 · log 0 = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, w * np.log2(np.where(w > 0, w, 1.0)), 0.0)
    out: FloatArray = -terms.sum(-1)
    return out


def _rows(a: FloatArray, ids: npt.NDArray[np.int64]) -> dict[str, tuple[FloatArray, FloatArray]]:
    """Each row statistic's values (L, H, n − 1) for rows 1 … n − 1, and which rows count."""
    n = a.shape[-1]
    w = a[:, :, 1:, :].astype(np.float64)  # (L, H, n − 1, n)
    i = np.arange(1, n)[:, None]  # (n − 1, 1) query positions
    j = np.arange(n)[None, :]  # (1, n) key positions
    every = np.ones(n - 1)
    earlier = (ids[j] == ids[i]) & (j < i)  # (n − 1, n) same token, before the query
    return {
        "entropy": (_entropy_bits(w), every),
        "previous": (np.diagonal(a, offset=-1, axis1=2, axis2=3).astype(np.float64), every),
        "self": (np.diagonal(a, axis1=2, axis2=3)[:, :, 1:].astype(np.float64), every),
        "top1": (w.max(-1), every),
        "distance": ((w * np.abs(i - j)).sum(-1), every),
        "repeat": ((w * earlier).sum(-1), earlier.any(-1).astype(np.float64)),
    }


def text_sums(
    a: FloatArray,
    ids: tuple[int, ...],
    *,
    uid: int,
    text: str,
    top_k: int,
    epsilon: float = EPSILON,
) -> HeadSums:
    """One text's (or piece's) contribution to the atlas from its weights a (L, H, n, n)."""
    n_layers, n_heads, n, m = a.shape
    if n != m or n != len(ids):
        raise ValueError(f"weights {a.shape} do not fit {len(ids)} tokens")
    sums = HeadSums.empty(n_layers, n_heads, top_k=top_k)
    totals = np.zeros(sums.totals.shape)  # (S, L, H) floats of this text alone
    counts = np.zeros(sums.counts.shape, np.int64)
    best = np.full(sums.totals.shape, -1.0)  # (S, L, H) the text-level value
    where = np.zeros(sums.totals.shape, np.int64)  # (S, L, H) the row showing it most
    hist = np.zeros(sums.histogram.shape)
    if n > 1:
        for name, (values, counted) in _rows(a, np.asarray(ids, dtype=np.int64)).items():
            s, k = _S[name], int(counted.sum())
            if k == 0:
                continue
            masked = values * counted  # (L, H, n − 1)
            totals[s], counts[s] = masked.sum(-1), k
            best[s] = masked.sum(-1) / k
            where[s] = 1 + np.where(counted > 0, values, -np.inf).argmax(-1)
        d = distance_bins(np.abs(np.arange(1, n)[:, None] - np.arange(n)[None, :]))  # (n − 1, n)
        onehot = np.eye(len(BINS))[d]  # (n − 1, n, B)
        hist = np.einsum("lhrk,rkb->lhb", a[:, :, 1:, :].astype(np.float64), onehot)
    alpha = a[..., 0].astype(np.float64).mean(-1)  # (L, H) Gu et al.'s α for the first token
    top_row = a[..., 0].argmax(-1)  # (L, H) the query leaning most on token 0
    for name, value in (("first", alpha), ("sink", (alpha > epsilon).astype(np.float64))):
        s = _S[name]
        totals[s], counts[s], best[s], where[s] = value, 1, alpha, top_row
    ex_value = np.full(sums.ex_value.shape, -1, np.int64)
    ex_uid = sums.ex_uid.copy()
    ex_position = np.zeros_like(ex_uid)
    shown = (best >= 0) & (n >= MIN_EXEMPLAR_TOKENS)  # statistics this text shows
    ex_value[..., 0] = np.where(shown, fixed(np.maximum(best, 0)), -1)
    ex_uid[..., 0] = np.where(shown, uid, ex_uid[..., 0])
    ex_position[..., 0] = np.where(shown, where, 0)
    return HeadSums(
        totals=fixed(totals),
        counts=counts,
        histogram=fixed(hist),
        ex_value=ex_value,
        ex_uid=ex_uid,
        ex_position=ex_position,
        texts={uid: text} if shown.any() else {},
        pieces=1,
        tokens=n,
    )
