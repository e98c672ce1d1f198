"""Fewer keys and values to cache: grouped-query, multi-query and multi-head latent attention.

* GQA (Ainslie et al., 2023): h query heads read h_kv key/value heads (grouped.py's map). The
  compact form multiplies each key/value head once by its g = h / h_kv query heads stacked,
  (g·n, d_k) against the same Kᵀ; the expanded form copies K and V to every query head
  (transformers' `repeat_kv`). Both are the same arithmetic: `grouped_outputs` and
  `expanded_outputs` are checked against each other.
* MQA (Shazeer, 2019): the case h_kv = 1.
* MLA (DeepSeek-V2, DeepSeek-AI 2024, section 2.1): the cache holds a latent c = x W_DKV of d_c
  numbers per token; keys and values are read from it, k = c W_UK, v = c W_UV. Since
  q kᵀ = x W_Q (c W_UK)ᵀ = (x W_Q W_UKᵀ) cᵀ, W_UK can be absorbed into W_Q and the scores come
  straight from the latent (`mla_scores`); W_UV likewise moves after the weights. RoPE does not
  commute with that absorption, so the paper adds d_R decoupled rotary key numbers per token.

`cache_forms` gives the key/value cache, in numbers and bytes per token per layer, of each form
from a model's own sizes: 2 · h · d_k (MHA), 2 · h_kv · d_k (GQA), 2 · d_k (MQA), d_c + d_R (MLA).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attnlab.core.attention import attend
from attnlab.core.checks import as_float
from attnlab.core.grouped import group_size, kv_heads
from attnlab.errors import ShapeError
from attnlab.types import FloatArray

__all__ = [
    "DEEPSEEK_V2",
    "CacheForm",
    "LatentKV",
    "cache_forms",
    "expanded_outputs",
    "grouped_outputs",
    "latent_factors",
    "mla_outputs",
    "mla_scores",
    "pool_kv",
]


def expanded_outputs(q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike) -> FloatArray:
    """q (h, n, d_k) over k, v (h_kv, m, d): K and V copied to every query head, then `attend`."""
    q_, k_, v_ = as_float(q, "queries"), as_float(k, "keys"), as_float(v, "values")
    index = kv_heads(q_.shape[0], k_.shape[0])  # (h,)
    return attend(q_, k_[index], v_[index]).outputs  # (h, n, d_v)


def grouped_outputs(q: npt.ArrayLike, k: npt.ArrayLike, v: npt.ArrayLike) -> FloatArray:
    """The same outputs, each key/value head read once: its g query heads' rows stacked."""
    q_, k_, v_ = as_float(q, "queries"), as_float(k, "keys"), as_float(v, "values")
    h, n, d_k = q_.shape
    h_kv = k_.shape[0]
    g = group_size(h, h_kv)
    stacked = q_.reshape(h_kv, g * n, d_k)  # (h_kv, g·n, d_k) heads i·g … i·g + g − 1
    z = attend(stacked, k_, v_).outputs  # (h_kv, g·n, d_v)
    return z.reshape(h, n, v_.shape[-1])  # (h, n, d_v)


def pool_kv(heads: npt.ArrayLike, n_kv_heads: int) -> FloatArray:
    """(h, m, d) key or value heads mean-pooled into (h_kv, m, d), as Ainslie et al. build a
    GQA (or, with one group, MQA) checkpoint from a multi-head one."""
    a = as_float(heads, "key/value heads")
    g = group_size(a.shape[0], n_kv_heads)
    pooled: FloatArray = a.reshape(n_kv_heads, g, *a.shape[1:]).mean(axis=1)  # (h_kv, m, d)
    return pooled


@dataclass(frozen=True)
class LatentKV:
    """W_DKV (d, d_c) down to the latent, W_UK (d_c, d_k) and W_UV (d_c, d_v) up from it."""

    w_dkv: FloatArray
    w_uk: FloatArray
    w_uv: FloatArray

    @property
    def d_c(self) -> int:
        return int(self.w_dkv.shape[1])


def latent_factors(w_k: npt.ArrayLike, w_v: npt.ArrayLike, *, rtol: float = 1e-12) -> LatentKV:
    """W_K and W_V (d, d_k), (d, d_v) as W_DKV W_UK and W_DKV W_UV through the smallest latent:
    the rank of [W_K | W_V] (its SVD). Exact: the products give W_K and W_V back."""
    wk, wv = as_float(w_k, "W_K"), as_float(w_v, "W_V")
    if wk.ndim != 2 or wv.ndim != 2 or wk.shape[0] != wv.shape[0]:
        raise ShapeError(f"W_K {wk.shape} and W_V {wv.shape} must both be (d_model, d)")
    joint = np.concatenate([wk, wv], axis=1)  # (d, d_k + d_v)
    u, s, vt = np.linalg.svd(joint, full_matrices=False)
    r = max(1, int((s > rtol * s[0]).sum())) if s.size and s[0] > 0 else 1
    w_dkv = u[:, :r] * s[:r]  # (d, r)
    up = vt[:r]  # (r, d_k + d_v)
    return LatentKV(w_dkv, up[:, : wk.shape[1]], up[:, wk.shape[1] :])


def mla_scores(
    x: npt.ArrayLike, w_q: npt.ArrayLike, latent: LatentKV
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The raw scores QKᵀ (n, n) twice: expanded (k = c W_UK) and absorbed ((x W_Q W_UKᵀ) cᵀ),
    and the latent cache c = x W_DKV (n, d_c) that the absorbed form reads."""
    x_, wq = as_float(x, "embeddings"), as_float(w_q, "W_Q")
    c = x_ @ latent.w_dkv  # (n, d_c) what the cache holds
    k = c @ latent.w_uk  # (n, d_k)
    expanded = (x_ @ wq) @ k.T  # (n, n)
    absorbed = (x_ @ (wq @ latent.w_uk.T)) @ c.T  # (n, n) W_UK folded into W_Q
    return expanded, absorbed, c


def mla_outputs(
    weights: npt.ArrayLike, latent: LatentKV, c: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """The outputs W V twice: with v = c W_UV, and as (W c) W_UV (W_UV after the weights)."""
    w, c_ = as_float(weights, "weights"), as_float(c, "latent")
    return w @ (c_ @ latent.w_uv), (w @ c_) @ latent.w_uv  # (n, d_v) each


@dataclass(frozen=True)
class CacheForm:
    """One way to cache keys and values: its numbers and bytes per token per layer."""

    name: str  # "MHA", "GQA", "MQA", "MLA"
    numbers: int  # per token per layer
    bytes: int  # numbers × bytes per number

    def ratio(self, full: CacheForm) -> float:
        """How many times smaller than `full` (MHA's)."""
        return full.numbers / self.numbers


DEEPSEEK_V2 = {"n_layers": 60, "n_heads": 128, "d_k": 128, "d_c": 512, "d_rope": 64}
"""DeepSeek-V2's published sizes (its paper, sections 2.1.2 and 3.1.2): 60 layers, 128 heads of
width 128, a latent of d_c = 4 d_h = 512 and d_R = d_h / 2 = 64 decoupled rotary numbers."""


def cache_forms(
    *,
    n_heads: int,
    d_k: int,
    n_kv_heads: int | None = None,
    d_c: int | None = None,
    d_rope: int = 0,
    bytes_per_number: int = 2,
) -> tuple[CacheForm, ...]:
    """MHA, GQA (when n_kv_heads is given and differs), MQA and MLA (when d_c is given)."""
    forms = [("MHA", 2 * n_heads * d_k)]
    if n_kv_heads is not None and 1 < n_kv_heads < n_heads:
        group_size(n_heads, n_kv_heads)
        forms.append(("GQA", 2 * n_kv_heads * d_k))
    forms.append(("MQA", 2 * d_k))
    if d_c is not None:
        forms.append(("MLA", d_c + d_rope))
    return tuple(CacheForm(name, n, n * bytes_per_number) for name, n in forms)
