"""Decoding token by token on a key/value cache, checked against the whole text's pass.

A decoder's token t attends to keys 0..t only (the causal mask), and a layer's keys and values
of the tokens before t do not change when t arrives. So generating one token needs, per layer,
only the new token's q, k and v: k and v are appended to the cache, and q's one row of scores
is computed against the cached keys (core/cost.py measures what that saves). The attention
rows and the logits must be the ones the whole text's pass gives (decoder.py, any spec the
model kit reads): `check_cache` computes both and their largest difference.

Each step is decoder.py's layer for one row, the attention through the lesson's `attend`:

    1. x = E[id_t] (· scale, + P[t] for learned positions)                  (1, d)
    per layer: h = norm(x); q, k, v = h W_Q, h W_K, h W_V (+ b, QK-norm); RoPE at position t;
               K ← [K; k], V ← [V; v] (the cache, (h_kv, t + 1, d_k));
               z = softmax(cap(q Kᵀ / √d_k) + window) V, query head i reading cache head i // g;
               a = x + z W_O; x = a + MLP(norm₂(a)) (with the sandwich norms where set)
    2. logits = cap(norm_f(x) Uᵀ)                                            (vocab,)
"""

from __future__ import annotations

import copy
import math
import threading
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import numpy as np

from attnlab.core.attention import attend, merge_heads
from attnlab.core.grouped import kv_heads
from attnlab.errors import TooLongError
from attnlab.models.decoder import Decoder, DecoderWeights, LayerWeights
from attnlab.models.decoder_pieces import soft_cap
from attnlab.models.rope_frequencies import rope_angles_of, rotate_heads
from attnlab.models.spec import MaskSpec, RopeSpec
from attnlab.types import BoolArray, FloatArray

__all__ = ["MAX_DECODE", "CacheCheck", "Decoded", "check_cache", "decode_cached", "widened"]

MAX_DECODE = 256
"""The longest text decoded step by step here (each step runs every layer for one row)."""


@dataclass(frozen=True)
class Decoded:
    """What decoding on a cache gave, step by step."""

    logits: FloatArray  # (n, vocab) after each token
    rows: FloatArray  # (L, h, n, n) step t's attention row in [.., t, :t + 1], 0 after
    cache_numbers_per_token: int  # per layer: 2 · h_kv · d_k


@dataclass(frozen=True)
class CacheCheck:
    """Decoding on a cache against the whole text's pass."""

    tokens: tuple[str, ...]
    max_row_diff: float  # max |Δ| over every layer's every head's every row
    max_logit_diff: float  # max |Δ| over every position's logits
    same_next_token: bool  # the argmax of the logits agrees at every position
    cache_numbers_per_token: int
    n_layers: int


def decode_cached(model: Decoder, ids: tuple[int, ...]) -> Decoded:
    """Run `ids` one token at a time, each step reading the cache of the steps before."""
    n, c = len(ids), model.spec
    if n > MAX_DECODE:
        raise TooLongError(f"{n} tokens: decoding step by step here takes at most {MAX_DECODE}")
    hq, hkv, dk = c.n_heads, c.n_kv_heads, c.head_dim
    dtype = model.embedding.dtype
    cache_k = np.zeros((c.n_layers, hkv, n, dk), dtype)  # (L, h_kv, n, d_k)
    cache_v = np.zeros((c.n_layers, hkv, n, dk), dtype)
    rows = np.zeros((c.n_layers, hq, n, n), dtype)  # (L, h, n, n)
    logits = np.empty((n, model.readout.unembed.shape[0]), dtype)  # (n, vocab)
    index = kv_heads(hq, hkv)  # (h,)
    ropes = {c.rope_at(i) for i in range(c.n_layers)} - {None}
    angles = {rope: rope_angles_of(n, rope, dk) for rope in ropes if rope is not None}
    for t, token in enumerate(ids):
        x = _embed_one(model, token, t)  # (1, d)
        for i, w in enumerate(model.layers):
            q, k, v = _project_one(model, i, w, x, angles, t)  # (h | h_kv, 1, d_k)
            cache_k[i, :, t], cache_v[i, :, t] = k[:, 0], v[:, 0]
            keys, values = cache_k[i, :, : t + 1], cache_v[i, :, : t + 1]  # (h_kv, t + 1, d_k)
            att = attend(q, keys[index], values[index], mask=_seen(c.mask, i, t),
                         cap=c.attn_softcap)  # fmt: skip
            rows[i, :, t, : t + 1] = att.weights[:, 0]  # (h, t + 1)
            x = _mix_one(w, x, merge_heads(att.outputs))
        r = model.readout
        logits[t] = soft_cap(r.unembed @ r.norm(x[0]), c.final_softcap)  # (vocab,)
    return Decoded(logits, rows, 2 * hkv * dk)


def _embed_one(model: Decoder, token: int, t: int) -> FloatArray:
    """1. x = E[id] · scale (+ P[t] for learned positions): (1, d)."""
    x: FloatArray = model.embedding[[token]]  # (1, d) a copy
    if model.spec.embed_scale != 1.0:
        x *= x.dtype.type(model.spec.embed_scale)
    if model.weights.positions is not None:
        x += model.weights.positions[t]
    return x


def _project_one(
    model: Decoder, i: int, w: LayerWeights, x: FloatArray,
    angles: dict[RopeSpec, FloatArray], t: int,
) -> tuple[FloatArray, FloatArray, FloatArray]:  # fmt: skip
    """2–4 for the new token: its q (h, 1, d_k), k and v (h_kv, 1, d_k) at position t."""
    c = model.spec
    hq, hkv, dk = c.n_heads, c.n_kv_heads, c.head_dim
    qkv = w.norm_attn(x) @ w.w_qkv  # (1, (h + 2 h_kv) d_k)
    if w.b_qkv is not None:
        qkv += w.b_qkv
    heads: FloatArray = qkv.reshape(1, hq + 2 * hkv, dk).transpose(1, 0, 2)  # (·, 1, d_k)
    q: FloatArray = heads[:hq]  # (h, 1, d_k)
    k: FloatArray = heads[hq : hq + hkv]  # (h_kv, 1, d_k)
    if w.q_norm is not None and w.k_norm is not None:
        q, k = w.q_norm(q), w.k_norm(k)
    rope = c.rope_at(i)
    if rope is not None:
        q, k = (
            rotate_heads(q, angles[rope][t : t + 1], rope),
            rotate_heads(k, angles[rope][t : t + 1], rope),
        )
    factor = c.scale * math.sqrt(dk)
    if factor != 1.0:
        q = q * q.dtype.type(factor)
    return q, k, heads[hq + hkv :]


def _seen(mask: MaskSpec, i: int, t: int) -> BoolArray | None:
    """(1, t + 1): the cached keys the new token sees at layer i (None: all of them)."""
    window = mask.window_at(i)
    if window is None:
        return None
    j = np.arange(t + 1)[None, :]
    seen: BoolArray = (j > t - window) | (j < mask.sinks)
    return seen


def _mix_one(w: LayerWeights, x: FloatArray, merged: FloatArray) -> FloatArray:
    """6–7: the residual, the attention's projection and the MLP for one row, (1, d)."""
    a: FloatArray = merged @ w.w_o  # (1, d)
    if w.b_o is not None:
        a += w.b_o
    if w.post_attn is not None:
        a = w.post_attn(a)
    a += x
    m = w.mlp(w.norm_mlp(a))  # (1, d)
    if w.post_mlp is not None:
        m = w.post_mlp(m)
    out: FloatArray = a + m
    return out


def check_cache(model: Decoder, text: str) -> CacheCheck:
    """Decode `text` on a cache and compare with `model.trace(text)`: every layer's every head's
    attention rows and every position's logits."""
    full = model.trace(text)
    n = full.n
    if n > MAX_DECODE:
        raise TooLongError(f"{n} tokens: decoding step by step here takes at most {MAX_DECODE}")
    step = decode_cached(model, full.token_ids)
    row_diff = 0.0
    for layer in range(model.spec.n_layers):
        for head in range(model.spec.n_heads):
            w = full.head(layer, head).weights  # (n, n), 0 above the diagonal
            row_diff = max(row_diff, float(np.abs(w - step.rows[layer, head]).max()))
    whole = np.stack([full.logits(t) for t in range(n)])  # (n, vocab)
    return CacheCheck(
        tokens=full.tokens,
        max_row_diff=row_diff,
        max_logit_diff=float(np.abs(whole - step.logits).max()),
        same_next_token=bool((whole.argmax(-1) == step.logits.argmax(-1)).all()),
        cache_numbers_per_token=step.cache_numbers_per_token,
        n_layers=model.spec.n_layers,
    )


def widened(model: Decoder) -> Decoder:
    """A copy of `model` computing in float64 (every weight widened, about 1 GB for SmolLM2):
    float32's rounding then no longer hides whether two computations are the same arithmetic."""
    wide = copy.copy(model)
    weights: DecoderWeights = _wide(model.weights)
    wide.weights, wide.embedding, wide.layers = weights, weights.embedding, weights.layers
    wide.readout = replace(model.readout, norm=weights.final_norm, unembed=weights.unembed)
    wide._lock = threading.Lock()
    return wide


def _wide(obj: Any) -> Any:
    """`obj` with every float array in it (and in the dataclasses it holds) as float64; an
    array shared twice (a tied embedding) stays shared."""
    seen: dict[int, Any] = {}

    def go(o: Any) -> Any:
        if isinstance(o, np.ndarray) and o.dtype.kind == "f":
            if id(o) not in seen:
                seen[id(o)] = o.astype(np.float64)
            return seen[id(o)]
        if is_dataclass(o) and not isinstance(o, type):
            return replace(o, **{f.name: go(getattr(o, f.name)) for f in fields(o)})
        if isinstance(o, tuple):
            return tuple(go(x) for x in o)
        return o

    return go(obj)
