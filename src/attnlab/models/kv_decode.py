"""Decoding token by token on a key/value cache, checked against the whole text's pass.

A decoder's token t attends to keys 0..t only (the causal mask), and a layer's keys and values
of the tokens before t do not change when t arrives. So generating one token needs, per layer,
only the new token's q, k and v: k and v are appended to the cache, and q's one row of scores
is computed against the cached keys (core/cost.py measures what that saves). The attention
rows and the logits must be the ones the whole text's pass gives (llama.py): `check_cache`
computes both and their largest difference.

Each step is llama.py's layer for one row, the attention through the lesson's `attend`:

    1. x = E[id_t]                                                          (1, d)
    per layer: h = RMSNorm(x) γ₁; q, k, v = h W_Q, h W_K, h W_V; RoPE at position t;
               K ← [K; k], V ← [V; v] (the cache, (h_kv, t + 1, d_k));
               z = softmax(q Kᵀ / √d_k) V, query head i reading cache head i // g;
               a = x + z W_O; x = a + SwiGLU(RMSNorm(a) γ₂)
    2. logits = RMSNorm(x) γ Eᵀ                                             (vocab,)
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, fields, replace

import numpy as np

from attnlab.core.attention import attend, merge_heads
from attnlab.core.grouped import kv_heads
from attnlab.core.positions import rope_angles, rotate
from attnlab.errors import TooLongError
from attnlab.models.llama import LlamaDecoder
from attnlab.models.nn_decoder import rms_norm, swiglu
from attnlab.types import FloatArray

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


def decode_cached(model: LlamaDecoder, ids: tuple[int, ...]) -> Decoded:
    """Run `ids` one token at a time, each step reading the cache of the steps before."""
    n, c = len(ids), model.config
    if n > MAX_DECODE:
        raise TooLongError(f"{n} tokens: decoding step by step here takes at most {MAX_DECODE}")
    hq, hkv, d_k = c.n_heads, c.n_kv_heads, c.d_k
    dtype = model.embedding.dtype
    cache_k = np.zeros((c.n_layers, hkv, n, d_k), dtype)  # (L, h_kv, n, d_k)
    cache_v = np.zeros((c.n_layers, hkv, n, d_k), dtype)
    rows = np.zeros((c.n_layers, hq, n, n), dtype)  # (L, h, n, n)
    logits = np.empty((n, model.readout.unembed.shape[0]), dtype)  # (n, vocab)
    index = kv_heads(hq, hkv)  # (h,)
    angles = rope_angles(n, d_k, base=c.rope_base)  # (n, d_k/2)
    for t, token in enumerate(ids):
        x = model.embedding[[token]]  # (1, d)
        for i, w in enumerate(model.layers):
            h = rms_norm(x, w.norm_attn, eps=c.rms_eps)  # (1, d)
            heads = (h @ w.w_qkv).reshape(1, hq + 2 * hkv, d_k).transpose(1, 0, 2)  # (·, 1, d_k)
            q = rotate(heads[:hq], angles[t : t + 1], pairing="half")  # (h, 1, d_k)
            cache_k[i, :, t] = rotate(heads[hq : hq + hkv], angles[t : t + 1], pairing="half")[:, 0]
            cache_v[i, :, t] = heads[hq + hkv :, 0]
            k, v = cache_k[i, :, : t + 1], cache_v[i, :, : t + 1]  # (h_kv, t + 1, d_k)
            att = attend(q, k[index], v[index])  # weights (h, 1, t + 1): no mask, no future
            rows[i, :, t, : t + 1] = att.weights[:, 0]
            a = merge_heads(att.outputs) @ w.w_o + x  # (1, d)
            x = a + swiglu(rms_norm(a, w.norm_mlp, eps=c.rms_eps), w.w_gate_up, w.w_down)
        r = model.readout
        logits[t] = r.unembed @ rms_norm(x[0], r.norm, eps=r.eps)  # (vocab,)
    return Decoded(logits, rows, 2 * hkv * d_k)


def check_cache(model: LlamaDecoder, text: str) -> CacheCheck:
    """Decode `text` on a cache and compare with `model.trace(text)`: every layer's every head's
    attention rows and every position's logits."""
    full = model.trace(text)
    n = full.n
    if n > MAX_DECODE:
        raise TooLongError(f"{n} tokens: decoding step by step here takes at most {MAX_DECODE}")
    step = decode_cached(model, full.token_ids)
    row_diff = 0.0
    for layer in range(model.config.n_layers):
        for head in range(model.config.n_heads):
            w = full.head(layer, head).weights  # (n, n), 0 above the diagonal
            row_diff = max(row_diff, float(np.abs(w - step.rows[layer, head]).max()))
    whole = np.stack([full.logits(t) for t in range(n)])  # (n, vocab)
    return CacheCheck(
        tokens=full.tokens,
        max_row_diff=row_diff,
        max_logit_diff=float(np.abs(whole - step.logits).max()),
        same_next_token=bool((whole.argmax(-1) == step.logits.argmax(-1)).all()),
        cache_numbers_per_token=step.cache_numbers_per_token,
        n_layers=model.config.n_layers,
    )


def widened(model: LlamaDecoder) -> LlamaDecoder:
    """A copy of `model` computing in float64 (its weights widened, about 1 GB for SmolLM2):
    float32's rounding then no longer hides whether two computations are the same arithmetic."""
    wide = copy.copy(model)
    wide.layers = tuple(
        replace(w, **{f.name: getattr(w, f.name).astype(np.float64) for f in fields(w)})
        for w in model.layers
    )
    wide.embedding = model.embedding.astype(np.float64)
    same = model.readout.unembed is model.embedding
    unembed = wide.embedding if same else model.readout.unembed.astype(np.float64)
    wide.readout = replace(model.readout, norm=model.readout.norm.astype(np.float64),
                           unembed=unembed)  # fmt: skip
    wide._lock = threading.Lock()
    return wide
